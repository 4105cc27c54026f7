// Command ptc-run runs a model-written JavaScript program in the ptc
// sandbox, as the run_code executor would, and prints what the model
// would see.
//
// Usage:
//
//	ptc-run run   [--tools FILE] [--mcp NAME=CMD|URL]... [--timeout D] [--memory SIZE] [--json] PROGRAM.js|-
//	ptc-run sdk   [--tools FILE] [--mcp NAME=CMD|URL]...
//	ptc-run serve [--tools FILE] [--mcp NAME=CMD|URL]... [--timeout D] [--memory SIZE] [--grace D]
//	              [--listen ADDR | --stdio]
//
// --tools mounts the tools of a fixture file (DESIGN.md, "Tool fixture
// file"): they are registered in a real registry and every subcall runs
// through the real pipeline, timeout policy included. --mcp mounts the
// tools of an MCP server as NAME__TOOL: NAME=COMMAND ARGS... starts a stdio
// server, NAME=http(s)://... reaches a streamable HTTP one; it may be
// repeated. sdk prints the TypeScript declarations the model sees in
// run_code's description. serve offers run_code as an MCP tool, over
// streamable HTTP (stateless, at /mcp, health at /healthz; --listen,
// default 127.0.0.1:8080) or on stdin and stdout (--stdio), logging one
// JSON record per run on stderr; SIGINT or SIGTERM lets the runs in
// progress finish for --grace and then aborts them.
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
	"log/slog"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/fixture"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

const usage = `usage:
  ptc-run run   [--tools FILE] [--mcp NAME=CMD|URL]... [--timeout D] [--memory SIZE] [--json] PROGRAM.js|-
  ptc-run sdk   [--tools FILE] [--mcp NAME=CMD|URL]...
  ptc-run serve [--tools FILE] [--mcp NAME=CMD|URL]... [--timeout D] [--memory SIZE] [--grace D]
                [--listen ADDR | --stdio]
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
		code, err = cmdRun(ctx, args[1:], stdin, stdout, stderr)
	case "sdk":
		err = cmdSDK(ctx, args[1:], stdout, stderr)
	case "serve":
		err = cmdServe(ctx, args[1:], stdin, stdout, stderr)
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

func cmdRun(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("run")
	var tools toolFlags
	tools.add(fs)
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
	ex, closeAll, err := newExecutor(ctx, tools, host.Limits{Timeout: *timeout, MemoryBytes: mem}, stderr)
	if err != nil {
		return 0, err
	}
	defer closeAll()

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

func cmdSDK(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sdk")
	var tools toolFlags
	tools.add(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if tools.empty() || len(pos) != 0 {
		return &usageError{"sdk takes --tools FILE and/or --mcp NAME=CMD|URL, and nothing else"}
	}
	ex, closeAll, err := newExecutor(ctx, tools, host.Limits{}, stderr)
	if err != nil {
		return err
	}
	defer closeAll()
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

// toolFlags are the flags that mount tools: --tools FILE and --mcp
// NAME=CMD|URL (repeatable).
type toolFlags struct {
	fixture string
	mcp     endpoints
}

func (t *toolFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&t.fixture, "tools", "", "tool fixture file")
	fs.Var(&t.mcp, "mcp", "MCP server NAME=COMMAND or NAME=URL (repeatable)")
}

func (t *toolFlags) empty() bool { return t.fixture == "" && len(t.mcp) == 0 }

// endpoints is the repeatable --mcp flag.
type endpoints []mcp.Endpoint

func (e *endpoints) String() string { return fmt.Sprint(*e) }

func (e *endpoints) Set(s string) error {
	ep, err := mcp.ParseEndpoint(s)
	if err != nil {
		return err
	}
	for _, other := range *e {
		if other.Name == ep.Name {
			return fmt.Errorf("two MCP servers named %q", ep.Name)
		}
	}
	*e = append(*e, ep)
	return nil
}

// newExecutor mounts the fixture tools and the MCP servers' tools in a
// registry and a pipeline with the timeout policy, and returns an executor
// over them and the function that closes it all. A server that cannot be
// started or initialised is an error (exit status 2). The servers' restarts
// are logged on stderr.
func newExecutor(ctx context.Context, tools toolFlags, lim host.Limits, stderr io.Writer) (*ptc.Executor, func(), error) {
	reg := registry.New()
	var mounts []*mcp.Client
	closeMounts := func() {
		for _, m := range mounts {
			m.Close()
		}
	}
	if tools.fixture != "" {
		f, err := fixture.Load(tools.fixture)
		if err != nil {
			return nil, nil, err
		}
		if _, err := f.Register(reg); err != nil {
			return nil, nil, fmt.Errorf("fixture %s: %w", tools.fixture, err)
		}
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	for _, ep := range tools.mcp {
		m, err := mcp.Mount(ctx, reg, ep, mcp.MountOptions{Logger: logger})
		if err != nil {
			closeMounts()
			return nil, nil, err
		}
		mounts = append(mounts, m)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	if err != nil {
		closeMounts()
		return nil, nil, err
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(ctx, ptc.Config{
		Pipeline:   pipe,
		HostConfig: host.Config{CompilationCacheDir: cacheDir()},
		Limits:     lim,
	})
	if err != nil {
		closeMounts()
		return nil, nil, err
	}
	return ex, func() {
		ex.Close(context.Background())
		closeMounts()
	}, nil
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
