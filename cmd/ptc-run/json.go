package main

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

// result is the --json object (docs/ARCHITECTURE.md, "ptc-run").
type result struct {
	Content     []registry.Part `json:"content"` // MCP's content blocks (registry.Part.MarshalJSON)
	IsError     bool            `json:"isError"`
	Error       *runError       `json:"error"`
	Output      []string        `json:"output"`
	ReturnValue json.RawMessage `json:"returnValue"`
	Subcalls    []subcall       `json:"subcalls"`
	Stats       stats           `json:"stats"`
}

type runError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Info is the structured detail a policy attached when it denied the
	// run_code call itself; null otherwise.
	Info *pipeline.ErrorInfo `json:"info"`
}

type subcall struct {
	N          int             `json:"n"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	OK         bool            `json:"ok"`
	Code       *string         `json:"code"` // null when ok
	DurationMs float64         `json:"durationMs"`
	// Info is the structured detail a policy attached when it denied the
	// subcall; null otherwise. It never reaches the model.
	Info *pipeline.ErrorInfo `json:"info"`
}

// replayJSON is what replay adds to the --json object: "divergence",
// null when the replay matched the recording.
type replayJSON struct {
	divergence *recording.Divergence
	// recording is the replayed recording: the durations of the calls it
	// answered (their Subcall.Outcome is nil) are the recorded ones.
	recording *recording.Recording
}

type divergence struct {
	Call     int       `json:"call"`
	Reason   string    `json:"reason"`
	Expected *callDesc `json:"expected"`
	Actual   *callDesc `json:"actual"`
	Diff     string    `json:"diff"`
}

type callDesc struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

func newCallDesc(c *recording.CallDesc) *callDesc {
	if c == nil {
		return nil
	}
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage("null")
	} else if !json.Valid(args) {
		args, _ = json.Marshal(string(args)) // a string always encodes
	}
	return &callDesc{Tool: c.Tool, Arguments: args}
}

type stats struct {
	WallMs      float64 `json:"wallMs"`
	Subcalls    int     `json:"subcalls"`
	MemoryBytes uint64  `json:"memoryBytes"`
}

// writeJSON prints run's --json object of r.
func writeJSON(w io.Writer, r *ptc.Result) error {
	return writeResultJSON(w, r, nil)
}

// writeResultJSON prints the --json object of r; replay, when set, adds
// its "divergence" member.
// errorInfo is the structured detail a denial attached to o's failure,
// or nil.
func errorInfo(o *pipeline.Outcome) *pipeline.ErrorInfo {
	var e *pipeline.Error
	if errors.As(o.Err(), &e) {
		return e.Info
	}
	return nil
}

func writeResultJSON(w io.Writer, r *ptc.Result, replay *replayJSON) error {
	out := result{
		IsError:     r.IsError,
		Output:      []string{},
		ReturnValue: json.RawMessage("null"),
		Subcalls:    []subcall{},
	}
	out.Content = r.Content
	if o := r.Run; o != nil {
		if o.Output != nil {
			out.Output = o.Output
		}
		if o.ReturnValue != nil {
			out.ReturnValue = o.ReturnValue
		}
		if !o.OK() {
			out.Error = &runError{Kind: string(o.Kind), Message: o.Message}
		}
		out.Stats = stats{
			WallMs:      float64(o.Duration.Microseconds()) / 1000,
			Subcalls:    o.Subcalls,
			MemoryBytes: o.MemoryBytes,
		}
	}
	if out.Error == nil && r.IsError {
		// The call failed outside the program: cancelled before it started
		// or before the pipeline settled it.
		kind := "internal"
		if errors.Is(r.Err(), ptc.ErrAborted) {
			kind = "aborted"
		}
		msg, _ := strings.CutPrefix(registry.PlainText(r.Content[:1]), "Error: code run failed ("+kind+"): ")
		out.Error = &runError{Kind: kind, Message: msg, Info: errorInfo(r.Outcome)}
		out.ReturnValue = json.RawMessage("null")
	}
	for _, sc := range r.Subcalls {
		s := subcall{
			N:         sc.N,
			Tool:      sc.Tool,
			Arguments: sc.Arguments,
			OK:        sc.OK,
		}
		if sc.Outcome != nil {
			s.DurationMs = float64(sc.Outcome.Duration().Microseconds()) / 1000
			s.Info = errorInfo(sc.Outcome)
		} else if replay != nil && replay.recording != nil && sc.N >= 1 && sc.N <= len(replay.recording.Calls) {
			// Answered from the recording: the recorded duration.
			s.DurationMs = float64(time.Duration(replay.recording.Calls[sc.N-1].Took).Microseconds()) / 1000
		}
		if !sc.OK {
			code := sc.Code
			s.Code = &code
		}
		out.Subcalls = append(out.Subcalls, s)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if replay == nil {
		return enc.Encode(out)
	}
	var d *divergence
	if rd := replay.divergence; rd != nil {
		d = &divergence{Call: rd.Call, Reason: rd.Reason, Expected: newCallDesc(rd.Expected), Actual: newCallDesc(rd.Actual), Diff: rd.Diff}
	}
	return enc.Encode(struct {
		result
		Divergence *divergence `json:"divergence"`
	}{out, d})
}
