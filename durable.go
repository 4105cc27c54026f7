package ptc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/durable"
	"github.com/ptchost/ptc/internal/runner"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/runstore"
)

// ErrIncompatible: the run ID names a stored run that another program,
// other tools, another SDK or another guest made (Config.Store). The run
// is neither resumed nor answered from the store: reusing a run ID for
// another program is the caller's mistake, and a resume that followed a
// trace made by other code could silently diverge.
var ErrIncompatible = errors.New("ptc: the stored run does not match")

// defaultStoreLease is Config.StoreLease's default.
const defaultStoreLease = 10 * time.Second

// durableRun is one run_code call's durable run.
type durableRun struct {
	id      string
	journal *durable.Journal // when this process drives the run
	stored  *durable.Result  // when the store had its result
	failure error            // why the run could not be claimed or resumed
}

// runIDs returns the run ID of each call of b that runs a program with a
// store: base joined with the call's own ID ("base/ID"), or base itself
// for a single run (exact: Run, Resume); a random ID when base is "".
func runIDs(base string, calls []pipeline.RawCall, exact bool) []string {
	ids := make([]string, len(calls))
	for i, c := range calls {
		switch {
		case base == "":
			var b [16]byte
			_, _ = rand.Read(b[:])
			ids[i] = hex.EncodeToString(b[:])
		case exact:
			ids[i] = base
		case c.ID != "":
			ids[i] = base + "/" + c.ID
		default:
			ids[i] = fmt.Sprintf("%s/%d", base, i)
		}
	}
	return ids
}

// fingerprint is what a durable run of program with sdk depends on (the
// SDK's digests are made once per SDK, not per run).
func (e *Executor) fingerprint(sdk *toolsdk.SDK, program string) durable.Fingerprint {
	prelude, tools := sdk.Digests()
	sum := sha256.Sum256([]byte(program))
	return durable.Fingerprint{Guest: e.host.GuestDigest(), Prelude: prelude, Program: hex.EncodeToString(sum[:]), Tools: tools}
}

// incompatible is the failure of a run whose stored fingerprint differs.
func incompatible(id, what string) error {
	return fmt.Errorf("%w: run %q was stored for other code: %s differs; use another run ID to run this program", ErrIncompatible, id, what)
}

// runDurable runs a program as durable run id: answered from the store
// when it finished, waited for while another process drives it, resumed
// when that process stopped, and otherwise run here, written ahead.
func (e *Executor) runDurable(ctx context.Context, p runner.Params, dr *durableRun) (*host.Outcome, error) {
	sdk := p.SDK
	if p.Plan.SDK != nil {
		sdk = p.Plan.SDK
	}
	fp := e.fingerprint(sdk, p.Program)
	for {
		c, err := e.store.Claim(ctx, dr.id, e.storeLease)
		if err != nil {
			if ctx.Err() != nil {
				return nil, &pipeline.Error{Code: pipeline.CodeOf(pipeline.ErrAbortedBeforeDispatch), Tool: ToolName, Reason: "aborted", Err: ctx.Err()}
			}
			return nil, dr.fail(fmt.Errorf("the run store failed: %w", err))
		}
		var st *durable.Stored
		if c.Run != nil {
			h, err := durable.DecodeHeader(c.Run.Header)
			switch {
			case err != nil && c.Status == runstore.StatusHeld && len(c.Run.Header) == 0:
				// Claimed a moment ago, its header not yet written.
			case err != nil:
				return nil, dr.fail(fmt.Errorf("run %q: %w", dr.id, err))
			default:
				if what := h.Fingerprint.Diff(fp); what != "" {
					return nil, dr.fail(incompatible(dr.id, what))
				}
			}
			if c.Status != runstore.StatusHeld {
				if st, err = durable.Assemble(c.Run); err != nil {
					return nil, dr.fail(fmt.Errorf("run %q: %w", dr.id, err))
				}
			}
		}
		switch c.Status {
		case runstore.StatusFinished:
			if st.Result == nil {
				return nil, dr.fail(fmt.Errorf("run %q: %w: finished without a result", dr.id, durable.ErrCorrupt))
			}
			dr.stored = st.Result
			return storedOutcome(st.Result)
		case runstore.StatusHeld:
			// Another process drives it: wait for its result, or for its
			// lease to lapse.
			wait := min(time.Until(c.HeldUntil)+10*time.Millisecond, 250*time.Millisecond)
			select {
			case <-ctx.Done():
				return nil, &pipeline.Error{Code: pipeline.CodeOf(pipeline.ErrAbortedBeforeDispatch), Tool: ToolName, Reason: "aborted", Err: ctx.Err()}
			case <-time.After(max(wait, time.Millisecond)):
			}
			continue
		case runstore.StatusNew:
			pl := *p.Plan
			var seed [32]byte
			_, _ = rand.Read(seed[:])
			h := &durable.Header{Fingerprint: fp, Agent: p.Env.Agent, Program: p.Program, Seed: seed, Limits: p.Limits,
				Declarations: sdk.TypeScript(), DeclarationBytes: sdk.Budget(), Tools: runner.RecordedTools(sdk)}
			if d := pl.Deterministic; d != nil {
				h.Virtual, h.Start, h.CallTime = true, d.Start, d.CallTime
				h.Seed = runner.SeedBytes(d.Seed)
			}
			if pl.Src != nil {
				h.Seed = pl.Src.Seed // a continuation's resume follows its recording
			}
			pl.Seed = &h.Seed
			dr.journal = durable.NewJournal(e.store, c.Lease, e.storeLease, durable.EncodeHeader(h), 0, 0)
			pl.Journal, pl.RunID, pl.Idempotent = dr.journal, dr.id, e.idempotent(p.Env)
			p.Plan = &pl
		case runstore.StatusResumed:
			pl := *p.Plan
			h := st.Header
			pl.Src, pl.SDK, pl.Resume, pl.Stored, pl.Unmade = st.Recording, sdk, true, len(st.Recording.Calls), st.Unmade
			if h.Virtual {
				pl.Deterministic = &runner.Deterministic{Start: h.Start, CallTime: h.CallTime}
			}
			dr.journal = durable.NewJournal(e.store, c.Lease, e.storeLease, nil, st.Reads, st.Waits)
			pl.Journal, pl.RunID, pl.Idempotent = dr.journal, dr.id, e.idempotent(p.Env)
			p.Plan, p.Limits = &pl, h.Limits
		}
		return runner.Run(ctx, p)
	}
}

// idempotent reports whether a tool's calls may be made again in env.
func (e *Executor) idempotent(env pipeline.Env) func(string) bool {
	reg := e.pipe.Config().Registry
	return func(name string) bool {
		t, ok := reg.Get(name, env.Agent, env.ToolSet)
		return ok && t.Idempotent()
	}
}

// fail records why the run could not be run and returns the run_code
// call's failure.
func (dr *durableRun) fail(err error) error {
	dr.failure = err
	return &pipeline.Error{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Tool: ToolName, Reason: "code run failed: " + err.Error()}
}

// storedOutcome is what the run_code call returns for a stored result.
func storedOutcome(r *durable.Result) (*host.Outcome, error) {
	if !r.IsError {
		return r.Run, nil
	}
	reason := ""
	if len(r.Content) > 0 {
		reason = strings.TrimPrefix(r.Content[0].Text, "Error: ")
	}
	return nil, &pipeline.Error{Code: r.Code, Tool: ToolName, Reason: reason}
}

// settleDurable stores a durable run's result (or, for a run that was
// cut by its caller or a shutdown, releases it for the next try), or
// gives the stored result; it runs before the result is returned.
func (e *Executor) settleDurable(r *Result, dr *durableRun) {
	r.RunID = dr.id
	switch {
	case dr.stored != nil:
		s := dr.stored
		r.Content, r.IsError, r.Run, r.Continuation, r.Pending = s.Content, s.IsError, s.Run, s.Continuation, s.Pending
		r.Subcalls = nil
		for _, c := range s.Subcalls {
			r.Subcalls = append(r.Subcalls, Subcall{N: c.N, Tool: c.Tool, Arguments: c.Arguments, OK: c.OK, Code: c.Code, Received: c.Received})
		}
		return
	case dr.failure != nil:
		r.failure = &RunError{Code: pipeline.CodeOf(pipeline.ErrToolFailed), Message: strings.TrimPrefix(r.Content[0].Text, "Error: "), cause: dr.failure}
		return
	case dr.journal == nil:
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), e.storeLease)
	defer cancel()
	if r.Run == nil || r.Run.Kind == host.KindAborted {
		// Cut from outside (its caller went away, the process shuts
		// down): not finished. The same run ID again resumes it, with the
		// calls that settled answered from the store.
		_ = dr.journal.Release(ctx)
		return
	}
	res := &durable.Result{Content: r.Content, IsError: r.IsError, Code: pipeline.CodeOf(r.Outcome.Err()), Run: r.Run,
		Continuation: r.Continuation, Pending: r.Pending}
	for _, c := range r.Subcalls {
		res.Subcalls = append(res.Subcalls, durable.Subcall{N: c.N, Tool: c.Tool, Arguments: c.Arguments, OK: c.OK, Code: c.Code, Received: c.Received})
	}
	// When the store fails here, the caller still has its result; a retry
	// of the run ID resumes the run from what was stored and comes to the
	// same result without calling a settled call again.
	_ = dr.journal.Finish(ctx, durable.EncodeResult(res))
}
