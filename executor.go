package ptc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/abort"
	"github.com/ptchost/ptc/internal/admit"
	"github.com/ptchost/ptc/internal/runner"
	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
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
	// correlation token (the parent of its subcalls' log records), duration
	// and failure. A failed program has code TOOL_FAILED (TOOL_TIMEOUT for
	// a timeout, ABORTED for a cancellation) and its reason is the first
	// content part's text without "Error: ".
	Outcome *pipeline.Outcome
	// Run is the program's outcome: kind, captured output, return value
	// and statistics; nil when the program did not run.
	Run *host.Outcome
	// Subcalls are the program's subcalls in the order it issued them.
	Subcalls []Subcall
	// Recording is the run's recording when RunOptions.Record asked for
	// it (and of every suspended run).
	Recording *recording.Recording
	// Continuation, set when the run was suspended for an approval
	// (RunOptions.SuspendAsks; Err matches ErrSuspended), is what Resume
	// continues it from: signed with Config.ContinuationKey.
	Continuation []byte
	// Pending is the call whose ask suspended the run.
	Pending *recording.PendingAsk
	// Divergence, for a replay, is where the program stopped doing what
	// was recorded; nil when it did the same.
	Divergence *recording.Divergence
	// RunID names the run in Config.Store; "" without a store.
	RunID string

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
	Code string
	// Received reports whether the program received the result before the
	// run ended (it may never have awaited it). Only the images of
	// received, successful subcalls reach the content.
	Received bool
	// Outcome is the subcall's outcome in the pipeline; nil for a call
	// answered from a recording (Replay, Resume).
	Outcome *pipeline.Outcome
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
	plan   *runner.Plan
	noWait bool // RunOptions.NoWait

	mu      sync.Mutex
	reports map[string]*runner.Report // by run_code token
	durable map[string]*durableRun    // by run_code token, with a store
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
	return e.executeWith(ctx, b, opts, false)
}

// executeWith is ExecuteWith; exact makes opts.RunID the run ID itself
// (Run: one run).
func (e *Executor) executeWith(ctx context.Context, b pipeline.Batch, opts RunOptions, exact bool) ([]*Result, error) {
	if err := e.checkOptions(opts); err != nil {
		return nil, err
	}
	lim, err := opts.limits(e.limits)
	if err != nil {
		return nil, err
	}
	return e.executePlan(ctx, e.durableCalls(b, opts.RunID, exact), lim, e.plan(opts), opts.NoWait), nil
}

// durableCalls gives each run_code call of b its run ID, as the call's
// idempotency key, when the executor has a store (see RunOptions.RunID);
// a call that has one already (RawCall.IdempotencyKey) keeps it: the
// caller named that run itself.
func (e *Executor) durableCalls(b pipeline.Batch, runID string, exact bool) pipeline.Batch {
	if e.store == nil {
		return b
	}
	ids := runIDs(runID, b.Calls, exact)
	calls := make([]pipeline.RawCall, len(b.Calls))
	for i, c := range b.Calls {
		if c.Name == ToolName && c.IdempotencyKey == "" {
			c.IdempotencyKey = ids[i]
		}
		calls[i] = c
	}
	b.Calls = calls
	return b
}

// plan is the runner's plan of a batch's runs with opts.
func (e *Executor) plan(opts RunOptions) *runner.Plan {
	pl := &runner.Plan{Record: opts.Record, SuspendAsks: opts.SuspendAsks, Key: e.key}
	if d := opts.Deterministic; d != nil {
		pl.Deterministic = &runner.Deterministic{Start: d.Start, Seed: d.Seed, CallTime: d.CallTime}
		if d.Start.IsZero() {
			pl.Deterministic.Start = defaultStart()
		}
	}
	return pl
}

// executePlan runs a batch whose runs follow pl; with noWait, a run that
// finds the executor full fails at once (RunOptions.NoWait).
func (e *Executor) executePlan(ctx context.Context, b pipeline.Batch, lim Limits, pl *runner.Plan, noWait bool) []*Result {
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
		env:     pipeline.Env{ToolSet: b.ToolSet, Agent: b.Agent, Approver: b.Approver, Logger: b.Logger},
		limits:  lim,
		plan:    pl,
		noWait:  noWait,
		reports: make(map[string]*runner.Report),
		durable: make(map[string]*durableRun),
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
				Logger:   b.Logger,
				Approver: b.Approver, // for asks of RunCodePipeline's policies
			})
			for i, o := range outs {
				br.mu.Lock()
				rep := br.reports[o.Invocation().Token()]
				dr := br.durable[o.Invocation().Token()]
				br.mu.Unlock()
				r := e.result(ctx, o, rep)
				// The model's own mistakes, told as a program's are.
				if text, ok := toolsdk.Mistake(e.pipe.Config().Registry, part.Calls[i], pipeline.CodeOf(o.Err()), b.Agent, b.ToolSet); ok {
					r.Content = []registry.Part{registry.TextPart("Error: " + text)}
				}
				if dr != nil {
					e.settleDurable(r, dr)
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
	t, ok := e.pipe.Config().Registry.Get(name, agent, set)
	return ok && t.Callers().Direct(false)
}

// result assembles the model-facing content of one call.
func (e *Executor) result(ctx context.Context, o *pipeline.Outcome, rep *runner.Report) *Result {
	r := &Result{Outcome: o, IsError: o.Err() != nil, Content: o.Content()}
	r.cause = abort.Cause(ctx)
	var calls []runner.Call
	if rep != nil {
		r.Run, calls = rep.Outcome(), rep.Calls()
		if b, ok := e.busy.LoadAndDelete(rep); ok {
			busy := b.(*busyError)
			r.failure = &RunError{Kind: host.KindAborted, Code: pipeline.CodeOf(o.Err()), Message: busyText(busy), cause: busy}
		}
	}
	switch code := pipeline.CodeOf(o.Err()); {
	case code == pipeline.CodeOf(pipeline.ErrAbortedBeforeDispatch) && o.Invocation().Name() == ToolName:
		r.Content = []registry.Part{registry.TextPart("Error: code run failed (aborted): " + abort.Message(ctx, false))}
	case code == pipeline.CodeOf(pipeline.ErrAborted) && r.Run != nil && r.Run.Kind == host.KindOK:
		// The program finished, but the caller cancelled before the
		// pipeline settled it: cancellation replaces the success.
		r.Content = []registry.Part{registry.TextPart("Error: code run failed (aborted): " + abort.Message(ctx, true))}
	}
	for _, c := range calls {
		r.Subcalls = append(r.Subcalls, Subcall{N: c.N, Tool: c.Tool, Arguments: c.Arguments, OK: c.OK, Code: c.Code, Received: c.Received, Outcome: c.Outcome})
	}
	r.Content = append(r.Content, runner.Attachments(calls)...)
	if rep != nil {
		st := rep.Settle(r.Content, r.IsError)
		r.Recording, r.Pending, r.Continuation, r.Divergence = st.Recording, st.Pending, st.Continuation, st.Divergence
		if st.Failure != "" {
			r.Content = []registry.Part{registry.TextPart(st.Failure)}
		}
	}
	return r
}

// execute is run_code's body: it runs one program.
func (e *Executor) execute(ctx context.Context, a runArgs, exec *registry.Exec) (*host.Outcome, error) {
	br, _ := ctx.Value(batchKey{}).(*batchRun)
	if br == nil {
		return nil, errors.New("run_code called outside Executor.Execute")
	}
	rep := &runner.Report{}
	br.mu.Lock()
	br.reports[exec.CallID] = rep
	br.mu.Unlock()
	// A run holds one of the executor's slots (Config.MaxRuns) from here
	// to its end; waiting for one does not count against its time limit.
	release, err := e.slots.Acquire(ctx, br.noWait)
	switch {
	case errors.Is(err, admit.ErrFull):
		busy := &busyError{max: e.slots.Max()}
		e.busy.Store(rep, busy)
		return nil, &pipeline.Error{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Tool: ToolName, Reason: busyText(busy)}
	case err != nil:
		// ctx ended while waiting: the host reports the run as aborted
		// before it started, as for any batch cancelled that early.
		release = func() {}
	}
	defer release()
	env := br.env
	env.Parent = exec.CallID
	obs := e.met.Start(ctx, br.plan != nil && br.plan.Src != nil, e.pipe.Config().TracerProvider != nil)
	p := runner.Params{
		Host: e.host, Pipe: e.pipe, Env: env, Limits: br.limits,
		SDK: e.sdks.Get(env.Agent, env.ToolSet), Program: a.Code, Plan: br.plan, Report: rep,
	}
	var out *host.Outcome
	if id := exec.IdempotencyKey; id != "" && e.store != nil && (br.plan.Src == nil || br.plan.Resume) {
		dr := &durableRun{id: id}
		br.mu.Lock()
		br.durable[exec.CallID] = dr
		br.mu.Unlock()
		out, err = e.runDurable(ctx, p, dr)
	} else {
		out, err = runner.Run(ctx, p)
	}
	obs.End(ctx, runEnd(rep.Outcome()))
	return out, err
}

// runEnd is how a run ended, for its telemetry (nil: it did not run).
func runEnd(out *host.Outcome) telemetry.RunEnd {
	if out == nil {
		return telemetry.RunEnd{}
	}
	output := 0
	for _, l := range out.Output {
		output += len(l) + 1
	}
	return telemetry.RunEnd{Ran: true, Kind: string(out.Kind), Subcalls: out.Subcalls, MemoryBytes: out.MemoryBytes, OutputBytes: output}
}
