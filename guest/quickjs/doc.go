// Package quickjs holds the QuickJS-ng guest compiled to wasm32-wasi,
// which package host runs programs in.
//
// The guest is a committed build artifact, as C compiled to wasm and
// embedded in Go usually ships: ptc-quickjs.wasm and its Intl bundle
// intl.js sit beside the pinned inputs they are built from and are
// embedded in this package ([Files]), so a module fetched with `go get`
// runs programs with nothing but Go, on any platform Go builds for.
//
// The pinned inputs stay the source of truth. build.sh fetches the
// QuickJS-ng sources from a pinned module (checksum-verified), applies
// the patches in csrc/ and compiles them with csrc/glue.c (clang and
// wasi-libc); intl/build.sh bundles the pinned FormatJS packages and
// their locale data. `make guest` runs both and writes the artifact, its
// digests and inputs.sha256 (the digests of the inputs it was built
// from); `make guest-check` rebuilds it in a scratch directory and fails
// when one byte differs, which CI runs. A change to the inputs is
// committed with the artifact rebuilt from it: a test fails when
// inputs.sha256 no longer describes them. `ptc-run guest build`
// builds the same bytes from a copy of the module for whoever wants to
// see them built (RATIONALE.md, "Why commit the built guest?").
package quickjs
