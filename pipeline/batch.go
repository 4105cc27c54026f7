package pipeline

import (
	"context"
	"log/slog"
	"sync"

	"github.com/ptchost/ptc/registry"
)

// Batch is one complete raw batch of calls of a model step.
type Batch struct {
	// Calls are the raw calls, in the order the model emitted them.
	Calls []RawCall
	// ToolSet is the step's resolved tool set, applied to every call; nil
	// looks up registered definitions, without conditional tools.
	ToolSet *registry.ToolSet
	// Agent is the calling agent's scope; the zero Scope for standalone
	// service calls.
	Agent registry.Scope
	// Logger, when set, gets two slog records of every call: "tool call"
	// when it starts running and "tool result" with its outcome, at level
	// Info (a failed result at Warn), with the tool, token, parent and
	// nested and, for a result, duration and, for a failure, code, reason
	// and the structured [ErrorInfo] a denial attached (group "info":
	// name, code, userReason). Arguments, values and presentation
	// descriptors are not logged. Nil logs nothing.
	Logger *slog.Logger
	// Approver answers asks; nil leaves every ask unanswered.
	Approver Approver
}

// Execute runs a whole batch and returns one outcome per call, in call
// order. Every call is prepared first (so tokens follow call order); then
// runs of consecutive parallel-mode calls run concurrently, at most
// Config.MaxParallel at once, and each serial call runs alone, after
// everything before it settled and before anything after it starts. One slow
// or failing call never ends the batch: a failure is that call's outcome.
// A call whose preparation failed runs nothing, so it never splits a run of
// parallel calls.
func (p *Pipeline) Execute(ctx context.Context, b Batch) []*Outcome {
	env := Env{ToolSet: b.ToolSet, Agent: b.Agent, Approver: b.Approver, Logger: b.Logger}
	invs := make([]*Invocation, len(b.Calls))
	for i, c := range b.Calls {
		invs[i] = p.prepare(c, env)
	}
	out := make([]*Outcome, len(invs))
	for i := 0; i < len(invs); {
		if !concurrent(invs[i]) {
			invs[i].ran.Store(true)
			out[i] = p.run(ctx, invs[i])
			i++
			continue
		}
		j := i + 1
		for j < len(invs) && concurrent(invs[j]) {
			j++
		}
		p.parallel(ctx, invs[i:j], out[i:j])
		i = j
	}
	return out
}

// concurrent reports whether inv may run beside other calls.
func concurrent(inv *Invocation) bool {
	return inv.err != nil || inv.Mode() == registry.Parallel
}

// parallel runs invs concurrently, at most p.maxParallel at once, storing
// each outcome at its index.
func (p *Pipeline) parallel(ctx context.Context, invs []*Invocation, out []*Outcome) {
	if len(invs) == 1 {
		invs[0].ran.Store(true)
		out[0] = p.run(ctx, invs[0])
		return
	}
	workers := min(p.maxParallel, len(invs))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
	)
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(invs) {
					return
				}
				invs[i].ran.Store(true)
				out[i] = p.run(ctx, invs[i])
			}
		})
	}
	wg.Wait()
}
