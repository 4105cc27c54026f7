package ptc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/abort"
	"github.com/ptchost/ptc/internal/admit"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Result is the settled result of one call of a batch.
type Result struct {
	// Content is exactly what the model sees: the program's printed lines
	// and return value, "(run_code completed with no output)", or
	// "Error: code run failed (KIND): MESSAGE" (with the captured output);
	// then, for each successful subcall whose result the program received
	// and whose content held images, a text part
	// "Image from <tool> (call <n>):" and those images (after a failed
	// run's text too).
	Content []registry.Part
	// IsError reports a failed call: the program failed, or the call never
	// ran it (an unknown tool name, invalid arguments).
	IsError bool
	// Outcome is the call's outcome in the executor's own pipeline: its
	// correlation token (the parent of its subcalls' log events), duration
	// and failure code. A failed program has CodeToolFailed (CodeToolTimeout
	// for a timeout, CodeAborted for a cancellation) and its reason is the
	// first content part's text without "Error: ".
	Outcome *pipeline.Outcome
	// Run is the program's outcome: kind, captured output, return value
	// and statistics; nil when the program did not run.
	Run *host.Outcome
	// Subcalls are the program's subcalls in the order it issued them.
	Subcalls []Subcall
	// Recording is the run's recording when RunOptions.Record asked for
	// it (and of every suspended run).
	Recording *Recording
	// Continuation, set when the run was suspended for an approval
	// (RunOptions.SuspendAsks; Err matches ErrSuspended), is what Resume
	// continues it from: signed with Config.ContinuationKey.
	Continuation []byte
	// Pending is the call whose ask suspended the run.
	Pending *PendingAsk
	// Divergence, for a replay, is where the program stopped doing what
	// was recorded; nil when it did the same.
	Divergence *Divergence

	failure error // why a call failed outside any pipeline (Mounts)
	cause   error // why the batch's context ended, if it did
}

// Subcall is one subcall of a program.
type Subcall struct {
	// N numbers the program's subcalls from 1 in issue order; it is the
	// <n> of "Image from <tool> (call <n>):".
	N int
	// Tool is the called tool's name.
	Tool string
	// Arguments are the arguments as the program sent them.
	Arguments json.RawMessage
	// OK reports whether the call succeeded as the program sees it: the
	// pipeline succeeded and its value could be delivered (JSON-encodable,
	// within the result limit).
	OK bool
	// Code is the code of the ToolError the program's promise rejected
	// with; "" when OK.
	Code pipeline.Code
	// Received reports whether the program received the result before the
	// run ended (it may never have awaited it). Only the images of
	// received, successful subcalls reach the content.
	Received bool
	// Outcome is the subcall's outcome in the pipeline; nil for a call
	// answered from a recording (Replay, Resume).
	Outcome *pipeline.Outcome

	value            json.RawMessage // what the program received
	message          string          // the ToolError's message
	content, context []registry.Part // a recorded call's content and context
}

// parts is the subcall's content: rendered from its outcome only when
// asked for (most subcalls' content is never shown), or recorded.
func (sc *Subcall) parts() []registry.Part {
	if sc.Outcome != nil {
		return sc.Outcome.Content()
	}
	return sc.content
}

// images are the image parts of the subcall's content.
func (sc *Subcall) images() []registry.Part {
	if sc.Outcome != nil {
		return sc.Outcome.Images()
	}
	return registry.Images(sc.content)
}

// contextParts is the context post-execute listeners attached.
func (sc *Subcall) contextParts() []registry.Part {
	if sc.Outcome != nil {
		return sc.Outcome.Context()
	}
	return sc.context
}

// runArgs are run_code's arguments.
type runArgs struct {
	Code string `json:"code"`
}

// batchKey carries a batch's environment to the run_code body.
type batchKey struct{}

type batchRun struct {
	env    pipeline.Env
	limits host.Limits
	plan   *plan

	mu      sync.Mutex
	reports map[string]*report // by run_code token
}

// report is what one run_code call leaves beside its outcome.
type report struct {
	mu       sync.Mutex
	run      *host.Outcome
	subcalls []Subcall
	session  *session
}

func (r *report) add(sc Subcall) {
	r.mu.Lock()
	r.subcalls = append(r.subcalls, sc)
	r.mu.Unlock()
}

// Execute runs a batch of the model's calls, normally run_code calls, and
// returns one result per call, in call order. Calls to any other name
// fail with UNKNOWN_TOOL: in PTC mode the tools are reached from programs.
// Programs of one batch run one at a time, in call order (a program may
// call serial tools). Execute never panics on bad input.
func (e *Executor) Execute(ctx context.Context, b pipeline.Batch) []*Result {
	rs, _ := e.ExecuteWith(ctx, b, RunOptions{}) // no options, no error
	return rs
}

// checkOptions refuses options the executor cannot honour.
func (e *Executor) checkOptions(opts RunOptions) error {
	if opts.SuspendAsks && len(e.key) == 0 {
		return fmt.Errorf("ptc: run options: SuspendAsks needs Config.ContinuationKey")
	}
	return nil
}

// ExecuteWith is Execute with options for this batch's runs (limits that
// override the executor's). The error is only for invalid options; then
// no call runs.
func (e *Executor) ExecuteWith(ctx context.Context, b pipeline.Batch, opts RunOptions) ([]*Result, error) {
	if err := e.checkOptions(opts); err != nil {
		return nil, err
	}
	lim, err := opts.limits(e.limits)
	if err != nil {
		return nil, err
	}
	return e.executePlan(ctx, b, lim, &plan{opts: opts}), nil
}

// executePlan runs a batch whose runs follow pl.
func (e *Executor) executePlan(ctx context.Context, b pipeline.Batch, lim Limits, pl *plan) []*Result {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if e.enter() {
		defer e.batches.Done()
		stop := context.AfterFunc(e.life, func() { cancel(abort.ErrShutdown) })
		defer stop()
	} else {
		// Refused: every call ends aborted before it started.
		cancel(abort.ErrShutdown)
	}
	br := &batchRun{
		env:     pipeline.Env{ToolSet: b.ToolSet, Agent: b.Agent, Approver: b.Approver, Log: b.Log},
		limits:  lim,
		plan:    pl,
		reports: make(map[string]*report),
	}
	results := make([]*Result, 0, len(b.Calls))
	// Hybrid mode: calls of tools marked for direct calls go through the
	// tools' pipeline, the rest (run_code) through the executor's own;
	// runs of consecutive calls of one kind make one batch, in call order.
	for start := 0; start < len(b.Calls); {
		direct := e.direct(b.Calls[start].Name, b.Agent, b.ToolSet)
		end := start + 1
		for end < len(b.Calls) && e.direct(b.Calls[end].Name, b.Agent, b.ToolSet) == direct {
			end++
		}
		part := b
		part.Calls = b.Calls[start:end]
		if direct {
			for _, o := range e.pipe.Execute(ctx, part) {
				results = append(results, toolResult(o))
			}
		} else {
			outs := e.own.Execute(context.WithValue(ctx, batchKey{}, br), pipeline.Batch{
				Calls:    part.Calls,
				Agent:    b.Agent,
				Log:      b.Log,
				Approver: b.Approver, // for asks of RunCodePipeline's policies
			})
			for i, o := range outs {
				br.mu.Lock()
				rep := br.reports[o.Token()]
				br.mu.Unlock()
				r := e.result(ctx, o, rep)
				// The model's own mistakes, told as a program's are.
				c := part.Calls[i]
				switch {
				case o.Code() == pipeline.CodeUnknownTool && c.Name != ToolName:
					r.Content = []registry.Part{registry.TextPart("Error: " + e.notDirect(c.Name, b.Agent, b.ToolSet))}
				case o.Code() == pipeline.CodeInvalidArguments && c.Name == ToolName:
					r.Content = []registry.Part{registry.TextPart("Error: " + badRunArgs(c.Arguments))}
				}
				results = append(results, r)
			}
		}
		start = end
	}
	return results
}

// direct reports whether the model may call the tool name directly in
// this executor: a tool marked for direct calls (hybrid mode).
func (e *Executor) direct(name string, agent registry.Scope, set *registry.ToolSet) bool {
	if name == ToolName {
		return false
	}
	t, ok := e.pipe.Registry().Get(name, agent, set)
	return ok && t.Callers().Direct(false)
}

// causeOf is why ctx ended: its cause, or DeadlineExceeded once its
// deadline passed (the host stops a run at the caller's deadline by its
// own timer, which may fire before the context's); nil while it runs on.
func causeOf(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// result assembles the model-facing content of one call.
func (e *Executor) result(ctx context.Context, o *pipeline.Outcome, rep *report) *Result {
	r := &Result{Outcome: o, IsError: !o.OK(), Content: o.Content()}
	r.cause = causeOf(ctx)
	if rep != nil {
		rep.mu.Lock()
		r.Run, r.Subcalls = rep.run, rep.subcalls
		rep.mu.Unlock()
		slices.SortFunc(r.Subcalls, func(a, b Subcall) int { return a.N - b.N })
		if r.Run != nil {
			for _, seq := range r.Run.Received {
				if i, ok := slices.BinarySearchFunc(r.Subcalls, seq, func(sc Subcall, n int) int { return sc.N - n }); ok {
					r.Subcalls[i].Received = true
				}
			}
		}
	}
	switch code := o.Code(); {
	case code == pipeline.CodeAbortedBeforeDispatch && o.Tool() == ToolName:
		r.Content = []registry.Part{registry.TextPart("Error: code run failed (aborted): " + abort.Message(ctx, false))}
	case code == pipeline.CodeAborted && r.Run != nil && r.Run.Kind == host.KindOK:
		// The program finished, but the caller cancelled before the
		// pipeline settled it: cancellation replaces the success.
		r.Content = []registry.Part{registry.TextPart("Error: code run failed (aborted): " + abort.Message(ctx, true))}
	}
	for _, sc := range r.Subcalls {
		if !sc.OK || !sc.Received {
			continue
		}
		if images := sc.images(); len(images) > 0 {
			mark := &registry.Attribution{Tool: sc.Tool, Call: sc.N}
			head := registry.TextPart(fmt.Sprintf("Image from %s (call %d):", sc.Tool, sc.N))
			head.Attribution = mark
			r.Content = append(r.Content, head)
			for _, img := range images {
				img.Attribution = mark
				r.Content = append(r.Content, img)
			}
		}
		// Context that post-execute listeners attached to the subcall.
		r.Content = append(r.Content, sc.contextParts()...)
	}
	if rep != nil && rep.session != nil {
		rep.session.settle(r, rep)
	}
	return r
}

// execute is run_code's body: it runs one program.
func (e *Executor) execute(ctx context.Context, a runArgs, exec *registry.Exec) (*host.Outcome, error) {
	br, _ := ctx.Value(batchKey{}).(*batchRun)
	if br == nil {
		return nil, errors.New("run_code called outside Executor.Execute")
	}
	rep := &report{}
	br.mu.Lock()
	br.reports[exec.CallID] = rep
	br.mu.Unlock()

	env := br.env
	env.Parent = exec.CallID
	sdk := e.sdks.Get(env.Agent, env.ToolSet)
	pl := br.plan
	if pl.sdk != nil {
		sdk = pl.sdk
	}
	program := a.Code
	if pl.src != nil {
		program = pl.src.Program
		if pl.program != "" {
			program = pl.program
		}
	}
	var ss *session
	if pl.active() {
		ss = newSession(e, pl, rep, sdk)
		ss.source, ss.limits = program, br.limits
		rep.session = ss
	}
	// Asks go to the batch's approver, whose time does not count against
	// the program's (or suspend the run, or take a resume's decision).
	holdQueued := env.Approver != nil // a person may hold a call others queue behind
	if env.Approver != nil || pl.opts.SuspendAsks || pl.resume {
		var s *session
		if ss != nil {
			s = ss
		} else {
			s = &session{plan: pl}
		}
		env.Approver = s.approver(env.Approver)
	}
	lim := br.limits
	d := &dispatcher{pipe: e.pipe, env: env, order: admit.New(lim.InFlight), rep: rep, resultBytes: lim.ResultBytes, sdk: sdk, holdQueued: holdQueued}
	if ss != nil {
		ss.order = d.order
		ss.agent = env.Agent
		if pl.opts.SuspendAsks {
			bound, cancel := context.WithTimeout(ctx, lim.Timeout)
			defer cancel()
			ss.bound = bound
			d.shield = ss.shield
		}
	}
	// The executor keeps the in-flight limit itself, in issue order; the
	// host must hand every call over at once.
	lim.InFlight = lim.Subcalls
	p := host.Program{
		Source:     program,
		Prelude:    sdk.JS(),
		Dispatcher: d,
		Limits:     lim,
	}
	if ss != nil {
		ss.configure(&p)
	}
	out := e.host.Run(ctx, p)
	rep.mu.Lock()
	rep.run = out
	rep.mu.Unlock()
	if ss != nil && ss.pending() != nil && out.Kind == host.KindAborted && strings.HasPrefix(out.Message, suspendedPrefix) {
		out.Kind, out.Message, out.Stack = KindSuspended, "", ""
		return nil, &pipeline.Error{Code: pipeline.CodeToolFailed, Tool: ToolName, Reason: ss.suspendedText()}
	}
	if ss != nil && out.Kind == host.KindAborted && out.Message == abort.TraceEnd {
		// A replay reached the point where the recorded run was cut.
		out.Kind, out.Message = pl.src.Kind, recordedMessage(pl.src)
	}
	if out.Kind == host.KindOK {
		return out, nil
	}
	code := pipeline.CodeToolFailed
	switch out.Kind {
	case host.KindTimeout:
		code = pipeline.CodeToolTimeout
	case host.KindAborted:
		code = pipeline.CodeAborted
	}
	return nil, &pipeline.Error{Code: code, Tool: ToolName, Reason: strings.TrimPrefix(out.Text(), "Error: ")}
}

// dispatcher routes one program's subcalls through the pipeline.
type dispatcher struct {
	pipe        *pipeline.Pipeline
	env         pipeline.Env
	order       *admit.Queue
	rep         *report
	resultBytes int
	sdk         *toolsdk.SDK // the run's SDK, whose names the messages use
	// holdQueued holds a call while it waits for its turn: the batch
	// has an approver, which may hold the calls it waits behind.
	holdQueued bool
	// shield, when set, gives a running call a context that the run's end
	// does not cancel if the run was suspended (see session.shield).
	shield func(context.Context) (context.Context, func())
}

// Dispatch implements host.Dispatcher.
func (d *dispatcher) Dispatch(ctx context.Context, c host.Call) host.Reply {
	inv := d.pipe.Prepare(pipeline.RawCall{ID: strconv.Itoa(c.Seq), Name: c.Name, Arguments: c.Args}, d.env)
	if t := inv.Tool(); t != nil && !t.Callers().Program(true) {
		// A tool for the model's direct calls only (hybrid mode): it never runs.
		msg := "tools." + c.Name + " is not callable from programs: the model calls it directly, outside run_code"
		d.rep.add(Subcall{N: c.Seq, Tool: c.Name, Arguments: c.Args, Code: pipeline.CodeUnknownTool, message: msg})
		return host.Reply{Err: &host.CallError{Code: string(pipeline.CodeUnknownTool), Message: msg}}
	}
	serial := inv.Err() == nil && inv.Mode() == registry.Serial
	// A call waiting for its turn is not running: while every call the
	// program waits for is either waiting for its turn or for an
	// approver, its clock is paused (host.Hold).
	release := func() {}
	if d.holdQueued {
		release = host.Hold(ctx)
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
	sc := Subcall{N: c.Seq, Tool: c.Name, Arguments: c.Args, OK: reply.Err == nil, Outcome: o, value: reply.Value}
	if reply.Err != nil {
		sc.Code, sc.message = pipeline.Code(reply.Err.Code), reply.Err.Message
	}
	d.rep.add(sc)
	return reply
}

// reply is what the program receives for an outcome: its value, or a
// failure, also when the value cannot be delivered.
func (d *dispatcher) reply(o *pipeline.Outcome, c host.Call) host.Reply {
	if !o.OK() {
		return host.Reply{Err: &host.CallError{Code: string(o.Code()), Message: d.sdk.Teach(c.Name, c.Args, o)}}
	}
	v, err := o.ValueJSON()
	if err != nil {
		return host.Reply{Err: &host.CallError{Code: string(pipeline.CodeToolFailed), Message: "tool result is not JSON-encodable: " + err.Error()}}
	}
	if !json.Valid(v) {
		return host.Reply{Err: &host.CallError{Code: string(pipeline.CodeToolFailed), Message: "tool result is not valid JSON"}}
	}
	if len(v) > d.resultBytes {
		return host.Reply{Err: &host.CallError{Code: string(pipeline.CodeToolFailed), Message: "tool result is " + strconv.Itoa(len(v)) + " bytes, over the " + strconv.Itoa(d.resultBytes) + "-byte limit"}}
	}
	return host.Reply{Value: v}
}
