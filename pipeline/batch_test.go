package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// barrier releases everyone once n have arrived; wait reports false if that
// did not happen in time (the calls did not overlap).
type barrier struct {
	n       int32
	arrived atomic.Int32
	done    chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: int32(n), done: make(chan struct{})} }

func (b *barrier) wait() bool {
	if b.arrived.Add(1) == b.n {
		close(b.done)
	}
	select {
	case <-b.done:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

func TestPipeline_Execute_parallelOverlap(t *testing.T) {
	const n = 8
	b := newBarrier(n)
	p := newPipeline(t, pipeline.Config{}, rawTool("par", func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
		if !b.wait() {
			return nil, fmt.Errorf("parallel calls did not overlap")
		}
		return string(a), nil
	}, parallel))
	var calls []pipeline.RawCall
	for i := range n {
		calls = append(calls, call("par", fmt.Sprintf(`{"i":%d}`, i)))
	}
	// A call that fails to prepare does not split the parallel run.
	calls = slices.Insert(calls, n/2, call("missing", `{}`))
	out := p.Execute(bg, pipeline.Batch{Calls: calls})
	require.Len(t, out, n+1)
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(out[n/2].Err()))
	out = slices.Delete(out, n/2, n/2+1)
	for i, o := range out {
		require.NoError(t, o.Err())
		assert.Equal(t, fmt.Sprintf(`{"i":%d}`, i), text(o), "results out of order")
	}
}

func TestPipeline_Execute_serialAlone(t *testing.T) {
	var inFlight, maxSerialSeen atomic.Int32
	var order []string
	var mu sync.Mutex
	track := func(serial bool) func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
		return func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			if serial && n > maxSerialSeen.Load() {
				maxSerialSeen.Store(n)
			}
			mu.Lock()
			order = append(order, string(a))
			mu.Unlock()
			time.Sleep(time.Millisecond) // widen any overlap; correctness does not depend on it
			return string(a), nil
		}
	}
	p := newPipeline(t, pipeline.Config{}, rawTool("ser", track(true)), rawTool("par", track(false), parallel))
	var calls []pipeline.RawCall
	for i := range 12 {
		name := "par"
		if i%3 == 2 {
			name = "ser"
		}
		calls = append(calls, call(name, fmt.Sprintf(`{"i":%d}`, i)))
	}
	out := p.Execute(bg, pipeline.Batch{Calls: calls})
	for i, o := range out {
		assert.Equal(t, fmt.Sprintf(`{"i":%d}`, i), text(o))
	}
	assert.Equal(t, int32(1), maxSerialSeen.Load(), "a serial call overlapped another call")
	// Each serial call runs after everything before it and before anything after it.
	pos := map[string]int{}
	for i, s := range order {
		pos[s] = i
	}
	for i := 2; i < 12; i += 3 {
		assert.Equal(t, i, pos[fmt.Sprintf(`{"i":%d}`, i)], "serial call %d ran out of place: %v", i, order)
	}
}

func TestPipeline_Execute_maxParallel(t *testing.T) {
	const limit = 3
	var inFlight, peak atomic.Int32
	b := newBarrier(limit)
	p := newPipeline(t, pipeline.Config{MaxParallel: limit}, rawTool("par", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			old := peak.Load()
			if n <= old || peak.CompareAndSwap(old, n) {
				break
			}
		}
		b.wait() // the first `limit` calls must all be in flight at once
		return nil, nil
	}, parallel))
	calls := make([]pipeline.RawCall, 10)
	for i := range calls {
		calls[i] = call("par", `{}`)
	}
	for _, o := range p.Execute(bg, pipeline.Batch{Calls: calls}) {
		assert.NoError(t, o.Err())
	}
	assert.Equal(t, int32(limit), peak.Load())
}

func TestPipeline_Execute_failureDoesNotEndBatch(t *testing.T) {
	p := newPipeline(t, pipeline.Config{},
		echo("ok", parallel),
		rawTool("boom", func(context.Context, json.RawMessage, *registry.Exec) (any, error) { panic("x") }, parallel),
		echo("serial"))
	out := p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{
		call("ok", `{}`), call("boom", `{}`), call("missing", `{}`), call("ok", `{`), call("serial", `{}`), call("ok", `{}`),
	}})
	var codes []string
	for _, o := range out {
		codes = append(codes, pipeline.CodeOf(o.Err()))
	}
	assert.Equal(t, []string{"", "TOOL_FAILED", "UNKNOWN_TOOL", "INVALID_ARGUMENTS", "", ""}, codes)
	assert.Empty(t, p.Execute(bg, pipeline.Batch{}))
}

func TestPipeline_Execute_cancelled(t *testing.T) {
	started := make(chan struct{})
	p := newPipeline(t, pipeline.Config{}, rawTool("slow", blocker(started, nil)), echo("next"))
	ctx, cancel := context.WithCancel(bg)
	go func() { <-started; cancel() }()
	out := p.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{call("slow", `{}`), call("next", `{}`)}})
	assert.Equal(t, "ABORTED", pipeline.CodeOf(out[0].Err()))
	assert.Equal(t, "ABORTED_BEFORE_DISPATCH", pipeline.CodeOf(out[1].Err()))
}

func TestPipeline_Execute_toolSetAndAgent(t *testing.T) {
	reg := registry.New()
	agent := registry.Scope{Agent: "a"}
	var gotAgent atomic.Value
	_, err := reg.Register(rawTool("t", func(_ context.Context, _ json.RawMessage, e *registry.Exec) (any, error) {
		gotAgent.Store(e.Agent)
		return nil, nil
	}), registry.In(agent))
	require.NoError(t, err)
	p := newPipeline(t, pipeline.Config{Registry: reg})
	set, err := reg.Resolve(bg, registry.Step{Agent: agent})
	require.NoError(t, err)
	out := p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("t", `{}`)}, ToolSet: set, Agent: agent})
	require.NoError(t, out[0].Err())
	assert.Equal(t, agent, gotAgent.Load())
	assert.Equal(t, agent, out[0].Invocation().Agent())

	// Disposed between batches: unstarted calls are refused.
	set.Dispose()
	out = p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("t", `{}`)}, ToolSet: set, Agent: agent})
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(out[0].Err()))
}

// memLog is a slog handler that keeps one line per record: its kind, tool,
// nested and parent and, for a result, its code.
type memLog struct {
	mu     sync.Mutex
	events []string
	panics bool
}

func (l *memLog) Enabled(context.Context, slog.Level) bool { return true }

func (l *memLog) Handle(_ context.Context, r slog.Record) error {
	if l.panics {
		panic("log boom")
	}
	a := map[string]string{}
	r.Attrs(func(at slog.Attr) bool {
		a[at.Key] = at.Value.String()
		return true
	})
	kind := strings.TrimPrefix(r.Message, "tool ")
	s := fmt.Sprintf("%s %s nested=%s parent=%s", kind, a["tool"], a["nested"], a["parent"])
	if kind == "result" {
		s += " code=" + a["code"]
	}
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
	return nil
}

func (l *memLog) WithAttrs([]slog.Attr) slog.Handler { return l }

func (l *memLog) WithGroup(string) slog.Handler { return l }

func TestPipeline_Execute_log(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	var log memLog
	out := p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("t", `{}`), call("x", `{}`)}, Logger: slog.New(&log)})
	assert.Equal(t, []string{
		"call t nested=false parent=",
		"result t nested=false parent= code=",
		"call x nested=false parent=",
		"result x nested=false parent= code=UNKNOWN_TOOL",
	}, log.events)

	// A nested single call logs its own records under the parent's token.
	log.events = nil
	parent := out[0].Invocation().Token()
	o := p.Call(bg, call("t", `{}`), pipeline.Env{Logger: slog.New(&log), Parent: parent})
	assert.Equal(t, parent, o.Invocation().Parent())
	assert.Equal(t, []string{
		"call t nested=true parent=" + parent,
		"result t nested=true parent=" + parent + " code=",
	}, log.events)

	// Without a logger, nothing is logged (and a panicking one is harmless).
	log.events = nil
	p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("t", `{}`)}})
	assert.Empty(t, log.events)
	bad := slog.New(&memLog{panics: true})
	assert.NoError(t, p.Call(bg, call("t", `{}`), pipeline.Env{Logger: bad}).Err())
}

func TestBatch_Logger(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == "duration_ms" || a.Key == "token" || a.Key == "parent" {
			return slog.Attr{}
		}
		return a
	}}))
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Deny("nope")
	})
	p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("t", `{}`)}, Logger: l})
	assert.Equal(t, "level=INFO msg=\"tool call\" tool=t nested=false\n"+
		"level=WARN msg=\"tool result\" tool=t nested=false code=DENIED reason=nope\n", buf.String())

	buf.Reset()
	p.OnResult(pipeline.SlogResult(l))
	p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "level=WARN msg=\"tool result\" tool=t nested=false code=DENIED reason=nope\n", buf.String())
}

// TestPipeline_hammer runs many calls at once while policies come and go.
func TestPipeline_hammer(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t", parallel, timeout(10_000)), echo("s"))
	p.Wrap(pipeline.TimeoutPolicy())
	var results atomic.Int64
	p.OnResult(func(context.Context, *pipeline.Outcome) { results.Add(1) })
	stop := make(chan struct{})
	var churn sync.WaitGroup
	churn.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			r1 := p.OnPreExecute(func(_ context.Context, _ *pipeline.Invocation, d pipeline.Decision) pipeline.Decision { return d })
			r2 := p.Guard(func(*pipeline.Invocation) string { return "" })
			r3 := p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) {})
			r1()
			r2()
			r3()
		}
	})
	var wg sync.WaitGroup
	const G, N = 16, 50
	for g := range G {
		wg.Go(func() {
			for i := range N {
				ctx, cancel := context.WithCancel(bg)
				args := fmt.Sprintf(`{"g":%d,"i":%d}`, g, i)
				var o *pipeline.Outcome
				if i%5 == 0 {
					o = p.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{call("t", args), call("s", args)}})[1]
				} else {
					o = p.Call(ctx, call("t", args), pipeline.Env{Parent: "parent"})
				}
				cancel()
				if o.Err() != nil || text(o) != args {
					t.Errorf("call %s: %s %q", args, pipeline.CodeOf(o.Err()), text(o))
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	churn.Wait()
	assert.Equal(t, int64(G*N+G*N/5), results.Load())
	assert.False(t, strings.Contains(fmt.Sprint(results.Load()), "-"))
}

// TestSlogResult_errorInfo is the regression test for "ErrorInfo is
// dropped by the slog logger": a denial's structured detail reaches the
// result record (and never the model's content).
func TestSlogResult_errorInfo(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == "duration_ms" || a.Key == "token" || a.Key == "parent" {
			return slog.Attr{}
		}
		return a
	}}))
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Decision{Verdict: pipeline.VerdictDeny, Reason: "nope", Info: &pipeline.ErrorInfo{Name: "PolicyDenied", Code: "P1", UserReason: "ask an admin"}}
	})
	p.OnResult(pipeline.SlogResult(l))
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "Error: nope", text(o))
	assert.Equal(t, "level=WARN msg=\"tool result\" tool=t nested=false code=DENIED reason=nope"+
		" info.name=PolicyDenied info.code=P1 info.userReason=\"ask an admin\"\n", buf.String())
}
