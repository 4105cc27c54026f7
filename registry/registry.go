package registry

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ptchost/ptc/internal/toolcall"
)

// Registry holds tools in scoped layers. It is safe for concurrent use.
//
// Visibility in a scope follows three rules. Nearest wins: a lookup walks
// the scope's layers from the scope itself towards the deployment, and the
// first registration of a name found hides the others. Same-name
// replacement: inside one layer the latest live registration of a name
// wins; disposing it uncovers the previous one. Restrictions: a mask
// registered with [Registry.Restrict] on a scope hides the tools that scope
// (and every scope beneath it) inherits from the layers above it; masks
// intersect, and tools registered in the restricted scope or beneath it
// stay visible.
//
// Order: [Registry.Definitions] lists in registration order of the visible
// registrations, so the model-facing schema prefix stays byte-identical
// while nothing changes. A same-name replacement moves the name to the end.
type Registry struct {
	mu     sync.RWMutex
	seq    uint64 // last registration, restriction or change sequence number
	layers map[Scope]*layer

	subMu   sync.Mutex
	subs    map[uint64]func(Change)
	nextSub uint64
}

type layer struct {
	byName       map[string][]*entry // oldest first; the live top is last
	restrictions []*restriction
}

type entry struct {
	tool     *Tool
	scope    Scope
	depth    int // index of scope in its own path
	seq      uint64
	cond     condition
	disposed bool // guarded by Registry.mu
}

type restriction struct {
	filter Filter
	seq    uint64
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{layers: make(map[Scope]*layer), subs: make(map[uint64]func(Change))}
}

// Option configures one registration.
type Option func(*options)

type options struct {
	scope Scope
	cond  condition
}

// In registers the tool in scope instead of the deployment.
func In(scope Scope) Option { return func(o *options) { o.scope = scope } }

// When makes the registration conditional: it is visible to prompt assembly
// and executable only through a [ToolSet] whose resolution found cond true
// for the step ([Registry.Resolve]).
//
// cond must observe ctx, and must not register tools, restrict scopes or do
// tool work. (Nothing refuses such changes: resolution works on a snapshot,
// so a change made while a condition runs, by it or by anyone else, is one
// made after the snapshot, and the resolved set treats it so.) Returning an
// error (or panicking) fails the resolution with kind
// [ErrActivationFailed]; it is not the same as returning false.
func When(cond func(ctx context.Context, step Step) (bool, error)) Option {
	return func(o *options) { o.cond = cond }
}

// Register adds t to the registry (the deployment scope unless [In] says
// otherwise) and returns the function that disposes the registration;
// disposing twice is harmless. A registration of a name already registered
// in the same scope replaces it until disposed. Registering while a
// [Registry.Resolve] evaluates conditions is allowed: resolution works on a
// snapshot, and a set it returns refuses the registrations the new one
// replaces (see [Registry.Executable]).
func (r *Registry) Register(t *Tool, opts ...Option) (dispose func(), err error) {
	if t == nil {
		return nil, fmt.Errorf("register: %w: nil tool", ErrInvalidDefinition)
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	r.mu.Lock()
	r.seq++
	e := &entry{tool: t, scope: o.scope, depth: len(o.scope.path()) - 1, seq: r.seq, cond: o.cond}
	l := r.layer(o.scope)
	l.byName[t.name] = append(l.byName[t.name], e)
	ch := r.change(ChangeRegistered, o.scope, t.name)
	r.mu.Unlock()
	r.emit(ch)

	var once sync.Once
	return func() { once.Do(func() { r.dispose(e) }) }, nil
}

func (r *Registry) dispose(e *entry) {
	r.mu.Lock()
	e.disposed = true
	l := r.layers[e.scope]
	stack := l.byName[e.tool.name]
	i := slices.Index(stack, e)
	top := i == len(stack)-1
	stack = slices.Delete(stack, i, i+1)
	if len(stack) == 0 {
		delete(l.byName, e.tool.name)
	} else {
		l.byName[e.tool.name] = stack
	}
	r.prune(e.scope)
	var ch Change
	if top {
		r.seq++
		ch = r.change(ChangeDisposed, e.scope, e.tool.name)
	}
	r.mu.Unlock()
	if top {
		r.emit(ch)
	}
}

// Restrict applies the mask f to the tools scope inherits from the layers
// above it, for scope and every scope beneath it. Masks intersect: a tool is
// visible only if every applicable mask allows it. Tools registered in scope
// or beneath it are never masked by it. The returned function lifts the
// restriction. The deployment inherits nothing and cannot be restricted.
// Like [Registry.Register], Restrict is allowed while a [Registry.Resolve]
// evaluates conditions: a set it returns refuses the tools the mask hides.
func (r *Registry) Restrict(scope Scope, f Filter) (lift func(), err error) {
	if scope == (Scope{}) {
		return nil, fmt.Errorf("restrict: %w: the deployment inherits no tools", errInvalidScope)
	}
	r.mu.Lock()
	r.seq++
	res := &restriction{filter: f, seq: r.seq}
	l := r.layer(scope)
	l.restrictions = append(l.restrictions, res)
	ch := r.change(ChangeRestricted, scope, "")
	r.mu.Unlock()
	r.emit(ch)

	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			l := r.layers[scope]
			l.restrictions = slices.DeleteFunc(l.restrictions, func(x *restriction) bool { return x == res })
			r.prune(scope)
			r.seq++
			ch := r.change(ChangeUnrestricted, scope, "")
			r.mu.Unlock()
			r.emit(ch)
		})
	}, nil
}

// layer returns the layer of scope, creating it. r.mu must be held.
func (r *Registry) layer(s Scope) *layer {
	l := r.layers[s]
	if l == nil {
		l = &layer{byName: make(map[string][]*entry)}
		r.layers[s] = l
	}
	return l
}

// prune drops the layer of s if it is empty. r.mu must be held.
func (r *Registry) prune(s Scope) {
	if l := r.layers[s]; l != nil && len(l.byName) == 0 && len(l.restrictions) == 0 {
		delete(r.layers, s)
	}
}

// masked reports whether a tool called name, registered at depth in path,
// is hidden by a restriction on a layer beneath its own. r.mu must be held.
func (r *Registry) masked(path []Scope, depth int, name string) bool {
	for j := depth + 1; j < len(path); j++ {
		l := r.layers[path[j]]
		if l == nil {
			continue
		}
		for _, res := range l.restrictions {
			if !res.filter.allows(name) {
				return true
			}
		}
	}
	return false
}

// lookup returns the winning registration of name in scope, skipping
// conditional registrations unless withCond. r.mu must be held.
func (r *Registry) lookup(name string, scope Scope, withCond bool) *entry {
	path := scope.path()
	for d := len(path) - 1; d >= 0; d-- {
		l := r.layers[path[d]]
		if l == nil {
			continue
		}
		stack := l.byName[name]
		for i := len(stack) - 1; i >= 0; i-- {
			e := stack[i]
			if e.cond != nil && !withCond {
				continue
			}
			if r.masked(path, d, name) {
				return nil
			}
			return e
		}
	}
	return nil
}

// visible returns the winning unconditional registrations in scope in
// registration order: what [Registry.Executable] admits without a set.
// r.mu must be held.
func (r *Registry) visible(scope Scope) []*entry {
	path := scope.path()
	var out []*entry
	seen := make(map[string]bool)
	for d := len(path) - 1; d >= 0; d-- {
		l := r.layers[path[d]]
		if l == nil {
			continue
		}
		for name, stack := range l.byName {
			if seen[name] {
				continue
			}
			for i := len(stack) - 1; i >= 0; i-- {
				e := stack[i]
				if e.cond != nil {
					continue
				}
				seen[name] = true
				if !r.masked(path, d, name) {
					out = append(out, e)
				}
				break
			}
		}
	}
	sortBySeq(out)
	return out
}

func sortBySeq(es []*entry) {
	slices.SortFunc(es, func(a, b *entry) int { return cmp.Compare(a.seq, b.seq) })
}

// Get returns the tool called name as scope sees it. Without a set it
// inspects the registered definitions, conditional ones included, without
// evaluating any condition; with a set it inspects what the set admitted
// (nothing, if the set was resolved for another scope).
func (r *Registry) Get(name string, scope Scope, set *ToolSet) (*Tool, bool) {
	if set != nil {
		e := set.admitted(r, scope, name)
		if e == nil {
			return nil, false
		}
		return e.tool, true
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.lookup(name, scope, true); e != nil {
		return e.tool, true
	}
	return nil, false
}

// Definitions returns the tools a call from scope can run, in registration
// order: what prompt assembly and SDK generation offer the model (each
// tool's [Tool.Schema] is its model-facing projection).
//
// Without a set it lists the registered definitions that
// [Registry.Executable] admits without a set: conditional registrations are
// left out (where one shadows an unconditional registration of its name,
// the unconditional one is listed) and no condition is evaluated. With a
// set it lists what the set admitted for scope (nothing, if it was resolved
// for another scope or registry) and still admits: a registration disposed,
// hidden by a restriction or replaced since the set was resolved is left
// out, as Executable refuses it. A disposed set still lists what it
// admitted; Executable refuses every call through it.
//
// Use [Registry.Get] to inspect a registration, conditional or not.
func (r *Registry) Definitions(scope Scope, set *ToolSet) []*Tool {
	var es []*entry
	r.mu.RLock()
	if set == nil {
		es = r.visible(scope)
	} else if set.reg == r && set.step.Agent == scope {
		es = set.current(r)
	}
	r.mu.RUnlock()
	out := make([]*Tool, len(es))
	for i, e := range es {
		out[i] = e.tool
	}
	return out
}

// Executable is the execution lookup that every call, including a
// program's subcalls, goes through: it returns the tool a call to name
// from scope may run. With a set it admits only the registration the set
// admitted for its exact scope, and refuses it (wrapping [ErrStaleToolSet])
// once that registration was disposed, replaced by a newer same-name
// registration, or hidden by a restriction; a disposed set refuses every
// call. Without a set conditional registrations are excluded. Every
// refusal is an [*Error] of kind [ErrUnknownTool].
//
// Executable is package pipeline's seam: it returns the execution side of
// the tool (validation, decoding, the body, rendering), whose type is
// declared in an internal package (internal/toolcall) because it is the
// pipeline's machinery, not this package's API. Outside this module, run
// calls with package pipeline and inspect tools with [Registry.Get] and
// [Registry.Definitions].
func (r *Registry) Executable(name string, scope Scope, set *ToolSet) (toolcall.Tool[*Tool, Part, Exec, Mode], error) {
	t, err := r.executable(name, scope, set)
	if err != nil {
		return nil, err
	}
	return (*executable)(t), nil
}

// executable is the execution lookup of [Registry.Executable].
func (r *Registry) executable(name string, scope Scope, set *ToolSet) (*Tool, error) {
	if set != nil {
		return set.executable(r, scope, name)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.lookup(name, scope, false); e != nil {
		return e.tool, nil
	}
	if r.lookup(name, scope, true) != nil {
		return nil, &Error{Kind: ErrUnknownTool, Tool: name, Err: errConditional}
	}
	return nil, unknown(name, scope)
}

func unknown(name string, scope Scope) error {
	return &Error{Kind: ErrUnknownTool, Tool: name, Err: fmt.Errorf("%w in %s", ErrUnknownTool, scope)}
}
