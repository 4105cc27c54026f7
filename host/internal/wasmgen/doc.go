// Package wasmgen assembles tiny WebAssembly modules in memory, so tests can
// build hostile guests without external tools. It knows just enough of the
// binary format for that: types, function imports, functions, one memory,
// exports, code and active data segments, and a handful of instructions.
package wasmgen
