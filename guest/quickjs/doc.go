// Package quickjs holds the QuickJS-ng guest compiled to wasm32-wasi,
// which package host runs programs in.
//
// The module is a build output (see build.sh): QuickJS-ng sources are
// fetched from a pinned module, checksum-verified, patched and compiled
// with our glue.c. Neither the sources nor the .wasm are committed. In a
// clone, `make guest` builds it into build/, where it is embedded when
// this package is compiled ([Files]). A copy of the module fetched by
// `go get` has no build output: `ptc-run guest build` builds the same
// bytes into the user cache directory, where host.New looks for them.
// When no guest is found, host.New fails with an error matching
// [ErrNotBuilt], whose message names that command.
package quickjs
