package ptc

import (
	"context"
	"fmt"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
)

// Limits bound a run: the time, memory, output, subcalls and sizes of
// docs/ARCHITECTURE.md ("Limits"). It is host.Limits, named here so that callers need
// not import package host.
type Limits = host.Limits

// RunOptions configure the runs of one [Executor.ExecuteWith] or
// [Executor.Run].
type RunOptions struct {
	// Limits override the executor's limits (Config.Limits) field by
	// field: a zero field keeps the executor's value.
	Limits Limits
	// Deterministic, when set, makes each run reproducible: its clock is
	// virtual and its random source seeded (see Deterministic).
	Deterministic *Deterministic
	// Record asks for each run's Recording in Result.Recording.
	Record bool
	// SuspendAsks suspends a run when a subcall's policy asks for
	// approval, instead of waiting for the batch's Approver: the run ends
	// at once with Result.Err matching ErrSuspended and a signed
	// Result.Continuation, which Resume continues with the decision.
	// Requires Config.ContinuationKey.
	SuspendAsks bool
	// NoWait fails a run at once, matching ErrBusy, when the executor is
	// already running Config.MaxRuns programs, instead of waiting for one
	// to end.
	NoWait bool
	// RunID, with Config.Store, names the run: the caller's idempotency
	// key (docs/durable.md). Run uses it as it is; in a batch each
	// run_code call's run ID is RunID, "/", and the call's own ID (the
	// model's tool-use ID), so that re-sending the same tool call reaches
	// the same run; a run_code call whose RawCall.IdempotencyKey is set
	// has that run ID instead. Empty: a fresh random ID per run. Without a
	// store it is ignored.
	RunID string
}

// Deterministic makes a run reproducible (RunOptions.Deterministic): its
// clock (Date, performance.now, timers) reads Start and advances only when
// the program waits, to its next timer or subcall due, a subcall being due
// its duration after it started; Math.random and crypto draw from a
// source seeded with Seed. Timers cost no real time, and a timer due past
// the time limit ends the run as a timeout at once; the time the program
// computes is bounded in real time as always. Two runs of one program with
// the same Start, Seed and tool answers (values and durations) print and
// return the same bytes, also with calls in flight together (the order in
// which calls come back follows their durations on the virtual clock). A
// busy loop
// that waits for Date.now() to move never ends (it times out).
type Deterministic struct {
	// Start is the instant the clock starts at; zero means 2000-01-01T00:00:00Z.
	Start time.Time
	// Seed seeds the random source.
	Seed uint64
	// CallTime, when positive, is how long every tool call takes on the
	// virtual clock, whatever it took in real time; zero means the real
	// time (less any time an approver held it). With CallTime, runs with
	// the same answers repeat byte for byte whatever the tools' latency,
	// without a recording; without it, a replay supplies the durations.
	CallTime time.Duration
}

// defaultStart is a deterministic run's clock when Deterministic.Start is
// zero.
func defaultStart() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }

// limits returns the executor's limits with the options' overrides.
func (o RunOptions) limits(base Limits) (Limits, error) {
	l, over := base, o.Limits
	set := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	if over.Timeout != 0 {
		l.Timeout = over.Timeout
	}
	if over.MemoryBytes != 0 {
		l.MemoryBytes = over.MemoryBytes
	}
	set(&l.SourceBytes, over.SourceBytes)
	set(&l.StackBytes, over.StackBytes)
	set(&l.OutputBytes, over.OutputBytes)
	set(&l.Subcalls, over.Subcalls)
	set(&l.InFlight, over.InFlight)
	set(&l.ResultBytes, over.ResultBytes)
	set(&l.ErrorBytes, over.ErrorBytes)
	set(&l.ArgumentBytes, over.ArgumentBytes)
	set(&l.ArgumentDepth, over.ArgumentDepth)
	set(&l.Timers, over.Timers)
	if err := l.Validate(); err != nil {
		return Limits{}, fmt.Errorf("ptc: run options: %w", err)
	}
	return l.WithDefaults(), nil
}

// Run runs one program, as a batch of one run_code call from the
// deployment scope would, and returns its result. The error is only for
// invalid options; a program that fails is a Result whose Err says why.
func (e *Executor) Run(ctx context.Context, code string, opts RunOptions) (*Result, error) {
	rs, err := e.executeWith(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCodeCall(code)}}, opts, true)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}
