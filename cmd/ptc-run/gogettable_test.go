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
// one program.
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
	r, err := ex.Run(ctx, ` + "`" + `console.log("hello from " + typeof tools); return [1, 2].map((x) => x * 2)` + "`" + `, ptc.RunOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Println(registry.PlainText(r.Content))
}
`

// TestGoGettable checks the path of a user who gets ptc with go get, whose
// copy of the module has no guest: from a clean copy of the repository
// (git archive HEAD, made read-only as the module cache is) and a scratch
// module that requires ptc through a replace pointing at it, running a
// program fails with the not-built error naming the command; that command,
// ptc-run guest build, builds the guest into PTC_CACHE_DIR; then the
// scratch module runs the program.
//
// It takes minutes (it compiles QuickJS), so it runs only with
// PTC_GOGETTABLE_TEST=1: make guest-gogettable-test. It reuses the
// installed toolchain, and is skipped when go, git or npm is missing or
// the toolchain is missing and cannot be installed (no root, no sudo).
func TestGoGettable(t *testing.T) {
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
	start := time.Now()
	tmp := t.TempDir()
	copyDir := filepath.Join(tmp, "ptc")
	app := filepath.Join(tmp, "app")
	cache := filepath.Join(tmp, "cache")
	for _, d := range []string{copyDir, app, cache} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sh(t, root, nil, "sh", "-c", "git archive HEAD | tar -x -C "+copyDir)
	if _, err := os.Stat(filepath.Join(copyDir, "guest", "quickjs", "build", guestfile.FileName)); err == nil {
		t.Fatal("the clean copy holds a built guest")
	}
	// Read-only, as the module cache is; writable again for the cleanup.
	sh(t, tmp, nil, "chmod", "-R", "a-w", copyDir)
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", copyDir).Run() })

	goMod := fmt.Sprintf("module example.com/app\n\ngo 1.26.0\n\nrequire github.com/ptchost/ptc v0.0.0-00010101000000-000000000000\n\nreplace github.com/ptchost/ptc => %s\n", copyDir)
	if err := os.WriteFile(filepath.Join(app, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "main.go"), []byte(scratchMain), 0o644); err != nil {
		t.Fatal(err)
	}
	// The user's environment: no guest anywhere but where they put it.
	env := []string{"PTC_CACHE_DIR=" + cache, "PTC_GUEST=", "GOWORK=off", "GOFLAGS=-mod=mod"}
	sh(t, app, env, "go", "mod", "tidy")

	out, err := run1(app, env, "go", "run", ".")
	want := "quickjs guest not built: run cd " + copyDir + " && go run ./cmd/ptc-run guest build"
	if err == nil || !strings.Contains(out, want) {
		t.Fatalf("before guest build: err %v, output:\n%s\nwant it to say %q", err, out, want)
	}
	t.Logf("not built, as expected: %s", strings.TrimSpace(out))

	build := time.Now()
	sh(t, copyDir, env, "go", "run", "./cmd/ptc-run", "guest", "build")
	t.Logf("guest build took %v", time.Since(build).Round(time.Second))
	wasmName, intlName := guestfile.CacheNames()
	for _, n := range []string{wasmName, intlName} {
		if _, err := os.Stat(filepath.Join(cache, "guest", n)); err != nil {
			t.Errorf("guest build did not install %s: %v", n, err)
		}
	}

	out = sh(t, app, env, "go", "run", ".")
	if want := "hello from object\n[2, 4]\n"; out != want {
		t.Errorf("after guest build: got %q, want %q", out, want)
	}
	out = sh(t, copyDir, env, "go", "run", "./cmd/ptc-run", "--version")
	if want := "guest found: " + filepath.Join(cache, "guest", wasmName); !strings.Contains(out, want) {
		t.Errorf("ptc-run --version:\n%s\nwant %q", out, want)
	}
	t.Logf("the go-get path took %v in all", time.Since(start).Round(time.Second))
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

// run1 runs a command in dir with env added and returns its combined
// output.
func run1(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// sh runs a command that must succeed and returns its stdout.
func sh(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
