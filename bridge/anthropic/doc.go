// Package ptcanthropic connects a ptc executor to the Anthropic Messages API
// through the official Go SDK (github.com/anthropics/anthropic-sdk-go/v2).
//
// It is its own module, so that the library's go.mod does not carry the
// SDK. It converts in both directions and nothing more, for any executor
// with ptc.ToolExecutor's methods (the PTC executor, the native one, a
// ptc.Mounts): the executor's tool schemas become the request's tools ([Tools]), the tool_use blocks
// of the model's reply become a batch of calls ([Calls]), and the results
// become the tool_result blocks of the next user message ([ToolResult]),
// with images as base64 image blocks and failures marked is_error.
// [Bridge.Answer] does the three steps for one reply.
//
// A loop in PTC mode:
//
//	br := ptcanthropic.New(ex) // then br.Agent, br.ToolSet, br.Approver as needed
//	tools := br.Tools() // run_code (and the direct tools in hybrid mode)
//	for {
//		msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{
//			Model: model, MaxTokens: 4096, Tools: tools, Messages: messages,
//		})
//		if err != nil { ... }
//		messages = append(messages, msg.ToParam())
//		answer := br.Answer(ctx, msg)
//		if answer == nil {
//			break // no tool_use: msg holds the final answer
//		}
//		messages = append(messages, *answer)
//	}
package ptcanthropic
