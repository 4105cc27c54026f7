// Command ptc-run runs a model-written JavaScript program in the ptc
// sandbox, as the run_code executor would, and prints what the model
// would see.
//
// Usage:
//
//	ptc-run run [--tools FILE] [--timeout D] [--memory SIZE] [--json] PROGRAM.js|-
//	ptc-run sdk --tools FILE
//
// --tools mounts the tools of a fixture file (DESIGN.md, "Tool fixture
// file"): they are registered in a real registry and every subcall runs
// through the real pipeline, timeout policy included. sdk prints the
// TypeScript declarations the model sees in run_code's description.
//
// The compiled guest is cached in $PTC_CACHE_DIR (default: the user cache
// directory); set PTC_CACHE_DIR= (empty) to disable the cache.
//
// Exit status: 0 the program succeeded, 1 the program failed (the content
// is still printed), 2 usage, configuration or fixture error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/fixture"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

const usage = `usage:
  ptc-run run [--tools FILE] [--timeout D] [--memory SIZE] [--json] PROGRAM.js|-
  ptc-run sdk --tools FILE
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line problem: exit status 2, with the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	code := 0
	switch args[0] {
	case "run":
		code, err = cmdRun(ctx, args[1:], stdin, stdout)
	case "sdk":
		err = cmdSDK(ctx, args[1:], stdout)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	if err != nil {
		fmt.Fprintf(stderr, "ptc-run: %v\n", err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprint(stderr, usage)
		}
		return 2
	}
	return code
}

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func cmdRun(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer) (int, error) {
	fs := newFlags("run")
	tools := fs.String("tools", "", "tool fixture file")
	timeout := fs.Duration("timeout", host.DefaultTimeout, "wall-time limit of the run")
	memory := fs.String("memory", "64MiB", "memory limit: bytes, or a number with a unit (KiB, MiB, GiB, KB, MB, GB)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the content")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, &usageError{"run takes exactly one PROGRAM.js or -"}
	}
	mem, err := parseSize(*memory)
	if err != nil {
		return 0, &usageError{fmt.Sprintf("--memory %q: %v", *memory, err)}
	}
	if *timeout <= 0 {
		return 0, &usageError{fmt.Sprintf("--timeout %v: want a positive duration", *timeout)}
	}
	src, err := readProgram(pos[0], stdin)
	if err != nil {
		return 0, err
	}
	ex, err := newExecutor(ctx, *tools, host.Limits{Timeout: *timeout, MemoryBytes: mem})
	if err != nil {
		return 0, err
	}
	defer ex.Close(context.Background())

	callArgs, err := json.Marshal(map[string]string{"code": src})
	if err != nil {
		return 0, fmt.Errorf("encode program: %w", err)
	}
	r := ex.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{{ID: "ptc-run", Name: ptc.ToolName, Arguments: callArgs}}})[0]
	if *asJSON {
		if err := writeJSON(stdout, r); err != nil {
			return 0, err
		}
	} else {
		fmt.Fprintln(stdout, ptc.ContentText(r.Content))
	}
	if r.IsError {
		return 1, nil
	}
	return 0, nil
}

func cmdSDK(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("sdk")
	tools := fs.String("tools", "", "tool fixture file")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *tools == "" || len(pos) != 0 {
		return &usageError{"sdk takes --tools FILE and nothing else"}
	}
	ex, err := newExecutor(ctx, *tools, host.Limits{})
	if err != nil {
		return err
	}
	defer ex.Close(context.Background())
	_, err = io.WriteString(stdout, ex.Declarations(registry.Scope{}, nil))
	return err
}

// parseInterspersed parses flags before and after the positional
// arguments ("run prog.js --json" works) and returns the positionals.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, &usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newExecutor mounts the fixture tools (if any) in a registry and a
// pipeline with the timeout policy, and returns an executor over them.
func newExecutor(ctx context.Context, tools string, lim host.Limits) (*ptc.Executor, error) {
	reg := registry.New()
	if tools != "" {
		f, err := fixture.Load(tools)
		if err != nil {
			return nil, err
		}
		if _, err := f.Register(reg); err != nil {
			return nil, fmt.Errorf("fixture %s: %w", tools, err)
		}
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	if err != nil {
		return nil, err
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	return ptc.New(ctx, ptc.Config{
		Pipeline:   pipe,
		HostConfig: host.Config{CompilationCacheDir: cacheDir()},
		Limits:     lim,
	})
}

// cacheDir is where wazero keeps the compiled guest between invocations
// ($PTC_CACHE_DIR, else the user cache directory): compiling takes about a
// second, loading the cache a few tens of milliseconds. Empty disables it.
func cacheDir() string {
	if d, ok := os.LookupEnv("PTC_CACHE_DIR"); ok {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "ptc-run")
}

func readProgram(path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("read program: %w", err)
	}
	return string(b), nil
}

// parseSize reads a size: a positive number of bytes, optionally with a
// unit (B, KiB, MiB, GiB, or KB, MB, GB in powers of ten), as DESIGN.md's
// CLI contract says ("64MiB").
func parseSize(s string) (uint64, error) {
	units := []struct {
		suffix string
		mult   uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	num, mult := s, uint64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n == 0 {
		return 0, errors.New("want a positive number of bytes, optionally with a unit (64MiB)")
	}
	if n > math.MaxUint64/mult {
		return 0, errors.New("too large")
	}
	return n * mult, nil
}
