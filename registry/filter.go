package registry

import (
	"path"
	"strings"
)

// Filter is an allow or deny mask over tool names, applied by
// [Registry.Restrict]. The zero Filter allows every name.
type Filter struct {
	allow    bool
	names    map[string]struct{}
	list     []string
	patterns []string // globs (path.Match)
}

// Only returns a mask that lets through only the tools named by one of
// patterns: a tool's name, or a glob (path.Match syntax: *, ?, [a-z]; a
// malformed pattern matches nothing), which covers tools registered after
// the mask too. It is how a caller limited to some tools (an agent, a
// principal of ptc-run serve) is given them.
func Only(patterns ...string) Filter { return newFilter(true, patterns) }

// Except returns a mask that hides the tools named by one of patterns
// (names or globs, as for [Only]).
func Except(patterns ...string) Filter { return newFilter(false, patterns) }

// newFilter sorts patterns into names, looked up in a map, and globs: a
// pattern without glob syntax matches exactly itself.
func newFilter(allow bool, patterns []string) Filter {
	f := Filter{allow: allow, names: make(map[string]struct{}, len(patterns))}
	for _, p := range patterns {
		if strings.ContainsAny(p, `*?[\`) {
			f.patterns = append(f.patterns, p)
			continue
		}
		f.names[p] = struct{}{}
		f.list = append(f.list, p)
	}
	return f
}

// allows reports whether the mask lets the named tool through.
func (f Filter) allows(name string) bool {
	_, listed := f.names[name]
	for _, p := range f.patterns {
		if listed {
			break
		}
		listed, _ = path.Match(p, name)
	}
	return listed == f.allow
}
