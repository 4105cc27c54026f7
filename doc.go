// Package ptc is the programmatic tool calling executor: it exposes one
// tool, run_code, whose argument is a JavaScript program, and runs each
// run_code call in a fresh QuickJS sandbox (package host) with a generated
// SDK (package sdkgen) over the tools the calling agent may use.
//
// Every subcall the program makes (await tools.get_weather({city: "Paris"}))
// goes through the same pipeline (package pipeline) as an ordinary tool
// call, with the batch's tool set, agent and approver, so lookup, argument
// validation, policies, guards, approvals, timeouts and post-execute
// listeners apply to it exactly as to a direct call. The program's printed
// lines and return value come back as the run_code call's content, in the
// exact words of docs/ARCHITECTURE.md; images that successful subcalls returned follow
// it as source-attributed context.
//
// # Mounting
//
// An agent runtime in PTC mode gives the model Executor.Describe's schemas
// instead of the tools' own schemas, and hands each batch of the model's
// calls to Executor.Execute:
//
//	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
//	tools := ex.Describe(agent, set)       // run_code, the only tool the model sees
//	results := ex.Execute(ctx, pipeline.Batch{Calls: calls, ToolSet: set, Agent: agent})
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
// # Subcalls
//
// A program issues subcalls in some order (host.Call.Seq); the executor
// admits them strictly in that order: consecutive parallel-mode calls run
// together, up to the in-flight limit, and a serial call runs alone, after
// everything issued before it finished and before anything issued after it
// starts, as in a batch. The subcall limit, the in-flight limit and the
// other limits of a run are Config.Limits (host.Limits). A subcall's log
// events go to the batch's Log, nested under the run_code call's
// correlation token; they are never root events.
//
// # Cancellation
//
// Cancelling the context given to Execute stops the running programs within
// milliseconds: their pending subcalls see their contexts cancelled (and end
// as ABORTED or ABORTED_BEFORE_DISPATCH) and each run_code result is
// "Error: code run failed (aborted): ...".
package ptc
