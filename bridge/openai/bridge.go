package ptcopenai

import (
	"encoding/json"
	"log/slog"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/bridge/internal/convert"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Executor describes the tools the model sees and runs a batch of its
// calls, returning one result per call, in call order: ptc.ToolExecutor,
// which *ptc.Executor (PTC mode: run_code, plus the direct tools in hybrid
// mode), *ptc.NativeExecutor (the tools themselves) and *ptc.Mounts
// implement.
type Executor = ptc.ToolExecutor

// Bridge executes the model's tool calls with an executor, in the
// environment a batch carries. Make one with [New]; set Agent, ToolSet,
// Approver and Logger before its first use when the defaults do not fit.
type Bridge struct {
	// Executor describes the tools and runs the calls. Required.
	Executor Executor
	// Agent is the calling agent's scope (pipeline.Batch.Agent).
	Agent registry.Scope
	// ToolSet is the step's resolved tool set (pipeline.Batch.ToolSet);
	// nil: the registered tools, without conditional ones.
	ToolSet *registry.ToolSet
	// Approver answers asks; nil leaves them unanswered.
	Approver pipeline.Approver
	// Logger, when set, gets the calls' slog records
	// (pipeline.Batch.Logger).
	Logger *slog.Logger
}

// New returns a bridge over ex for a standalone agent (the zero scope)
// and every registered tool (a nil tool set).
func New(ex Executor) *Bridge { return &Bridge{Executor: ex} }

// env is the bridge's environment.
func (b *Bridge) env() convert.Env { return convert.Env(*b) }

// parameters returns a JSON Schema as the SDK's map, each top-level
// member kept as its raw bytes (so nested property order survives; the
// SDK writes the top-level keys sorted). An empty schema is an object
// without properties.
func parameters(raw json.RawMessage) map[string]any {
	var members map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &members) != nil {
		return map[string]any{"type": "object", "properties": map[string]any{}}
	}
	m := make(map[string]any, len(members))
	for k, v := range members {
		m[k] = v
	}
	return m
}

// imageTypes are the image types both APIs take.
var imageTypes = convert.NewImages("the API takes PNG, JPEG, GIF and WebP images", "image/png", "image/jpeg", "image/gif", "image/webp")
