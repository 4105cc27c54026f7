package ptc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// ReplayOptions configure Executor.Replay.
type ReplayOptions struct {
	// Program, when set, replaces the recorded program: the replay then
	// shows where the new program's calls leave the recorded ones (the
	// regression-test use).
	Program string
	// Live names tools whose calls go through the executor's pipeline
	// instead of being answered from the recording; each call must still
	// be the recorded one.
	Live []string
	// Approver answers the asks of live calls.
	Approver pipeline.Approver
}

// Divergence is where a replay stopped doing what was recorded.
type Divergence struct {
	// Call is the first divergent call's number (Subcall.N); 0 when the
	// calls matched and the rest did not.
	Call int
	// Expected is the recorded call (nil when the program made a call the
	// recording does not have), Actual the program's (nil when the program
	// never made the recorded call).
	Expected, Actual *CallDesc
	// Reason says what diverged.
	Reason string
	// Diff shows the recorded and the replayed content (or declarations)
	// line by line: "-" recorded, "+" replayed.
	Diff string
}

// CallDesc is a call as a divergence shows it.
type CallDesc struct {
	Tool      string
	Arguments json.RawMessage
}

// String returns the call as the program wrote it: tools.NAME(ARGS).
func (c *CallDesc) String() string { return "tools." + c.Tool + "(" + string(c.Arguments) + ")" }

// String describes the divergence in a few lines.
func (d *Divergence) String() string {
	var b strings.Builder
	if d.Call > 0 {
		fmt.Fprintf(&b, "call %d: %s\n", d.Call, d.Reason)
		if d.Expected != nil {
			fmt.Fprintf(&b, "  recorded: %s\n", d.Expected)
		} else {
			b.WriteString("  recorded: (no such call)\n")
		}
		if d.Actual != nil {
			fmt.Fprintf(&b, "  replayed: %s\n", d.Actual)
		} else {
			b.WriteString("  replayed: (the program never made it)\n")
		}
	} else {
		b.WriteString(d.Reason + "\n")
	}
	if d.Diff != "" {
		b.WriteString(d.Diff)
	}
	return b.String()
}

// Replay runs a recorded program again with its subcalls answered from
// the recording, on the recorded clock, seed, limits and SDK, and reports
// on Result.Divergence the first place the run leaves the recording: a
// call with another tool or other arguments, a call too many or too few,
// another outcome kind, or other content. Runs that settled by themselves
// are compared byte for byte; for timeout, aborted and memory, the kind
// and the calls up to that point. The error, matching ErrRecording, is for
// a recording that cannot be replayed.
func (e *Executor) Replay(ctx context.Context, rec *Recording, opts ReplayOptions) (*Result, error) {
	if rec == nil {
		return nil, fmt.Errorf("%w: no recording", ErrRecording)
	}
	if rec.Version != RecordingVersion {
		return nil, fmt.Errorf("%w: format version %d; this ptc reads version %d only", ErrRecording, rec.Version, RecordingVersion)
	}
	if err := rec.check(); err != nil {
		return nil, err
	}
	if rec.Kind == KindSuspended {
		return nil, fmt.Errorf("%w: the run was suspended for an approval: resume its continuation (Resume) instead of replaying it", ErrRecording)
	}
	pl := &plan{src: rec, sdk: toolsdk.New(rec.sdkgenTools(), rec.DeclarationBytes), program: opts.Program, live: map[string]bool{}}
	for _, name := range opts.Live {
		if _, ok := e.pipe.Registry().Get(name, registry.Scope{}, nil); !ok {
			return nil, fmt.Errorf("ptc: replay: live tool %q is not registered", name)
		}
		pl.live[name] = true
	}
	r := e.executePlan(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCodeCall(rec.Program)}, Approver: opts.Approver}, rec.Limits.WithDefaults(), pl)[0]
	if decls := pl.sdk.TypeScript(); decls != rec.Declarations {
		r.Divergence = &Divergence{Reason: "the declarations this version generates from the recorded tools differ from the recorded ones",
			Diff: lineDiff(rec.Declarations, decls)}
	}
	return r, nil
}

// runCodeCall is a run_code call of program.
func runCodeCall(program string) pipeline.RawCall {
	args, _ := json.Marshal(runArgs{Code: program}) // a string always encodes
	return pipeline.RawCall{ID: "run", Name: ToolName, Arguments: args}
}

// settle completes a run's result with what its session adds: the
// recording, a suspended run's continuation, a replay's divergence.
func (s *session) settle(r *Result, rep *report) {
	rep.mu.Lock()
	out := rep.run
	rep.mu.Unlock()
	if out == nil {
		return // the program never ran
	}
	pending := s.pending()
	if r.Run == nil || r.Run.Kind != KindSuspended {
		pending = nil // the run ended otherwise before the ask could suspend it
	}
	var rec *Recording
	if s.plan.records() {
		rec = s.recording(out)
		rec.Content, rec.IsError = r.Content, r.IsError
		if s.plan.opts.Record || pending != nil {
			r.Recording = rec
		}
	}
	if pending != nil {
		r.Pending = pending
		c, err := s.e.seal(rec, pending, s.agent)
		if err != nil {
			r.Content = []registry.Part{registry.TextPart("Error: code run failed (internal): " + err.Error())}
			r.Run.Kind, r.Pending = host.KindInternal, nil
			return
		}
		r.Continuation = c
	}
	if s.plan.src != nil && !s.plan.resume {
		r.Divergence = s.compare(r, rec)
	}
}

// compare finds where a replay left the recording.
func (s *session) compare(r *Result, got *Recording) *Divergence {
	s.mu.Lock()
	d := s.divergence
	s.mu.Unlock()
	src := s.plan.src
	if d != nil {
		if r.Run != nil {
			c := *d
			c.Diff = lineDiff(contentLines(src.Content), contentLines(r.Content))
			return &c
		}
		return d
	}
	if r.Run == nil {
		return &Divergence{Reason: "the replay did not run the program"}
	}
	kind := r.Run.Kind
	contentDiff := func() string {
		return lineDiff(contentLines(src.Content), contentLines(r.Content))
	}
	if kind != src.Kind {
		return &Divergence{Reason: fmt.Sprintf("the run ended %s; the recorded one ended %s", kind, src.Kind), Diff: contentDiff()}
	}
	if n := len(got.Calls); n < len(src.Calls) && settledByItself(kind) {
		rc := src.Calls[n]
		return &Divergence{Call: rc.Seq, Expected: &CallDesc{Tool: rc.Tool, Arguments: rc.Arguments},
			Reason: "the recording has a call the program never made"}
	}
	if settledByItself(kind) && !sameContent(src.Content, r.Content) {
		return &Divergence{Reason: "the content differs from the recorded content", Diff: contentDiff()}
	}
	return nil
}

// settledByItself reports whether a run of this kind ended by what the
// program did, not by a limit of time or memory or by its caller: only
// such runs are compared byte for byte.
func settledByItself(k host.Kind) bool {
	return k != host.KindTimeout && k != host.KindAborted && k != host.KindMemory
}

// sameContent compares two contents in their JSON form, image bytes
// included.
func sameContent(a, b []registry.Part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, err1 := a[i].MarshalJSON()
		y, err2 := b[i].MarshalJSON()
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// contentLines is content as text, an image shown by type and size.
func contentLines(c []registry.Part) string { return ContentText(c) }

// lineDiff shows how b differs from a, line by line: the lines both share
// at the start and the end once (at most three of each as context), the
// rest of a with "-", the rest of b with "+". Empty when they are equal.
func lineDiff(a, b string) string {
	if a == b {
		return ""
	}
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var out strings.Builder
	for _, l := range x[max(0, pre-3):pre] {
		out.WriteString("  " + l + "\n")
	}
	for _, l := range x[pre : len(x)-suf] {
		out.WriteString("- " + l + "\n")
	}
	for _, l := range y[pre : len(y)-suf] {
		out.WriteString("+ " + l + "\n")
	}
	for _, l := range x[len(x)-suf : min(len(x), len(x)-suf+3)] {
		out.WriteString("  " + l + "\n")
	}
	return out.String()
}
