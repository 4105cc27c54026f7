package ptcopenai

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/bridge/internal/convert"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// ResponseTools returns Responses API function tools for schemas (an
// executor's Describe), in order, without strict mode (the pipeline
// validates arguments itself, and strict mode would refuse optional
// properties). A deferred tool is sent with defer_loading.
func ResponseTools(schemas ...registry.ToolSchema) []responses.ToolUnionParam {
	tools := make([]responses.ToolUnionParam, 0, len(schemas))
	for _, s := range schemas {
		fn := &responses.FunctionToolParam{
			Name:       s.Name,
			Parameters: parameters(s.Parameters),
			Strict:     param.NewOpt(false),
		}
		if s.Description != "" {
			fn.Description = param.NewOpt(s.Description)
		}
		if s.DeferLoading {
			fn.DeferLoading = param.NewOpt(true)
		}
		tools = append(tools, responses.ToolUnionParam{OfFunction: fn})
	}
	return tools
}

// ResponseCalls returns the function_call items of output (a Response's
// Output) as raw calls, in order, each with the item's call_id as its ID.
func ResponseCalls(output []responses.ResponseOutputItemUnion) []pipeline.RawCall {
	var calls []pipeline.RawCall
	for _, item := range output {
		if item.Type != "function_call" {
			continue
		}
		fc := item.AsFunctionCall()
		calls = append(calls, pipeline.RawCall{ID: fc.CallID, Name: fc.Name, Arguments: convert.Arguments(json.RawMessage(fc.Arguments))})
	}
	return calls
}

// ResponseOutputs returns the function_call_output items that answer
// calls with results (one per call, in order; a missing or nil result is
// an error). A result without images is its text, one part per line; one
// with images is a list of input_text and input_image items (images as
// data URLs), in content order. An image of a type the API does not take
// is a note in its place.
func ResponseOutputs(calls []pipeline.RawCall, results []*ptc.Result) []responses.ResponseInputItemUnionParam {
	items := make([]responses.ResponseInputItemUnionParam, len(calls))
	results = convert.Complete(calls, results)
	for i, c := range calls {
		parts := results[i].Content
		var item responses.ResponseInputItemUnionParam
		if imageTypes.Any(parts) {
			var list responses.ResponseFunctionCallOutputItemListParam
			for _, p := range parts {
				if imageTypes.Takes(p) {
					list = append(list, responses.ResponseFunctionCallOutputItemUnionParam{
						OfInputImage: &responses.ResponseInputImageContentParam{ImageURL: param.NewOpt(convert.DataURL(p))},
					})
				} else if t := imageTypes.Text(p); t != "" {
					list = append(list, responses.ResponseFunctionCallOutputItemUnionParam{
						OfInputText: &responses.ResponseInputTextContentParam{Text: t},
					})
				}
			}
			item = responses.ResponseInputItemParamOfFunctionCallOutput(list)
		} else {
			item = responses.ResponseInputItemParamOfFunctionCallOutput(imageTypes.Join(parts))
		}
		item.OfFunctionCallOutput.CallID = param.NewOpt(c.ID)
		items[i] = item
	}
	return items
}

// ResponseInput returns output items (a Response's Output) as input items,
// exactly as the API sent them, for a stateless conversation that sends
// the whole history in the next request.
func ResponseInput(output []responses.ResponseOutputItemUnion) []responses.ResponseInputItemUnionParam {
	items := make([]responses.ResponseInputItemUnionParam, len(output))
	for i, item := range output {
		items[i] = param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(item.RawJSON()))
	}
	return items
}

// ResponseTools returns the request's tools: what the executor describes
// for the bridge's agent and tool set, converted by [ResponseTools].
func (b *Bridge) ResponseTools() []responses.ToolUnionParam {
	return ResponseTools(b.env().Describe()...)
}

// AnswerResponse runs the function_call items of resp as one batch and
// returns the function_call_output items that answer them
// ([ResponseOutputs]). It returns nil, and nothing runs, when resp calls
// no function (resp.OutputText() is then the model's answer).
func (b *Bridge) AnswerResponse(ctx context.Context, resp *responses.Response) []responses.ResponseInputItemUnionParam {
	calls := ResponseCalls(resp.Output)
	if len(calls) == 0 {
		return nil
	}
	return ResponseOutputs(calls, b.env().Execute(ctx, calls))
}
