// Package ptceino makes a ptc executor's tools the tools of CloudWeGo
// Eino agents and graphs (github.com/cloudwego/eino, v0): run_code, and
// the direct tools in hybrid mode, as Eino tools, so that a ReAct agent
// (adk.ChatModelAgent, flow/agent/react) or a graph's ToolsNode runs the
// model's programs in ptc's sandbox.
//
// It is its own module, so that the library's go.mod does not carry
// Eino. It converts and nothing more: each tool's schema becomes its
// schema.ToolInfo ([Info]), a call runs through the executor, and its
// result becomes the tool's output. Eino runs each tool call of a message
// on its own, so each is a batch of one call.
//
//	br := ptceino.New(ex) // then br.Agent, br.ToolSet, br.Approver, br.Suspend as needed
//	tools, err := br.EnhancedTools() // or br.Tools() for text-only results
//	if err != nil { ... }
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Name: "analyst", Description: "...", Model: chatModel,
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
//	})
//
// # Results
//
// [Bridge.Tools] are tool.InvokableTools: a result is its text, one part
// per line, as the model would see it ("Error: code run failed (KIND):
// ..." for a failed program, returned as the tool's output, not as an
// error, so that the model reads it and the agent goes on); an image is a
// note in its place. [Bridge.EnhancedTools] are
// tool.EnhancedInvokableTools, whose multimodal results carry the images
// as base64 image parts ([Result]); whether the model sees them is up to
// the chat model's implementation.
//
// # Approvals as interrupts
//
// By default an ask waits for [Bridge.Approver], as on the other bridges.
// With [Bridge.Suspend], an ask of a program's subcall suspends the run
// (ptc.RunOptions.SuspendAsks) and interrupts the agent with Eino's own
// mechanism (tool.StatefulInterrupt): the interrupt's Info is an
// [*Approval] (the tool, its arguments, the policy's question), its state
// the run's signed continuation, kept in the agent's checkpoint. Resume
// the interrupt with a pipeline.Answer as its data (adk.Runner's
// ResumeWithParams, Targets keyed by the interrupt's ID; a graph's
// compose.ResumeWithData): the tool finds the state with
// tool.GetInterruptState and continues the run with ptc.Executor.Resume,
// which answers the calls made before the suspension from the
// continuation, so no tool is called twice. A later ask interrupts again.
// An interrupt that is not the resume's target interrupts again with the
// same state. Suspend needs a *ptc.Executor made with
// Config.ContinuationKey and a checkpoint store on the runner; a direct
// call's ask (hybrid mode) still goes to Approver.
//
//	iter := runner.Query(ctx, question, adk.WithCheckPointID(id))
//	// ... an event whose Action.Interrupted holds an InterruptCtx with
//	// IsRootCause and Info an *ptceino.Approval: ask the person, then
//	iter, err = runner.ResumeWithParams(ctx, id, &adk.ResumeParams{
//		Targets: map[string]any{interruptID: pipeline.Answer{Approved: true}},
//	})
package ptceino
