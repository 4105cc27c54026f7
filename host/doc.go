// Package host runs one JavaScript program per call in a fresh instance of
// the QuickJS guest on wazero.
//
// A [Host] compiles the guest once and is safe for concurrent use; each
// [Host.Run] instantiates a new module with no filesystem, network,
// arguments or environment, feeds it the program, serves its subcalls
// through the caller's [Dispatcher] and closes the module when the run ends.
// Limits (wall time, memory, JS stack, output, error text, subcalls,
// argument and result size) are enforced per run; a limit or a cancelled
// context stops the guest and the run returns a structured [Outcome] that
// says which (the program's own time limit, the caller's deadline, the
// caller's cancellation, or a shutdown).
//
// Stopping is sound: the host instruments the guest with fuel checks when
// it compiles it, so whatever the guest runs — JavaScript, a long C
// built-in, the parser, a garbage collection — it polls the host within
// bounded work, stops soon after its deadline and never holds up Go's
// stop-the-world (RATIONALE.md, "Why fuel?"). [Host.Close] refuses new
// runs, stops the running ones once its context is done, and waits for
// them.
//
// The guest's imports (module "ptc") are write, interrupted, call_start,
// call_wait(timeout_ns) (which also serves the guest's timers: it returns 0
// when the timeout passes first), call_read, finish, script (the bytecode
// of the guest's own scripts, which the host compiles once: bootstrap,
// inspect, web and the Intl bundle, the last two loaded on first use) and
// collate (Intl.Collator's CLDR collation, golang.org/x/text/collate). A
// program the guest cannot parse is tried as TypeScript (esbuild), in the
// same instance, with positions mapped back (RATIONALE.md).
//
// The host knows nothing of tool registries or policy: a subcall is a name
// and JSON arguments handed to the dispatcher, and its [Reply] is handed
// back to the program, which awaits it as a promise.
package host
