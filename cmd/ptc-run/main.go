// Command ptc-run runs a model-written JavaScript program in the ptc
// sandbox and prints what the model would see.
//
// Usage:
//
//	ptc-run run [--timeout D] [--memory BYTES] [--json] PROGRAM.js|-
//
// The compiled guest is cached in $PTC_CACHE_DIR (default: the user cache
// directory); set PTC_CACHE_DIR= (empty) to disable the cache.
//
// Exit status: 0 the program succeeded, 1 the program failed (the content
// is still printed), 2 usage or configuration error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"

	"github.com/ptchost/ptc/host"
)

const usage = `usage:
  ptc-run run [--timeout D] [--memory BYTES] [--json] PROGRAM.js|-
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line or configuration problem: exit status 2.
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

func cmdRun(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	timeout := fs.Duration("timeout", host.DefaultTimeout, "wall-time limit of the run")
	memory := fs.String("memory", strconv.Itoa(host.DefaultMemoryBytes), "memory limit in bytes")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the content")
	if err := fs.Parse(args); err != nil {
		return 0, &usageError{err.Error()}
	}
	if fs.NArg() != 1 {
		return 0, &usageError{"run takes exactly one PROGRAM.js or -"}
	}
	mem, err := strconv.ParseUint(*memory, 10, 64)
	if err != nil || mem == 0 {
		return 0, &usageError{fmt.Sprintf("--memory %q: want a positive number of bytes", *memory)}
	}
	if *timeout <= 0 {
		return 0, &usageError{fmt.Sprintf("--timeout %v: want a positive duration", *timeout)}
	}
	src, err := readProgram(fs.Arg(0), stdin)
	if err != nil {
		return 0, err
	}
	h, err := host.New(ctx, host.Config{CompilationCacheDir: cacheDir()})
	if err != nil {
		return 0, err
	}
	defer h.Close(context.Background())
	out := h.Run(ctx, host.Program{
		Source: src,
		Limits: host.Limits{Timeout: *timeout, MemoryBytes: mem},
	})
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return 0, err
		}
	} else {
		fmt.Fprintln(stdout, out.Text())
	}
	if !out.OK() {
		return 1, nil
	}
	return 0, nil
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

// result is the --json object (DESIGN.md, "ptc-run").
type result struct {
	Content     []contentPart   `json:"content"`
	IsError     bool            `json:"isError"`
	Error       *runError       `json:"error"`
	Output      []string        `json:"output"`
	ReturnValue json.RawMessage `json:"returnValue"`
	Subcalls    []subcall       `json:"subcalls"`
	Stats       stats           `json:"stats"`
}

type contentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type runError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

type subcall struct {
	N          int             `json:"n"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	OK         bool            `json:"ok"`
	Code       string          `json:"code,omitempty"`
	DurationMs float64         `json:"durationMs"`
}

type stats struct {
	WallMs      float64 `json:"wallMs"`
	Subcalls    int     `json:"subcalls"`
	MemoryBytes uint64  `json:"memoryBytes"`
}

func writeJSON(w io.Writer, o *host.Outcome) error {
	r := result{
		Content:     []contentPart{{Type: "text", Text: o.Text()}},
		IsError:     !o.OK(),
		Output:      o.Output,
		ReturnValue: o.ReturnValue,
		Subcalls:    []subcall{},
		Stats: stats{
			WallMs:      float64(o.Duration.Microseconds()) / 1000,
			Subcalls:    o.Subcalls,
			MemoryBytes: o.MemoryBytes,
		},
	}
	if r.Output == nil {
		r.Output = []string{}
	}
	if r.ReturnValue == nil {
		r.ReturnValue = json.RawMessage("null")
	}
	if !o.OK() {
		r.Error = &runError{Kind: string(o.Kind), Message: o.Message}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
