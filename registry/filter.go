package registry

import (
	"path"
	"slices"
)

// Filter is an allow or deny mask over tool names, applied by
// [Registry.Restrict]. The zero Filter allows every name.
type Filter struct {
	allow    bool
	names    map[string]struct{}
	list     []string
	patterns []string // globs (path.Match), for Matching
}

// Only returns a mask that lets only the named tools through. (It was
// Allow, a name that read like pipeline.Allow, a policy decision.)
func Only(names ...string) Filter { return newFilter(true, names) }

// Except returns a mask that hides the named tools.
func Except(names ...string) Filter { return newFilter(false, names) }

// Matching returns a mask that lets through only the tools whose names
// match one of the glob patterns (path.Match syntax: *, ?, [a-z]; a
// malformed pattern matches nothing). It is how a caller limited to some
// tools (an agent, a principal of ptc-run serve) is given them, and it
// covers tools registered after it.
func Matching(patterns ...string) Filter {
	f := newFilter(true, nil)
	f.patterns = slices.Clone(patterns)
	return f
}

func newFilter(allow bool, names []string) Filter {
	f := Filter{allow: allow, names: make(map[string]struct{}, len(names)), list: slices.Clone(names)}
	for _, n := range names {
		f.names[n] = struct{}{}
	}
	return f
}

// Allows reports whether the mask lets the named tool through.
func (f Filter) Allows(name string) bool {
	_, listed := f.names[name]
	for _, p := range f.patterns {
		if listed {
			break
		}
		listed, _ = path.Match(p, name)
	}
	return listed == f.allow
}

// IsAllow reports whether f is an allow mask (else a deny mask).
func (f Filter) IsAllow() bool { return f.allow }

// Names returns a copy of the names the mask lists (not its patterns).
func (f Filter) Names() []string { return slices.Clone(f.list) }
