package ptc

import (
	"context"
	"errors"
	"strings"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
)

// The sentinels of a program's outcome: a caller branches on why a
// run_code call failed with errors.Is against [Result.Err]. A call that
// failed in the pipeline before or around its program matches the
// sentinel of its code too (registry.ErrUnknownTool,
// registry.ErrInvalidArguments, pipeline.ErrDenied, ...; see
// docs/ARCHITECTURE.md, "Error codes").
var (
	// ErrSyntax: the program does not parse (as JavaScript or TypeScript).
	ErrSyntax = errors.New("ptc: syntax error")
	// ErrException: the program threw, or a promise it left rejected.
	ErrException = errors.New("ptc: the program threw")
	// ErrTimeout: the program ran past its own time limit.
	ErrTimeout = errors.New("ptc: time limit exceeded")
	// ErrMemory: the program ran out of memory.
	ErrMemory = errors.New("ptc: memory limit exceeded")
	// ErrOutputLimit: the program printed more than its output limit.
	ErrOutputLimit = errors.New("ptc: output limit exceeded")
	// ErrSubcallLimit: the program made more tool calls than allowed.
	ErrSubcallLimit = errors.New("ptc: subcall limit exceeded")
	// ErrInternal: the sandbox failed; not the program's doing.
	ErrInternal = errors.New("ptc: internal error")
	// ErrAborted: the run was cancelled, by its caller or by a shutdown
	// (ErrShutdown), before or while it ran. Such an error wraps the
	// context's cause, so it also matches context.Canceled or
	// context.DeadlineExceeded (or the cause a caller gave). It is
	// pipeline.ErrAborted: an aborted run and an aborted call match the
	// same sentinel, from any layer.
	ErrAborted = pipeline.ErrAborted
)

// RunError is the failure of a run_code call, as [Result.Err] returns it.
// errors.Is matches it against the sentinel of its kind, or, when the
// program never ran, of its code; an aborted one unwraps to its context's
// cause.
type RunError struct {
	// Kind is the program's outcome kind (host.Kind: syntax, exception,
	// timeout, memory, aborted, output_limit, subcall_limit, internal,
	// suspended), or "" when the program never ran.
	Kind host.Kind
	// Code is the call's failure code in the executor's own pipeline.
	Code string
	// Message is what the model sees, without "Error: ".
	Message string

	cause error // the context's cause for an aborted run, ErrBusy's refusal, or ErrIncompatible's
}

// Error returns the message.
func (e *RunError) Error() string { return e.Message }

// Unwrap returns the cause of an aborted run's cancellation, else nil.
func (e *RunError) Unwrap() error { return e.cause }

// kindErrors holds the sentinel of each outcome kind.
var kindErrors = map[host.Kind]error{
	host.KindSyntax:       ErrSyntax,
	host.KindException:    ErrException,
	host.KindTimeout:      ErrTimeout,
	host.KindMemory:       ErrMemory,
	host.KindOutputLimit:  ErrOutputLimit,
	host.KindSubcallLimit: ErrSubcallLimit,
	host.KindInternal:     ErrInternal,
	host.KindAborted:      ErrAborted,
	host.KindSuspended:    ErrSuspended,
}

// Is matches the sentinel of the error's kind or, when the program never
// ran, the pipeline's sentinel of its code; an aborted run also matches
// ErrAborted, and context.Canceled when its cause is neither a deadline
// nor a cancellation of its own (a shutdown, a cause the caller gave).
func (e *RunError) Is(target error) bool {
	if e.Kind == host.KindAborted {
		if target == ErrAborted {
			return true
		}
		// A run refused by a full executor (ErrBusy) was nobody's cancellation.
		return target == context.Canceled && !errors.Is(e.cause, context.DeadlineExceeded) && !errors.Is(e.cause, ErrBusy)
	}
	if want, ok := kindErrors[e.Kind]; ok {
		return target == want
	}
	return errors.Is(&pipeline.Error{Code: e.Code}, target)
}

// Err returns nil when the call succeeded, else a [*RunError] to branch on
// with errors.Is: ErrTimeout, ErrMemory, ErrAborted, registry.ErrUnknownTool,
// registry.ErrInvalidArguments, pipeline.ErrDenied, ...
func (r *Result) Err() error {
	if !r.IsError {
		return nil
	}
	if r.failure != nil {
		return r.failure
	}
	e := &RunError{Code: pipeline.CodeOf(r.Outcome.Err())}
	if len(r.Content) > 0 {
		e.Message = strings.TrimPrefix(r.Content[0].Text, "Error: ")
	}
	switch {
	case r.Run != nil && !r.Run.OK():
		e.Kind = r.Run.Kind
	case e.Code == pipeline.CodeOf(pipeline.ErrAborted) || e.Code == pipeline.CodeOf(pipeline.ErrAbortedBeforeDispatch):
		e.Kind = host.KindAborted
	}
	if e.Kind == host.KindAborted {
		e.cause = r.cause
		if e.cause == nil {
			e.cause = context.Canceled
		}
	}
	return e
}
