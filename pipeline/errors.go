package pipeline

import (
	"errors"
	"strings"

	"github.com/ptchost/ptc/registry"
)

// Code is the machine-readable error code of a failed call.
type Code string

// The error codes of a failed call (docs/ARCHITECTURE.md, "Error codes"),
// declared here only. Three are the registry's failures, matched by its
// sentinels; the others by this package's.
const (
	// CodeUnknownTool: the tool is not executable in the call's scope and
	// tool set (see [registry.Registry.Executable]).
	CodeUnknownTool Code = "UNKNOWN_TOOL"
	// CodeInvalidArguments: the arguments are not JSON or do not match the
	// tool's parameter schema.
	CodeInvalidArguments Code = "INVALID_ARGUMENTS"
	// CodeDenied: a pre-execute listener, a guard or the approver denied the
	// call.
	CodeDenied Code = "DENIED"
	// CodeAskUnanswered: a listener asked for approval and no approver gave
	// an answer (there was none, or it failed).
	CodeAskUnanswered Code = "ASK_UNANSWERED"
	// CodeToolFailed: the tool body (or a wrapper around it) returned an
	// error or panicked, or its value did not match the tool's output
	// schema ([registry.ErrInvalidOutput]) or could not be rendered.
	CodeToolFailed Code = "TOOL_FAILED"
	// CodeToolTimeout: the timeout policy's deadline passed.
	CodeToolTimeout Code = "TOOL_TIMEOUT"
	// CodeAbortedBeforeDispatch: the caller's context was done and the tool
	// body was never invoked; the call would otherwise have succeeded (a
	// wrapper answered without the body) or failed only with the caller's
	// cancellation.
	CodeAbortedBeforeDispatch Code = "ABORTED_BEFORE_DISPATCH"
	// CodeAborted: the caller's context was done after the tool body was
	// invoked, and the call would otherwise have succeeded (or the body or
	// a wrapper returned the caller's cancellation as its error).
	CodeAborted Code = "ABORTED"
	// CodePostExecuteBlocked: a post-execute listener blocked the result.
	CodePostExecuteBlocked Code = "POST_EXECUTE_BLOCKED"
	// CodeToolActivationFailed: a conditional tool's condition failed while
	// the tool set was resolved ([registry.Registry.Resolve]).
	CodeToolActivationFailed Code = "TOOL_ACTIVATION_FAILED"
)

// Sentinel errors. An [*Error] matches the sentinel of its code with
// [errors.Is]; for the registry's codes the sentinels are the registry's.
var (
	// ErrDenied is matched by every error with [CodeDenied].
	ErrDenied = errors.New("denied")
	// ErrAskUnanswered is matched by every error with [CodeAskUnanswered].
	ErrAskUnanswered = errors.New("approval unanswered")
	// ErrToolFailed is matched by every error with [CodeToolFailed].
	ErrToolFailed = errors.New("tool failed")
	// ErrToolTimeout is matched by every error with [CodeToolTimeout]; it is
	// also the cause of the context [TimeoutPolicy] cancels.
	ErrToolTimeout = errors.New("tool timed out")
	// ErrAbortedBeforeDispatch is matched by every error with
	// [CodeAbortedBeforeDispatch].
	ErrAbortedBeforeDispatch = errors.New("aborted before dispatch")
	// ErrAborted is matched by every error with [CodeAborted].
	ErrAborted = errors.New("aborted")
	// ErrPostExecuteBlocked is matched by every error with
	// [CodePostExecuteBlocked].
	ErrPostExecuteBlocked = errors.New("blocked by post-execute policy")

	// ErrArgumentsTooLarge is wrapped by the [CodeInvalidArguments] failure
	// of a call whose arguments are over Config.ArgumentBytes.
	ErrArgumentsTooLarge = errors.New("arguments too large")
	// ErrArgumentsTooDeep is wrapped by the [CodeInvalidArguments] failure
	// of a call whose arguments nest deeper than Config.ArgumentDepth.
	ErrArgumentsTooDeep = errors.New("arguments nested too deeply")

	// ErrNoRegistry is returned by [New] when Config.Registry is nil.
	ErrNoRegistry = errors.New("pipeline: no registry")
)

// ErrorInfo is structured failure detail a pre-execute listener may attach
// beside its model-facing reason. It never reaches the model's content;
// durable projections (logs, transcripts, user interfaces) keep it:
// [SlogLog] logs it, and its JSON form is the one ptc-run's --json prints.
type ErrorInfo struct {
	// Name is a short machine-friendly name of the failure, such as
	// "PolicyDenied".
	Name string `json:"name"`
	// Code is a policy-specific code.
	Code string `json:"code"`
	// UserReason is an optional reason worded for the user, not the model.
	UserReason string `json:"userReason,omitempty"`
}

// Error is the typed failure of a call. Its Reason is what the model sees,
// as "Error: <Reason>"; Info and Err stay out of the content.
type Error struct {
	// Code classifies the failure.
	Code Code
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
	sb.WriteString(string(e.Code))
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
	s := sentinel(e.Code)
	return s != nil && target == s
}

func sentinel(c Code) error {
	switch c {
	case CodeUnknownTool:
		return registry.ErrUnknownTool
	case CodeInvalidArguments:
		return registry.ErrInvalidArguments
	case CodeToolActivationFailed:
		return registry.ErrActivationFailed
	case CodeDenied:
		return ErrDenied
	case CodeAskUnanswered:
		return ErrAskUnanswered
	case CodeToolFailed:
		return ErrToolFailed
	case CodeToolTimeout:
		return ErrToolTimeout
	case CodeAbortedBeforeDispatch:
		return ErrAbortedBeforeDispatch
	case CodeAborted:
		return ErrAborted
	case CodePostExecuteBlocked:
		return ErrPostExecuteBlocked
	}
	return nil
}

// CodeOf returns the code of the first [*Error] in err's chain, else the
// code of the registry's failure err matches, or "" if there is none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	switch {
	case errors.Is(err, registry.ErrUnknownTool):
		return CodeUnknownTool
	case errors.Is(err, registry.ErrInvalidArguments):
		return CodeInvalidArguments
	case errors.Is(err, registry.ErrActivationFailed):
		return CodeToolActivationFailed
	}
	return ""
}
