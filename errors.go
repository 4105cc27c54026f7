package ptc

import (
	"context"
	"errors"
	"strings"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// The sentinels a caller branches on with errors.Is against
// [Result.Err]: the one place to tell why a run_code call failed. Those
// shared with package registry or pipeline are the same values, so either
// name matches.
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
	// (see ErrShutdown); such errors also match context.Canceled or
	// context.DeadlineExceeded.
	ErrAborted = pipeline.ErrAborted
	// ErrUnknownTool: the model called a name the executor does not offer.
	ErrUnknownTool = registry.ErrUnknownTool
	// ErrInvalidArguments: the call's arguments were not a run_code call
	// ({"code": string}).
	ErrInvalidArguments = registry.ErrInvalidArguments
	// ErrDenied: a policy of RunCodePipeline denied the call.
	ErrDenied = pipeline.ErrDenied
)

// RunError is the failure of a run_code call, as [Result.Err] returns it.
// errors.Is matches it against the sentinels above by its kind.
type RunError struct {
	// Kind is the program's outcome kind (host.Kind: syntax, exception,
	// timeout, memory, aborted, output_limit, subcall_limit, internal), or
	// "" when the program never ran.
	Kind host.Kind
	// Code is the call's failure code in the executor's own pipeline.
	Code pipeline.Code
	// Message is what the model sees, without "Error: ".
	Message string
}

// Error returns the message.
func (e *RunError) Error() string { return e.Message }

// Is matches the sentinel of the error's kind (or, when the program never
// ran, of its code); an aborted run also matches context.DeadlineExceeded
// when a deadline ended it and context.Canceled otherwise.
func (e *RunError) Is(target error) bool {
	var want error
	switch e.Kind {
	case host.KindSyntax:
		want = ErrSyntax
	case host.KindException:
		want = ErrException
	case host.KindTimeout:
		want = ErrTimeout
	case host.KindMemory:
		want = ErrMemory
	case host.KindOutputLimit:
		want = ErrOutputLimit
	case host.KindSubcallLimit:
		want = ErrSubcallLimit
	case host.KindInternal:
		want = ErrInternal
	case host.KindAborted:
		return e.abortedIs(target)
	default:
		switch e.Code {
		case pipeline.CodeAborted, pipeline.CodeAbortedBeforeDispatch:
			return e.abortedIs(target)
		case pipeline.CodeUnknownTool:
			want = ErrUnknownTool
		case pipeline.CodeInvalidArguments:
			want = ErrInvalidArguments
		case pipeline.CodeDenied:
			want = ErrDenied
		default:
			want = pipeline.ErrToolFailed
		}
	}
	return target == want
}

func (e *RunError) abortedIs(target error) bool {
	switch target {
	case ErrAborted:
		return true
	case context.DeadlineExceeded:
		return strings.Contains(e.Message, host.MessageDeadline)
	case context.Canceled:
		return !strings.Contains(e.Message, host.MessageDeadline)
	}
	return false
}

// Err returns nil when the call succeeded, else a [*RunError] to branch on
// with errors.Is: ErrTimeout, ErrMemory, ErrAborted, ErrUnknownTool,
// ErrInvalidArguments, ...
func (r *Result) Err() error {
	if !r.IsError {
		return nil
	}
	if r.failure != nil {
		return r.failure
	}
	e := &RunError{Code: r.Outcome.Code()}
	if len(r.Content) > 0 {
		e.Message = strings.TrimPrefix(r.Content[0].Text, "Error: ")
	}
	switch {
	case r.Run != nil && !r.Run.OK():
		e.Kind = r.Run.Kind
	case e.Code == pipeline.CodeAborted || e.Code == pipeline.CodeAbortedBeforeDispatch:
		e.Kind = host.KindAborted
	}
	return e
}
