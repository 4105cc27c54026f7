package ptcopenai

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/ptchost/ptc"
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

// describe returns what the executor describes for the bridge's agent and
// tool set.
func (b *Bridge) describe() []registry.ToolSchema {
	return b.Executor.Describe(b.Agent, b.ToolSet)
}

// execute runs calls as one batch and returns exactly one result per call
// (nil where the executor returned none).
func (b *Bridge) execute(ctx context.Context, calls []pipeline.RawCall) []*ptc.Result {
	results := b.Executor.Execute(ctx, pipeline.Batch{
		Calls:    calls,
		ToolSet:  b.ToolSet,
		Agent:    b.Agent,
		Approver: b.Approver,
		Logger:   b.Logger,
	})
	out := make([]*ptc.Result, len(calls))
	copy(out, results)
	return out
}

// missing is the content of a call the executor returned no result for.
var missing = []registry.Part{registry.TextPart("Error: the executor returned no result for this call")}

// content returns r's content, or missing for a nil r.
func content(r *ptc.Result) []registry.Part {
	if r == nil {
		return missing
	}
	return r.Content
}

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
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// sendable reports whether p is an image the APIs take.
func sendable(p registry.Part) bool {
	return p.Type == registry.PartImage && imageTypes[p.MimeType]
}

// dataURL returns an image part as a data URL.
func dataURL(p registry.Part) string {
	return "data:" + p.MimeType + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
}

// text renders a part other than a sendable image as text: a text part as
// is, an image the APIs do not take as a note, anything else as
// ptc.ContentText renders it.
func text(p registry.Part) string {
	if p.Type == registry.PartImage {
		return "[image " + p.MimeType + " " + strconv.Itoa(len(p.Data)) + " bytes not shown: the API takes PNG, JPEG, GIF and WebP images]"
	}
	return registry.PlainText([]registry.Part{p})
}

// joinText joins the texts of parts, one per line, skipping empty ones.
func joinText(parts []registry.Part) string {
	var s string
	for _, p := range parts {
		t := text(p)
		if t == "" {
			continue
		}
		if s != "" {
			s += "\n"
		}
		s += t
	}
	return s
}
