// Package ptcgenkit makes a ptc executor's tools the tools of Firebase
// Genkit's generation loop (github.com/firebase/genkit/go, v1): run_code,
// and the direct tools in hybrid mode, as Genkit tools, so that
// genkit.Generate runs the model's programs in ptc's sandbox.
//
// It is its own module, so that the library's go.mod does not carry
// Genkit. It converts and nothing more: each tool's schema becomes a
// Genkit multipart tool's input schema, a tool request runs through the
// executor, and its result becomes the tool's response ([Response]): the
// output is the result's text, one part per line, as the model would see
// it ("Error: code run failed (KIND): ..." for a failed program, given
// as the output, not as an error, which would end the generation), and
// the images are the response's media parts (data URLs). Genkit runs each
// tool request of a message on its own, so each is a batch of one call.
//
//	br := ptcgenkit.New(ex) // then br.Agent, br.ToolSet, br.Approver, br.Suspend as needed
//	tools, err := br.Tools()
//	if err != nil { ... }
//	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(tools...),
//		ai.WithPrompt("How did the regions sell?"))
//
// # Approvals as interrupts
//
// By default an ask waits for [Bridge.Approver], as on the other bridges.
// With [Bridge.Suspend], an ask of a program's subcall suspends the run
// (ptc.RunOptions.SuspendAsks) and interrupts the generation with a
// Genkit tool interrupt: resp.FinishReason is "interrupted", and each of
// resp.Interrupts() carries an [Approval] (ai.InterruptAs reads it: the
// tool, its arguments, the policy's question, and the run's signed
// continuation). Decide, then restart the interrupted request with
// [Bridge.Restart], which is Genkit's RestartWith carrying the decision
// and the continuation; the restarted tool resumes the run with
// ptc.Executor.Resume, which answers the calls made before the suspension
// from the continuation, so no tool is called twice. A refusal resumes
// the run too: the program sees its call rejected with DENIED and may go
// on. A later ask interrupts again.
//
//	if resp.FinishReason == ai.FinishReasonInterrupted {
//		restart, err := br.Restart(resp.Interrupts()[0], pipeline.Answer{Approved: true})
//		if err != nil { ... }
//		resp, err = genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(tools...),
//			ai.WithMessages(resp.History()...), ai.WithToolRestarts(restart))
//	}
//
// Answering an interrupt with Genkit's RespondWith (ai.WithToolResponses)
// instead gives the model that output in place of the program's result:
// the suspended run is dropped, never resumed. Genkit (v1.4) keeps only
// the output of a restarted tool, not its content: the images of a
// resumed run do not reach the model (their "Image from ..." lines do).
// Suspend needs a *ptc.Executor made with Config.ContinuationKey; a
// direct call's ask (hybrid mode) still goes to Approver.
package ptcgenkit
