// Package quickjs exposes the QuickJS-ng guest compiled to wasm32-wasi.
//
// The module is a build output of `make guest` (see build.sh): QuickJS-ng
// sources are fetched from a pinned module, checksum-verified, patched and
// compiled with our glue.c. Neither the sources nor the .wasm are committed.
// When the module was not built, [Wasm] returns [ErrNotBuilt].
package quickjs

import (
	"embed"
	"errors"
	"io/fs"
)

//go:embed build
var build embed.FS

//go:embed js/*.js
var scripts embed.FS

// FileName is the name of the guest module inside the build directory.
const FileName = "ptc-quickjs.wasm"

// ErrNotBuilt reports that the guest module is missing from this build.
var ErrNotBuilt = errors.New("quickjs guest not built: run make guest")

// Wasm returns the guest module's bytes, or ErrNotBuilt when the module was
// not built before this package was compiled. The slice must not be modified.
func Wasm() ([]byte, error) {
	b, err := build.ReadFile("build/" + FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// IntlFileName is the name of the Intl bundle inside the build directory:
// the FormatJS polyfills and their locale data, which the guest loads from
// the host on first use of Intl (see guest/quickjs/intl).
const IntlFileName = "intl.js"

// Intl returns the Intl bundle's bytes, or ErrNotBuilt when it was not
// built before this package was compiled. The slice must not be modified.
func Intl() ([]byte, error) {
	b, err := build.ReadFile("build/" + IntlFileName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Script returns the source of one of the guest's own scripts in
// guest/quickjs/js ("bootstrap", "inspect", "web"), which the host
// compiles to bytecode and hands to the guest.
func Script(name string) ([]byte, error) {
	return scripts.ReadFile("js/" + name + ".js")
}
