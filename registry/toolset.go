package registry

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"
)

// Step identifies the model step a [ToolSet] is resolved for: the agent
// taking it and the model it talks to (the provider, model and reasoning
// effort that step preparation captured for every request attempt), which
// conditions may read.
type Step struct {
	// Agent is the scope of the agent taking the step.
	Agent Scope
	// Provider names the model's provider.
	Provider string
	// Model names the model.
	Model string
	// ReasoningEffort is the reasoning effort asked of the model.
	ReasoningEffort string
}

// condition is the function a conditional registration is visible by
// (see [When]).
type condition func(ctx context.Context, step Step) (bool, error)

// ToolSet is the step-owned result of [Registry.Resolve]: the registrations
// admitted for one agent scope in one model step. Pass it to prompt assembly
// and to every call of the step's batches (retries reuse it), then
// [ToolSet.Dispose] it. It is safe for concurrent use.
type ToolSet struct {
	reg      *Registry
	step     Step
	seq      uint64 // registry sequence number at resolution
	tools    []*entry
	byName   map[string]*entry
	disposed atomic.Bool
}

// Dispose releases the set; afterwards [Registry.Executable] refuses every
// call through it. Disposing twice is harmless.
func (s *ToolSet) Dispose() { s.disposed.Store(true) }

func (s *ToolSet) admitted(r *Registry, scope Scope, name string) *entry {
	if s.reg != r || s.step.Agent != scope {
		return nil
	}
	return s.byName[name]
}

func (s *ToolSet) executable(r *Registry, scope Scope, name string) (*Tool, error) {
	if s.disposed.Load() {
		return nil, &Error{Kind: ErrUnknownTool, Tool: name, Err: errToolSetDisposed}
	}
	if s.reg != r {
		return nil, &Error{Kind: ErrUnknownTool, Tool: name, Err: fmt.Errorf("%w: tool set belongs to another registry", ErrUnknownTool)}
	}
	if s.step.Agent != scope {
		return nil, &Error{Kind: ErrUnknownTool, Tool: name, Err: fmt.Errorf("%w: tool set was resolved for %s, not %s", ErrUnknownTool, s.step.Agent, scope)}
	}
	e := s.byName[name]
	if e == nil {
		return nil, unknown(name, scope)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if err := s.stale(r, scope.path(), e); err != nil {
		return nil, &Error{Kind: ErrUnknownTool, Tool: name, Err: err}
	}
	return e.tool, nil
}

// current returns the admitted registrations the set would still let a
// call use, in registration order. r.mu must be held.
func (s *ToolSet) current(r *Registry) []*entry {
	path := s.step.Agent.path()
	out := make([]*entry, 0, len(s.tools))
	for _, e := range s.tools {
		if s.stale(r, path, e) == nil {
			out = append(out, e)
		}
	}
	return out
}

// stale returns why the set may no longer admit e (wrapping
// [ErrStaleToolSet]), or nil. r.mu must be held.
func (s *ToolSet) stale(r *Registry, path []Scope, e *entry) error {
	name := e.tool.name
	if e.disposed {
		return fmt.Errorf("%w: registration was disposed", ErrStaleToolSet)
	}
	if r.masked(path, e.depth, name) {
		return fmt.Errorf("%w: tool is hidden by a restriction", ErrStaleToolSet)
	}
	if r.replaced(path, e, s.seq) {
		return fmt.Errorf("%w: tool was replaced by a newer registration", ErrStaleToolSet)
	}
	return nil
}

// replaced reports whether a registration of e's name made after seq now
// takes precedence over e in path. r.mu must be held.
func (r *Registry) replaced(path []Scope, e *entry, seq uint64) bool {
	name := e.tool.name
	for d := len(path) - 1; d >= e.depth; d-- {
		l := r.layers[path[d]]
		if l == nil {
			continue
		}
		stack := l.byName[name]
		for i := len(stack) - 1; i >= 0; i-- {
			x := stack[i]
			if x == e || (d == e.depth && x.seq < e.seq) {
				break
			}
			if x.seq > seq && !r.masked(path, d, name) {
				return true
			}
		}
	}
	return false
}

// Resolve returns the tool set of one model step: every registration visible
// to step.Agent, with each conditional registration that can decide a name's
// visibility evaluated once, in priority order (nearest scope and latest
// registration first). A condition that returns false leaves the name to the
// next registration in line; one that fails makes Resolve fail with an
// [*Error] of kind [ErrActivationFailed]. If ctx is done, Resolve returns an
// error wrapping ctx.Err().
//
// Resolve reads the registry once, under its lock, and evaluates the
// conditions on that snapshot without holding the lock, so a slow condition
// delays only its own step: registrations and restrictions anywhere in the
// registry go on meanwhile. This is sound because a set never trusts its
// snapshot at call time: [Registry.Executable] checks every admitted
// registration against the registry as it is then (disposed, hidden by a
// restriction, or outranked by a registration made after the snapshot), so
// a change made during resolution has the same effect as one made right
// after it.
func (r *Registry) Resolve(ctx context.Context, step Step) (*ToolSet, error) {
	r.mu.RLock()
	seq := r.seq
	chains, order := r.candidates(step.Agent)
	r.mu.RUnlock()

	set := &ToolSet{reg: r, step: step, seq: seq, byName: make(map[string]*entry, len(order))}
	for _, name := range order {
		for _, e := range chains[name] {
			if e.cond != nil {
				ok, err := evaluate(ctx, e.cond, step)
				if err != nil {
					if ctx.Err() != nil {
						return nil, fmt.Errorf("resolve tools for %s: %w", step.Agent, context.Cause(ctx))
					}
					return nil, &Error{Kind: ErrActivationFailed, Tool: name, Err: fmt.Errorf("condition: %w", err)}
				}
				if !ok {
					continue
				}
			}
			set.tools = append(set.tools, e)
			set.byName[name] = e
			break
		}
	}
	sortBySeq(set.tools)
	return set, nil
}

func evaluate(ctx context.Context, cond condition, step Step) (ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	defer func() {
		if p := recover(); p != nil {
			ok, err = false, fmt.Errorf("panic: %v", p)
		}
	}()
	ok, err = cond(ctx, step)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return ok, err
}

// candidates returns, for every name visible in scope, its unmasked
// registrations in priority order, and the names ordered by their first
// candidate's registration. r.mu must be held.
func (r *Registry) candidates(scope Scope) (map[string][]*entry, []string) {
	path := scope.path()
	chains := make(map[string][]*entry)
	stopped := make(map[string]bool) // an unconditional registration ends the chain
	for d := len(path) - 1; d >= 0; d-- {
		l := r.layers[path[d]]
		if l == nil {
			continue
		}
		for name, stack := range l.byName {
			if stopped[name] || r.masked(path, d, name) {
				continue
			}
			for i := len(stack) - 1; i >= 0; i-- {
				e := stack[i]
				chains[name] = append(chains[name], e)
				if e.cond == nil {
					stopped[name] = true
					break
				}
			}
		}
	}
	order := make([]string, 0, len(chains))
	for name := range chains {
		order = append(order, name)
	}
	slices.SortFunc(order, func(a, b string) int { return cmp.Compare(chains[a][0].seq, chains[b][0].seq) })
	return chains, order
}
