package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

var bg = context.Background()

func TestNew(t *testing.T) {
	_, err := pipeline.New(pipeline.Config{})
	require.EqualError(t, err, "pipeline: no registry")
	_, err = pipeline.New(pipeline.Config{Registry: registry.New(), MaxParallel: -1})
	require.Error(t, err)
}

func TestPipeline_Call_success(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, registry.MustDefine(registry.Spec[struct {
		City string `json:"city"`
	}, map[string]any]{
		Name:       "weather",
		Parameters: registry.Object(registry.Required("city", registry.String())),
		Execute: func(_ context.Context, a struct {
			City string `json:"city"`
		}, _ *registry.Exec) (map[string]any, error) {
			return map[string]any{"city": a.City, "tempC": 21}, nil
		},
	}))
	o := p.Call(bg, call("weather", `{"city":"Paris"}`), pipeline.Env{})
	require.NoError(t, o.Err())
	require.NoError(t, o.Err())
	assert.Equal(t, "", pipeline.CodeOf(o.Err()))
	assert.Equal(t, "{\n  \"city\": \"Paris\",\n  \"tempC\": 21\n}", text(o))
	v, err := o.ValueJSON()
	require.NoError(t, err)
	assert.JSONEq(t, `{"city":"Paris","tempC":21}`, string(v))
	assert.True(t, pipeline.Dispatched(o))
	assert.Equal(t, "weather", o.Invocation().Name())
}

func TestPipeline_Call_unknownTool(t *testing.T) {
	p := newPipeline(t, pipeline.Config{})
	o := p.Call(bg, call("nope", `{}`), pipeline.Env{})
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(o.Err()))
	assert.ErrorIs(t, o.Err(), registry.ErrUnknownTool)
	c := o.Content()
	require.Len(t, c, 1)
	assert.Equal(t, registry.PartText, c[0].Type)
	assert.Equal(t, "Error: "+reason(o), c[0].Text)
	assert.Nil(t, o.Value())
	assert.False(t, pipeline.Dispatched(o))
}

func TestPipeline_Call_conditionalWithoutSet(t *testing.T) {
	reg := registry.New()
	_, err := reg.Register(echo("cond"), registry.When(func(context.Context, registry.Step) (bool, error) { return true, nil }))
	require.NoError(t, err)
	p := newPipeline(t, pipeline.Config{Registry: reg})
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(p.Call(bg, call("cond", `{}`), pipeline.Env{}).Err()))

	set, err := reg.Resolve(bg, registry.Step{})
	require.NoError(t, err)
	assert.NoError(t, p.Call(bg, call("cond", `{}`), pipeline.Env{ToolSet: set}).Err())
}

func TestPipeline_Call_invalidArguments(t *testing.T) {
	tool := registry.MustDefine(registry.RawSpec{
		Name:       "t",
		Parameters: registry.Object(registry.Required("city", registry.String())),
		Execute:    func(context.Context, json.RawMessage, *registry.Exec) (any, error) { panic("must not run") },
	})
	p := newPipeline(t, pipeline.Config{}, tool)
	for _, args := range []string{`{"city":7}`, `{`, `{"city":"a","city":"b"}`, `{}`} {
		o := p.Call(bg, call("t", args), pipeline.Env{})
		assert.Equal(t, "INVALID_ARGUMENTS", pipeline.CodeOf(o.Err()), args)
		assert.True(t, strings.HasPrefix(text(o), "Error: tool \"t\": invalid arguments"), text(o))
	}
}

func TestPipeline_Prepare_freezesArguments(t *testing.T) {
	var seen json.RawMessage
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(_ context.Context, a json.RawMessage, e *registry.Exec) (any, error) {
		seen = append(json.RawMessage(nil), e.Arguments...)
		a[2] = 'X' // the body's copy is its own
		return nil, nil
	}))
	raw := []byte(`{"a":1}`)
	inv, err := p.Prepare(pipeline.RawCall{Name: "t", Arguments: raw}, pipeline.Env{})
	require.NoError(t, err)
	raw[2] = 'b' // the caller mutates its slice after Prepare
	got := inv.Arguments()
	got[2] = 'c' // and the copy it got
	assert.Equal(t, `{"a":1}`, string(inv.Arguments()))
	o := p.Run(bg, inv)
	require.NoError(t, o.Err())
	assert.Equal(t, `{"a":1}`, string(seen))
	assert.Equal(t, `{"a":1}`, string(inv.Arguments()))

	// A failed preparation freezes its arguments too.
	bad := []byte(`{"x":1}`)
	inv, err = p.Prepare(pipeline.RawCall{Name: "missing", Arguments: bad}, pipeline.Env{})
	bad[2] = 'y'
	assert.Equal(t, `{"x":1}`, string(inv.Arguments()))
	assert.ErrorIs(t, err, registry.ErrUnknownTool)
	var pe *pipeline.Error
	require.ErrorAs(t, err, &pe)
	o = p.Run(bg, inv)
	assert.Equal(t, pe, o.Err(), "the failure is the outcome's")
}

func TestPipeline_Prepare_token(t *testing.T) {
	var got []string
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(_ context.Context, _ json.RawMessage, e *registry.Exec) (any, error) {
		got = append(got, e.CallID)
		return nil, nil
	}))
	seen := map[string]bool{}
	for range 100 {
		o := p.Call(bg, call("t", `{}`), pipeline.Env{})
		tok := o.Invocation().Token()
		require.NotEmpty(t, tok)
		require.False(t, seen[tok], "duplicate token %q", tok)
		seen[tok] = true
		assert.Equal(t, tok, got[len(got)-1])
	}
	q := newPipeline(t, pipeline.Config{}, echo("t"))
	assert.False(t, seen[q.Call(bg, call("t", `{}`), pipeline.Env{}).Invocation().Token()], "tokens of two pipelines collide")
}

func TestPipeline_Run_stale(t *testing.T) {
	reg := registry.New()
	dispose, err := reg.Register(echo("t"))
	require.NoError(t, err)
	p := newPipeline(t, pipeline.Config{Registry: reg})
	set, err := reg.Resolve(bg, registry.Step{})
	require.NoError(t, err)

	inv, err := p.Prepare(call("t", `{}`), pipeline.Env{ToolSet: set})
	require.NoError(t, err)
	set.Dispose()
	o := p.Run(bg, inv)
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(o.Err()))
	assert.ErrorContains(t, o.Err(), "tool set is disposed")

	// Without a set, a replacement after Prepare refuses the call too.
	inv, err = p.Prepare(call("t", `{}`), pipeline.Env{})
	require.NoError(t, err)
	_, err = reg.Register(echo("t"))
	require.NoError(t, err)
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(p.Run(bg, inv).Err()))
	dispose()

	assert.Panics(t, func() { p.Run(bg, inv) }, "second Run")
}

func TestPipeline_OnPreExecute_deny(t *testing.T) {
	ran := false
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
		ran = true
		return nil, nil
	}))
	p.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		return pipeline.Decision{Verdict: pipeline.VerdictDeny, Reason: "writes are disabled", Info: &pipeline.ErrorInfo{Name: "PolicyDenied", Code: "P1", UserReason: "ask an admin"}}
	})
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.False(t, ran)
	assert.Equal(t, "DENIED", pipeline.CodeOf(o.Err()))
	assert.ErrorIs(t, o.Err(), pipeline.ErrDenied)
	assert.Equal(t, []registry.Part{registry.TextPart("Error: writes are disabled")}, o.Content())
	assert.Equal(t, &pipeline.ErrorInfo{Name: "PolicyDenied", Code: "P1", UserReason: "ask an admin"}, info(o))
	assert.NotContains(t, text(o), "admin")
	assert.NotContains(t, text(o), "P1")
}

func TestPipeline_OnPreExecute_waterfall(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	var order []string
	verdicts := map[pipeline.Verdict]string{pipeline.VerdictAllow: "allow", pipeline.VerdictDeny: "deny", pipeline.VerdictAsk: "ask"}
	p.OnPreExecute(func(_ context.Context, _ *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		order = append(order, "1:"+verdicts[d.Verdict])
		return pipeline.Deny("first")
	})
	p.OnPreExecute(func(_ context.Context, _ *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		order = append(order, "2:"+verdicts[d.Verdict]+":"+d.Reason)
		return pipeline.Allow() // the waterfall is extensible: a later listener may overturn
	})
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.NoError(t, o.Err())
	assert.Equal(t, []string{"1:allow", "2:deny:first"}, order)

	remove := p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Deny("last")
	})
	assert.Equal(t, "Error: last", text(p.Call(bg, call("t", `{}`), pipeline.Env{})))
	remove()
	remove()
	assert.NoError(t, p.Call(bg, call("t", `{}`), pipeline.Env{}).Err())
}

func TestPipeline_OnPreExecute_panicDenies(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision { panic("boom") })
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "DENIED", pipeline.CodeOf(o.Err()))
	assert.Contains(t, reason(o), "boom")
}

func TestPipeline_Guard_cannotBeOverturned(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	var second, asked bool
	// The guard is registered first, the permissive listener after it: the
	// guard still runs after the whole waterfall.
	p.Guard(func(inv *pipeline.Invocation) string { return "guarded: " + inv.Name() })
	p.Guard(func(*pipeline.Invocation) string { second = true; return "" })
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Allow()
	})
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "DENIED", pipeline.CodeOf(o.Err()))
	assert.Equal(t, "Error: guarded: t", text(o))
	assert.False(t, second, "a later guard ran after a denial")

	// An ask is not put to the approver once a guard denied.
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("may I?")
	})
	o = p.Call(bg, call("t", `{}`), pipeline.Env{Approver: func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
		asked = true
		return pipeline.Answer{Approved: true}, nil
	}})
	assert.Equal(t, "DENIED", pipeline.CodeOf(o.Err()))
	assert.False(t, asked)
}

func TestPipeline_Guard_skippedAfterDenial(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Deny("no")
	})
	ran := false
	p.Guard(func(*pipeline.Invocation) string { ran = true; return "" })
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "Error: no", text(o))
	assert.False(t, ran)

	q := newPipeline(t, pipeline.Config{}, echo("t"))
	q.Guard(func(*pipeline.Invocation) string { panic("bad guard") })
	assert.Equal(t, "DENIED", pipeline.CodeOf(q.Call(bg, call("t", `{}`), pipeline.Env{}).Err()))
}

func TestPipeline_ask(t *testing.T) {
	ask := func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("run t?")
	}
	tests := []struct {
		name     string
		approver pipeline.Approver
		code     string
		content  string
	}{
		{"approved", func(_ context.Context, _ *pipeline.Invocation, q string) (pipeline.Answer, error) {
			if q != "run t?" {
				return pipeline.Answer{}, errors.New("wrong question " + q)
			}
			return pipeline.Answer{Approved: true}, nil
		}, "", `{}`},
		{"denied", func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
			return pipeline.Answer{Reason: "the user said no"}, nil
		}, "DENIED", "Error: the user said no"},
		{"denied without reason", func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
			return pipeline.Answer{}, nil
		}, "DENIED", `Error: tool "t": call was not approved`},
		{"unanswered", nil, "ASK_UNANSWERED", `Error: tool "t": approval required and no approver is available`},
		{"approver failed", func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
			return pipeline.Answer{Approved: true}, errors.New("ui gone")
		}, "ASK_UNANSWERED", `Error: tool "t": approval unanswered: ui gone`},
		{"approver panicked", func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
			panic("oops")
		}, "ASK_UNANSWERED", `Error: tool "t": approval unanswered: approver panic: oops`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipeline(t, pipeline.Config{}, echo("t"))
			p.OnPreExecute(ask)
			o := p.Call(bg, call("t", `{}`), pipeline.Env{Approver: tc.approver})
			assert.Equal(t, tc.code, pipeline.CodeOf(o.Err()))
			assert.Equal(t, tc.content, text(o))
		})
	}
}

func TestPipeline_ask_blocksUntilCancelled(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("?")
	})
	ctx, cancel := context.WithCancel(bg)
	waiting := make(chan struct{})
	go func() { <-waiting; cancel() }()
	o := p.Call(ctx, call("t", `{}`), pipeline.Env{Approver: func(ctx context.Context, _ *pipeline.Invocation, _ string) (pipeline.Answer, error) {
		close(waiting)
		<-ctx.Done()
		return pipeline.Answer{}, ctx.Err()
	}})
	assert.Equal(t, "ABORTED_BEFORE_DISPATCH", pipeline.CodeOf(o.Err()))
	assert.ErrorIs(t, o.Err(), context.Canceled)
}

// blocker is a tool body that reports its start and waits for its ctx.
func blocker(started chan<- struct{}, sawErr *atomic.Value) func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
	return func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
		if started != nil {
			close(started)
		}
		<-ctx.Done()
		if sawErr != nil {
			sawErr.Store(context.Cause(ctx))
		}
		return nil, ctx.Err()
	}
}

func TestTimeoutPolicy(t *testing.T) {
	var saw atomic.Value
	p := newPipeline(t, pipeline.Config{},
		rawTool("slow", blocker(nil, &saw), timeout(20)),
		echo("quick", timeout(10_000)),
		echo("untimed"))
	p.Wrap(pipeline.TimeoutPolicy())

	start := time.Now()
	o := p.Call(bg, call("slow", `{}`), pipeline.Env{})
	assert.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(o.Err()))
	assert.ErrorIs(t, o.Err(), pipeline.ErrToolTimeout)
	assert.Equal(t, `Error: tool "slow" timed out after 20ms`, text(o))
	assert.ErrorIs(t, saw.Load().(error), pipeline.ErrToolTimeout, "the body's ctx was not cancelled by the timeout")
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.True(t, pipeline.Dispatched(o))

	assert.NoError(t, p.Call(bg, call("quick", `{}`), pipeline.Env{}).Err())
	assert.NoError(t, p.Call(bg, call("untimed", `{}`), pipeline.Env{}).Err())
}

// A tool's declared timeout holds in every pipeline, without
// TimeoutPolicy, outside the wrappers (a wrapper that waits is timed too).
func TestPipeline_declaredTimeoutByDefault(t *testing.T) {
	var saw atomic.Value
	p := newPipeline(t, pipeline.Config{}, rawTool("slow", blocker(nil, &saw), timeout(20)), echo("waits", timeout(20)), echo("untimed"))
	start := time.Now()
	o := p.Call(bg, call("slow", `{}`), pipeline.Env{})
	assert.Equal(t, `Error: tool "slow" timed out after 20ms`, text(o))
	assert.ErrorIs(t, saw.Load().(error), pipeline.ErrToolTimeout)
	assert.Less(t, time.Since(start), 5*time.Second)
	p.Wrap(func(ctx context.Context, inv *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
		if inv.Name() == "waits" {
			<-ctx.Done()
		}
		return next(ctx)
	})
	assert.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(p.Call(bg, call("waits", `{}`), pipeline.Env{}).Err()))
	assert.NoError(t, p.Call(bg, call("untimed", `{}`), pipeline.Env{}).Err())
	p.Wrap(pipeline.TimeoutPolicy()) // code written before: still one timeout, the same error
	assert.Equal(t, `Error: tool "slow" timed out after 20ms`, text(p.Call(bg, call("slow", `{}`), pipeline.Env{})))
}

func TestTimeoutPolicy_ignoredContext(t *testing.T) {
	// A body that ignores its ctx and succeeds late is still timed out.
	release := make(chan struct{})
	p := newPipeline(t, pipeline.Config{}, rawTool("stubborn", func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
		<-ctx.Done()
		<-release
		return "late", nil
	}, timeout(5)))
	p.Wrap(pipeline.TimeoutPolicy())
	close(release)
	o := p.Call(bg, call("stubborn", `{}`), pipeline.Env{})
	assert.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(o.Err()))
	assert.Nil(t, o.Value())
}

func TestTimeoutPolicy_callerCancelWins(t *testing.T) {
	// The caller's cancellation is not a timeout.
	started := make(chan struct{})
	p := newPipeline(t, pipeline.Config{}, rawTool("slow", blocker(started, nil), timeout(60_000)))
	p.Wrap(pipeline.TimeoutPolicy())
	ctx, cancel := context.WithCancel(bg)
	go func() { <-started; cancel() }()
	assert.Equal(t, "ABORTED", pipeline.CodeOf(p.Call(ctx, call("slow", `{}`), pipeline.Env{}).Err()))
}

func TestTimeoutPolicy_beatsLaterCancel(t *testing.T) {
	// The deadline passes first, the caller cancels afterwards: the timeout
	// stays more specific than the cancellation.
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	p := newPipeline(t, pipeline.Config{}, rawTool("slow", func(tctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
		<-tctx.Done()
		cancel()
		return nil, tctx.Err()
	}, timeout(5)))
	p.Wrap(pipeline.TimeoutPolicy())
	assert.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(p.Call(ctx, call("slow", `{}`), pipeline.Env{}).Err()))
}

type ctxKey struct{}

func TestPipeline_Wrap_refusesCallerContext(t *testing.T) {
	started := make(chan struct{})
	var sawValue atomic.Value
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(ctx context.Context, a json.RawMessage, e *registry.Exec) (any, error) {
		sawValue.Store(ctx.Value(ctxKey{}))
		return blocker(started, nil)(ctx, a, e)
	}))
	// A wrapper that detaches from the caller's ctx entirely.
	p.Wrap(func(_ context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
		return next(context.WithValue(context.Background(), ctxKey{}, "wrapped"))
	})
	ctx, cancel := context.WithCancel(bg)
	go func() { <-started; cancel() }()
	o := p.Call(ctx, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "ABORTED", pipeline.CodeOf(o.Err()), reason(o))
	assert.Equal(t, "wrapped", sawValue.Load(), "the wrapper's ctx did not reach the body")
}

func TestPipeline_Wrap_orderAndFailures(t *testing.T) {
	var order []string
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
		order = append(order, "body")
		return "v", nil
	}))
	for _, n := range []string{"outer", "inner"} {
		p.Wrap(func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
			order = append(order, n+">")
			v, err := next(ctx)
			order = append(order, "<"+n)
			return v, err
		})
	}
	require.NoError(t, p.Call(bg, call("t", `{}`), pipeline.Env{}).Err())
	assert.Equal(t, []string{"outer>", "inner>", "body", "<inner", "<outer"}, order)

	// A retry wrapper may call next twice.
	q := newPipeline(t, pipeline.Config{}, echo("t"))
	calls := 0
	q.Wrap(func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
		calls++
		if _, err := next(ctx); err != nil {
			return nil, err
		}
		return next(ctx)
	})
	assert.NoError(t, q.Call(bg, call("t", `{}`), pipeline.Env{}).Err())

	// A failing or panicking wrapper is a tool failure; its body never runs.
	for _, w := range []pipeline.Wrapper{
		func(context.Context, *pipeline.Invocation, func(context.Context) (any, error)) (any, error) {
			return nil, errors.New("rate limited")
		},
		func(context.Context, *pipeline.Invocation, func(context.Context) (any, error)) (any, error) {
			panic("wrapper boom")
		},
	} {
		r := newPipeline(t, pipeline.Config{}, echo("t"))
		r.Wrap(w)
		o := r.Call(bg, call("t", `{}`), pipeline.Env{})
		assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
		assert.False(t, pipeline.Dispatched(o))
	}

	// A wrapper may fail with a specific code.
	s := newPipeline(t, pipeline.Config{}, echo("t"))
	s.Wrap(func(context.Context, *pipeline.Invocation, func(context.Context) (any, error)) (any, error) {
		return nil, &pipeline.Error{Code: "DENIED", Reason: "quota exhausted"}
	})
	o := s.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "DENIED", pipeline.CodeOf(o.Err()))
	assert.Equal(t, "Error: quota exhausted", text(o))
}

func TestPipeline_Call_cancelledBeforeDispatch(t *testing.T) {
	ran := false
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
		ran = true
		return nil, nil
	}))
	ctx, cancel := context.WithCancel(bg)
	cancel()
	o := p.Call(ctx, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "ABORTED_BEFORE_DISPATCH", pipeline.CodeOf(o.Err()))
	assert.ErrorIs(t, o.Err(), pipeline.ErrAbortedBeforeDispatch)
	assert.ErrorIs(t, o.Err(), context.Canceled)
	assert.False(t, ran)
	assert.False(t, pipeline.Dispatched(o))

	// Cancelled during a wrapper, before the body.
	ctx, cancel = context.WithCancel(bg)
	p.Wrap(func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
		cancel()
		return next(ctx)
	})
	o = p.Call(ctx, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "ABORTED_BEFORE_DISPATCH", pipeline.CodeOf(o.Err()))
	assert.False(t, ran)
}

func TestPipeline_Call_denialBeatsCancellation(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	ctx, cancel := context.WithCancel(bg)
	p.OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		cancel()
		return pipeline.Deny("no")
	})
	assert.Equal(t, "DENIED", pipeline.CodeOf(p.Call(ctx, call("t", `{}`), pipeline.Env{}).Err()))
}

func TestPipeline_Call_cancelledAfterDispatch(t *testing.T) {
	tests := []struct {
		name string
		ret  func(ctx context.Context) (any, error)
		code string
	}{
		{"success becomes aborted", func(context.Context) (any, error) { return "ok", nil }, "ABORTED"},
		{"body returns the cancellation", func(ctx context.Context) (any, error) { return nil, ctx.Err() }, "ABORTED"},
		{"tool failure stays", func(context.Context) (any, error) { return nil, errors.New("disk full") }, "TOOL_FAILED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(bg)
			p := newPipeline(t, pipeline.Config{}, rawTool("t", func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
				cancel()
				return tc.ret(ctx)
			}))
			o := p.Call(ctx, call("t", `{}`), pipeline.Env{})
			assert.Equal(t, tc.code, pipeline.CodeOf(o.Err()))
			assert.True(t, pipeline.Dispatched(o))
			assert.Nil(t, o.Value())
		})
	}

	// A post-execute block stays more specific than the cancellation.
	ctx, cancel := context.WithCancel(bg)
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
		cancel()
		r.Block("secret")
	})
	assert.Equal(t, "POST_EXECUTE_BLOCKED", pipeline.CodeOf(p.Call(ctx, call("t", `{}`), pipeline.Env{}).Err()))
}

func TestPipeline_Call_toolFailure(t *testing.T) {
	p := newPipeline(t, pipeline.Config{},
		rawTool("fails", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
			return nil, errors.New("city not found")
		}),
		rawTool("panics", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
			panic("kaboom")
		}),
		registry.MustDefine(registry.Spec[json.RawMessage, string]{
			Name:    "badrender",
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (string, error) { return "x", nil },
			Output:  registry.Output[json.RawMessage, string]{Render: func(json.RawMessage, string) []registry.Part { panic("render boom") }},
		}))
	o := p.Call(bg, call("fails", `{}`), pipeline.Env{})
	assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
	assert.ErrorIs(t, o.Err(), pipeline.ErrToolFailed)
	assert.Equal(t, "Error: city not found", text(o))

	o = p.Call(bg, call("panics", `{}`), pipeline.Env{})
	assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
	assert.Contains(t, text(o), "kaboom")
	assert.True(t, strings.HasPrefix(text(o), "Error: "))

	o = p.Call(bg, call("badrender", `{}`), pipeline.Env{})
	assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
	assert.Contains(t, text(o), "render boom")
}

func TestPipeline_OnPostExecute(t *testing.T) {
	newP := func(t *testing.T) *pipeline.Pipeline {
		return newPipeline(t, pipeline.Config{}, registry.MustDefine(registry.Spec[json.RawMessage, map[string]int]{
			Name: "t",
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (map[string]int, error) {
				return map[string]int{"n": 1}, nil
			},
		}))
	}
	t.Run("replace content keeps value", func(t *testing.T) {
		p := newP(t)
		p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
			r.Content = []registry.Part{registry.TextPart("[redacted]")}
		})
		o := p.Call(bg, call("t", `{}`), pipeline.Env{})
		assert.Equal(t, "[redacted]", text(o))
		assert.Equal(t, map[string]int{"n": 1}, o.Value())
		v, _ := o.ValueJSON()
		assert.JSONEq(t, `{"n":1}`, string(v))
	})
	t.Run("replace value", func(t *testing.T) {
		p := newP(t)
		p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
			assert.Equal(t, map[string]int{"n": 1}, r.Value)
			r.Value = json.RawMessage(`{"n":2}`)
		})
		o := p.Call(bg, call("t", `{}`), pipeline.Env{})
		v, _ := o.ValueJSON()
		assert.JSONEq(t, `{"n":2}`, string(v))
		assert.Equal(t, "{\n  \"n\": 1\n}", text(o), "content is not re-rendered")
	})
	t.Run("block", func(t *testing.T) {
		p := newP(t)
		later := false
		p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
			r.Block("the result contains a secret; ask for less")
		})
		p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) { later = true })
		o := p.Call(bg, call("t", `{}`), pipeline.Env{})
		assert.Equal(t, "POST_EXECUTE_BLOCKED", pipeline.CodeOf(o.Err()))
		assert.ErrorIs(t, o.Err(), pipeline.ErrPostExecuteBlocked)
		assert.Equal(t, "Error: the result contains a secret; ask for less", text(o))
		assert.Nil(t, o.Value())
		assert.False(t, later)
	})
	t.Run("panic blocks", func(t *testing.T) {
		p := newP(t)
		p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) { panic("post boom") })
		assert.Equal(t, "POST_EXECUTE_BLOCKED", pipeline.CodeOf(p.Call(bg, call("t", `{}`), pipeline.Env{}).Err()))
	})
	t.Run("ordered contexts", func(t *testing.T) {
		p := newP(t)
		for _, s := range []string{"a", "b"} {
			p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
				r.Context = append(r.Context, registry.TextPart(s+"1"), registry.TextPart(s+"2"))
			})
		}
		o := p.Call(bg, call("t", `{}`), pipeline.Env{})
		assert.Equal(t, []registry.Part{registry.TextPart("a1"), registry.TextPart("a2"), registry.TextPart("b1"), registry.TextPart("b2")}, o.Context())
	})
	t.Run("not run on failure", func(t *testing.T) {
		p := newP(t)
		ran := false
		p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) { ran = true })
		p.Call(bg, call("missing", `{}`), pipeline.Env{})
		assert.False(t, ran)
	})
}

func TestPipeline_projectAndFinalize(t *testing.T) {
	var order []string
	p := newPipeline(t, pipeline.Config{}, registry.MustDefine(registry.Spec[json.RawMessage, string]{
		Name:    "t",
		Execute: func(context.Context, json.RawMessage, *registry.Exec) (string, error) { return "v", nil },
		ProjectContent: func(_ json.RawMessage, v string) []registry.Part {
			order = append(order, "project")
			return []registry.Part{registry.TextPart("projected " + v)}
		},
		FinalizeContent: func(_ json.RawMessage, c []registry.Part) []registry.Part {
			order = append(order, "finalize:"+c[0].Text)
			return append(c, registry.TextPart(" final"))
		},
	}))
	p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
		order = append(order, "post:"+r.Content[0].Text)
		r.Content = []registry.Part{registry.TextPart("replaced")}
	})
	o := p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, "replaced final", text(o))
	assert.Equal(t, []string{"project", "post:projected v", "finalize:replaced"}, order)
	assert.Equal(t, "v", o.Value())
}

func TestPipeline_OnResult(t *testing.T) {
	p := newPipeline(t, pipeline.Config{}, echo("t"))
	var got []string
	remove := p.OnResult(func(_ context.Context, o *pipeline.Outcome) {
		got = append(got, o.Invocation().Name()+":"+pipeline.CodeOf(o.Err()))
		o.Content()[0].Text = "tampered" // a copy: the outcome stays frozen
	})
	p.OnResult(func(context.Context, *pipeline.Outcome) { panic("observer boom") })
	o := p.Call(bg, call("t", `{"a":1}`), pipeline.Env{})
	p.Call(bg, call("x", `{}`), pipeline.Env{})
	assert.Equal(t, []string{"t:", "x:UNKNOWN_TOOL"}, got)
	assert.Equal(t, `{"a":1}`, text(o))
	remove()
	p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Len(t, got, 2)
}

func TestCodeOf(t *testing.T) {
	err := &pipeline.Error{Code: "TOOL_TIMEOUT", Reason: "slow"}
	assert.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(errors.Join(errors.New("x"), err)))
	assert.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(&registry.Error{Kind: registry.ErrUnknownTool}))
	assert.Equal(t, "", pipeline.CodeOf(errors.New("plain")))
	assert.Equal(t, "", pipeline.CodeOf(nil))
	assert.Equal(t, "TOOL_TIMEOUT: slow", err.Error())
	assert.Equal(t, "DENIED", pipeline.CodeOf(fmt.Errorf("policy: %w", pipeline.ErrDenied)))
	for c, sentinel := range map[string]error{
		"UNKNOWN_TOOL":            registry.ErrUnknownTool,
		"INVALID_ARGUMENTS":       registry.ErrInvalidArguments,
		"DENIED":                  pipeline.ErrDenied,
		"ASK_UNANSWERED":          pipeline.ErrAskUnanswered,
		"TOOL_FAILED":             pipeline.ErrToolFailed,
		"TOOL_TIMEOUT":            pipeline.ErrToolTimeout,
		"ABORTED_BEFORE_DISPATCH": pipeline.ErrAbortedBeforeDispatch,
		"ABORTED":                 pipeline.ErrAborted,
		"POST_EXECUTE_BLOCKED":    pipeline.ErrPostExecuteBlocked,
		"UNAVAILABLE":             pipeline.ErrUnavailable,
		"TOOL_ACTIVATION_FAILED":  registry.ErrActivationFailed,
	} {
		assert.Equal(t, c, pipeline.CodeOf(&pipeline.Error{Code: c}))
		assert.Equal(t, c, pipeline.CodeOf(sentinel))
		assert.ErrorIs(t, &pipeline.Error{Code: c}, sentinel)
	}
}

// TestPipeline_Call_argumentsNotAliased is the regression test for "a
// call's raw arguments alias the caller's slice": neither a pre-execute
// listener nor the tool body can change the caller's bytes or what the
// invocation records.
func TestPipeline_Call_argumentsNotAliased(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(p *pipeline.Pipeline)
	}{
		{"tool body", func(*pipeline.Pipeline) {}},
		{"pre-execute listener", func(p *pipeline.Pipeline) {
			p.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
				a := inv.Args().(json.RawMessage)
				a[2] = 'L'
				return d
			})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var recorded string
			p := newPipeline(t, pipeline.Config{}, rawTool("t", func(_ context.Context, a json.RawMessage, e *registry.Exec) (any, error) {
				a[2] = 'B'
				e.Arguments[3] = 'E'
				return nil, nil
			}))
			tc.mutate(p)
			p.OnResult(func(_ context.Context, o *pipeline.Outcome) { recorded = string(o.Invocation().Arguments()) })
			raw := []byte(`{"a":1}`)
			o := p.Call(bg, pipeline.RawCall{Name: "t", Arguments: raw}, pipeline.Env{})
			require.NoError(t, o.Err())
			assert.Equal(t, `{"a":1}`, string(raw), "the caller's slice")
			assert.Equal(t, `{"a":1}`, recorded, "the recorded arguments")
		})
	}
}

// TestPipeline_Wrap_precedence is the regression test for "a failing
// wrapper loses to cancellation; a wrapper that returned a cached success
// is reported ABORTED": what happened first is what is reported, and
// ABORTED is reported only for a call whose body was dispatched.
func TestPipeline_Wrap_precedence(t *testing.T) {
	errRate := errors.New("rate limited")
	tests := []struct {
		name       string
		wrap       func(cancel context.CancelFunc) pipeline.Wrapper
		want       string
		reason     string // a substring of the reason, if set
		dispatched bool
	}{
		{"wrapper fails, then the caller cancels", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, _ func(context.Context) (any, error)) (any, error) {
				defer cancel()
				return nil, errRate
			}
		}, "TOOL_FAILED", "rate limited", false},
		{"caller cancels, then the wrapper fails on its own", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, _ func(context.Context) (any, error)) (any, error) {
				cancel()
				return nil, errRate
			}
		}, "TOOL_FAILED", "rate limited", false},
		{"caller cancels, the wrapper returns the cancellation", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, _ func(context.Context) (any, error)) (any, error) {
				cancel()
				return nil, fmt.Errorf("waiting for a slot: %w", ctx.Err())
			}
		}, "ABORTED_BEFORE_DISPATCH", "", false},
		{"cached success, then the caller cancels", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, _ func(context.Context) (any, error)) (any, error) {
				defer cancel()
				return "cached", nil
			}
		}, "ABORTED_BEFORE_DISPATCH", "", false},
		{"body succeeds, then the caller cancels", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
				defer cancel()
				return next(ctx)
			}
		}, "ABORTED", "", true},
		{"body succeeds, then the wrapper fails, then the caller cancels", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
				defer cancel()
				if _, err := next(ctx); err != nil {
					return nil, err
				}
				return nil, errRate
			}
		}, "TOOL_FAILED", "rate limited", true},
		{"retry after the caller cancelled", func(cancel context.CancelFunc) pipeline.Wrapper {
			return func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
				_, _ = next(ctx)
				cancel()
				return next(ctx)
			}
		}, "ABORTED", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipeline(t, pipeline.Config{}, echo("t"))
			ctx, cancel := context.WithCancel(bg)
			defer cancel()
			p.Wrap(tc.wrap(cancel))
			o := p.Call(ctx, call("t", `{}`), pipeline.Env{})
			assert.Equal(t, tc.want, pipeline.CodeOf(o.Err()), reason(o))
			assert.Equal(t, tc.dispatched, pipeline.Dispatched(o))
			if tc.reason != "" {
				assert.Contains(t, reason(o), tc.reason)
			}
		})
	}

	t.Run("cancelled before dispatch: no wrapper runs", func(t *testing.T) {
		p := newPipeline(t, pipeline.Config{}, echo("t"))
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		p.OnPreExecute(func(_ context.Context, _ *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
			cancel()
			return d
		})
		wrapped := false
		p.Wrap(func(ctx context.Context, _ *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
			wrapped = true
			return "cached", nil
		})
		o := p.Call(ctx, call("t", `{}`), pipeline.Env{})
		assert.Equal(t, "ABORTED_BEFORE_DISPATCH", pipeline.CodeOf(o.Err()))
		assert.False(t, wrapped)
	})
}

type presentArgs struct {
	Path string `json:"path"`
}

// TestPipeline_Call_presentation is the regression test for "PresentCall and
// PresentResult are declared but never projected": the invocation carries
// the call's descriptor and a successful outcome the result's, for
// host-local consumers; neither reaches the model.
func TestPipeline_Call_presentation(t *testing.T) {
	spec := registry.Spec[presentArgs, string]{
		Name:       "read",
		Parameters: registry.Object(registry.Required("path", registry.String())),
		Execute: func(_ context.Context, a presentArgs, _ *registry.Exec) (string, error) {
			if a.Path == "/fail" {
				return "", errors.New("no such file")
			}
			return "contents", nil
		},
		PresentCall: func(a presentArgs) any { return map[string]any{"card": "file", "path": a.Path} },
		PresentResult: func(a presentArgs, v string, content []registry.Part) any {
			return map[string]any{"bytes": len(v), "parts": len(content)}
		},
	}
	p := newPipeline(t, pipeline.Config{}, registry.MustDefine(spec))
	var atCall any
	p.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		atCall = inv.PresentCall()
		return d
	})
	o := p.Call(bg, call("read", `{"path":"/a"}`), pipeline.Env{})
	require.NoError(t, o.Err())
	assert.Equal(t, map[string]any{"card": "file", "path": "/a"}, atCall)
	assert.Equal(t, map[string]any{"card": "file", "path": "/a"}, o.Invocation().PresentCall())
	assert.Equal(t, map[string]any{"bytes": 8, "parts": 1}, o.PresentResult())
	assert.Equal(t, "contents", text(o))

	o = p.Call(bg, call("read", `{"path":"/fail"}`), pipeline.Env{})
	require.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
	assert.Equal(t, map[string]any{"card": "file", "path": "/fail"}, o.Invocation().PresentCall())
	assert.Nil(t, o.PresentResult(), "a failed call has no result to present")

	// A presenter that panics leaves the descriptor nil; the call stands.
	spec.Name = "shaky"
	spec.PresentCall = func(presentArgs) any { panic("boom") }
	spec.PresentResult = func(presentArgs, string, []registry.Part) any { panic("boom") }
	q := newPipeline(t, pipeline.Config{}, registry.MustDefine(spec))
	o = q.Call(bg, call("shaky", `{"path":"/a"}`), pipeline.Env{})
	require.NoError(t, o.Err())
	assert.Nil(t, o.Invocation().PresentCall())
	assert.Nil(t, o.PresentResult())

	// A tool that declares none has none.
	o = q.Call(bg, call("nope", `{}`), pipeline.Env{})
	assert.Nil(t, o.Invocation().PresentCall())
	assert.Nil(t, o.PresentResult())
}

// TestPipeline_Call_outputSchema is the regression test for "Output.Schema
// is declared but never enforced": a result that breaks its tool's output
// schema is TOOL_FAILED, naming where and what was expected.
func TestPipeline_Call_outputSchema(t *testing.T) {
	weather := registry.Object(
		registry.Required("tempC", registry.Number()),
		registry.Required("sky", registry.String().WithEnum("clear", "snow")),
	)
	tests := []struct {
		name   string
		schema *registry.Schema
		value  any
		reason string // "" for success
	}{
		{"matches", weather, map[string]any{"tempC": 21, "sky": "clear"}, ""},
		{"raw JSON matches", weather, json.RawMessage(`{"tempC":-3,"sky":"snow"}`), ""},
		{"wrong type", weather, map[string]any{"tempC": "21", "sky": "clear"},
			`tool "t" returned a result that does not match its output schema: at "/tempC": got string, want number`},
		{"missing property", weather, map[string]any{"tempC": 21},
			`at "" (root): missing property 'sky'`},
		{"not in the enum", weather, json.RawMessage(`{"tempC":1,"sky":"fog"}`), `at "/sky": value must be one of 'clear', 'snow'`},
		{"nil for an object", weather, nil, `at "" (root): got null, want object`},
		{"string schema", registry.String(), 42, `at "" (root): got number, want string`},
		{"raw JSON Schema", mustSchema(t, `{"type":"array","items":{"type":"integer"}}`), []any{1, 2.5}, `at "/1": got number, want integer`},
		{"not JSON", weather, json.RawMessage(`{"tempC":`), `tool "t" returned a result that is not JSON`},
		{"no schema: anything goes", nil, map[string]any{"x": 1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ran := false
			p := newPipeline(t, pipeline.Config{}, registry.MustDefine(registry.RawSpec{
				Name:   "t",
				Output: registry.Output[json.RawMessage, any]{Schema: tc.schema},
				Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
					ran = true
					return tc.value, nil
				},
			}))
			post := false
			p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) { post = true })
			o := p.Call(bg, call("t", `{}`), pipeline.Env{})
			require.True(t, ran)
			if tc.reason == "" {
				require.NoError(t, o.Err())
				return
			}
			assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
			assert.ErrorIs(t, o.Err(), registry.ErrInvalidOutput)
			assert.Contains(t, reason(o), tc.reason)
			assert.Nil(t, o.Value())
			assert.False(t, post, "post-execute listeners see only valid results")
		})
	}
}

func mustSchema(t *testing.T, doc string) *registry.Schema {
	t.Helper()
	s, err := registry.ParseJSONSchema(json.RawMessage(doc))
	require.NoError(t, err)
	return s
}

// TestPipeline_Call_argumentLimits is the regression test for "tool
// arguments have no size limit": argument bytes and nesting depth are
// bounded before the arguments are parsed, for single calls and batches,
// with a message naming the limit.
func TestPipeline_Call_argumentLimits(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	sized := func(n int) string { return `{"s":"` + strings.Repeat("x", n-8) + `"}` }
	const mib = 1 << 20
	tests := []struct {
		name   string
		cfg    pipeline.Config
		args   string
		reason string // "" for success
		err    error
	}{
		{"30 MB", pipeline.Config{}, sized(30 * mib),
			`tool "t": invalid arguments: arguments are 31457280 bytes, over the 1048576-byte limit`, pipeline.ErrArgumentsTooLarge},
		{"2 MiB, not even JSON", pipeline.Config{}, `{` + strings.Repeat(`"`, 2*mib),
			`arguments are 2097153 bytes, over the 1048576-byte limit`, pipeline.ErrArgumentsTooLarge},
		{"exactly 1 MiB", pipeline.Config{}, sized(mib), "", nil},
		{"one byte over", pipeline.Config{}, sized(mib + 1), `arguments are 1048577 bytes, over the 1048576-byte limit`, pipeline.ErrArgumentsTooLarge},
		{"64 levels", pipeline.Config{}, `{"a":` + nest(63) + `}`, "", nil},
		{"65 levels", pipeline.Config{}, `{"a":` + nest(64) + `}`,
			`tool "t": invalid arguments: arguments nest deeper than the 64-level limit`, pipeline.ErrArgumentsTooDeep},
		{"10k levels", pipeline.Config{}, `{"a":` + nest(10_000) + `}`, `deeper than the 64-level limit`, pipeline.ErrArgumentsTooDeep},
		{"10k levels of objects", pipeline.Config{}, strings.Repeat(`{"a":`, 10_000) + "1" + strings.Repeat("}", 10_000),
			`deeper than the 64-level limit`, pipeline.ErrArgumentsTooDeep},
		{"brackets in a string", pipeline.Config{}, `{"a":"` + strings.Repeat("[{", 100) + `"}`, "", nil},
		{"brackets after an escaped quote", pipeline.Config{}, `{"a":"\"` + strings.Repeat("[", 100) + `"}`, "", nil},
		{"brackets after an escaped backslash", pipeline.Config{}, `{"a":"\\", "b":` + nest(64) + `}`,
			`deeper than the 64-level limit`, pipeline.ErrArgumentsTooDeep},
		{"brackets after a unicode escape", pipeline.Config{}, `{"a":"\u0022` + strings.Repeat("[", 100) + `"}`, "", nil},
		{"configured bytes", pipeline.Config{ArgumentBytes: 10}, `{"a":"12345"}`,
			`arguments are 13 bytes, over the 10-byte limit`, pipeline.ErrArgumentsTooLarge},
		{"configured depth", pipeline.Config{ArgumentDepth: 2}, `{"a":[[1]]}`,
			`arguments nest deeper than the 2-level limit`, pipeline.ErrArgumentsTooDeep},
		{"configured depth, within", pipeline.Config{ArgumentDepth: 2}, `{"a":[1],"b":{"c":2}}`, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ran := 0
			p := newPipeline(t, tc.cfg, rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
				ran++
				return "ok", nil
			}, parallel))
			single := p.Call(bg, call("t", tc.args), pipeline.Env{})
			batch := p.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("t", tc.args)}})[0]
			for _, o := range []*pipeline.Outcome{single, batch} {
				if tc.reason == "" {
					require.NoError(t, o.Err())
					continue
				}
				assert.Equal(t, "INVALID_ARGUMENTS", pipeline.CodeOf(o.Err()))
				assert.ErrorIs(t, o.Err(), registry.ErrInvalidArguments)
				assert.ErrorIs(t, o.Err(), tc.err)
				assert.Contains(t, reason(o), tc.reason)
				assert.Less(t, len(reason(o)), 200)
			}
			if tc.reason != "" {
				assert.Zero(t, ran)
			}
		})
	}

	for _, cfg := range []pipeline.Config{{ArgumentBytes: -1}, {ArgumentDepth: -1}} {
		cfg.Registry = registry.New()
		_, err := pipeline.New(cfg)
		assert.Error(t, err)
	}
}

func TestPipeline_idempotencyKey(t *testing.T) {
	var got []string
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(_ context.Context, _ json.RawMessage, e *registry.Exec) (any, error) {
		got = append(got, e.IdempotencyKey)
		return nil, nil
	}))
	p.Call(bg, pipeline.RawCall{Name: "t", Arguments: json.RawMessage(`{}`), IdempotencyKey: "run-1/3"}, pipeline.Env{})
	p.Call(bg, call("t", `{}`), pipeline.Env{})
	assert.Equal(t, []string{"run-1/3", ""}, got)
}
