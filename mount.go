package ptc

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// ToolExecutor is how the model's tool calls are carried out, as the seed
// defines a provider: Describe gives the tools the model sees, Execute
// settles a batch of its calls, one result per call in call order. The
// PTC executor ([Executor]: run_code) and the native one
// ([NativeExecutor]: the tools themselves) implement it; so may a
// caller's own.
type ToolExecutor interface {
	Describe(agent registry.Scope, set *registry.ToolSet) []registry.ToolSchema
	Execute(ctx context.Context, b pipeline.Batch) []*Result
}

// NativeExecutor lets the model call the tools directly: it describes the
// visible tools' own schemas and runs each batch through the pipeline.
type NativeExecutor struct {
	pipe *pipeline.Pipeline
}

// NewNativeExecutor returns a native executor over pipe.
func NewNativeExecutor(pipe *pipeline.Pipeline) (*NativeExecutor, error) {
	if pipe == nil {
		return nil, errNoPipeline
	}
	return &NativeExecutor{pipe: pipe}, nil
}

// Describe returns the schemas of the tools agent may call through set,
// but those marked for programs only (Spec.Callers).
func (n *NativeExecutor) Describe(agent registry.Scope, set *registry.ToolSet) []registry.ToolSchema {
	var out []registry.ToolSchema
	for _, t := range n.pipe.Config().Registry.Definitions(agent, set) {
		if t.Callers().Direct(true) {
			out = append(out, t.Schema())
		}
	}
	return out
}

// ErrProgramOnly: the model called a tool marked for programs only.
var ErrProgramOnly = errors.New("ptc: the tool is callable from programs only")

// Execute runs the batch through the pipeline; each result's content is
// the call's content, exactly what the model sees. A call of a tool marked
// for programs only fails without running (ErrProgramOnly).
func (n *NativeExecutor) Execute(ctx context.Context, b pipeline.Batch) []*Result {
	rs := make([]*Result, len(b.Calls))
	run := b
	run.Calls = nil
	var at []int
	reg := n.pipe.Config().Registry
	for i, c := range b.Calls {
		if t, ok := reg.Get(c.Name, b.Agent, b.ToolSet); ok && !t.Callers().Direct(true) {
			err := fmt.Errorf("%w: %s is called from programs (run_code), not directly", ErrProgramOnly, c.Name)
			rs[i] = &Result{Content: []registry.Part{registry.TextPart("Error: " + err.Error())}, IsError: true, failure: err}
			continue
		}
		run.Calls = append(run.Calls, c)
		at = append(at, i)
	}
	if len(run.Calls) > 0 {
		for k, o := range n.pipe.Execute(ctx, run) {
			rs[at[k]] = toolResult(o)
		}
	}
	return rs
}

// toolResult is the result of a direct tool call: its content as the
// pipeline finalized it.
func toolResult(o *pipeline.Outcome) *Result {
	return &Result{Content: o.Content(), IsError: o.Err() != nil, Outcome: o}
}

// Errors of [Mounts].
var (
	// ErrDuplicateExecutor: a scope already has an executor mounted.
	ErrDuplicateExecutor = errors.New("ptc: an executor is already mounted in this scope")
	// ErrNoExecutor: no executor is mounted in the batch's agent scope or
	// any scope above it.
	ErrNoExecutor = errors.New("ptc: no tool executor is mounted")
)

// Mounts selects the executor of each prompt and batch by scope: one
// executor may be mounted per scope (deployment, preset, agent), and the
// nearest mounted scope at or above the agent's provides. A batch settles
// through the executor selected when it started, even if that one is
// unmounted meanwhile; new batches then go to the next nearest, or are
// refused with ErrNoExecutor (ExecuteWith) until a replacement is mounted. Mounts is itself a
// ToolExecutor. The zero value is ready to use; it is safe for concurrent
// use.
type Mounts struct {
	mu  sync.Mutex
	by  map[registry.Scope]*mounted
	seq uint64
}

type mounted struct {
	ex ToolExecutor
	id uint64
}

var _ ToolExecutor = (*Mounts)(nil)

// Mount mounts ex in scope; it fails with ErrDuplicateExecutor when scope
// has one. The returned function unmounts it (calling it again does
// nothing).
func (m *Mounts) Mount(scope registry.Scope, ex ToolExecutor) (unmount func(), err error) {
	if ex == nil {
		return nil, errors.New("ptc: mount a nil executor")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.by[scope]; dup {
		return nil, fmt.Errorf("%w: %s", ErrDuplicateExecutor, scopeName(scope))
	}
	if m.by == nil {
		m.by = make(map[registry.Scope]*mounted)
	}
	m.seq++
	me := &mounted{ex: ex, id: m.seq}
	m.by[scope] = me
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.by[scope] == me {
			delete(m.by, scope)
		}
	}, nil
}

// Select returns the executor for agent: the one mounted in the nearest
// scope at or above it.
func (m *Mounts) Select(agent registry.Scope) (ToolExecutor, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// The agent's scope, its preset's, the deployment: the registry's
	// layers, nearest first.
	for _, s := range [...]registry.Scope{agent, {Preset: agent.Preset}, {}} {
		if me, ok := m.by[s]; ok {
			return me.ex, nil
		}
	}
	return nil, fmt.Errorf("%w for %s", ErrNoExecutor, scopeName(agent))
}

// Describe is the selected executor's Describe; nil when there is none.
func (m *Mounts) Describe(agent registry.Scope, set *registry.ToolSet) []registry.ToolSchema {
	ex, err := m.Select(agent)
	if err != nil {
		return nil
	}
	return ex.Describe(agent, set)
}

// ExecuteWith settles the batch through the executor selected for its
// agent, with opts for its runs when that executor is an [Executor] (any
// other executor takes only the zero RunOptions). While no executor is
// mounted for the agent, the batch is refused, as the seed's new batches
// are until a replacement is registered: no call runs, no result is made
// for the model, and the error matches ErrNoExecutor. An error is also
// returned for options the selected executor cannot honour.
func (m *Mounts) ExecuteWith(ctx context.Context, b pipeline.Batch, opts RunOptions) ([]*Result, error) {
	ex, err := m.Select(b.Agent)
	if err != nil {
		return nil, err
	}
	if e, ok := ex.(*Executor); ok {
		return e.ExecuteWith(ctx, b, opts)
	}
	if opts != (RunOptions{}) {
		return nil, fmt.Errorf("ptc: run options: the executor mounted for %s (%T) runs no programs", scopeName(b.Agent), ex)
	}
	return ex.Execute(ctx, b), nil
}

// Execute is ExecuteWith without options, as a [ToolExecutor], which
// cannot refuse a batch: while no executor is mounted, every call fails
// with the refusal (its content is "Error: " and the reason, and its Err
// matches ErrNoExecutor). Callers that can take the refusal use
// ExecuteWith.
func (m *Mounts) Execute(ctx context.Context, b pipeline.Batch) []*Result {
	rs, err := m.ExecuteWith(ctx, b, RunOptions{})
	if err != nil {
		rs = make([]*Result, len(b.Calls))
		for i := range rs {
			rs[i] = &Result{
				Content: []registry.Part{registry.TextPart("Error: " + err.Error())},
				IsError: true,
				failure: err,
			}
		}
	}
	return rs
}

func scopeName(s registry.Scope) string {
	if s == (registry.Scope{}) {
		return "the deployment"
	}
	return s.String()
}
