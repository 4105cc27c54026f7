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
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/fixture"
	"github.com/ptchost/ptc/internal/guestfile"
	"github.com/ptchost/ptc/internal/modinfo"
	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
	"github.com/ptchost/ptc/runstore"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line problem: exit status 2, with the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// helpError is -h or --help: the command's help on stdout, exit status 0.
type helpError struct {
	cmd string // "run", "guest build", ...
	// flags are the command's flags, each of which the help text
	// documents with its default (TestHelp_everyFlag).
	flags []*flag.Flag
}

func (e *helpError) Error() string { return "help requested" }

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
	case "replay":
		code, err = cmdReplay(ctx, args[1:], stdin, stdout, stderr)
	case "sdk":
		err = cmdSDK(ctx, args[1:], stdout, stderr)
	case "serve":
		err = cmdServe(ctx, args[1:], stdin, stdout, stderr)
	case "guest":
		err = cmdGuest(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			if h, ok := helpTexts[strings.Join(args[1:], " ")]; ok {
				fmt.Fprint(stdout, h)
				return 0
			}
		}
		fmt.Fprint(stdout, helpTexts[""])
		return 0
	case "-version", "--version", "version":
		printVersion(stdout)
		return 0
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	var he *helpError
	if errors.As(err, &he) {
		fmt.Fprint(stdout, helpTexts[he.cmd])
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ptc-run: %v\n", err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprint(stderr, usage)
			cmd := args[0]
			if cmd == "guest" {
				cmd = "guest build"
			}
			if _, ok := helpTexts[cmd]; ok {
				fmt.Fprintf(stderr, "Run 'ptc-run %s -h' for its flags.\n", cmd)
			}
		}
		return 2
	}
	return code
}

// printVersion prints the module's version (runtime/debug) and the
// guest's: its recorded digests and where it is found, or the command
// that builds it.
func printVersion(w io.Writer) {
	version := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		version = bi.Main.Version
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", modified"
				}
			}
		}
		if rev != "" {
			version += fmt.Sprintf(" (vcs %s%s)", rev, modified)
		}
		version += " " + bi.GoVersion
	}
	fmt.Fprintf(w, "ptc-run %s %s\n", modinfo.Path, version)
	where := "not found: run " + guestfile.BuildCommand()
	if g, err := guestfile.Find(""); err == nil {
		where = g.Source
	} else if !errors.Is(err, quickjs.ErrNotBuilt) {
		where = err.Error()
	}
	fmt.Fprintf(w, "guest %s sha256:%s\n", guestfile.FileName, guestfile.WasmDigest())
	fmt.Fprintf(w, "guest %s sha256:%s\n", guestfile.IntlFileName, guestfile.IntlDigest())
	fmt.Fprintf(w, "guest found: %s\n", where)
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
	timeout := fs.Duration("timeout", host.Limits{}.WithDefaults().Timeout, "wall-time limit of the run")
	memory := fs.String("memory", "64MiB", "memory limit: bytes, or a number with a unit (KiB, MiB, GiB, KB, MB, GB)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the content")
	record := fs.String("record", "", "write the run's recording to this file")
	deterministic := fs.Bool("deterministic", false, "virtual clock and seeded random source")
	seed := fs.Uint64("seed", 0, "the random source's seed (implies --deterministic)")
	store := fs.String("store", "", "keep the run in this run store: sqlite:PATH or postgres://...")
	runID := fs.String("run-id", "", "the run's ID in the store (needs --store)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, &usageError{"run takes exactly one PROGRAM.js or -"}
	}
	var opts ptc.RunOptions
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "seed" {
			*deterministic = true
		}
	})
	if *deterministic {
		opts.Deterministic = &ptc.Deterministic{Seed: *seed}
	}
	if *record != "" {
		opts.Record = true
	}
	if *runID != "" && *store == "" {
		return 0, &usageError{"--run-id needs --store"}
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
	obs, err := newObservability(ctx, false, warnTo(stderr))
	if err != nil {
		return 0, err
	}
	defer obs.shutdown(context.WithoutCancel(ctx))
	ex, closeAll, err := newObservedExecutor(ctx, tools, host.Limits{Timeout: *timeout, MemoryBytes: mem}, 0, stderr, obs, *store)
	if err != nil {
		return 0, err
	}
	defer closeAll()

	callArgs, err := json.Marshal(map[string]string{"code": src})
	if err != nil {
		return 0, fmt.Errorf("encode program: %w", err)
	}
	// The call's ID is ptc-run (its span's gen_ai.tool.call.id); --run-id
	// names the run itself.
	rs, err := ex.ExecuteWith(ctx, pipeline.Batch{Calls: []pipeline.RawCall{{ID: "ptc-run", Name: ptc.ToolName, Arguments: callArgs, IdempotencyKey: *runID}}}, opts)
	if err != nil {
		return 0, err
	}
	r := rs[0]
	if r.RunID != "" {
		fmt.Fprintf(stderr, "run ID: %s\n", r.RunID)
	}
	if err := printResult(stdout, r, *asJSON, nil); err != nil {
		return 0, err
	}
	if *record != "" {
		if err := writeRecording(*record, r); err != nil {
			return 0, err
		}
	}
	if r.IsError {
		return 1, nil
	}
	return 0, nil
}

// printResult prints a run's result as run does: the content the model
// sees, or with asJSON the --json object (with replay's "divergence"
// member when replay is set).
func printResult(w io.Writer, r *ptc.Result, asJSON bool, replay *replayJSON) error {
	if asJSON {
		return writeResultJSON(w, r, replay)
	}
	_, err := fmt.Fprintln(w, registry.PlainText(r.Content))
	return err
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
		return &usageError{"sdk takes --tools FILE, --mcp NAME=CMD|URL and --mcp-config FILE (one at least), and nothing else"}
	}
	ex, closeAll, err := newExecutor(ctx, tools, host.Limits{}, 0, stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	_, err = io.WriteString(stdout, ex.Declarations(registry.Scope{}, nil))
	return err
}

// parseInterspersed parses flags before and after the positional
// arguments ("run prog.js --json" works) and returns the positionals. -h
// and --help return a *helpError; a duration without a unit ("--timeout
// 5") is refused with a hint.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.VisitAll(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok {
			if _, ok := g.Get().(time.Duration); ok {
				f.Value = durationFlag{f.Value}
			}
		}
	})
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				var flags []*flag.Flag
				fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
				return nil, &helpError{cmd: fs.Name(), flags: flags}
			}
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

// durationFlag is a duration flag that says what a number without a unit
// lacks ("--timeout 5" could mean seconds or milliseconds; it means
// neither).
type durationFlag struct{ flag.Value }

func (d durationFlag) Set(s string) error {
	err := d.Value.Set(s)
	if err == nil {
		return nil
	}
	if _, perr := strconv.ParseFloat(s, 64); perr == nil {
		return fmt.Errorf("use a unit, e.g. %ss", s)
	}
	return errors.New("want a duration with a unit, e.g. 500ms, 5s, 2m, 1h30m")
}

func (d durationFlag) Get() any { return d.Value.(flag.Getter).Get() }

// toolFlags are the flags that mount tools: --tools FILE, --mcp
// NAME=CMD|URL and --mcp-config FILE (both repeatable).
type toolFlags struct {
	fixture string
	mcp     endpoints
	configs configFiles
}

func (t *toolFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&t.fixture, "tools", "", "tool fixture file")
	fs.Var(&t.mcp, "mcp", "MCP server NAME=COMMAND or NAME=URL (repeatable)")
	fs.Var(&t.configs, "mcp-config", "file of MCP servers in the mcpServers format (repeatable)")
}

func (t *toolFlags) empty() bool { return t.fixture == "" && len(t.mcp) == 0 && len(t.configs) == 0 }

// endpoints is the repeatable --mcp flag.
type endpoints []mcp.Endpoint

func (e *endpoints) String() string { return fmt.Sprint(*e) }

func (e *endpoints) Set(s string) error {
	ep, err := mcp.ParseEndpoint(s)
	if err != nil {
		return err
	}
	return e.add(ep)
}

// add adds ep, whose name must be new.
func (e *endpoints) add(ep mcp.Endpoint) error {
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
//
// maxRuns is ptc.Config.MaxRuns (zero: the default).
func newExecutor(ctx context.Context, tools toolFlags, lim host.Limits, maxRuns int, stderr io.Writer) (*ptc.Executor, func(), error) {
	return newObservedExecutor(ctx, tools, lim, maxRuns, stderr, nil, "")
}

// newObservedExecutor is newExecutor tracing and metering with obs's
// providers (none when obs is nil); its log records carry the trace. With
// storeURL, its runs are durable in that run store (ptc.Config.Store).
func newObservedExecutor(ctx context.Context, tools toolFlags, lim host.Limits, maxRuns int, stderr io.Writer, obs *observability, storeURL string) (*ptc.Executor, func(), error) {
	var store runstore.Store
	if storeURL != "" {
		s, err := runstore.Open(ctx, storeURL)
		if err != nil {
			return nil, nil, &usageError{fmt.Sprintf("--store: %v", err)}
		}
		store = s
	}
	closeStore := func() {
		if store != nil {
			store.Close()
		}
	}
	ex, closeAll, err := newToolExecutor(ctx, tools, lim, maxRuns, stderr, obs, store)
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	return ex, func() {
		closeAll()
		closeStore()
	}, nil
}

// newToolExecutor is newObservedExecutor with the store opened.
func newToolExecutor(ctx context.Context, tools toolFlags, lim host.Limits, maxRuns int, stderr io.Writer, obs *observability, store runstore.Store) (*ptc.Executor, func(), error) {
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
	logger := slog.New(telemetry.LogHandler(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	eps, err := tools.servers(logger)
	if err != nil {
		return nil, nil, err
	}
	for _, ep := range eps {
		m, err := mcp.Mount(ctx, reg, ep, mcp.MountOptions{Logger: logger})
		if err != nil {
			closeMounts()
			return nil, nil, err
		}
		mounts = append(mounts, m)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg, TracerProvider: obs.tracerProvider(), MeterProvider: obs.meterProvider()})
	if err != nil {
		closeMounts()
		return nil, nil, err
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(ctx, ptc.Config{
		Pipeline:   pipe,
		HostConfig: host.Config{CompilationCacheDir: compilationCacheDir()},
		Limits:     lim,
		MaxRuns:    maxRuns,
		Store:      store,
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

// compilationCacheDir is where wazero keeps the compiled guest between
// invocations: wazero/ in $PTC_CACHE_DIR, else in ptc-run under the user
// cache directory (guestfile.CacheDir, which also holds the guest `guest
// build` installs). Compiling takes about a second, loading the cache a
// few tens of milliseconds. PTC_CACHE_DIR set and empty disables it.
func compilationCacheDir() string {
	if d, ok := os.LookupEnv(guestfile.EnvCacheDir); ok && d == "" {
		return ""
	}
	d := guestfile.CacheDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "wazero")
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
// unit (B, KiB, MiB, GiB, or KB, MB, GB in powers of ten), as docs/ARCHITECTURE.md's
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

// usage is printed on stderr after a usage error.
const usage = `usage:
  ptc-run run    [--tools FILE] [--mcp NAME=CMD|URL]... [--mcp-config FILE]... [--timeout D]
                 [--memory SIZE] [--json] [--record OUT.json] [--deterministic [--seed N]]
                 [--store URL [--run-id ID]] PROGRAM|-
  ptc-run replay [--json] [--program NEW.js] [--live TOOL]... [--tools FILE]
                 [--mcp NAME=CMD|URL]... [--mcp-config FILE]... REC.json|--store URL --run-id ID
  ptc-run sdk    [--tools FILE] [--mcp NAME=CMD|URL]... [--mcp-config FILE]...
  ptc-run serve  [--tools FILE] [--mcp NAME=CMD|URL]... [--mcp-config FILE]... [--timeout D]
                 [--memory SIZE] [--grace D] [--listen ADDR | --stdio] [--auth FILE | --no-auth]
                 [--allow-origin O]... [--sessions] [--max-runs N] [--metrics] [--store URL]
  ptc-run guest build [--source DIR] [--force]
  ptc-run --version
`

// The parts the help texts share.
const (
	helpToolFlags = `  --tools FILE     mount the tools of a tool fixture file (format below)
  --mcp NAME=CMD   mount the tools of an MCP server as NAME__TOOL;
  --mcp NAME=URL   NAME=COMMAND ARGS... starts a stdio server (words split
                   as a shell does, no expansions), NAME=http(s)://...
                   reaches a streamable HTTP one; repeatable
  --mcp-config FILE
                   mount the MCP servers of FILE, written as Claude
                   Desktop, Cursor or VS Code write theirs (format below);
                   repeatable, beside --mcp
`
	helpLimitFlags = `  --timeout D      wall-time limit of %s (default 30s): a duration
                   with a unit, e.g. 500ms, 5s, 2m, 1h30m
  --memory SIZE    memory limit of %s (default 64MiB): bytes, or a
                   number with a unit: B, KiB, MiB, GiB (powers of 2) or
                   KB, MB, GB (powers of 10), e.g. 32MiB
`
	helpFixture = `Tool fixture file (--tools FILE), JSON:
  {"tools": [{
    "name": "get_weather", "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]},
    "output": {"type": "object", "properties": {"tempC": {"type": "number"}}},
    "parallelSafe": true, "timeoutMs": 5000, "callers": ["program"],
    "responses": [
      {"match": {"city": "Paris"}, "value": {"tempC": 21}, "delayMs": 50},
      {"error": "city not found"},
      {"value": "ok", "images": [{"mimeType": "image/png", "path": "cat.png"}]}
    ]}]}
  Only name and responses are required. Arguments are validated against
  "parameters" first; then the first response whose "match" is a subset of
  the arguments answers ("match" left out matches all): "value" is the
  result, "error" fails the call with that message, "delayMs" waits first
  (cancellable), image paths are relative to the fixture file. "callers"
  says who may call the tool: "direct" (the model), "program", or both.
`
	helpEnv = `Environment:
  PTC_CACHE_DIR  cache directory; default ptc-run in the user cache
                 directory (e.g. ~/.cache/ptc-run). wazero/ in it keeps the
                 compiled guest between runs (set PTC_CACHE_DIR= empty to
                 disable that cache); guest/ holds the guest that
                 "ptc-run guest build" installs.
  PTC_GUEST      the guest to use: a .wasm file with its Intl bundle
                 beside it, or a directory holding both. Looked at first;
                 then the guest built into ptc-run, then guest/ in the cache
                 directory. A guest whose sha256 is not the one this version
                 records is ignored.
  OTEL_*         OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT (or
                 OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_TRACES_EXPORTER=
                 otlp) set, run and serve export a span per run and per
                 subcall over OTLP (OTEL_EXPORTER_OTLP_PROTOCOL
                 http/protobuf or grpc; OTEL_SERVICE_NAME,
                 OTEL_TRACES_SAMPLER, ... as usual).
                 Nothing set: nothing is exported.
`
	helpExit = `Exit status: 0 the program succeeded; 1 the program failed (the content
is still printed); 2 usage, configuration or fixture error.
`
)

// helpTexts are the help texts, by command ("" for ptc-run -h).
var helpTexts = map[string]string{
	"": `ptc-run runs a model-written JavaScript or TypeScript program in the ptc
sandbox (QuickJS in WebAssembly), as the run_code tool does, and prints what
the model would see.

` + usage + `
Commands:
  run          run one program and print its content
  replay       run a recorded program again, its tool calls answered from
               the recording, and say where it diverges
  sdk          print the TypeScript declarations the model sees
  serve        offer run_code as an MCP server (streamable HTTP or stdio)
  guest build  build the sandbox's guest into the user cache directory
               (needed once by a copy of ptc fetched with go get)
  --version    print ptc's version and the guest's digest

"ptc-run COMMAND -h" documents a command and its flags.

` + helpExit,

	"run": `usage: ptc-run run [flags] PROGRAM|-

Runs PROGRAM (a JavaScript or TypeScript file, or - for standard input)
once, as the run_code tool would, and prints the content the model would
see: the printed lines, then the return value; images are printed as
[image MIME N bytes]. Its tool calls go through a real registry and
pipeline.

Flags (before or after PROGRAM):
` + helpToolFlags + fmt.Sprintf(helpLimitFlags, "the run", "the run") + `  --json           print one JSON object instead of the content:
                   {"content": [...], "isError": bool,
                    "error": {"kind", "message", "info"} or null,
                    "output": [lines], "returnValue": any or null,
                    "subcalls": [{"n", "tool", "arguments", "ok", "code",
                                  "durationMs", "info"}],
                    "stats": {"wallMs", "subcalls", "memoryBytes"}}
  --record OUT.json
                   write the run's recording to OUT.json, also when the
                   program fails: the program, the declarations it saw,
                   the limits, clock and seed, every tool call with its
                   arguments, answer and timing, and the content (JSON,
                   format version 1; "ptc-run replay" runs it again)
  --deterministic  make the run reproducible: Date, performance.now and
                   timers read a virtual clock that starts at
                   2000-01-01T00:00:00Z and advances only by timers and tool
                   calls' durations; Math.random and crypto are seeded
  --seed N         the seed of Math.random and crypto (default 0); implies
                   --deterministic
  --store URL      keep the run in a run store, sqlite:PATH (one machine) or
                   postgres://... (many): its tool calls are written before
                   they are made and its result before it is printed, and
                   its run ID is printed on standard error
  --run-id ID      the run's ID in the store (needs --store; default: a new
                   random one). The same ID again prints the stored result
                   and calls no tool; if the process running it was killed,
                   it resumes the run without repeating the calls that
                   finished (docs/durable.md)
  -h, --help       print this help

` + helpFixture + `
` + helpMCPConfig + `
` + helpEnv + `
` + helpExit,

	"replay": `usage: ptc-run replay [flags] REC.json
       ptc-run replay [flags] --store URL --run-id ID

Runs the program of a recording (written by "ptc-run run --record") again,
on its recorded SDK, limits, clock and seed, with each tool call answered
from the recording, and prints the result as run does. Each call must be
the recorded one (same order, tool and arguments); the first that is not
ends the run. Then the content is compared with the recorded content (for
a run that ended by a timeout, cancellation or the memory limit, the kind
and the calls so far). On a divergence, "replay: diverged" and the first
divergent call (recorded and replayed) or the content's diff ("-" recorded,
"+" replayed) go to standard error.

Flags (before or after REC.json):
  --json           print one JSON object as run --json does, with a member
                   "divergence": null when the replay matched, else
                   {"call": n (0 when the calls matched), "reason",
                    "expected": {"tool", "arguments"} or null,
                    "actual": {"tool", "arguments"} or null, "diff"}
  --program FILE   run FILE (JavaScript or TypeScript, - for standard input)
                   instead of the recorded program, against the recorded
                   calls: shows where the new program's calls diverge
  --live TOOL      call TOOL for real, through the tools of --tools, --mcp
                   and --mcp-config, instead of answering from the
                   recording (each call must still be the recorded one);
                   repeatable
  --store URL      replay a run of a run store (run --store, serve --store)
  --run-id ID      instead of REC.json: what the store has of run ID, a run
                   nobody finished replaying as a run cut where it was
` + helpToolFlags + `                   (only needed for --live: without them no tool is mounted)
  -h, --help       print this help

` + helpFixture + `
` + helpMCPConfig + `
` + helpEnv + `
Exit status: 0 the replay matched the recording (whatever the program did);
1 it diverged; 2 the recording is unreadable or refused (another format
version, altered declarations), or usage, configuration or fixture error.
`,

	"sdk": `usage: ptc-run sdk [flags]

Prints the TypeScript declarations of the tools the model sees in
run_code's description. At least one of --tools, --mcp and --mcp-config
is required.

Flags:
` + helpToolFlags + `  -h, --help       print this help

` + helpFixture + `
` + helpMCPConfig + `
` + helpEnv + `
Exit status: 0 printed; 2 usage, configuration or fixture error.
`,

	"serve": `usage: ptc-run serve [flags]

Offers run_code as an MCP server: over streamable HTTP (stateless, at /mcp,
health at /healthz), or on standard input and output with --stdio. Logs one
JSON record per run on standard error. SIGINT or SIGTERM lets the runs in
progress finish for --grace, then aborts them.

Flags:
` + helpToolFlags + fmt.Sprintf(helpLimitFlags, "each run", "each run") + `  --grace D        how long runs in progress may go on after SIGINT or
                   SIGTERM (default 10s): a duration with a unit, e.g. 30s
  --listen ADDR    the HTTP address, host:port (default 127.0.0.1:8080);
                   without --auth only a loopback address is accepted
  --stdio          speak MCP on standard input and output instead of HTTP
  --auth FILE      principals file (JSON): who may call (bearer keys by
                   sha256, JWTs of an OIDC issuer), which tools each sees,
                   which calls a person approves, and each one's limits
  --no-auth        serve beyond loopback without authentication: anyone
                   who reaches the port runs code and calls every tool
  --allow-origin O an Origin (scheme://host[:port]) served over HTTP;
                   repeatable; requests with any other Origin get 403
  --sessions       keep MCP sessions over HTTP (Mcp-Session-Id), needed to
                   ask a person for approval; replicas then need a balancer
                   that routes on Mcp-Session-Id
  --max-runs N     programs run at once (default 128); a request beyond it
                   waits, in the order requests came, until a run ends or
                   the request is cancelled
  --metrics        serve the metrics at /metrics, in Prometheus' format
                   (HTTP only)
  --store URL      keep runs in a run store, sqlite:PATH or postgres://...
                   (replicas share one): each run's tool calls are written
                   before they are made and its result before it is sent
                   (docs/durable.md)
  -h, --help       print this help

` + helpFixture + `
` + helpMCPConfig + `
` + helpEnv + `
Exit status: 0 after a clean shutdown; 2 usage, configuration or fixture
error, or the server failed.
`,

	"guest build": `usage: ptc-run guest build [flags]

Builds the sandbox's guest (QuickJS-ng compiled to WebAssembly, and its Intl
bundle) from this version's pinned, checksummed inputs, with the scripts
"make guest" runs, and installs it into guest/ in the cache directory as
<sha256>.wasm and <sha256>.js. ptc itself needs no build: the same guest is
committed in its module and built into every program that uses it. This is
for whoever wants to see it built from source:

  go run github.com/ptchost/ptc/cmd/ptc-run@VERSION guest build

with the VERSION of ptc in your go.mod. It installs the toolchain it lacks
as "make guest" does (clang-16, lld-16 and wasi-libc from Debian, with sudo
when not root) and needs go and npm (Node 20). The build runs in a
temporary copy of the sources; its result must have the sha256 this version
records (the built-in guest's), or nothing is installed. PTC_GUEST=DIR runs
the guest installed in DIR.

Flags:
  --source DIR     the ptc source tree to build from (default: the tree
                   this ptc-run was compiled from, else the module at its
                   version, fetched by the go command)
  --force          build even when the cache already holds the guest
  -h, --help       print this help

` + helpEnv + `
Exit status: 0 installed (or already there); 2 the build failed or usage
error.
`,
}
