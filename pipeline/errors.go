package pipeline

import (
	"errors"
	"strings"

	"github.com/ptchost/ptc/registry"
)

// The error codes of a failed call (docs/ARCHITECTURE.md, "Error codes"),
// declared here only. Callers branch on the sentinels (an [*Error] matches
// the sentinel of its code); [CodeOf] reads the code of an error, and of a
// sentinel. Three are the registry's failures, matched by its sentinels;
// the others by this package's.
const (
	// codeUnknownTool: the tool is not executable in the call's scope and
	// tool set (see [registry.Registry.Executable]).
	codeUnknownTool = "UNKNOWN_TOOL"
	// codeInvalidArguments: the arguments are not JSON or do not match the
	// tool's parameter schema.
	codeInvalidArguments = "INVALID_ARGUMENTS"
	// codeDenied: a pre-execute listener, a guard or the approver denied the
	// call.
	codeDenied = "DENIED"
	// codeAskUnanswered: a listener asked for approval and no approver gave
	// an answer (there was none, or it failed).
	codeAskUnanswered = "ASK_UNANSWERED"
	// codeToolFailed: the tool body (or a wrapper around it) returned an
	// error or panicked, or its value did not match the tool's output
	// schema ([registry.ErrInvalidOutput]) or could not be rendered.
	codeToolFailed = "TOOL_FAILED"
	// codeToolTimeout: the timeout policy's deadline passed.
	codeToolTimeout = "TOOL_TIMEOUT"
	// codeAbortedBeforeDispatch: the caller's context was done and the tool
	// body was never invoked; the call would otherwise have succeeded (a
	// wrapper answered without the body) or failed only with the caller's
	// cancellation.
	codeAbortedBeforeDispatch = "ABORTED_BEFORE_DISPATCH"
	// codeAborted: the caller's context was done after the tool body was
	// invoked, and the call would otherwise have succeeded (or the body or
	// a wrapper returned the caller's cancellation as its error).
	codeAborted = "ABORTED"
	// codePostExecuteBlocked: a post-execute listener blocked the result.
	codePostExecuteBlocked = "POST_EXECUTE_BLOCKED"
	// codeUnavailable: the call's outcome is unknown and it was not made
	// again: the process running it stopped before it answered (a durable
	// run resumed elsewhere, ptc.Config.Store) and the tool is not
	// idempotent, so it may or may not have acted.
	codeUnavailable = "UNAVAILABLE"
	// codeToolActivationFailed: a conditional tool's condition failed while
	// the tool set was resolved ([registry.Registry.Resolve]).
	codeToolActivationFailed = "TOOL_ACTIVATION_FAILED"
)

// Sentinel errors. An [*Error] matches the sentinel of its code with
// [errors.Is]; for the registry's codes (UNKNOWN_TOOL, INVALID_ARGUMENTS,
// TOOL_ACTIVATION_FAILED) the sentinels are the registry's:
// [registry.ErrUnknownTool], [registry.ErrInvalidArguments] and
// [registry.ErrActivationFailed].
var (
	// ErrDenied is matched by every error with code DENIED: a pre-execute
	// listener, a guard or the approver denied the call.
	ErrDenied = errors.New("denied")
	// ErrAskUnanswered is matched by every error with code ASK_UNANSWERED:
	// a listener asked for approval and no approver gave an answer (there
	// was none, or it failed).
	ErrAskUnanswered = errors.New("approval unanswered")
	// ErrToolFailed is matched by every error with code TOOL_FAILED: the
	// tool body (or a wrapper around it) returned an error or panicked, or
	// its value did not match the tool's output schema
	// ([registry.ErrInvalidOutput]) or could not be rendered.
	ErrToolFailed = errors.New("tool failed")
	// ErrToolTimeout is matched by every error with code TOOL_TIMEOUT: the
	// timeout policy's deadline passed. It is also the cause of the context
	// [TimeoutPolicy] cancels.
	ErrToolTimeout = errors.New("tool timed out")
	// ErrAbortedBeforeDispatch is matched by every error with code
	// ABORTED_BEFORE_DISPATCH: the caller's context was done and the tool
	// body was never invoked; the call would otherwise have succeeded (a
	// wrapper answered without the body) or failed only with the caller's
	// cancellation.
	ErrAbortedBeforeDispatch = errors.New("aborted before dispatch")
	// ErrAborted is matched by every error with code ABORTED: the caller's
	// context was done after the tool body was invoked, and the call would
	// otherwise have succeeded (or the body or a wrapper returned the
	// caller's cancellation as its error); by every error with code
	// ABORTED_BEFORE_DISPATCH too (aborted, whenever); and, as
	// ptc.ErrAborted, by an aborted run.
	ErrAborted = errors.New("aborted")
	// ErrPostExecuteBlocked is matched by every error with code
	// POST_EXECUTE_BLOCKED: a post-execute listener blocked the result.
	ErrPostExecuteBlocked = errors.New("blocked by post-execute policy")
	// ErrUnavailable is matched by every error with code UNAVAILABLE: the
	// call's outcome is unknown and it was not made again (the process
	// running it stopped before it answered; the tool may or may not have
	// acted).
	ErrUnavailable = errors.New("unavailable")

	// ErrArgumentsTooLarge is wrapped by the INVALID_ARGUMENTS failure of a
	// call whose arguments are over Config.ArgumentBytes.
	ErrArgumentsTooLarge = errors.New("arguments too large")
	// ErrArgumentsTooDeep is wrapped by the INVALID_ARGUMENTS failure of a
	// call whose arguments nest deeper than Config.ArgumentDepth.
	ErrArgumentsTooDeep = errors.New("arguments nested too deeply")
)

// errNoRegistry is returned by [New] when Config.Registry is nil.
var errNoRegistry = errors.New("pipeline: no registry")

// ErrorInfo is structured failure detail a pre-execute listener may attach
// beside its model-facing reason. It never reaches the model's content;
// durable projections (logs, transcripts, user interfaces) keep it: the
// slog records of Batch.Logger and [SlogResult] log it, and its JSON form
// is the one ptc-run's --json prints.
type ErrorInfo struct {
	// Name is a short machine-friendly name of the failure, such as
	// "PolicyDenied".
	Name string `json:"name"`
	// Code is a policy-specific code.
	Code string `json:"code"`
	// UserReason is an optional reason worded for the user, not the model.
	UserReason string `json:"userReason,omitempty"`
}

// Error is the typed failure of a call ([Outcome.Err]). Its Reason is what
// the model sees, as "Error: <Reason>"; Info and Err stay out of the
// content.
type Error struct {
	// Code classifies the failure: one of UNKNOWN_TOOL, INVALID_ARGUMENTS,
	// DENIED, ASK_UNANSWERED, TOOL_FAILED, TOOL_TIMEOUT,
	// ABORTED_BEFORE_DISPATCH, ABORTED, POST_EXECUTE_BLOCKED, UNAVAILABLE
	// and TOOL_ACTIVATION_FAILED (docs/ARCHITECTURE.md, "Error codes"). The
	// error matches the sentinel of its code; [CodeOf] reads the code of a
	// sentinel, as in CodeOf(ErrToolTimeout).
	Code string
	// Tool is the called tool's name.
	Tool string
	// Reason is the model-facing reason.
	Reason string
	// Info is structured detail attached by a denying listener, or nil.
	Info *ErrorInfo
	// Err is the underlying cause, if any.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Code)
	if e.Reason != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Reason)
	}
	return sb.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel of e's code.
func (e *Error) Is(target error) bool {
	if e.Code == codeAbortedBeforeDispatch && target == ErrAborted {
		return true // aborted, before dispatch or after
	}
	s := sentinel(e.Code)
	return s != nil && target == s
}

func sentinel(code string) error {
	switch code {
	case codeUnknownTool:
		return registry.ErrUnknownTool
	case codeInvalidArguments:
		return registry.ErrInvalidArguments
	case codeToolActivationFailed:
		return registry.ErrActivationFailed
	case codeDenied:
		return ErrDenied
	case codeAskUnanswered:
		return ErrAskUnanswered
	case codeToolFailed:
		return ErrToolFailed
	case codeToolTimeout:
		return ErrToolTimeout
	case codeAbortedBeforeDispatch:
		return ErrAbortedBeforeDispatch
	case codeAborted:
		return ErrAborted
	case codePostExecuteBlocked:
		return ErrPostExecuteBlocked
	case codeUnavailable:
		return ErrUnavailable
	}
	return nil
}

// CodeOf returns the code of the first [*Error] in err's chain, else the
// code of the first sentinel err matches (this package's or the
// registry's: CodeOf(ErrDenied) is "DENIED"), or "" if there is none. An
// outcome's code is CodeOf(o.Err()): "" on success.
func CodeOf(err error) string {
	switch e := err.(type) {
	case nil:
		return ""
	case *Error:
		return e.Code
	}
	// A sentinel itself (CodeOf(ErrDenied)) needs no unwrapping, nor the
	// allocation errors.As costs.
	for _, code := range sentinelCodes {
		if err == sentinel(code) {
			return code
		}
	}
	return wrappedCode(err)
}

// sentinelCodes are the codes a sentinel stands for.
var sentinelCodes = [...]string{
	codeUnknownTool, codeInvalidArguments, codeToolActivationFailed,
	codeDenied, codeAskUnanswered, codeToolFailed, codeToolTimeout,
	codeAbortedBeforeDispatch, codeAborted, codePostExecuteBlocked,
	codeUnavailable,
}

// wrappedCode is CodeOf for an error that wraps an *Error or a sentinel.
func wrappedCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	for _, code := range sentinelCodes {
		if errors.Is(err, sentinel(code)) {
			return code
		}
	}
	return ""
}
