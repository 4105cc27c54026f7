package ptcopenai

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/bridge/internal/convert"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// ChatTools returns Chat Completions function tools for schemas (an
// executor's Describe), in order.
func ChatTools(schemas ...registry.ToolSchema) []openai.ChatCompletionToolUnionParam {
	tools := make([]openai.ChatCompletionToolUnionParam, 0, len(schemas))
	for _, s := range schemas {
		fn := openai.FunctionDefinitionParam{Name: s.Name, Parameters: parameters(s.Parameters)}
		if s.Description != "" {
			fn.Description = param.NewOpt(s.Description)
		}
		tools = append(tools, openai.ChatCompletionFunctionTool(fn))
	}
	return tools
}

// ChatCalls returns the function tool calls of msg as raw calls, in
// order, each with the tool call's id as its ID.
func ChatCalls(msg openai.ChatCompletionMessage) []pipeline.RawCall {
	var calls []pipeline.RawCall
	for _, tc := range msg.ToolCalls {
		if tc.Type != "function" {
			continue
		}
		calls = append(calls, pipeline.RawCall{ID: tc.ID, Name: tc.Function.Name, Arguments: convert.Arguments(json.RawMessage(tc.Function.Arguments))})
	}
	return calls
}

// ChatMessages returns the messages that answer calls with results (one
// per call, in order; a missing or nil result is an error): a tool
// message per call holding its text, then, if any result holds images, one
// user message with them. An image the executor attributed
// (registry.Part.Attribution: the PTC executor's "Image from <tool> (call
// <n>):" and the images after it) moves there with its attribution text;
// another image is introduced by "Image from <tool> (tool call <id>):".
// An image of a type the API does not take is a note in its place.
func ChatMessages(calls []pipeline.RawCall, results []*ptc.Result) []openai.ChatCompletionMessageParamUnion {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(calls)+1)
	var images []openai.ChatCompletionContentPartUnionParam
	results = convert.Complete(calls, results)
	for i, c := range calls {
		var toolParts []registry.Part
		moved, captioned := false, false
		for _, p := range results[i].Content {
			switch {
			case p.Attribution != nil && imageTypes.Takes(p):
				images = append(images, imagePart(p))
				moved = true
			case p.Attribution != nil:
				if t := imageTypes.Text(p); t != "" {
					images = append(images, openai.TextContentPart(t))
				}
			case imageTypes.Takes(p):
				if !captioned {
					images = append(images, openai.TextContentPart("Image from "+c.Name+" (tool call "+c.ID+"):"))
					captioned = true
				}
				images = append(images, imagePart(p))
				moved = true
			default:
				toolParts = append(toolParts, p)
			}
		}
		t := imageTypes.Join(toolParts)
		switch {
		case t == "" && moved:
			t = "(the result's images follow in the next message)"
		case t == "":
			t = "(no content)"
		}
		msgs = append(msgs, openai.ToolMessage(t, c.ID))
	}
	if len(images) > 0 {
		msgs = append(msgs, openai.UserMessage(images))
	}
	return msgs
}

// imagePart returns an image as a content part holding its data URL.
func imagePart(p registry.Part) openai.ChatCompletionContentPartUnionParam {
	return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: convert.DataURL(p)})
}

// ChatTools returns the request's tools: what the executor describes for
// the bridge's agent and tool set, converted by [ChatTools].
func (b *Bridge) ChatTools() []openai.ChatCompletionToolUnionParam {
	return ChatTools(b.env().Describe()...)
}

// AnswerChat runs the function tool calls of msg as one batch and returns
// the messages that answer them ([ChatMessages]), to append after msg.
// It returns nil, and nothing runs, when msg calls no function (its
// content is then the model's answer).
func (b *Bridge) AnswerChat(ctx context.Context, msg openai.ChatCompletionMessage) []openai.ChatCompletionMessageParamUnion {
	calls := ChatCalls(msg)
	if len(calls) == 0 {
		return nil
	}
	return ChatMessages(calls, b.env().Execute(ctx, calls))
}
