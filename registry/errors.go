package registry

import (
	"errors"
	"strings"
)

// Sentinel errors. An [*Error] matches its Kind with [errors.Is]; the
// more specific sentinels are wrapped inside it. The pipeline's error
// codes UNKNOWN_TOOL, INVALID_ARGUMENTS and TOOL_ACTIVATION_FAILED are
// these three failures (see package pipeline, where every code is
// declared).
var (
	// ErrUnknownTool: the named tool is not executable in the calling
	// scope and tool set: it was never registered there, it is hidden by a
	// restriction, it is conditional and no resolved set admitted it, or
	// the set that admitted it has gone stale.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrInvalidArguments: the call's arguments are not JSON, contain a
	// duplicate object key, or do not match the tool's parameter schema.
	ErrInvalidArguments = errors.New("invalid arguments")
	// ErrActivationFailed: a conditional tool's condition failed (returned
	// an error or panicked) while a tool set was being resolved.
	ErrActivationFailed = errors.New("tool activation failed")

	// ErrStaleToolSet is wrapped when a resolved [ToolSet] refuses a call
	// because the admitted registration was disposed, replaced by a same-name
	// registration, or hidden by a newer restriction: resolve a new set.
	ErrStaleToolSet = errors.New("tool set is stale")
	// ErrInvalidDefinition is wrapped by [Define] and [ParseJSONSchema] when a
	// definition or schema is malformed.
	ErrInvalidDefinition = errors.New("invalid tool definition")
	// ErrInvalidOutput is the kind of the [*Error] of a tool that returned
	// a value that is not JSON or does not match its declared output
	// schema.
	ErrInvalidOutput = errors.New("result does not match the output schema")
)

// The reasons wrapped inside an [*Error] of kind [ErrUnknownTool] that are
// mistakes of the host rather than outcomes to branch on; the registry's
// messages name them.
var (
	// errConditional is wrapped when a conditional tool is looked up for
	// execution without a resolved [ToolSet].
	errConditional = errors.New("conditional tool requires a resolved tool set")
	// errToolSetDisposed is wrapped when a disposed [ToolSet] is used.
	errToolSetDisposed = errors.New("tool set is disposed")
)

// errInvalidScope is returned for a scope that cannot be used where given:
// [Registry.Restrict] on the deployment.
var errInvalidScope = errors.New("invalid scope")

// Error is the typed error the registry returns where a caller branches on
// the outcome of a call: its Kind is what the pipeline turns into an error
// code. Use [errors.As] to get it, or [errors.Is] with a sentinel.
type Error struct {
	// Kind classifies the failure: ErrUnknownTool, ErrInvalidArguments,
	// ErrActivationFailed or ErrInvalidOutput.
	Kind error
	// Tool is the model-facing name of the tool concerned, if any.
	Tool string
	// Issues lists the schema violations for [ErrInvalidArguments] and
	// [ErrInvalidOutput], their paths inside the arguments or the value; it
	// is empty when the arguments or the value were not well-formed JSON.
	Issues []Issue
	// Err is the underlying cause. For ErrInvalidOutput it is set only
	// when the value is not JSON or the validator could not decide.
	Err error

	notJSON bool // ErrInvalidOutput: the value is not JSON
}

// Issue is one structured validation failure.
type Issue struct {
	// Path is the JSON Pointer (RFC 6901) of the offending value inside the
	// arguments; "" is the root.
	Path string
	// Keyword is the JSON Schema keyword that failed, such as "type",
	// "required" or "additionalProperties".
	Keyword string
	// Expected says what the schema wanted, when the keyword makes that
	// simple to say (for example "string" for a type mismatch); else "".
	Expected string
	// Message is a human-readable description of the failure.
	Message string
}

// text formats the issue as `at "/path": message`.
func (i Issue) text() string {
	return "at " + quotePath(i.Path) + ": " + i.Message
}

func quotePath(p string) string {
	if p == "" {
		return `"" (root)`
	}
	return `"` + p + `"`
}

// Error implements error. An ErrInvalidOutput error names the tool and,
// for every violation, where it is and what the schema expected there.
func (e *Error) Error() string {
	if e.Kind == ErrInvalidOutput {
		return e.outputError()
	}
	var sb strings.Builder
	if e.Tool != "" {
		sb.WriteString(`tool "`)
		sb.WriteString(e.Tool)
		sb.WriteString(`": `)
	}
	if e.Err != nil {
		sb.WriteString(e.Err.Error())
	} else {
		sb.WriteString(e.Kind.Error())
	}
	writeIssues(&sb, e.Issues)
	return sb.String()
}

// outputError is the message of an ErrInvalidOutput error.
func (e *Error) outputError() string {
	var sb strings.Builder
	sb.WriteString(`tool "`)
	sb.WriteString(e.Tool)
	sb.WriteString(`" returned a result that `)
	if len(e.Issues) == 0 {
		if e.notJSON {
			sb.WriteString("is not JSON")
		} else {
			sb.WriteString("could not be checked against its output schema")
		}
		if e.Err != nil {
			sb.WriteString(": ")
			sb.WriteString(e.Err.Error())
		}
		return sb.String()
	}
	sb.WriteString("does not match its output schema")
	writeIssues(&sb, e.Issues)
	return sb.String()
}

// writeIssues appends ": issue; issue; ..." to sb.
func writeIssues(sb *strings.Builder, issues []Issue) {
	for i, is := range issues {
		if i == 0 {
			sb.WriteString(": ")
		} else {
			sb.WriteString("; ")
		}
		sb.WriteString(is.text())
	}
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Kind.
func (e *Error) Is(target error) bool { return e.Kind != nil && target == e.Kind }
