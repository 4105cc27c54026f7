package pipeline

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/internal/toolcall"
	"github.com/ptchost/ptc/registry"
)

// The execution side of a tool and its prepared call, as the registry's
// execution lookup ([registry.Registry.Executable]) hands them out.
type (
	executable   = toolcall.Tool[*registry.Tool, registry.Part, registry.Exec, registry.Mode]
	preparedCall = toolcall.Call[registry.Part, registry.Exec, registry.Mode]
)

// RawCall is one tool call as the model (or a program) emitted it.
type RawCall struct {
	// ID is the caller's own identifier of the call (a model's tool call
	// id); the pipeline only carries it.
	ID string
	// Name is the called tool's model-facing name.
	Name string
	// Arguments are the raw JSON arguments.
	Arguments json.RawMessage
	// IdempotencyKey, when set, reaches the tool as
	// registry.Exec.IdempotencyKey.
	IdempotencyKey string
}

// Env is what a single call runs in: the step's tool set, the calling
// agent, the approver of asks and the optional logger.
type Env struct {
	// ToolSet is the step's resolved tool set; nil looks up registered
	// definitions, without conditional tools.
	ToolSet *registry.ToolSet
	// Agent is the calling agent's scope; the zero Scope for standalone
	// service calls.
	Agent registry.Scope
	// Approver answers asks; nil leaves every ask unanswered.
	Approver Approver
	// Logger, when set, gets the call's slog records, as for
	// [Batch].Logger; nil logs nothing.
	Logger *slog.Logger
	// Parent is the correlation token of the call this one is nested in
	// (a run_code call for a program's subcall); "" for a root call.
	Parent string
}

// Invocation is one prepared call as the stages see it: the tool, its
// frozen arguments and its correlation token. Listeners receive it
// read-only; it is safe for concurrent reads.
type Invocation struct {
	p       *Pipeline
	env     Env
	id      string
	key     string // RawCall.IdempotencyKey
	name    string
	token   string
	tokbuf  [tokenSize]byte // backs token
	tool    executable      // nil when the lookup failed
	call    preparedCall    // nil when preparation failed
	raw     json.RawMessage // frozen copy, only when preparation failed
	present *presentation   // only for a tool that declares one
	err     *Error          // preparation failure
	fresh   bool            // prepared just now: no lookup again before running
	ran     atomic.Bool
	start   time.Time
	post    PostResult
	out     Outcome
	active  atomic.Bool    // the body was invoked
	tcall   telemetry.Call // a traced call's state (SetErrorType)
}

// Token returns the opaque correlation token of the call.
func (inv *Invocation) Token() string { return inv.token }

// Parent returns the correlation token of the call this one is nested in
// ([Env].Parent), "" for a root call.
func (inv *Invocation) Parent() string { return inv.env.Parent }

// CallID returns the caller's own identifier of the call ([RawCall.ID]).
func (inv *Invocation) CallID() string { return inv.id }

// Name returns the called tool's name.
func (inv *Invocation) Name() string { return inv.name }

// Agent returns the calling agent's scope.
func (inv *Invocation) Agent() registry.Scope { return inv.env.Agent }

// Tool returns the resolved tool, or nil when the lookup failed.
func (inv *Invocation) Tool() *registry.Tool {
	if inv.tool == nil {
		return nil
	}
	return inv.tool.Tool()
}

// Arguments returns a copy of the raw arguments.
func (inv *Invocation) Arguments() json.RawMessage {
	if inv.call != nil {
		return inv.call.Arguments()
	}
	return bytes.Clone(inv.raw)
}

// Args returns the decoded arguments (the tool's argument type, defaults
// applied), or nil when preparation failed. Do not modify them.
func (inv *Invocation) Args() any {
	if inv.call == nil {
		return nil
	}
	return inv.call.Args()
}

// PresentCall returns the descriptor the tool's PresentCall made of the
// arguments when the call was prepared: pure, JSON-encodable presentation
// metadata for host-local consumers (a user interface's tool card, a
// transcript), never shown to the model. It is nil when the tool declares
// no PresentCall, preparation failed, or PresentCall panicked.
func (inv *Invocation) PresentCall() any {
	if inv.present == nil {
		return nil
	}
	return inv.present.call
}

// presentation holds the presentation descriptors of a call whose tool
// declares PresentCall or PresentResult.
type presentation struct {
	call   any // set by prepare
	result any // set by stages, after a success
}

// Mode returns the call's execution mode; [registry.Serial] when
// preparation failed.
func (inv *Invocation) Mode() registry.Mode {
	if inv.call == nil {
		return registry.Serial
	}
	return inv.call.Mode()
}
