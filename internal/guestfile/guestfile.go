// Package guestfile locates the QuickJS guest that package host runs: a
// path or $PTC_GUEST, else the one embedded in package quickjs
// (quickjs.Files); and it names the files and digests that build and
// check it. The host, ptc-run and the benchmarks share it; the guest a
// user chooses is chosen through host.Config and the environment.
package guestfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/internal/modinfo"
)

// Environment variables the locator reads.
const (
	// EnvGuest names a guest to use (see [Find]): a .wasm file with the
	// Intl bundle beside it, or a directory holding both.
	EnvGuest = "PTC_GUEST"
	// EnvCacheDir names the cache directory (see [CacheDir]).
	EnvCacheDir = "PTC_CACHE_DIR"
)

// SourceEmbedded is [Guest.Source] for the guest embedded in the binary.
const SourceEmbedded = "embedded"

// FileName is the name of the guest module inside the build directory.
const FileName = "ptc-quickjs.wasm"

// IntlFileName is the name of the Intl bundle inside the build directory:
// the FormatJS polyfills and their locale data, which the guest loads from
// the host on first use of Intl (see guest/quickjs/intl).
const IntlFileName = "intl.js"

// WasmDigest returns the recorded sha256 of the guest module, in hex.
func WasmDigest() string { return recorded(quickjs.Files(), FileName) }

// IntlDigest returns the recorded sha256 of the Intl bundle, in hex.
func IntlDigest() string { return recorded(quickjs.Files(), IntlFileName) }

// recorded returns the digest recorded for the build output name in
// fsys's name.sha256, or "" when there is none.
func recorded(fsys fs.FS, name string) string {
	b, err := fs.ReadFile(fsys, name+".sha256")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// BuildCommand returns the command that builds the guest for this version
// of the module into [CacheGuestDir], which quickjs.ErrNotBuilt names.
func BuildCommand() string { return modinfo.GuestBuildCommand() }

// Guest is a located guest: the module and the Intl bundle it loads.
type Guest struct {
	// Wasm is the guest module. It must not be modified.
	Wasm []byte
	// Source says where the guest was found: SourceEmbedded, or the path
	// of the .wasm file.
	Source string

	intl func() ([]byte, error)
}

// Intl returns the Intl bundle. The embedded guest's is read on the first
// call (a guest read from files was read and checked by [Load]). It must
// not be modified. A Guest that [Find] or [Load] did not return has none.
func (g *Guest) Intl() ([]byte, error) {
	if g.intl == nil {
		return nil, errors.New("guestfile: this Guest has no Intl bundle: Find or Load returns one that has")
	}
	return g.intl()
}

// CacheDir returns the cache directory: $PTC_CACHE_DIR, or when that is
// unset or empty, ptc-run under os.UserCacheDir (an empty PTC_CACHE_DIR
// disables only the compilation cache, not the guest's place). It
// returns "" when there is neither.
func CacheDir() string {
	if d := os.Getenv(EnvCacheDir); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "ptc-run")
}

// CompilationCacheDir returns the default directory of wazero's
// compilation cache (host.Config.CompilationCacheDir): wazero under
// [CacheDir], or "" when PTC_CACHE_DIR is set and empty or there is no
// cache directory.
func CompilationCacheDir() string {
	if d, ok := os.LookupEnv(EnvCacheDir); ok && d == "" {
		return ""
	}
	d := CacheDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "wazero")
}

// CacheGuestDir returns the directory `ptc-run guest build` installs the
// guest into: guest under [CacheDir], or "" when there is no cache
// directory.
func CacheGuestDir() string {
	d := CacheDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "guest")
}

// CacheNames returns the names the guest and its Intl bundle have in
// [CacheGuestDir]: their recorded digests, <sha256>.wasm and <sha256>.js,
// so guests of several versions of this module live side by side.
func CacheNames() (wasm, intl string) {
	return WasmDigest() + ".wasm", IntlDigest() + ".js"
}

// Find locates the guest. It tries, in order, and takes the first found:
//
//  1. path, when not empty (host.Config.GuestPath);
//  2. $PTC_GUEST, when set;
//  3. the guest embedded in package quickjs (its committed build), taken
//     as built;
//  4. [CacheGuestDir], where `ptc-run guest build` installs it (reached
//     only when the files searched have no embedded guest, as in tests).
//
// A path (1, 2) is a .wasm file, with the Intl bundle beside it named by
// its digest (<sha256>.js) or intl.js, or a directory holding the guest as
// `ptc-run guest build` names it (<sha256>.wasm) or as `make guest` does
// (ptc-quickjs.wasm), and the bundle likewise. A guest or bundle read from
// a file whose sha256 differs from the recorded one ([WasmDigest],
// [IntlDigest]) is ignored: only the bytes this version of the module
// was built and tested with run. When nothing is found, the error matches
// quickjs.ErrNotBuilt and says what was ignored.
func Find(path string) (*Guest, error) { return find(quickjs.Files(), path) }

// find is Find with the embedded files taken from fsys.
func find(fsys fs.FS, path string) (*Guest, error) {
	var ignored []string
	try := func(p string) (*Guest, error) {
		g, err := load(fsys, p)
		if err == nil {
			return g, nil
		}
		var ie *ignoredError
		if errors.As(err, &ie) {
			ignored = append(ignored, ie.msg)
			return nil, nil
		}
		return nil, err
	}
	for _, p := range []string{path, os.Getenv(EnvGuest)} {
		if p == "" {
			continue
		}
		if g, err := try(p); g != nil || err != nil {
			return g, err
		}
	}
	if g, ok, err := embedded(fsys); ok || err != nil {
		return g, err
	}
	if d := CacheGuestDir(); d != "" {
		if _, err := os.Stat(d); err == nil {
			if g, err := try(d); g != nil || err != nil {
				return g, err
			}
		}
	}
	if len(ignored) == 0 {
		return nil, quickjs.ErrNotBuilt
	}
	return nil, fmt.Errorf("%w (ignored: %s)", quickjs.ErrNotBuilt, strings.Join(ignored, "; "))
}

// ignoredError is a guest that was found but not taken.
type ignoredError struct{ msg string }

func (e *ignoredError) Error() string { return e.msg }

func (e *ignoredError) Is(target error) bool { return target == quickjs.ErrNotBuilt }

// Load reads the guest at path only (a .wasm file or a directory, as
// [Find] describes) and checks it against the recorded digests. An error
// matching quickjs.ErrNotBuilt says that path holds no usable guest, and
// why.
func Load(path string) (*Guest, error) { return load(quickjs.Files(), path) }

// load is Load with the recorded digests taken from fsys.
func load(fsys fs.FS, path string) (*Guest, error) {
	wasmDigest, intlDigest := recorded(fsys, FileName), recorded(fsys, IntlFileName)
	st, err := os.Stat(path)
	if err != nil {
		return nil, &ignoredError{fmt.Sprintf("%s: %v", path, errors.Unwrap(err))}
	}
	wasmPath, dir := path, filepath.Dir(path)
	if st.IsDir() {
		dir = path
		wasmPath = pick(dir, wasmDigest+".wasm", FileName)
	}
	wasm, err := readChecked(wasmPath, wasmDigest)
	if err != nil {
		return nil, err
	}
	intl, err := readChecked(pick(dir, intlDigest+".js", IntlFileName), intlDigest)
	if err != nil {
		return nil, err
	}
	return &Guest{Wasm: wasm, intl: func() ([]byte, error) { return intl, nil }, Source: wasmPath}, nil
}

// pick returns the first of names that exists in dir, else the first.
func pick(dir string, names ...string) string {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return filepath.Join(dir, n)
		}
	}
	return filepath.Join(dir, names[0])
}

// readChecked reads a file whose sha256 must be want.
func readChecked(path, want string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &ignoredError{fmt.Sprintf("%s: no such file", path)}
	}
	if err != nil {
		return nil, fmt.Errorf("quickjs: read guest: %w", err)
	}
	if got := Digest(b); got != want {
		return nil, &ignoredError{fmt.Sprintf("%s: sha256 %s, recorded %s", path, got, want)}
	}
	return b, nil
}

// Digest returns the sha256 of b in hex, as the recorded digests are.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// embedded returns the guest embedded in fsys (package quickjs's
// committed build), or ok false when fsys has none.
func embedded(fsys fs.FS) (g *Guest, ok bool, err error) {
	wasm, err := fs.ReadFile(fsys, FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("quickjs: read embedded guest: %w", err)
	}
	if _, err := fs.Stat(fsys, IntlFileName); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("quickjs: read embedded Intl bundle: %w", err)
	}
	// The bundle (11 MB) is copied out of the binary only when a run
	// first uses Intl.
	intl := sync.OnceValues(func() ([]byte, error) { return fs.ReadFile(fsys, IntlFileName) })
	return &Guest{Wasm: wasm, intl: intl, Source: SourceEmbedded}, true, nil
}

// Script returns the source of one of the guest's own scripts in
// guest/quickjs/js ("bootstrap", "inspect", "web"), which the host
// compiles to bytecode and hands to the guest.
func Script(name string) ([]byte, error) {
	return fs.ReadFile(quickjs.Files(), "js/"+name+".js")
}
