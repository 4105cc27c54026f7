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
	// VerdictDeny fails the call with DENIED.
	VerdictDeny
	// VerdictAsk asks the batch's [Approver] whether the call may proceed.
	VerdictAsk
)

// Decision is the state of the pre-execute waterfall: a verdict, the
// model-facing reason of a denial (or the question of an ask) and optional
// structured detail kept beside the reason. The zero Decision allows.
type Decision struct {
	// Verdict says allow, deny or ask.
	Verdict Verdict
	// Reason is the model-facing reason of a denial, or the question put to
	// the approver for an ask.
	Reason string
	// Info is structured detail of a denial for durable projections (set it
	// on a [Deny] decision); it never reaches the content.
	Info *ErrorInfo
}

// Allow returns the decision that lets a call proceed.
func Allow() Decision { return Decision{} }

// Deny returns a denial with a model-facing reason.
func Deny(reason string) Decision { return Decision{Verdict: VerdictDeny, Reason: reason} }

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
// (ASK_UNANSWERED); a done ctx makes the call ABORTED_BEFORE_DISPATCH.
type Approver func(ctx context.Context, inv *Invocation, question string) (Answer, error)

// Wrapper is around-dispatch middleware (timeout, retry, metrics). Its
// next invokes the rest of the dispatch chain (the inner wrappers and,
// last, the tool body) and returns the canonical value. A wrapper may call
// next any number of times, with its own context; it is the only place that
// may replace the context the body receives. Before the body runs the
// pipeline fuses the caller's context back in, so the body's context is
// done when either the caller's or the wrapper's is. Wrappers run in
// registration order, the first registered outermost. An error that is not
// an [*Error] becomes TOOL_FAILED (a panic too), even if the caller
// cancelled meanwhile, unless it is the caller's cancellation. A wrapper
// that returns a value without calling next has not dispatched the call:
// if the caller cancelled, the call is ABORTED_BEFORE_DISPATCH.
type Wrapper func(ctx context.Context, inv *Invocation, next func(ctx context.Context) (any, error)) (any, error)

// PostExecuteListener inspects a successful result and may replace its
// content or value, block it with feedback or attach extra context. They
// run in registration order; after a block, the later ones do not run. A
// panic blocks the result.
type PostExecuteListener func(ctx context.Context, inv *Invocation, r *PostResult)

// ResultListener observes the frozen final outcome of every call, root or
// nested. It must not block for long; a panic is recovered and ignored.
type ResultListener func(ctx context.Context, o *Outcome)

// PostResult is the successful result post-execute listeners share, to
// inspect and change in place: a listener replaces the Content or the
// Value, appends to Context, or blocks the result. It is valid only during
// the listener call.
type PostResult struct {
	// Value is the canonical value programmatic callers get. Replacing it
	// does not re-render the content.
	Value any
	// Content is the model-facing content. Replace the slice rather than
	// modify its parts in place: they may be shared. Replacing the content
	// keeps the canonical value: a policy that must deny a programmatic
	// caller the value must replace it too, or block.
	Content []registry.Part
	// Context holds extra context parts, in order, that go after the
	// content; listeners append to it.
	Context []registry.Part

	blocked  bool
	feedback string
}

// Block fails the call with code POST_EXECUTE_BLOCKED
// ([ErrPostExecuteBlocked]); feedback is the model-facing reason ("" gives
// a default one). The value is dropped, and the listeners after this one
// do not run.
func (r *PostResult) Block(feedback string) {
	r.blocked = true
	r.feedback = feedback
}
