package pipeline

import (
	"context"

	"github.com/ptchost/ptc/registry"
)

// Verdict is what a pre-execute decision says about a call.
type Verdict int

const (
	// VerdictAllow lets the call proceed to the guards and dispatch.
	VerdictAllow Verdict = iota
	// VerdictDeny fails the call with [CodeDenied].
	VerdictDeny
	// VerdictAsk asks the batch's [Approver] whether the call may proceed.
	VerdictAsk
)

// String returns "allow", "deny" or "ask".
func (v Verdict) String() string {
	switch v {
	case VerdictDeny:
		return "deny"
	case VerdictAsk:
		return "ask"
	}
	return "allow"
}

// Decision is the state of the pre-execute waterfall: a verdict, the
// model-facing reason of a denial (or the question of an ask) and optional
// structured detail kept beside the reason. The zero Decision allows.
type Decision struct {
	// Verdict says allow, deny or ask.
	Verdict Verdict
	// Reason is the model-facing reason of a denial, or the question put to
	// the approver for an ask.
	Reason string
	// Info is structured detail of a denial; it never reaches the content.
	Info *ErrorInfo
}

// Allow returns the decision that lets a call proceed.
func Allow() Decision { return Decision{} }

// Deny returns a denial with a model-facing reason.
func Deny(reason string) Decision { return Decision{Verdict: VerdictDeny, Reason: reason} }

// DenyWithInfo returns a denial with a model-facing reason and structured
// detail for durable projections.
func DenyWithInfo(reason string, info ErrorInfo) Decision {
	return Decision{Verdict: VerdictDeny, Reason: reason, Info: &info}
}

// Ask returns the decision that asks the approver question.
func Ask(question string) Decision { return Decision{Verdict: VerdictAsk, Reason: question} }

// PreExecuteListener is one step of the ordered pre-execute waterfall. It
// receives the decision so far (the first listener receives [Allow]) and
// returns the decision passed on to the next listener; the last one's
// decision stands. Listeners may overturn earlier decisions (the waterfall is
// extensible); they cannot rewrite the arguments. A panic denies the call.
type PreExecuteListener func(ctx context.Context, inv *Invocation, d Decision) Decision

// Guard is a monotonic synchronous check that runs after the pre-execute
// waterfall: a non-empty reason denies the call, and nothing that runs later
// (another guard, the approver) can turn that denial back into permission.
// Guards do not run for a call the waterfall already denied. A panic denies
// the call.
type Guard func(inv *Invocation) (reason string)

// Answer is an approver's answer to an ask.
type Answer struct {
	// Approved lets the call proceed.
	Approved bool
	// Reason is the model-facing reason of a refusal; empty means
	// "the call was not approved".
	Reason string
}

// Approver answers a pre-execute ask. It may block (waiting for a user) and
// must honour ctx. An error (or a panic) leaves the ask unanswered
// ([CodeAskUnanswered]); a done ctx makes the call
// [CodeAbortedBeforeDispatch].
type Approver func(ctx context.Context, inv *Invocation, question string) (Answer, error)

// Next invokes the rest of the dispatch chain: the inner wrappers and, last,
// the tool body. It returns the canonical value.
type Next func(ctx context.Context) (any, error)

// Wrapper is around-dispatch middleware (timeout, retry, metrics). It may
// call next any number of times, with its own context; it is the only place
// that may replace the context the body receives. Before the body runs the
// pipeline fuses the caller's context back in, so the body's context is done
// when either the caller's or the wrapper's is. Wrappers run in
// registration order, the first registered outermost. An error that is not
// an [*Error] becomes [CodeToolFailed] (a panic too), even if the caller
// cancelled meanwhile, unless it is the caller's cancellation. A wrapper
// that returns a value without calling next has not dispatched the call:
// if the caller cancelled, the call is [CodeAbortedBeforeDispatch].
type Wrapper func(ctx context.Context, inv *Invocation, next Next) (any, error)

// PostExecuteListener inspects a successful result and may replace its
// content or value, block it with feedback or attach extra context. They
// run in registration order; after a block, the later ones do not run. A
// panic blocks the result.
type PostExecuteListener func(ctx context.Context, inv *Invocation, r *PostResult)

// ResultListener observes the frozen final outcome of every call, root or
// nested. It must not block for long; a panic is recovered and ignored.
type ResultListener func(ctx context.Context, o *Outcome)

// PostResult is the mutable view of a successful result that post-execute
// listeners share. It is valid only during the listener call.
type PostResult struct {
	value    any
	content  []registry.Part
	context  []registry.Part
	blocked  bool
	feedback string
}

// Value returns the current canonical value.
func (r *PostResult) Value() any { return r.value }

// Content returns the current content. Do not modify it in place: use
// [PostResult.ReplaceContent].
func (r *PostResult) Content() []registry.Part { return r.content }

// ReplaceContent replaces the model-facing content. The canonical value is
// kept: a policy that must deny a programmatic caller the value must
// replace it or block.
func (r *PostResult) ReplaceContent(content []registry.Part) { r.content = content }

// ReplaceValue replaces the canonical value. The content is not re-rendered.
func (r *PostResult) ReplaceValue(v any) { r.value = v }

// Block fails the call with [CodePostExecuteBlocked]; feedback is the
// model-facing reason. The value is dropped.
func (r *PostResult) Block(feedback string) {
	r.blocked = true
	r.feedback = feedback
}

// Blocked reports whether a listener blocked the result.
func (r *PostResult) Blocked() bool { return r.blocked }

// AddContext attaches extra context parts, in order, after the result.
func (r *PostResult) AddContext(parts ...registry.Part) {
	r.context = append(r.context, parts...)
}
