package ptcgemini

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"

	"google.golang.org/genai"

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

// Declarations returns the function declarations for schemas (an
// executor's Describe), in order, each with its JSON Schema as
// ParametersJsonSchema, unchanged (see the package doc for what the API
// takes of it).
func Declarations(schemas ...registry.ToolSchema) []*genai.FunctionDeclaration {
	decls := make([]*genai.FunctionDeclaration, 0, len(schemas))
	for _, s := range schemas {
		decls = append(decls, &genai.FunctionDeclaration{
			Name:                 s.Name,
			Description:          s.Description,
			ParametersJsonSchema: convert.ObjectSchema(s.Parameters),
		})
	}
	return decls
}

// Tools returns the request's tools for schemas: one genai.Tool holding
// their [Declarations], or nil when there are none.
func Tools(schemas ...registry.ToolSchema) []*genai.Tool {
	if len(schemas) == 0 {
		return nil
	}
	return []*genai.Tool{{FunctionDeclarations: Declarations(schemas...)}}
}

// Calls returns the FunctionCall parts of content (a candidate's content)
// as raw calls, in order, each with the call's id as its ID (the Gemini
// API may send none: the ID is then empty, and the responses answer the
// calls in order). Arguments that cannot be encoded as JSON (the SDK
// decoded them from JSON, so only a hand-made call has them) are null,
// which the pipeline refuses as INVALID_ARGUMENTS.
func Calls(content *genai.Content) []pipeline.RawCall {
	if content == nil {
		return nil
	}
	var calls []pipeline.RawCall
	for _, p := range content.Parts {
		fc := p.FunctionCall
		if fc == nil {
			continue
		}
		var args json.RawMessage
		if fc.Args != nil {
			b, err := json.Marshal(fc.Args)
			if err != nil {
				b = json.RawMessage("null")
			}
			args = b
		}
		calls = append(calls, pipeline.RawCall{ID: fc.ID, Name: fc.Name, Arguments: convert.Arguments(args)})
	}
	return calls
}

// imageTypes are the image types a function response takes as inline
// data.
var imageTypes = convert.NewImages("the API takes PNG, JPEG and WebP images", "image/png", "image/jpeg", "image/webp")

// Response returns the FunctionResponse part answering call with r. Its
// response is {"output": text} or, when r failed, {"error": text}, the
// text being r's parts other than images, one per line (an image of a
// type the API does not take is a note in its place); its images of the
// types the API takes (PNG, JPEG, WebP) follow as the response's inline
// data parts, in content order, named image-1, image-2… A nil r is an
// error.
func Response(call pipeline.RawCall, r *ptc.Result) *genai.Part {
	if r == nil {
		r = convert.Missing()
	}
	key := "output"
	if r.IsError {
		key = "error"
	}
	fr := &genai.FunctionResponse{
		ID:       call.ID,
		Name:     call.Name,
		Response: map[string]any{key: imageTypes.Join(r.Content)},
	}
	for _, p := range r.Content {
		if imageTypes.Takes(p) {
			fr.Parts = append(fr.Parts, &genai.FunctionResponsePart{InlineData: &genai.FunctionResponseBlob{
				MIMEType:    p.MimeType,
				Data:        p.Data,
				DisplayName: "image-" + strconv.Itoa(len(fr.Parts)+1),
			}})
		}
	}
	return &genai.Part{FunctionResponse: fr}
}

// Bridge executes the model's function calls with an executor, in the
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

// Tools returns the request's tools: what the executor describes for the
// bridge's agent and tool set, converted by [Tools].
func (b *Bridge) Tools() []*genai.Tool {
	return Tools(convert.Env(*b).Describe()...)
}

// Answer runs the FunctionCall parts of resp's first candidate as one
// batch and returns the user content that answers them: one
// FunctionResponse part per call ([Response]), in order. It returns nil,
// and nothing runs, when the candidate calls no function (resp.Text() is
// then the model's answer).
func (b *Bridge) Answer(ctx context.Context, resp *genai.GenerateContentResponse) *genai.Content {
	if resp == nil || len(resp.Candidates) == 0 {
		return nil
	}
	calls := Calls(resp.Candidates[0].Content)
	if len(calls) == 0 {
		return nil
	}
	results := convert.Env(*b).Execute(ctx, calls)
	parts := make([]*genai.Part, len(calls))
	for i, c := range calls {
		parts[i] = Response(c, results[i])
	}
	return genai.NewContentFromParts(parts, genai.RoleUser)
}
