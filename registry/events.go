package registry

import (
	"maps"
	"slices"
)

// ChangeKind says what changed the visible tools of a scope.
type ChangeKind int

// The change kinds.
const (
	// ChangeRegistered: a tool was registered (possibly replacing a
	// same-name registration).
	ChangeRegistered ChangeKind = iota + 1
	// ChangeDisposed: a visible registration was disposed.
	ChangeDisposed
	// ChangeRestricted: a restriction was applied to the scope.
	ChangeRestricted
	// ChangeUnrestricted: a restriction on the scope was lifted.
	ChangeUnrestricted
)

// Change tells a subscriber that the visible tools of Scope, and so of every
// scope beneath it, may have changed. Prompt assemblies cached for those
// scopes should be rebuilt.
type Change struct {
	// Seq increases with every change of the registry. Subscribers are
	// called outside the registry's lock, so concurrent changes may arrive
	// out of order; Seq restores the order.
	Seq uint64
	// Kind says what happened.
	Kind ChangeKind
	// Scope is the layer that changed.
	Scope Scope
	// Tool is the registered or disposed tool's name; "" for restrictions.
	Tool string
}

// Subscribe calls fn after every change of the visible tools: a
// registration, the disposal of a visible registration, a restriction and
// its lifting. Disposing a registration hidden by a same-name replacement
// is not a change. fn runs synchronously on the goroutine that made the
// change, after the registry's lock is released, so it may read the
// registry. The returned function cancels the subscription.
func (r *Registry) Subscribe(fn func(Change)) (cancel func()) {
	r.subMu.Lock()
	r.nextSub++
	id := r.nextSub
	r.subs[id] = fn
	r.subMu.Unlock()
	return func() {
		r.subMu.Lock()
		delete(r.subs, id)
		r.subMu.Unlock()
	}
}

// change builds the change record with the current sequence number.
// r.mu must be held.
func (r *Registry) change(k ChangeKind, s Scope, tool string) Change {
	return Change{Seq: r.seq, Kind: k, Scope: s, Tool: tool}
}

func (r *Registry) emit(ch Change) {
	r.subMu.Lock()
	ids := slices.Sorted(maps.Keys(r.subs))
	fns := make([]func(Change), len(ids))
	for i, id := range ids {
		fns[i] = r.subs[id]
	}
	r.subMu.Unlock()
	for _, fn := range fns {
		fn(ch)
	}
}
