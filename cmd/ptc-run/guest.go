package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ptchost/ptc/internal/guestfile"
	"github.com/ptchost/ptc/internal/modinfo"
)

// cmdGuest dispatches `ptc-run guest SUBCOMMAND`.
func cmdGuest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &usageError{"guest takes a subcommand: build"}
	}
	switch args[0] {
	case "build":
		return cmdGuestBuild(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		return &helpError{cmd: "guest build"}
	}
	return &usageError{fmt.Sprintf("unknown guest subcommand %q", args[0])}
}

// cmdGuestBuild builds the guest from this version's pinned inputs, with
// the same scripts as make guest, and installs it into the user cache
// directory under its digest (guestfile.CacheGuestDir, guestfile.CacheNames)
// when it is byte for byte the guest built in (its recorded digests), for
// whoever wants to see it built from source; PTC_GUEST names it to the
// host. The scripts run in a copy of the sources: a module in the module
// cache is read-only.
func cmdGuestBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("guest build")
	source := fs.String("source", "", "the ptc source tree to build from")
	force := fs.Bool("force", false, "build even when the cache already holds the guest")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return &usageError{"guest build takes no positional arguments"}
	}
	dest := guestfile.CacheGuestDir()
	if dest == "" {
		return errors.New("guest build: no user cache directory: set PTC_CACHE_DIR")
	}
	wasmName, intlName := guestfile.CacheNames()
	if !*force {
		if _, err := guestfile.Load(dest); err == nil {
			fmt.Fprintf(stdout, "guest: %s already holds the guest (sha256 %s); --force rebuilds it\n", dest, guestfile.WasmDigest())
			return nil
		}
	}
	src, err := sourceDir(ctx, *source)
	if err != nil {
		return err
	}
	if err := checkRecorded(src); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "ptc-guest-build-")
	if err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	defer os.RemoveAll(work)
	if err := copySources(src, work); err != nil {
		return fmt.Errorf("guest build: copy sources: %w", err)
	}
	fmt.Fprintf(stderr, "guest: building from %s in %s\n", src, work)
	out := filepath.Join(work, "out")
	wasmOut, intlOut := filepath.Join(out, guestfile.FileName), filepath.Join(out, guestfile.IntlFileName)
	if err := script(ctx, work, stderr, []string{"OUT=" + wasmOut}, "bash", "guest/quickjs/build.sh"); err != nil {
		return err
	}
	if err := script(ctx, work, stderr, nil, "sh", "guest/quickjs/intl/build.sh", intlOut); err != nil {
		return err
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	for _, f := range []struct{ from, want, to string }{
		{wasmOut, guestfile.WasmDigest(), wasmName},
		{intlOut, guestfile.IntlDigest(), intlName},
	} {
		if err := install(f.from, f.want, filepath.Join(dest, f.to)); err != nil {
			return err
		}
	}
	if _, err := guestfile.Load(dest); err != nil {
		return fmt.Errorf("guest build: the installed guest does not load: %w", err)
	}
	fmt.Fprintf(stdout, "guest: installed %s and %s in %s\n", wasmName, intlName, dest)
	return nil
}

// sourceDir finds the source tree to build from: --source; else the tree
// this binary was compiled from (a clone, or the module's directory in the
// module cache, as `go run .../cmd/ptc-run@VERSION` leaves it); else the
// module at this binary's version, downloaded (and checksum-verified) by
// the go command.
func sourceDir(ctx context.Context, flagDir string) (string, error) {
	if flagDir != "" {
		if !isSource(flagDir) {
			return "", fmt.Errorf("guest build: --source %s: not a %s source tree (no go.mod naming it, or no guest/quickjs/build.sh)", flagDir, modinfo.Path)
		}
		return filepath.Abs(flagDir)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if d := filepath.Dir(filepath.Dir(filepath.Dir(file))); isSource(d) {
			return d, nil
		}
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path != modinfo.Path || bi.Main.Version == "" || bi.Main.Version == "(devel)" || strings.HasSuffix(bi.Main.Version, "+dirty") {
		return "", errors.New("guest build: cannot tell where ptc's sources are: pass --source DIR (a clone of ptc)")
	}
	tmp, err := os.MkdirTemp("", "ptc-guest-fetch-")
	if err != nil {
		return "", fmt.Errorf("guest build: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module ptc-guest-fetch\n"), 0o644); err != nil {
		return "", fmt.Errorf("guest build: %w", err)
	}
	mod := modinfo.Path + "@" + bi.Main.Version
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", mod)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("guest build: go mod download %s: %w: %s", mod, err, strings.TrimSpace(errOut.String()))
	}
	var dl struct{ Dir, Error string }
	if err := json.Unmarshal(b, &dl); err != nil || dl.Error != "" || !isSource(dl.Dir) {
		return "", fmt.Errorf("guest build: go mod download %s: no source tree (%s%v)", mod, dl.Error, err)
	}
	return dl.Dir, nil
}

// isSource reports whether dir is the root of this module's source tree.
func isSource(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	if strings.TrimSpace(first) != "module "+modinfo.Path {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, "guest", "quickjs", "build.sh"))
	return err == nil
}

// checkRecorded refuses a source tree whose recorded digests are not this
// binary's: it would build a guest this version of the host ignores.
func checkRecorded(src string) error {
	for _, f := range []struct{ name, want string }{
		{"ptc-quickjs.wasm.sha256", guestfile.WasmDigest()},
		{"intl.js.sha256", guestfile.IntlDigest()},
	} {
		b, err := os.ReadFile(filepath.Join(src, "guest", "quickjs", f.name))
		if err != nil {
			return fmt.Errorf("guest build: %w", err)
		}
		if got := strings.Fields(string(b)); len(got) == 0 || got[0] != f.want {
			return fmt.Errorf("guest build: %s records a different guest (%s) than this ptc-run expects (%s): run the ptc-run of the same version as the sources", filepath.Join(src, "guest", "quickjs", f.name), strings.Join(got, " "), f.want)
		}
	}
	return nil
}

// copySources copies what the build scripts read into work, writable:
// go.mod and go.sum (the Intl bundler runs with the module's pinned
// esbuild) and guest/quickjs without its build outputs and node_modules.
func copySources(src, work string) error {
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(src, f), filepath.Join(work, f)); err != nil {
			return err
		}
	}
	root := filepath.Join(src, "guest", "quickjs")
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch rel {
			case filepath.Join("guest", "quickjs", "build"), filepath.Join("guest", "quickjs", "intl", "node_modules"):
				return fs.SkipDir
			}
			return os.MkdirAll(filepath.Join(work, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, filepath.Join(work, rel))
	})
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// script runs one of the build scripts in work, its output on stderr.
func script(ctx context.Context, work string, stderr io.Writer, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = work
	cmd.Env = append(append(os.Environ(), "GOWORK=off"), env...)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("guest build: %s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}

// install copies a built file whose sha256 must be want to its place in
// the cache, atomically (a concurrent host reads the old state or the new).
func install(from, want, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	if got := guestfile.Digest(b); got != want {
		return fmt.Errorf("guest build: %s has sha256 %s, recorded %s: the build is not reproducible here; please report it", filepath.Base(from), got, want)
	}
	tmp, err := os.CreateTemp(filepath.Dir(to), filepath.Base(to)+".tmp*")
	if err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("guest build: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	if err := os.Rename(tmp.Name(), to); err != nil {
		return fmt.Errorf("guest build: %w", err)
	}
	return nil
}
