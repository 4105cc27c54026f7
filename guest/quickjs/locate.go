package quickjs

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// ModulePath is the path of the module this package belongs to.
const ModulePath = "github.com/ptchost/ptc"

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

// The digests recorded beside the build scripts (sha256sum's format), which
// `make guest-check` checks the build against.
var (
	//go:embed ptc-quickjs.wasm.sha256
	wasmSum string
	//go:embed intl.js.sha256
	intlSum string
)

// WasmDigest returns the recorded sha256 of the guest module, in hex.
func WasmDigest() string { return firstField(wasmSum) }

// IntlDigest returns the recorded sha256 of the Intl bundle, in hex.
func IntlDigest() string { return firstField(intlSum) }

func firstField(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// ErrNotBuilt reports that no guest was found. Its message names the
// command that builds one ([BuildCommand]); errors from [Find] that match
// it also say which guests were ignored and why.
var ErrNotBuilt = errors.New("quickjs guest not built: run " + BuildCommand())

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
		return nil, errors.New("quickjs: this Guest has no Intl bundle: Find or Load returns one that has")
	}
	return g.intl()
}

// CacheDir returns the cache directory: $PTC_CACHE_DIR, or when that is
// unset or empty, ptc-run under os.UserCacheDir (an empty PTC_CACHE_DIR
// disables only ptc-run's compilation cache, not the guest's place). It
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
//  3. the guest embedded when this package was compiled (`make guest` in a
//     clone), taken as built;
//  4. [CacheGuestDir], where `ptc-run guest build` installs it.
//
// A path (1, 2) is a .wasm file, with the Intl bundle beside it named by
// its digest (<sha256>.js) or intl.js, or a directory holding the guest as
// `ptc-run guest build` names it (<sha256>.wasm) or as `make guest` does
// (ptc-quickjs.wasm), and the bundle likewise. A guest or bundle read from
// a file whose sha256 differs from the recorded one ([WasmDigest],
// [IntlDigest]) is ignored: only the bytes this version of the module
// was built and tested with run. When nothing is found, the error matches
// [ErrNotBuilt] and says what was ignored.
func Find(path string) (*Guest, error) {
	var ignored []string
	try := func(p string) (*Guest, error) {
		g, err := Load(p)
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
	if useEmbedded {
		if g, ok, err := embedded(); ok || err != nil {
			return g, err
		}
	}
	if d := CacheGuestDir(); d != "" {
		if _, err := os.Stat(d); err == nil {
			if g, err := try(d); g != nil || err != nil {
				return g, err
			}
		}
	}
	if len(ignored) == 0 {
		return nil, ErrNotBuilt
	}
	return nil, fmt.Errorf("%w (ignored: %s)", ErrNotBuilt, strings.Join(ignored, "; "))
}

// useEmbedded is false in tests of a module copy without a build.
var useEmbedded = true

// ignoredError is a guest that was found but not taken.
type ignoredError struct{ msg string }

func (e *ignoredError) Error() string { return e.msg }

func (e *ignoredError) Is(target error) bool { return target == ErrNotBuilt }

// Load reads the guest at path only (a .wasm file or a directory, as
// [Find] describes) and checks it against the recorded digests. An error
// matching [ErrNotBuilt] says that path holds no usable guest, and why.
func Load(path string) (*Guest, error) {
	wasmName, intlName := CacheNames()
	st, err := os.Stat(path)
	if err != nil {
		return nil, &ignoredError{fmt.Sprintf("%s: %v", path, errors.Unwrap(err))}
	}
	wasmPath, dir := path, filepath.Dir(path)
	if st.IsDir() {
		dir = path
		wasmPath = pick(dir, wasmName, FileName)
	}
	wasm, err := readChecked(wasmPath, WasmDigest())
	if err != nil {
		return nil, err
	}
	intl, err := readChecked(pick(dir, intlName, IntlFileName), IntlDigest())
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
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, &ignoredError{fmt.Sprintf("%s: sha256 %s, recorded %s", path, got, want)}
	}
	return b, nil
}

// Digest returns the sha256 of b in hex, as the recorded digests are.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// BuildCommand returns the command that builds the guest for this version
// of the module into [CacheGuestDir]:
//
//	go run github.com/ptchost/ptc/cmd/ptc-run@VERSION guest build
//
// with the version of the module the running binary was built with
// (runtime/debug.ReadBuildInfo), or @latest when it is not known. When
// the module is replaced by a directory, the command runs ptc-run from
// that directory.
func BuildCommand() string {
	v, dir := moduleVersion()
	if dir != "" {
		return fmt.Sprintf("cd %s && go run ./cmd/ptc-run guest build", dir)
	}
	return fmt.Sprintf("go run %s/cmd/ptc-run@%s guest build", ModulePath, v)
}

// moduleVersion returns the version of this module in the running binary
// ("latest" when unknown), or the directory that replaces it.
func moduleVersion() (version, dir string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "latest", ""
	}
	m := &bi.Main
	if m.Path != ModulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == ModulePath {
				m = d
				break
			}
		}
	}
	if m == nil {
		return "latest", ""
	}
	if r := m.Replace; r != nil && (r.Version == "" || r.Version == "(devel)") {
		return "", r.Path // a directory
	}
	if m.Version == "" || m.Version == "(devel)" || strings.HasSuffix(m.Version, "+dirty") {
		return "latest", ""
	}
	return m.Version, ""
}
