package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/durable"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
	"github.com/ptchost/ptc/runstore"
)

// cmdReplay runs a recorded program again with its subcalls answered from
// the recording (ptc.Executor.Replay), prints the result as run does, and
// says on stderr where the replay left the recording. Exit status 0 when
// it matched, 1 on a divergence, 2 for an unusable recording or a usage
// error.
func cmdReplay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("replay")
	var tools toolFlags
	tools.add(fs)
	asJSON := fs.Bool("json", false, "print one JSON object instead of the content")
	program := fs.String("program", "", "replay this program instead of the recorded one")
	var live names
	fs.Var(&live, "live", "call this tool live instead of answering from the recording (repeatable)")
	storeURL := fs.String("store", "", "replay a run of this run store (with --run-id) instead of REC.json")
	runID := fs.String("run-id", "", "the stored run to replay (with --store)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 0, err
	}
	var rec *recording.Recording
	name := ""
	switch {
	case (*storeURL == "") != (*runID == ""):
		return 0, &usageError{"replay takes --store URL and --run-id ID together"}
	case *storeURL != "":
		if len(pos) != 0 {
			return 0, &usageError{"replay takes either REC.json or --store URL --run-id ID"}
		}
		name = "run " + *runID
		if rec, err = storedRecording(ctx, *storeURL, *runID); err != nil {
			return 0, err
		}
	default:
		if len(pos) != 1 {
			return 0, &usageError{"replay takes exactly one REC.json"}
		}
		if pos[0] == "-" && *program == "-" {
			return 0, &usageError{"replay reads standard input once: not both REC.json and --program from -"}
		}
		var b []byte
		if pos[0] == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(pos[0])
		}
		if err != nil {
			return 0, fmt.Errorf("read recording: %w", err)
		}
		name = pos[0]
		if rec, err = recording.Decode(b); err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
	}
	var opts ptc.ReplayOptions
	if *program != "" {
		if opts.Program, err = readProgram(*program, stdin); err != nil {
			return 0, err
		}
	}
	opts.Live = live
	ex, closeAll, err := newExecutor(ctx, tools, host.Limits{}, 0, stderr)
	if err != nil {
		return 0, err
	}
	defer closeAll()
	for _, name := range live {
		if _, ok := ex.Pipeline().Config().Registry.Get(name, registry.Scope{}, nil); !ok {
			// --live calls the tool itself: it must be there to call.
			return 0, &usageError{fmt.Sprintf("--live %s: no tool of that name is registered; --live calls the tool for real, so give its tools as when recording (--tools FILE, --mcp NAME=CMD|URL or --mcp-config FILE)", name)}
		}
	}
	r, err := ex.Replay(ctx, rec, opts)
	if err != nil {
		if errors.Is(err, recording.ErrUnusable) {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		return 0, err
	}
	if err := printResult(stdout, r, *asJSON, &replayJSON{divergence: r.Divergence, recording: rec}); err != nil {
		return 0, err
	}
	if d := r.Divergence; d != nil {
		compactArguments(d.Expected)
		compactArguments(d.Actual)
		fmt.Fprint(stderr, "replay: diverged\n"+d.String())
		return 1, nil
	}
	return 0, nil
}

// writeRecording writes the run's recording (--record): its JSON form
// indented by two spaces, with '<', '>' and '&' unescaped so that a
// program's arrows stay legible. A call that never ran its program
// (invalid arguments, cancelled before it started) has none.
func writeRecording(path string, r *ptc.Result) error {
	if r.Recording == nil {
		return fmt.Errorf("--record %s: no recording: the program did not run", path)
	}
	b, err := json.Marshal(r.Recording)
	if err != nil {
		return fmt.Errorf("--record %s: %w", path, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, unescapeHTML(b), "", "  "); err != nil {
		return fmt.Errorf("--record %s: %w", path, err)
	}
	out.WriteByte('\n')
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	return nil
}

// unescapeHTML undoes encoding/json's HTML escaping (\u003c, \u003e,
// \u0026) in the strings of a JSON document.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\' && i+1 < len(b):
			if i+5 < len(b) && b[i+1] == 'u' {
				switch string(b[i+2 : i+6]) {
				case "003c":
					out, i = append(out, '<'), i+5
					continue
				case "003e":
					out, i = append(out, '>'), i+5
					continue
				case "0026":
					out, i = append(out, '&'), i+5
					continue
				}
			}
			out = append(out, c, b[i+1])
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}

// compactArguments writes a divergent call's arguments on one line: a
// recording's are as its file has them (--record indents them).
func compactArguments(c *recording.CallDesc) {
	if c == nil {
		return
	}
	var b bytes.Buffer
	if json.Compact(&b, c.Arguments) == nil {
		c.Arguments = b.Bytes()
	}
}

// names is a repeatable string flag.
type names []string

func (n *names) String() string { return fmt.Sprint(*n) }

func (n *names) Set(s string) error {
	if s == "" {
		return errors.New("want a tool name")
	}
	*n = append(*n, s)
	return nil
}

// storedRecording is run id of the run store at url, as a recording: what
// its program did up to where the store has it (a run nobody finished
// replays as a run cut there).
func storedRecording(ctx context.Context, url, id string) (*recording.Recording, error) {
	store, err := runstore.Open(ctx, url)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--store: %v", err)}
	}
	defer store.Close()
	r, err := store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	st, err := durable.Assemble(r)
	if err != nil {
		return nil, err
	}
	rec := st.Recorded()
	if err := rec.Check(); err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	return rec, nil
}
