// Package ptc is the programmatic tool calling executor: it offers the
// model one tool, run_code, whose argument is a JavaScript or TypeScript
// program, and runs each run_code call in a fresh sandbox (package host)
// with a generated SDK over the tools the calling agent may use.
//
// Every subcall the program makes (await tools.get_weather({city: "Paris"}))
// goes through the same pipeline (package pipeline) as an ordinary tool
// call, with the batch's tool set, agent and approver, so lookup, argument
// validation, policies, guards, approvals, timeouts and post-execute
// listeners apply to it exactly as to a direct call. The program's printed
// lines and return value come back as the run_code call's content, in the
// words docs/ARCHITECTURE.md fixes; images that successful subcalls
// returned follow it as source-attributed context.
//
// # The front door
//
// [New] makes an [Executor] over a pipeline; [Executor.Run] runs one
// program; [Executor.Describe] gives the model its tools (run_code first,
// then, in hybrid mode, the tools marked for direct calls) and
// [Executor.Execute] runs a batch of the model's calls, one [Result] per
// call. [RunOptions] add limits, a deterministic clock, a recording
// (package recording) or suspension for approvals; [Executor.Replay] and
// [Executor.Resume] run a program again from a recording or a
// continuation. [Executor.Close] shuts it down.
//
//	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
//	r, err := ex.Run(ctx, `return (await tools.get_weather({city: "Paris"})).tempC`, ptc.RunOptions{})
//	fmt.Println(registry.PlainText(r.Content))
//
// # Errors
//
// [Result.Err] is nil for a call that succeeded, else a [*RunError]:
// branch on it with errors.Is against this package's sentinels for what
// the program did ([ErrSyntax], [ErrTimeout], [ErrMemory], [ErrAborted],
// ...) and against the pipeline's for a call that never ran a program
// (registry.ErrUnknownTool, registry.ErrInvalidArguments,
// pipeline.ErrDenied, ...). An aborted run also matches its context's
// cause (context.Canceled, context.DeadlineExceeded, [ErrShutdown]).
//
// # Large tool sets
//
// The description declares the tools within a byte budget,
// Config.DeclarationBytes (32 KiB by default). While every visible tool's
// full declaration fits, they are all there; past it, and always for
// tools marked DeferLoading, tools are declared in short, by name and
// first sentence, and the program looks them up with
// await tools.$search(query) and await tools.$describe(name), which answer
// inside the sandbox with full declarations. Every tool stays callable.
//
// # Subcalls and cancellation
//
// A program's subcalls are admitted strictly in the order it issued them:
// consecutive parallel-mode calls run together, up to the in-flight limit,
// and a serial call runs alone, as in a batch. A subcall's log records go
// to the batch's Logger, nested under the run_code call's correlation
// token.
// Cancelling the context given to Execute stops the running programs
// within milliseconds: their pending subcalls see their contexts cancelled
// and each run_code result is "Error: code run failed (aborted): ...".
package ptc
