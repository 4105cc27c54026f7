// Package bench measures ptc side by side with other JavaScript engines
// (issue 15): the bare host and the executor against goja, QuickJS-ng
// natively through cgo (quickjs-go), our guest hosted by wasmtime, and the
// npm packages run, quickjs-emscripten and isolated-vm, driven by Node
// scripts in node/.
//
// Every engine runs the same programs ([Workloads]): each program is the
// body of an async function that may call three host functions, tools.echo
// (returns its argument), tools.sleep({ms}) (settles after ms
// milliseconds) and tools.wait({}) (blocks until the benchmark releases it;
// see [Gate]). An engine is measured through the [Engine] interface; the Go
// engines implement [Sandbox] and are adapted by [GoEngine]. The command in
// cmd/ptcbench runs interleaved rounds of every workload on every engine
// and writes RESULTS.md ([Report]).
//
// This is its own module so that none of the peers enters the library's
// go.mod.
package bench
