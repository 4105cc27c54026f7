package ptc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/runner"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

var (
	// ErrSuspended: the run waits for an approval; Result.Continuation
	// resumes it (Resume).
	ErrSuspended = errors.New("ptc: suspended for approval")
	// ErrResumed: the continuation was resumed before, by this executor
	// (or, with Config.Store, by any executor sharing the store).
	ErrResumed = errors.New("ptc: continuation already resumed")
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

// Replay runs a recorded program again with its subcalls answered from
// the recording, on the recorded clock, seed, limits and SDK, and reports
// on Result.Divergence the first place the run leaves the recording: a
// call with another tool or other arguments, a call too many or too few,
// another outcome kind, or other content. Runs that settled by themselves
// are compared byte for byte; for timeout, aborted and memory, the kind
// and the calls up to that point. The error, matching
// recording.ErrUnusable, is for a recording that cannot be replayed.
func (e *Executor) Replay(ctx context.Context, rec *recording.Recording, opts ReplayOptions) (*Result, error) {
	if rec == nil {
		return nil, fmt.Errorf("%w: no recording", recording.ErrUnusable)
	}
	if rec.Version != recording.Version {
		return nil, fmt.Errorf("%w: format version %d; this ptc reads version %d only", recording.ErrUnusable, rec.Version, recording.Version)
	}
	if err := rec.Check(); err != nil {
		return nil, err
	}
	if rec.Kind == host.KindSuspended {
		return nil, fmt.Errorf("%w: the run was suspended for an approval: resume its continuation (Resume) instead of replaying it", recording.ErrUnusable)
	}
	pl := &runner.Plan{Src: rec, SDK: runner.SDKOf(rec), Program: opts.Program, Live: map[string]bool{}, Key: e.key}
	for _, name := range opts.Live {
		if _, ok := e.pipe.Config().Registry.Get(name, registry.Scope{}, nil); !ok {
			return nil, fmt.Errorf("ptc: replay: live tool %q is not registered", name)
		}
		pl.Live[name] = true
	}
	r := e.executePlan(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCodeCall(rec.Program)}, Approver: opts.Approver}, rec.Limits.WithDefaults(), pl, false)[0]
	if decls := pl.SDK.TypeScript(); decls != rec.Declarations {
		r.Divergence = &recording.Divergence{Reason: "the declarations this version generates from the recorded tools differ from the recorded ones",
			Diff: runner.LineDiff(rec.Declarations, decls)}
	}
	return r, nil
}

// Resume continues a suspended run (Result.Continuation) with the
// decision on the ask that suspended it: the program runs again from the
// start, its calls up to the suspension answered from the continuation's
// recording on its clock (no tool is called twice: a call cut by the
// suspension is made again), and goes on live from the pending call,
// which runs if the decision approves it and rejects with DENIED if not.
// A later ask suspends the run again (opts.SuspendAsks) or goes to no
// approver (b.Approver; none: ASK_UNANSWERED). b is the environment the
// run resumes in, as the suspended batch had it: its Agent (which must be
// the one the run was suspended in), ToolSet, Approver and Log; its Calls
// are ignored. The tools must be those the run saw: when the declarations
// differ, Resume refuses. The run has the recording's limits, its time
// limit counted afresh. A continuation resumes once per executor: the
// second Resume returns ErrResumed (an executor remembers the last 65,536
// it resumed; a fleet of executors sharing a key cannot know, so callers
// resuming across processes must keep their own record). Errors match
// recording.ErrUnusable, ErrResumed, or are the options'.
func (e *Executor) Resume(ctx context.Context, b pipeline.Batch, cont []byte, decision pipeline.Answer, opts RunOptions) (*Result, error) {
	if err := e.checkOptions(opts); err != nil {
		return nil, err
	}
	k, err := runner.Unseal(e.key, cont)
	if err != nil {
		return nil, err
	}
	rec := k.Recording
	if k.Agent != b.Agent {
		return nil, fmt.Errorf("%w: the run was suspended for agent scope %q, not %q", recording.ErrUnusable, k.Agent, b.Agent)
	}
	s := e.sdks.Get(b.Agent, b.ToolSet)
	if now := recording.DeclarationsDigest(s.TypeScript()); now != rec.DeclarationsSHA256 {
		return nil, fmt.Errorf("%w: the tools changed since the run was suspended (declarations sha256 %.12s…, now %.12s…): run the program again", recording.ErrUnusable, rec.DeclarationsSHA256, now)
	}
	if e.store != nil {
		// Once among every executor sharing the store.
		first, err := e.store.Once(ctx, "continuation/"+k.ID, 0)
		if err != nil {
			return nil, fmt.Errorf("ptc: resume: %w", err)
		}
		if !first {
			return nil, ErrResumed
		}
	} else if !e.spent.Add(k.ID) {
		return nil, ErrResumed
	}
	pl := e.plan(opts)
	pl.Src, pl.SDK, pl.Resume, pl.Pending, pl.Decision = rec, s, true, k.Pending.Call, decision
	b.Calls = []pipeline.RawCall{runCodeCall(rec.Program)}
	runID := opts.RunID
	if runID == "" {
		runID = "resume/" + k.ID
	}
	return e.executePlan(ctx, e.durableCalls(b, runID, true), rec.Limits.WithDefaults(), pl, false)[0], nil
}

// runCodeCall is a run_code call of program.
func runCodeCall(program string) pipeline.RawCall {
	args, _ := json.Marshal(runArgs{Code: program}) // a string always encodes
	return pipeline.RawCall{ID: "run", Name: ToolName, Arguments: args}
}
