// Package fuel instruments a WebAssembly module so that no path through it
// runs long without calling the host.
//
// Go cannot preempt compiled wasm that never calls into Go: a garbage
// collection, and with it every goroutine of the process, waits until the
// guest leaves wasm, and a cancelled run goes on until it does. Instrument
// adds a fuel counter (a mutable i32 global) that every loop iteration and
// every function entry decrements; when it runs out, a small added
// function refills it and calls the module's poll import (ptc.interrupted
// for our guest), and traps if the import returns nonzero. Every unbounded
// path in wasm goes through a loop header or a function entry, so the
// guest polls the host within a bounded amount of work whatever it runs: a
// JavaScript loop, a long C built-in, the parser, the regex engine or a
// garbage collection of a huge heap.
//
// The instrumentation adds one global, one type and one function at the
// end of their index spaces, so no existing index changes, and inserts
// code only at the start of loop bodies and function bodies, so no branch
// depth changes.
package fuel
