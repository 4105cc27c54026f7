// Package leb128 writes the LEB128 integers of the WebAssembly binary
// format, for the packages that write or rewrite wasm modules (fuel,
// wasmgen).
package leb128
