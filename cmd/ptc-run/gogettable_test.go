package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptchost/ptc/internal/guestfile"
)

// scratchMain is a user's program that imports ptc as a library and runs
// one program, which uses Intl (the embedded bundle) too.
const scratchMain = `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

func main() {
	ctx := context.Background()
	pipe, err := pipeline.New(pipeline.Config{Registry: registry.New()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	defer ex.Close(ctx)
	r, err := ex.Run(ctx, ` + "`" + `console.log("hello from " + typeof tools); console.log(new Intl.NumberFormat("de-DE").format(1234.5)); return [1, 2].map((x) => x * 2)` + "`" + `, ptc.RunOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Println(registry.PlainText(r.Content))
}
`

// scratchWant is what scratchMain prints.
const scratchWant = "hello from object\n1.234,5\n[2, 4]\n"

// crossPlatforms are the platforms the scratch module must build for
// without cgo (make cross builds and vets this module for them).
var crossPlatforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// TestGoGettable checks the path of a user who gets ptc with go get, on a
// machine with nothing but Go: from a clean copy of the repository (git
// archive HEAD, made read-only as the module cache is) and a scratch
// module that requires ptc through a replace pointing at it, with a PATH
// holding only the go command, CGO_ENABLED=0 and a home of its own, the
// scratch program runs a program with ptc.New (no build, no guest in any
// cache); the library fills the compilation cache in the user's cache
// directory, the second run starts from it; the scratch module builds for
// every platform in crossPlatforms.
//
// It takes a minute or two (six cross-builds), so it runs only with
// PTC_GOGETTABLE_TEST=1: make guest-gogettable-test.
func TestGoGettable(t *testing.T) {
	if os.Getenv("PTC_GOGETTABLE_TEST") != "1" {
		t.Skip("slow (builds a scratch module for six platforms): PTC_GOGETTABLE_TEST=1, or make guest-gogettable-test")
	}
	for _, tool := range []string{"go", "git", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	start := time.Now()
	tmp := t.TempDir()
	copyDir, app, bin, home := filepath.Join(tmp, "ptc"), filepath.Join(tmp, "app"), filepath.Join(tmp, "bin"), filepath.Join(tmp, "home")
	for _, d := range []string{copyDir, app, bin, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sh(t, root, nil, "sh", "-c", "git archive HEAD | tar -x -C "+copyDir)
	if _, err := os.Stat(filepath.Join(copyDir, "guest", "quickjs", guestfile.FileName)); err != nil {
		t.Fatalf("the clean copy holds no committed guest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(copyDir, "guest", "quickjs", "build", guestfile.FileName)); err == nil {
		t.Fatal("the clean copy holds a build output")
	}
	// Read-only, as the module cache is; writable again for the cleanup.
	sh(t, tmp, nil, "chmod", "-R", "a-w", copyDir)
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", copyDir).Run() })

	// The user's machine: the go command alone on PATH (no C compiler, no
	// npm, no node, no git), no cgo, a home whose cache holds nothing of
	// ptc. The Go build and module caches are this machine's, so that
	// nothing is downloaded again.
	goEnv := strings.Fields(sh(t, root, nil, "go", "env", "GOROOT", "GOCACHE", "GOMODCACHE"))
	if len(goEnv) != 3 {
		t.Fatalf("go env: %q", goEnv)
	}
	if err := os.Symlink(filepath.Join(goEnv[0], "bin", "go"), filepath.Join(bin, "go")); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=" + bin, "HOME=" + home, "XDG_CACHE_HOME=", "XDG_CONFIG_HOME=",
		"GOROOT=" + goEnv[0], "GOCACHE=" + goEnv[1], "GOMODCACHE=" + goEnv[2],
		"CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-mod=mod",
		"PTC_CACHE_DIR", "PTC_GUEST",
	}
	goMod := fmt.Sprintf("module example.com/app\n\ngo 1.26.0\n\nrequire github.com/ptchost/ptc v0.0.0-00010101000000-000000000000\n\nreplace github.com/ptchost/ptc => %s\n", copyDir)
	if err := os.WriteFile(filepath.Join(app, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "main.go"), []byte(scratchMain), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, app, env, "go", "mod", "tidy")
	exe := filepath.Join(tmp, "app.exe")
	sh(t, app, env, "go", "build", "-o", exe, ".")

	cacheDir := filepath.Join(home, ".cache", "ptc-run", "wazero")
	for i, what := range []string{"first run (compiles the guest)", "second run (from the compilation cache)"} {
		runStart := time.Now()
		if out := sh(t, app, env, exe); out != scratchWant {
			t.Fatalf("%s: got %q, want %q", what, out, scratchWant)
		}
		t.Logf("%s took %v", what, time.Since(runStart).Round(time.Millisecond))
		if i == 0 {
			if ents, err := os.ReadDir(cacheDir); err != nil || len(ents) == 0 {
				t.Fatalf("the first run left no compilation cache in %s (%d entries, %v)", cacheDir, len(ents), err)
			}
		}
	}

	for _, p := range crossPlatforms {
		goos, goarch, _ := strings.Cut(p, "/")
		sh(t, app, append(env, "GOOS="+goos, "GOARCH="+goarch), "go", "build", "-o", os.DevNull, ".")
		t.Logf("built for %s", p)
	}
	t.Logf("the go get path took %v in all", time.Since(start).Round(time.Second))
}

// sh runs a command that must succeed and returns its stdout. Each of env
// replaces the variable of its name in the test's environment; a name
// without "=" removes it.
func sh(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = environ(env)
	if !filepath.IsAbs(name) {
		// Look the command up on the PATH given, if any, not the test's.
		for _, e := range env {
			if p, ok := strings.CutPrefix(e, "PATH="); ok {
				cmd.Path = filepath.Join(p, name)
			}
		}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// environ is the test's environment with env's changes (see sh).
func environ(env []string) []string {
	out := os.Environ()
	for _, e := range env {
		name, _, _ := strings.Cut(e, "=")
		kept := out[:0:0]
		for _, o := range out {
			if !strings.HasPrefix(o, name+"=") {
				kept = append(kept, o)
			}
		}
		out = kept
		if strings.Contains(e, "=") {
			out = append(out, e)
		}
	}
	return out
}

// TestGuestBuild checks `ptc-run guest build` for whoever builds the guest
// from source: from a clean, read-only copy of the repository it builds
// the guest in a temporary copy, installs it into PTC_CACHE_DIR, and the
// installed guest is byte for byte the embedded one. It takes a minute or
// two (it compiles QuickJS), so it runs only with PTC_GOGETTABLE_TEST=1:
// make guest-gogettable-test. It is skipped when npm is missing, or the
// toolchain is and cannot be installed (no root, no sudo).
func TestGuestBuild(t *testing.T) {
	if os.Getenv("PTC_GOGETTABLE_TEST") != "1" {
		t.Skip("slow (builds the guest from a clean copy): PTC_GOGETTABLE_TEST=1, or make guest-gogettable-test")
	}
	for _, tool := range []string{"go", "git", "tar", "npm", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: the guest cannot be built here", tool)
		}
	}
	if missing := missingToolchain(); missing != "" && os.Getuid() != 0 && exec.Command("sudo", "-n", "true").Run() != nil {
		t.Skipf("the guest's toolchain lacks %s and cannot be installed here (not root, no sudo)", missing)
	}
	tmp := t.TempDir()
	copyDir, cache := filepath.Join(tmp, "ptc"), filepath.Join(tmp, "cache")
	if err := os.Mkdir(copyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sh(t, root, nil, "sh", "-c", "git archive HEAD | tar -x -C "+copyDir)
	sh(t, tmp, nil, "chmod", "-R", "a-w", copyDir)
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", copyDir).Run() })

	env := []string{"PTC_CACHE_DIR=" + cache, "PTC_GUEST", "GOWORK=off"}
	start := time.Now()
	sh(t, copyDir, env, "go", "run", "./cmd/ptc-run", "guest", "build")
	t.Logf("guest build took %v", time.Since(start).Round(time.Second))
	embedded, err := guestfile.Find("")
	if err != nil {
		t.Fatal(err)
	}
	embeddedIntl, err := embedded.Intl()
	if err != nil {
		t.Fatal(err)
	}
	wasmName, intlName := guestfile.CacheNames()
	for name, want := range map[string][]byte{wasmName: embedded.Wasm, intlName: embeddedIntl} {
		b, err := os.ReadFile(filepath.Join(cache, "guest", name))
		if err != nil {
			t.Fatalf("guest build did not install %s: %v", name, err)
		}
		if !bytes.Equal(b, want) {
			t.Errorf("the installed %s is not the embedded guest", name)
		}
	}
	out := sh(t, copyDir, append(env, "PTC_GUEST="+filepath.Join(cache, "guest")), "go", "run", "./cmd/ptc-run", "--version")
	if want := "guest found: " + filepath.Join(cache, "guest", wasmName); !strings.Contains(out, want) {
		t.Errorf("ptc-run --version with PTC_GUEST:\n%s\nwant %q", out, want)
	}
}

// missingToolchain names a part of the guest's toolchain that is not
// installed (build.sh would install it), or returns "".
func missingToolchain() string {
	if _, err := exec.LookPath("clang-16"); err != nil {
		return "clang-16"
	}
	_, err1 := exec.LookPath("wasm-ld-16")
	_, err2 := exec.LookPath("wasm-ld")
	if err1 != nil && err2 != nil {
		return "wasm-ld"
	}
	for _, f := range []string{"/usr/include/wasm32-wasi", "/usr/lib/wasm32-wasi/libc.a", "/usr/lib/llvm-16/lib/clang/16/lib/wasi/libclang_rt.builtins-wasm32.a"} {
		if _, err := os.Stat(f); err != nil {
			return f
		}
	}
	return ""
}
