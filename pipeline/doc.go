// Package pipeline is the shared execution pipeline every tool call goes
// through: direct (native) calls a model makes and the subcalls of a
// run_code program alike.
//
// # Stages
//
// A call runs through these stages, in order:
//
//  1. Prepare: the tool is looked up through the batch's
//     [registry.ToolSet] ([registry.Registry.Executable]); the arguments
//     are checked against the size and depth limits (Config.ArgumentBytes,
//     Config.ArgumentDepth) before anything parses them, then validated
//     and frozen (a copy nobody can mutate afterwards); the call gets an
//     opaque correlation token.
//  2. PreExecute: an ordered, extensible waterfall of
//     [PreExecuteListener]s decides allow, deny (a model-facing reason and
//     optional [ErrorInfo]) or ask. Listeners cannot rewrite arguments.
//  3. Guards: monotonic synchronous [Guard]s; a reason denies, and nothing
//     later can turn the denial back into permission. Then an ask goes to
//     the caller's [Approver]; without one the call fails with
//     ASK_UNANSWERED.
//  4. Execute wrappers: around-dispatch [Wrapper]s (timeout, retry,
//     metrics). Only a wrapper may replace the body's context; the pipeline
//     fuses the caller's context back in before the body runs.
//     [TimeoutPolicy] enforces a tool's declared TimeoutMs.
//  5. Dispatch: the tool body, with panics recovered; then the value is
//     checked against the tool's output schema
//     ([registry.Output]): a mismatch is TOOL_FAILED.
//  6. ProjectContent: the tool's execution-prepared content, or its
//     rendered output.
//  7. PostExecute: [PostExecuteListener]s inspect or replace content or
//     value, block with feedback, or attach ordered extra context.
//  8. FinalizeContent: the tool's final content transform.
//  9. Result: [ResultListener]s observe the frozen [Outcome].
//
// # Outcomes and codes
//
// An [Outcome] keeps the canonical value (for programmatic callers, see
// [Outcome.ValueJSON]) beside the model-facing content; replacing the
// content does not remove the value. A failure ([Outcome.Err]) is an
// [*Error] with one of the codes UNKNOWN_TOOL, INVALID_ARGUMENTS, DENIED,
// ASK_UNANSWERED, TOOL_FAILED, TOOL_TIMEOUT, ABORTED_BEFORE_DISPATCH,
// ABORTED, POST_EXECUTE_BLOCKED, UNAVAILABLE and TOOL_ACTIVATION_FAILED; it matches the
// sentinel of its code ([ErrDenied], [registry.ErrUnknownTool], ...) with
// [errors.Is], and [CodeOf] reads the code. Its content is exactly one
// text part "Error: <reason>", and structured detail stays out of it: a
// denial's [ErrorInfo] is on the error ([Error].Info) and in the slog
// records. The presentation descriptors a tool declares (PresentCall,
// PresentResult) are projected beside the content for host-local consumers
// and never reach the model: [Invocation.PresentCall] when the call is
// prepared, [Outcome.PresentResult] after a success.
//
// Cancellation is cooperative, and what happened first is what is
// reported. Dispatch means invoking the tool body: a wrapper that answers
// without calling next (from a cache, say) dispatched nothing. If the
// caller's context is done before the wrappers run, none runs and the call
// fails with ABORTED_BEFORE_DISPATCH. Otherwise cancellation replaces only
// a success, or an error that is the caller's own cancellation: with
// ABORTED if the body was dispatched, else with ABORTED_BEFORE_DISPATCH.
// Denials, wrapper and tool failures, post-execute blocks and timeouts stay
// more specific, even when the caller cancelled while they happened. A
// panicking tool fails with TOOL_FAILED and the panic message; it never
// crashes the process.
//
// # Batches and single calls
//
// [Pipeline.Execute] runs a raw [Batch]: parallel-mode calls concurrently
// (bounded by Config.MaxParallel), serial calls alone and in order, results
// in call order. [Pipeline.Call] runs a single call; [Pipeline.Prepare]
// and [Pipeline.Run] are its two halves, which the run_code executor uses
// for a program's subcalls (it admits a prepared call in issue order, by
// its mode, before it runs it), with [Env].Parent marking them nested.
//
// # Logging
//
// The pipeline logs nothing by itself. A batch or call given a Logger
// ([Batch].Logger, [Env].Logger) writes a log/slog record when each call
// starts and one with its outcome; [SlogResult] writes the outcome's
// record of every call the pipeline runs.
package pipeline
