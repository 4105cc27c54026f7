package ptc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
)

// Limits bound a run: the time, memory, output, subcalls and sizes of
// DESIGN.md ("Limits"). It is host.Limits, named here so that callers need
// not import package host.
type Limits = host.Limits

// RunOptions configure the runs of one [Executor.ExecuteWith] or
// [Executor.Run].
type RunOptions struct {
	// Limits override the executor's limits (Config.Limits) field by
	// field: a zero field keeps the executor's value.
	Limits Limits
}

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
	args, err := json.Marshal(runArgs{Code: code})
	if err != nil {
		return nil, fmt.Errorf("ptc: encode program: %w", err)
	}
	rs, err := e.ExecuteWith(ctx, pipeline.Batch{Calls: []pipeline.RawCall{{ID: "run", Name: ToolName, Arguments: args}}}, opts)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}
