package quickjs

import (
	"embed"
	"errors"
	"io/fs"
	"sync"
)

// build holds the files of the build directory, not its subdirectories:
// the guest, the Intl bundle and the README (which is committed, so the
// pattern always matches); the QuickJS sources build.sh compiles in
// build/src stay out of the binary.
//
//go:embed build/*.*
var build embed.FS

//go:embed js/*.js
var scripts embed.FS

// FileName is the name of the guest module inside the build directory.
const FileName = "ptc-quickjs.wasm"

// IntlFileName is the name of the Intl bundle inside the build directory:
// the FormatJS polyfills and their locale data, which the guest loads from
// the host on first use of Intl (see guest/quickjs/intl).
const IntlFileName = "intl.js"

// Wasm returns the guest module's bytes as [Find] locates them with no
// configured path, or an error matching [ErrNotBuilt] when there is none.
// The slice must not be modified.
func Wasm() ([]byte, error) {
	g, err := Find("")
	if err != nil {
		return nil, err
	}
	return g.Wasm, nil
}

// Intl returns the Intl bundle's bytes as [Find] locates them with no
// configured path, or an error matching [ErrNotBuilt] when there is none.
// The slice must not be modified.
func Intl() ([]byte, error) {
	g, err := Find("")
	if err != nil {
		return nil, err
	}
	return g.Intl()
}

// embedded returns the guest built into build/ when this package was
// compiled, or ok false when it was not built.
func embedded() (g *Guest, ok bool, err error) {
	wasm, err := build.ReadFile("build/" + FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if _, err := fs.Stat(build, "build/"+IntlFileName); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	// The bundle (2.4 MB) is copied out of the binary only when a run
	// first uses Intl.
	intl := sync.OnceValues(func() ([]byte, error) { return build.ReadFile("build/" + IntlFileName) })
	return &Guest{Wasm: wasm, intl: intl, Source: SourceEmbedded}, true, nil
}

// Script returns the source of one of the guest's own scripts in
// guest/quickjs/js ("bootstrap", "inspect", "web"), which the host
// compiles to bytecode and hands to the guest.
func Script(name string) ([]byte, error) {
	return scripts.ReadFile("js/" + name + ".js")
}
