// Package quickjs exposes the QuickJS-ng guest compiled to wasm32-wasi.
//
// The module is a build output (see build.sh): QuickJS-ng sources are
// fetched from a pinned module, checksum-verified, patched and compiled
// with our glue.c. Neither the sources nor the .wasm are committed. In a
// clone, `make guest` builds it into build/, where it is embedded when
// this package is compiled. A copy of the module fetched by `go get` has
// no build output: `ptc-run guest build` ([BuildCommand]) builds the
// same bytes into the user cache directory, where [Find] looks for them.
// When no guest is found, [Wasm] and [Find] return [ErrNotBuilt].
package quickjs
