// Package telemetry holds what ptc's packages share to trace and meter
// through the OpenTelemetry API: the attribute keys of the GenAI semantic
// conventions and ptc's own, the per-call state a traced call keeps in
// its context, the W3C trace context carried in MCP's _meta, and a
// slog.Handler that writes the trace and span IDs. It imports the API
// only, never the SDK, and holds no global state: every tracer and meter
// comes from the providers a caller configured.
package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
)

// ScopeName is the instrumentation scope of every tracer and meter ptc
// makes.
const ScopeName = "github.com/ptchost/ptc"

// OperationExecuteTool is gen_ai.operation.name of a tool call's span, and
// the first word of its name ("execute_tool get_weather").
const OperationExecuteTool = "execute_tool"

// The attribute keys, of the OpenTelemetry GenAI semantic conventions
// (gen_ai.*, error.type) and ptc's own (ptc.*).
const (
	KeyOperationName = attribute.Key("gen_ai.operation.name")
	KeyToolName      = attribute.Key("gen_ai.tool.name")
	KeyToolCallID    = attribute.Key("gen_ai.tool.call.id")
	KeyErrorType     = attribute.Key("error.type")

	// KeyToken is the call's correlation token (pipeline.Invocation.Token).
	KeyToken = attribute.Key("ptc.call.token")
	// KeyParent is the correlation token of the call a nested call is in.
	KeyParent = attribute.Key("ptc.call.parent")
	// KeyReason is the model-facing reason of a decision event.
	KeyReason = attribute.Key("ptc.reason")
	// KeyPolicy says which stage decided: pre_execute, guard, approver
	// or post_execute.
	KeyPolicy = attribute.Key("ptc.policy")

	// KeyRunKind is how a program's run ended (host.Kind, or suspended).
	KeyRunKind = attribute.Key("ptc.run.kind")
	// KeyRunSubcalls counts the subcalls the program started.
	KeyRunSubcalls = attribute.Key("ptc.run.subcalls")
	// KeyRunMemory is the peak size of the guest's memory, in bytes.
	KeyRunMemory = attribute.Key("ptc.run.memory_bytes")
	// KeyRunOutput is the size of the printed lines, in bytes (each with
	// its line feed).
	KeyRunOutput = attribute.Key("ptc.run.output_bytes")
	// KeyReplay marks the run of a replay (or of a resume's replayed
	// prefix): its subcalls may be answered from a recording.
	KeyReplay = attribute.Key("ptc.replay")
)

// The names of the decision events on a call's span.
const (
	EventDenied   = "denied"
	EventAsked    = "asked"
	EventApproved = "approved"
	EventBlocked  = "blocked"
	EventTimedOut = "timed_out"
)

// Call is what a traced call keeps in its context beside its span: the
// error.type its span ends with when something inside the call knows
// better than the pipeline's code (a program's run kind).
type Call struct {
	errorType string
}

type callKey struct{}

// WithCall returns ctx carrying c.
func WithCall(ctx context.Context, c *Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// SetErrorType sets the error.type of the traced call ctx belongs to,
// when it fails; it does nothing outside a traced call. The call's body
// calls it before it returns, on the goroutine the pipeline runs it on.
func SetErrorType(ctx context.Context, t string) {
	if c, ok := ctx.Value(callKey{}).(*Call); ok {
		c.errorType = t
	}
}

// ErrorType returns the error.type SetErrorType set, or "".
func (c *Call) ErrorType() string { return c.errorType }

type principalKey struct{}

// WithPrincipal returns ctx naming the principal (serve --auth's) a run
// is made for: the run and subcall metrics then carry a "principal"
// label. Without it they carry none, so a serve without --auth keeps its
// label sets as they are.
func WithPrincipal(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, principalKey{}, name)
}

// Principal returns the principal WithPrincipal named, or "".
func Principal(ctx context.Context) string {
	s, _ := ctx.Value(principalKey{}).(string)
	return s
}
