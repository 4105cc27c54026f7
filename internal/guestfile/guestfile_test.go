package guestfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ptchost/ptc/guest/quickjs"
)

// built returns the guest built by make guest, or skips.
func built(t *testing.T) *Guest {
	t.Helper()
	g, ok, err := embedded(quickjs.Files())
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skip("guest not built: run make guest")
	}
	return g
}

// noEmbedded returns the files of package quickjs as a module copy
// without a build has them (the recorded digests, no build output), and
// sets an empty cache and no PTC_GUEST.
func noEmbedded(t *testing.T) fs.FS {
	t.Helper()
	t.Setenv(EnvCacheDir, t.TempDir())
	t.Setenv(EnvGuest, "")
	files := fstest.MapFS{}
	for _, name := range []string{FileName + ".sha256", IntlFileName + ".sha256"} {
		b, err := fs.ReadFile(quickjs.Files(), name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = &fstest.MapFile{Data: b}
	}
	return files
}

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFind(t *testing.T) {
	g := built(t)
	wasmName, intlName := CacheNames()
	for _, c := range []struct {
		name string
		// setup lays out a guest and returns Find's path argument and the
		// Source Find must report ("" for ErrNotBuilt).
		setup func(t *testing.T, dir string) (path, source string)
		// errHas is in the error when Find fails.
		errHas []string
	}{
		{"make guest layout", func(t *testing.T, dir string) (string, string) {
			write(t, dir, IntlFileName, mustIntl(t, g))
			return dir, write(t, dir, FileName, g.Wasm)
		}, nil},
		{"cache layout", func(t *testing.T, dir string) (string, string) {
			write(t, dir, intlName, mustIntl(t, g))
			return dir, write(t, dir, wasmName, g.Wasm)
		}, nil},
		{"wasm file, intl beside", func(t *testing.T, dir string) (string, string) {
			write(t, dir, intlName, mustIntl(t, g))
			p := write(t, dir, "any.wasm", g.Wasm)
			return p, p
		}, nil},
		{"PTC_GUEST", func(t *testing.T, dir string) (string, string) {
			write(t, dir, IntlFileName, mustIntl(t, g))
			p := write(t, dir, FileName, g.Wasm)
			t.Setenv(EnvGuest, dir)
			return "", p
		}, nil},
		{"user cache", func(t *testing.T, dir string) (string, string) {
			t.Setenv(EnvCacheDir, dir)
			gd := CacheGuestDir()
			if err := os.MkdirAll(gd, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, gd, intlName, mustIntl(t, g))
			return "", write(t, gd, wasmName, g.Wasm)
		}, nil},
		{"path first, then cache", func(t *testing.T, dir string) (string, string) {
			t.Setenv(EnvCacheDir, dir)
			gd := CacheGuestDir()
			if err := os.MkdirAll(gd, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, gd, intlName, mustIntl(t, g))
			return filepath.Join(dir, "missing.wasm"), write(t, gd, wasmName, g.Wasm)
		}, nil},
		{"nothing", func(t *testing.T, dir string) (string, string) {
			return "", ""
		}, []string{"quickjs guest not built: run go run github.com/ptchost/ptc/cmd/ptc-run@latest guest build"}},
		{"wrong digest ignored", func(t *testing.T, dir string) (string, string) {
			write(t, dir, IntlFileName, mustIntl(t, g))
			write(t, dir, FileName, append([]byte{}, g.Wasm[:100]...))
			return dir, ""
		}, []string{"guest build (ignored: ", FileName + ": sha256 ", "recorded " + WasmDigest()}},
		{"intl missing", func(t *testing.T, dir string) (string, string) {
			write(t, dir, FileName, g.Wasm)
			return dir, ""
		}, []string{intlName + ": no such file"}},
		{"stale cache ignored", func(t *testing.T, dir string) (string, string) {
			t.Setenv(EnvCacheDir, dir)
			gd := CacheGuestDir()
			if err := os.MkdirAll(gd, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, gd, intlName, mustIntl(t, g))
			write(t, gd, wasmName, []byte("\x00asm\x01\x00\x00\x00"))
			return "", ""
		}, []string{wasmName + ": sha256 "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := noEmbedded(t)
			dir := t.TempDir()
			path, source := c.setup(t, dir)
			got, err := find(fsys, path)
			if source == "" {
				if !errors.Is(err, quickjs.ErrNotBuilt) {
					t.Fatalf("Find(%q) = %v, %v; want ErrNotBuilt", path, got, err)
				}
				for _, s := range c.errHas {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not say %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Find(%q): %v", path, err)
			}
			if got.Source != source || Digest(got.Wasm) != WasmDigest() || Digest(mustIntl(t, got)) != IntlDigest() {
				t.Errorf("Find(%q) = source %q; want %q with the recorded digests", path, got.Source, source)
			}
		})
	}
}

func TestFind_embeddedFirst(t *testing.T) {
	built(t)
	t.Setenv(EnvGuest, "")
	g, err := Find("")
	if err != nil {
		t.Fatal(err)
	}
	if g.Source != SourceEmbedded {
		t.Errorf("Source = %q, want %q", g.Source, SourceEmbedded)
	}
}

func TestDigests(t *testing.T) {
	for name, d := range map[string]string{"wasm": WasmDigest(), "intl": IntlDigest()} {
		if len(d) != 64 || strings.Trim(d, "0123456789abcdef") != "" {
			t.Errorf("%s digest %q is not a sha256 in hex", name, d)
		}
	}
}

func TestErrNotBuilt(t *testing.T) {
	// A test binary's main module is this one, at version (devel).
	if got, want := quickjs.ErrNotBuilt.Error(), "quickjs guest not built: run go run github.com/ptchost/ptc/cmd/ptc-run@latest guest build"; got != want {
		t.Errorf("ErrNotBuilt = %q, want %q", got, want)
	}
	if got, want := BuildCommand(), "go run github.com/ptchost/ptc/cmd/ptc-run@latest guest build"; got != want {
		t.Errorf("BuildCommand() = %q, want %q", got, want)
	}
}

func TestScript(t *testing.T) {
	for _, name := range []string{"bootstrap", "inspect", "web"} {
		if b, err := Script(name); err != nil || len(b) == 0 {
			t.Errorf("Script(%q) = %d bytes, %v", name, len(b), err)
		}
	}
}

// mustIntl is g's Intl bundle.
func mustIntl(t *testing.T, g *Guest) []byte {
	t.Helper()
	b, err := g.Intl()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
