package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/admit"
	"github.com/ptchost/ptc/internal/content"
	"github.com/ptchost/ptc/internal/runhook"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

// Call is one subcall of a program, as the run saw it.
type Call struct {
	// N numbers the program's subcalls from 1 in issue order.
	N int
	// Tool and Arguments are the call as the program made it.
	Tool      string
	Arguments json.RawMessage
	// OK reports whether the call succeeded as the program sees it.
	OK bool
	// Code is the code of the ToolError the program's promise rejected
	// with; "" when OK.
	Code string
	// Received reports whether the program received the result before the
	// run ended (Report.Calls sets it).
	Received bool
	// Outcome is the subcall's outcome in the pipeline; nil for a call
	// answered from a recording.
	Outcome *pipeline.Outcome

	value            json.RawMessage     // what the program received
	message          string              // the ToolError's message
	info             *pipeline.ErrorInfo // a recorded call's ErrorInfo
	content, context []registry.Part     // a recorded call's content and context
}

// Parts is the call's content: rendered from its outcome only when asked
// for (most subcalls' content is never shown), or recorded.
func (c *Call) Parts() []registry.Part {
	if c.Outcome != nil {
		return c.Outcome.Content()
	}
	return c.content
}

// Images are the image parts of the call's content.
func (c *Call) Images() []registry.Part {
	if c.Outcome != nil {
		return c.Outcome.Images()
	}
	return content.Images(c.content)
}

// Context is the content post-execute listeners attached to the call.
func (c *Call) Context() []registry.Part {
	if c.Outcome != nil {
		return c.Outcome.Context()
	}
	return c.context
}

// Attachments is what a run's received subcalls add to the run_code
// result after its own content: each call's images under a line that
// says which call they came from, then the context post-execute listeners
// attached to it.
func Attachments(calls []Call) []registry.Part {
	var out []registry.Part
	for _, c := range calls {
		if !c.OK || !c.Received {
			continue
		}
		if images := c.Images(); len(images) > 0 {
			mark := &registry.Attribution{Tool: c.Tool, Call: c.N}
			head := registry.TextPart(fmt.Sprintf("Image from %s (call %d):", c.Tool, c.N))
			head.Attribution = mark
			out = append(out, head)
			for _, img := range images {
				img.Attribution = mark
				out = append(out, img)
			}
		}
		out = append(out, c.Context()...)
	}
	return out
}

// Report is what one run_code call leaves beside its outcome: the
// program's outcome, its subcalls and its session.
type Report struct {
	mu      sync.Mutex
	run     *host.Outcome
	calls   []Call
	session *session
}

func (r *Report) add(c Call) {
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
}

// Outcome is the program's outcome; nil when it did not run.
func (r *Report) Outcome() *host.Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.run
}

// Calls returns the program's subcalls in issue order, those whose
// result the program received marked Received.
func (r *Report) Calls() []Call {
	r.mu.Lock()
	calls, run := slices.Clone(r.calls), r.run
	r.mu.Unlock()
	slices.SortFunc(calls, func(a, b Call) int { return a.N - b.N })
	if run != nil {
		for _, seq := range run.Received {
			if i, ok := slices.BinarySearchFunc(calls, seq, func(c Call, n int) int { return c.N - n }); ok {
				calls[i].Received = true
			}
		}
	}
	return calls
}

// Params is what Run needs to run one program.
type Params struct {
	// Host runs the program; Pipe runs its subcalls in Env (whose Parent
	// is the run_code call's token).
	Host *host.Host
	Pipe *pipeline.Pipeline
	Env  pipeline.Env
	// Limits bound the run.
	Limits host.Limits
	// SDK is the SDK of the tools Env shows; a plan's own SDK replaces it.
	SDK *toolsdk.SDK
	// Program is the program the model sent; a plan's recording's
	// replaces it.
	Program string
	// Plan says what the run does beyond running; nil: nothing.
	Plan *Plan
	// Report receives what the run leaves.
	Report *Report
}

// Run runs one program and returns its outcome, or the run_code call's
// failure: a *pipeline.Error whose code is TOOL_FAILED (TOOL_TIMEOUT for a
// timeout, ABORTED for a cancellation) and whose reason is the
// model-facing text without "Error: ".
func Run(ctx context.Context, p Params) (*host.Outcome, error) {
	env, pl, rep := p.Env, p.Plan, p.Report
	if pl == nil {
		pl = &Plan{}
	}
	sdk := p.SDK
	if pl.SDK != nil {
		sdk = pl.SDK
	}
	program := p.Program
	if pl.Src != nil {
		program = pl.Src.Program
		if pl.Program != "" {
			program = pl.Program
		}
	}
	var ss *session
	if pl.active() {
		ss = newSession(pl, rep, sdk)
		ss.source, ss.limits = program, p.Limits
		rep.session = ss
	}
	// Asks go to the batch's approver, whose time does not count against
	// the program's (or suspend the run, or take a resume's decision).
	holdQueued := env.Approver != nil // a person may hold a call others queue behind
	if env.Approver != nil || pl.SuspendAsks || pl.Resume {
		s := ss
		if s == nil {
			s = &session{plan: pl}
		}
		env.Approver = s.approver(env.Approver)
	}
	lim := p.Limits
	d := &dispatcher{pipe: p.Pipe, env: env, order: admit.New(lim.InFlight), rep: rep, resultBytes: lim.ResultBytes, sdk: sdk, holdQueued: holdQueued,
		journal: pl.Journal, runID: pl.RunID}
	if ss != nil {
		ss.order = d.order
		ss.agent = env.Agent
		if pl.SuspendAsks {
			bound, cancel := context.WithTimeout(ctx, lim.Timeout)
			defer cancel()
			ss.bound = bound
			d.shield = ss.shield
		}
	}
	// The dispatcher keeps the in-flight limit itself, in issue order; the
	// host must hand every call over at once.
	lim.InFlight = lim.Subcalls
	hp := host.Program{
		Source:     program,
		Prelude:    sdk.JS(),
		Dispatcher: d,
		Limits:     lim,
	}
	runCtx := ctx
	if ss != nil {
		runCtx = runhook.With(ctx, ss.configure(&hp))
	}
	out := p.Host.Run(runCtx, hp)
	rep.mu.Lock()
	rep.run = out
	rep.mu.Unlock()
	if ss != nil && ss.pending() != nil && out.Kind == host.KindSuspended {
		return nil, &pipeline.Error{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Tool: runCode, Reason: ss.suspendedText()}
	}
	if out.Kind == host.KindOK {
		return out, nil
	}
	code := pipeline.CodeOf(pipeline.ErrToolFailed)
	switch out.Kind {
	case host.KindTimeout:
		code = pipeline.CodeOf(pipeline.ErrToolTimeout)
	case host.KindAborted:
		code = pipeline.CodeOf(pipeline.ErrAborted)
	}
	return nil, &pipeline.Error{Code: code, Tool: runCode, Reason: strings.TrimPrefix(out.Text(), "Error: ")}
}

// errorInfo returns a copy of the structured detail a call's failure err
// (a *pipeline.Error) carries, or nil.
func errorInfo(err error) *pipeline.ErrorInfo {
	var e *pipeline.Error
	if !errors.As(err, &e) || e.Info == nil {
		return nil
	}
	i := *e.Info
	return &i
}

// MaxStoredValue caps one subcall result of a durable run (the store
// keeps it): a larger one fails the call.
const MaxStoredValue = 4 << 20

// runCode is the name of the tool whose calls run programs.
const runCode = "run_code"

// dispatcher routes one program's subcalls through the pipeline.
type dispatcher struct {
	pipe        *pipeline.Pipeline
	env         pipeline.Env
	order       *admit.Queue
	rep         *Report
	resultBytes int
	sdk         *toolsdk.SDK // the run's SDK, whose names the messages use
	// holdQueued holds a call while it waits for its turn: the batch
	// has an approver, which may hold the calls it waits behind.
	holdQueued bool
	// shield, when set, gives a running call a context that the run's end
	// does not cancel if the run was suspended (see session.shield).
	shield func(context.Context) (context.Context, func())
	// journal, in a durable run, stores each call's start before it is
	// dispatched and its outcome after; runID names the run.
	journal Journal
	runID   string
}

// Dispatch implements host.Dispatcher.
func (d *dispatcher) Dispatch(ctx context.Context, c host.Call) host.Reply {
	raw := pipeline.RawCall{ID: strconv.Itoa(c.Seq), Name: c.Name, Arguments: c.Args}
	if d.journal != nil {
		raw.IdempotencyKey = d.runID + "/" + raw.ID
		if err := d.journal.Durable(ctx, c.Seq); err != nil {
			// Not stored, not made: a call is never dispatched before its
			// start is durable.
			code := pipeline.CodeOf(pipeline.ErrUnavailable)
			msg := "the call was not made: the run store could not record it first: " + err.Error()
			d.rep.add(Call{N: c.Seq, Tool: c.Name, Arguments: c.Args, Code: code, message: msg})
			return host.Reply{Err: &host.CallError{Code: code, Message: msg}}
		}
	}
	inv, err := d.pipe.Prepare(raw, d.env)
	if t := inv.Tool(); t != nil && !t.Callers().Program(true) {
		// A tool for the model's direct calls only (hybrid mode): it never runs.
		msg := "tools." + c.Name + " is not callable from programs: the model calls it directly, outside run_code"
		code := pipeline.CodeOf(registry.ErrUnknownTool)
		d.rep.add(Call{N: c.Seq, Tool: c.Name, Arguments: c.Args, Code: code, message: msg})
		if d.journal != nil {
			d.journal.Settled(recording.Call{Seq: c.Seq, Tool: c.Name, Arguments: c.Args, Done: true, Code: code, Message: msg})
		}
		return host.Reply{Err: &host.CallError{Code: code, Message: msg}}
	}
	serial := err == nil && inv.Mode() == registry.Serial
	// A call waiting for its turn is not running: while every call the
	// program waits for is either waiting for its turn or for an
	// approver, its clock is paused (runhook.Hold).
	release := func() {}
	if d.holdQueued {
		release = runhook.Hold(ctx)
	}
	admitted := d.order.Enter(ctx, c.Seq, serial)
	release()
	runCtx := ctx
	if d.shield != nil {
		// A call already running when its run suspends for an approval
		// finishes, so that the resume need not make it again.
		var stop func()
		runCtx, stop = d.shield(ctx)
		defer stop()
	}
	o := d.pipe.Run(runCtx, inv)
	if admitted {
		d.order.Leave()
	}
	reply := d.reply(o, c)
	sc := Call{N: c.Seq, Tool: c.Name, Arguments: c.Args, OK: reply.Err == nil, Outcome: o, value: reply.Value}
	if reply.Err != nil {
		sc.Code, sc.message = reply.Err.Code, reply.Err.Message
	}
	d.rep.add(sc)
	switch {
	case d.journal == nil:
	case sc.Code == pipeline.CodeOf(pipeline.ErrAborted):
		// Cut while the tool ran: whether it acted is unknown, as if its
		// process had stopped. A resume makes it again only if it is
		// idempotent.
	case sc.Code == pipeline.CodeOf(pipeline.ErrAbortedBeforeDispatch):
		// Never made: a resume makes it.
		d.journal.Settled(recording.Call{Seq: c.Seq, Tool: c.Name, Arguments: c.Args})
	default:
		d.journal.Settled(recording.Call{Seq: c.Seq, Tool: c.Name, Arguments: c.Args, Done: true, OK: sc.OK, Value: sc.value,
			Code: sc.Code, Message: sc.message, Info: errorInfo(o.Err()), Content: o.Content(), Context: o.Context(), Took: int64(o.Duration())})
	}
	return reply
}

// reply is what the program receives for an outcome: its value, or a
// failure, also when the value cannot be delivered.
func (d *dispatcher) reply(o *pipeline.Outcome, c host.Call) host.Reply {
	if err := o.Err(); err != nil {
		return host.Reply{Err: &host.CallError{Code: pipeline.CodeOf(err), Message: d.sdk.Teach(c.Name, c.Args, o)}}
	}
	v, err := o.ValueJSON()
	if err != nil {
		return host.Reply{Err: &host.CallError{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Message: "tool result is not JSON-encodable: " + err.Error()}}
	}
	if !json.Valid(v) {
		return host.Reply{Err: &host.CallError{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Message: "tool result is not valid JSON"}}
	}
	if d.journal != nil && len(v) > MaxStoredValue {
		return host.Reply{Err: &host.CallError{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Message: "tool result is " + strconv.Itoa(len(v)) + " bytes, over the " + strconv.Itoa(MaxStoredValue) + "-byte limit of a value a durable run stores"}}
	}
	if len(v) > d.resultBytes {
		return host.Reply{Err: &host.CallError{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Message: "tool result is " + strconv.Itoa(len(v)) + " bytes, over the " + strconv.Itoa(d.resultBytes) + "-byte limit"}}
	}
	return host.Reply{Value: v}
}

// recordedMessage is the failure message of a recorded run's content.
func recordedMessage(src *recording.Recording) string {
	if len(src.Content) == 0 {
		return ""
	}
	t := src.Content[0].Text
	if i := strings.Index(t, "): "); i >= 0 {
		t = t[i+3:]
	}
	if i := strings.Index(t, "\n\nCaptured output:"); i >= 0 {
		t = t[:i]
	}
	return t
}
