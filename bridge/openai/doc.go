// Package ptcopenai connects a ptc executor to the OpenAI Chat Completions
// and Responses APIs through the official Go SDK
// (github.com/openai/openai-go/v3).
//
// It is its own module, so that the library's go.mod does not carry the
// SDK. It converts in both directions and nothing more, for any executor
// with ptc.ToolExecutor's methods (the PTC executor, the native one, a
// ptc.Mounts): the executor's tool schemas become function tools, the
// model's function calls become a batch of calls, and the results become
// the next request's messages or input items.
//
// Neither API has an error flag for a tool's output: a failed call's
// content says so itself ("Error: ...").
//
// # Chat Completions
//
// A tool message holds text only, so each result's text goes into the
// tool message answering its call, and its images follow, after the last
// tool message, in one user message: each image after the text that
// attributes it ("Image from render_chart (call 3):", the parts the PTC
// executor marks with registry.Attribution), or, for a native tool's
// image, after "Image from <tool> (tool call <id>):".
//
//	br := ptcopenai.New(ex) // then br.Agent, br.ToolSet, br.Approver as needed
//	params := openai.ChatCompletionNewParams{Model: model, Tools: br.ChatTools(), Messages: messages}
//	for {
//		completion, err := client.Chat.Completions.New(ctx, params)
//		if err != nil { ... }
//		msg := completion.Choices[0].Message
//		params.Messages = append(params.Messages, msg.ToParam())
//		answer := br.AnswerChat(ctx, msg)
//		if answer == nil {
//			break // no tool call: msg.Content is the final answer
//		}
//		params.Messages = append(params.Messages, answer...)
//	}
//
// # Responses
//
// A function_call_output takes images: a result with images is a list of
// input_text and input_image items (images as data URLs), one without is
// its text.
//
//	params := responses.ResponseNewParams{Model: model, Tools: br.ResponseTools(), Input: ...}
//	for {
//		resp, err := client.Responses.New(ctx, params)
//		if err != nil { ... }
//		outputs := br.AnswerResponse(ctx, resp)
//		if outputs == nil {
//			break // resp.OutputText() is the final answer
//		}
//		// Stateless: send the output back with the results (or set
//		// PreviousResponseID and send the results alone).
//		input = append(input, ptcopenai.ResponseInput(resp.Output)...)
//		input = append(input, outputs...)
//		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
//	}
package ptcopenai
