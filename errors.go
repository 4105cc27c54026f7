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

// The sentinel of each outcome kind, and of each failure code of a call
// that never ran a program.
var (
	kindErrors = map[host.Kind]error{
		host.KindSyntax:       ErrSyntax,
		host.KindException:    ErrException,
		host.KindTimeout:      ErrTimeout,
		host.KindMemory:       ErrMemory,
		host.KindOutputLimit:  ErrOutputLimit,
		host.KindSubcallLimit: ErrSubcallLimit,
		host.KindInternal:     ErrInternal,
		KindSuspended:         ErrSuspended,
	}
	codeErrors = map[pipeline.Code]error{
		pipeline.CodeUnknownTool:      ErrUnknownTool,
		pipeline.CodeInvalidArguments: ErrInvalidArguments,
		pipeline.CodeDenied:           ErrDenied,
	}
)

// Is matches the sentinel of the error's kind (or, when the program never
// ran, of its code); an aborted run also matches context.DeadlineExceeded
// when a deadline ended it and context.Canceled otherwise.
func (e *RunError) Is(target error) bool {
	if e.Kind == host.KindAborted || e.Code == pipeline.CodeAborted || e.Code == pipeline.CodeAbortedBeforeDispatch {
		return e.abortedIs(target)
	}
	if want, ok := kindErrors[e.Kind]; ok {
		return target == want
	}
	if want, ok := codeErrors[e.Code]; ok {
		return target == want
	}
	return target == pipeline.ErrToolFailed
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
