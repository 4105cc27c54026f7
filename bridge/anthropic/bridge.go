package ptcanthropic

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

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

// Tools returns the Messages API tool definitions for schemas (an
// executor's Describe), in order. Each input schema is sent exactly as the
// registry wrote it (its bytes, property order included, so a cached
// prompt prefix stays the same); the returned params' InputSchema fields
// therefore read as empty. A deferred tool is sent with defer_loading.
func Tools(schemas ...registry.ToolSchema) []anthropic.ToolUnionParam {
	tools := make([]anthropic.ToolUnionParam, 0, len(schemas))
	for _, s := range schemas {
		t := &anthropic.ToolParam{
			Name:        s.Name,
			InputSchema: inputSchema(s.Parameters),
		}
		if s.Description != "" {
			t.Description = param.NewOpt(s.Description)
		}
		if s.DeferLoading {
			t.DeferLoading = param.NewOpt(true)
		}
		tools = append(tools, anthropic.ToolUnionParam{OfTool: t})
	}
	return tools
}

// inputSchema sends raw as the tool's input schema; an empty one is an
// object without properties.
func inputSchema(raw json.RawMessage) anthropic.ToolInputSchemaParam {
	return param.Override[anthropic.ToolInputSchemaParam](convert.ObjectSchema(raw))
}

// Calls returns the tool_use blocks of content (a Message's Content) as
// raw calls, in order, each with the block's id as its ID.
func Calls(content []anthropic.ContentBlockUnion) []pipeline.RawCall {
	var calls []pipeline.RawCall
	for _, b := range content {
		if b.Type != "tool_use" {
			continue
		}
		u := b.AsToolUse()
		calls = append(calls, pipeline.RawCall{ID: u.ID, Name: u.Name, Arguments: convert.Arguments(u.Input)})
	}
	return calls
}

// ToolResult returns the tool_result block answering the tool_use block
// toolUseID with r: its text parts as text blocks, its images as base64
// image blocks with their media type, and is_error when r failed. An
// image of a type the API does not take (it takes JPEG, PNG, GIF and
// WebP) is a text block saying so, and a JSON or resource part is its
// text (as ptc.ContentText renders it). A nil r is an error result.
func ToolResult(toolUseID string, r *ptc.Result) anthropic.ContentBlockParamUnion {
	if r == nil {
		return anthropic.NewToolResultBlock(toolUseID, convert.MissingText, true)
	}
	block := &anthropic.ToolResultBlockParam{ToolUseID: toolUseID}
	if r.IsError {
		block.IsError = param.NewOpt(true)
	}
	for _, p := range r.Content {
		if c, ok := resultContent(p); ok {
			block.Content = append(block.Content, c)
		}
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: block}
}

// images are the image types the Messages API takes.
var images = convert.NewImages("the API takes JPEG, PNG, GIF and WebP images",
	string(anthropic.Base64ImageSourceMediaTypeImageJPEG),
	string(anthropic.Base64ImageSourceMediaTypeImagePNG),
	string(anthropic.Base64ImageSourceMediaTypeImageGIF),
	string(anthropic.Base64ImageSourceMediaTypeImageWebP),
)

// resultContent converts one part; ok is false for a part with nothing to
// send (an empty text, which the API refuses).
func resultContent(p registry.Part) (anthropic.ToolResultBlockParamContentUnion, bool) {
	if images.Takes(p) {
		return anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
			Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
				Data:      base64.StdEncoding.EncodeToString(p.Data),
				MediaType: anthropic.Base64ImageSourceMediaType(p.MimeType),
			}},
		}}, true
	}
	text := images.Text(p)
	if text == "" {
		return anthropic.ToolResultBlockParamContentUnion{}, false
	}
	return anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: text}}, true
}

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

// Tools returns the request's tool definitions: what the executor
// describes for the bridge's agent and tool set, converted by [Tools].
func (b *Bridge) Tools() []anthropic.ToolUnionParam {
	return Tools(convert.Env(*b).Describe()...)
}

// Answer runs the tool_use blocks of msg as one batch and returns the user
// message that answers them: one tool_result block per tool_use block, in
// order. It returns nil, and nothing runs, when msg holds no tool_use
// block (its text is then the model's answer).
func (b *Bridge) Answer(ctx context.Context, msg *anthropic.Message) *anthropic.MessageParam {
	calls := Calls(msg.Content)
	if len(calls) == 0 {
		return nil
	}
	results := convert.Env(*b).Execute(ctx, calls)
	blocks := make([]anthropic.ContentBlockParamUnion, len(calls))
	for i, c := range calls {
		blocks[i] = ToolResult(c.ID, results[i])
	}
	answer := anthropic.NewUserMessage(blocks...)
	return &answer
}
