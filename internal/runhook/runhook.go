// Package runhook is how the executor's record, replay and resume
// (internal/runner) reach into a run of package host beyond host.Program:
// the run's trace, recorded and followed; subcalls answered from a
// recording instead of dispatched; and, from a subcall's Dispatch,
// holding the call for a person and ending the run.
//
// host.Host.Run finds a run's [Hooks] in its context ([With]); [Hold] and
// [EndRun] find the subcall in the context Dispatch received
// ([SubcallValue]), which no longer carries the run's hooks (a run a
// subcall starts has its own).
package runhook

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Trace is what a run's program could observe of time and of the order of
// events: every clock reading it made and what each of its waits for a
// subcall delivered. Recorded (Hooks.Record) and followed (Hooks.Replay),
// together with the subcalls' answers (Hooks.Answer) and the random
// source (host.Program.Random), it makes a run repeat byte for byte.
type Trace struct {
	// Start is the wall-clock instant of reading 0: the wall clock the
	// program sees reads Start plus the reading, the monotonic clock the
	// reading.
	Start time.Time
	// Reads are the clock readings, in nanoseconds since Start, in the
	// order the guest made them (wall and monotonic alike).
	Reads []int64
	// Waits are the results of the guest's waits for subcalls, in order:
	// the Seq of the subcall delivered, or 0 when none was (a timer was
	// due, or a poll found nothing).
	Waits []int
	// Calls are the timings of the subcalls whose results came back, in
	// the order they did.
	Calls []CallTiming
	// Cut, in a trace being followed, says that the recorded run was cut
	// (by its time limit or its caller) while it waited after the last
	// recorded wait: a run that reaches the end of the trace at a wait
	// ends there (host.KindAborted, "the recorded run ended here").
	Cut bool
}

// CallTiming is when one subcall started and how long it took, on the
// run's clock.
type CallTiming struct {
	// Seq is the call's host.Call.Seq.
	Seq int
	// At is the clock reading when the program started the call.
	At int64
	// Took is how long the call took in nanoseconds: the dispatcher's time
	// less the time it was held (see Hold), or the answer's recorded time.
	Took int64
}

// Answer is a subcall's answer from a recording: what the program receives,
// as host.Reply would say it, and how long the call took.
type Answer struct {
	// Value is the result of a call that succeeded, as JSON; empty means
	// null.
	Value json.RawMessage
	// Failed fails the call, with Code and Message (host.CallError's).
	Failed  bool
	Code    string
	Message string
	// Took is how long the call took, on the run's clock.
	Took time.Duration
}

// An End is how a record, replay or resume ends a run before its program
// does: the kind (a host.Kind) and message its outcome reports. The host
// reports it as given, so no one has to read a message back to learn how a
// run ended.
type End struct {
	Kind    string
	Message string
}

// Aborted is the End of a run ended for message (host.KindAborted).
func Aborted(message string) End { return End{Kind: "aborted", Message: message} }

// ErrCut, wrapped by an Answerer's error, says that a replay reached the
// point where the recorded run was cut: the run ends as Hooks.Cut says.
var ErrCut = errors.New("the recorded run ended here")

// An Answerer answers subcalls from a recording instead of the run's
// host.Dispatcher.
type Answerer interface {
	// Answer is called on the run's goroutine as the program starts call
	// seq (host.Call.Seq) of the tool name with args. With ok true it
	// answers the call; ok false dispatches the call. An error ends the
	// run at once (host.KindAborted, with the error's message): the
	// program no longer does what was recorded; an error wrapping ErrCut
	// ends it as Hooks.Cut says.
	Answer(seq int, name string, args json.RawMessage) (a Answer, ok bool, err error)
}

// Hooks are what a record, replay or resume adds to one run.
type Hooks struct {
	// Record, when set, receives the run's trace: Run overwrites it as
	// the run starts and appends to it as the run goes.
	Record *Trace
	// Replay, when set, is a trace to follow: the clock readings and what
	// each wait delivers come from it while it lasts and the program
	// matches it; then the run goes on in its own mode (virtual or live)
	// from the last reading. Its Start replaces host.Program.Start.
	Replay *Trace
	// Answer, when set, is asked first for each subcall: a call it answers
	// never reaches the Dispatcher.
	Answer Answerer
	// Cut is how a replay that reaches the end of a cut trace
	// (Trace.Cut), or an Answerer's ErrCut, ends the run: as the recorded
	// run did. Nil: aborted, with ErrCut's message.
	Cut *End
}

type hooksKey struct{}

// With returns a context for host.Host.Run whose run has hooks h.
func With(ctx context.Context, h *Hooks) context.Context {
	return context.WithValue(ctx, hooksKey{}, h)
}

// From returns the hooks of the run ctx is for, or nil.
func From(ctx context.Context) *Hooks {
	h, _ := ctx.Value(hooksKey{}).(*Hooks)
	return h
}

// Subcall is the host's side of a dispatched subcall, which Hold and
// EndRun reach through the context Dispatch received.
type Subcall interface {
	// Hold is Hold for this call.
	Hold() (release func())
	// EndRun is EndRun for this call's run.
	EndRun(end End)
}

type subcallKey struct{}

// SubcallValue is the Value method of the context a subcall's Dispatch
// receives, for a host type that embeds the run's context (parent) and
// stands for subcall c: the context carries c for Hold and EndRun and not
// the run's hooks (a run the subcall starts has its own). Embedding saves
// the allocation a wrapping context would cost on every subcall.
func SubcallValue(c Subcall, parent context.Context, key any) any {
	switch key {
	case subcallKey{}:
		return c
	case hooksKey{}:
		return nil
	}
	return parent.Value(key)
}

// Hold marks the subcall whose Dispatch received ctx as waiting for a
// person, an approver, until release is called. Time held does not count
// against the program's time limit while the program has nothing else to
// do (its clock pauses while it waits and every subcall it waits for is
// held), nor in the call's duration on a virtual clock. The caller's own
// deadline still applies. Outside a subcall, Hold does nothing.
func Hold(ctx context.Context) (release func()) {
	c, _ := ctx.Value(subcallKey{}).(Subcall)
	if c == nil {
		return func() {}
	}
	return c.Hold()
}

// EndRun ends, at once, the run whose subcall received ctx in Dispatch:
// the program stops where it is, no result reaches it afterwards, and the
// run's outcome is end (the first End given, as the first reason to stop
// wins). Outside a subcall it does nothing.
func EndRun(ctx context.Context, end End) {
	if c, _ := ctx.Value(subcallKey{}).(Subcall); c != nil {
		c.EndRun(end)
	}
}
