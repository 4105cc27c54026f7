package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// attrs returns a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func events(s sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, e := range s.Events() {
		out = append(out, e.Name)
	}
	return out
}

func TestPipeline_trace(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reg := registry.New()
	p := newPipeline(t, pipeline.Config{Registry: reg, TracerProvider: tp},
		echo("ok"), echo("deny"), echo("guarded"), echo("ask_yes"), echo("ask_no"), echo("blocked"),
		rawTool("fails", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
			return nil, errors.New("boom")
		}),
		rawTool("slow", func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, timeout(5)))
	p.Wrap(pipeline.TimeoutPolicy())
	p.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		switch inv.Name() {
		case "deny":
			return pipeline.Deny("not today")
		case "ask_yes", "ask_no":
			return pipeline.Ask("may I?")
		}
		return d
	})
	p.Guard(func(inv *pipeline.Invocation) string {
		if inv.Name() == "guarded" {
			return "guard says no"
		}
		return ""
	})
	p.OnPostExecute(func(_ context.Context, inv *pipeline.Invocation, r *pipeline.PostResult) {
		if inv.Name() == "blocked" {
			r.Block("too secret")
		}
	})
	approver := func(_ context.Context, inv *pipeline.Invocation, _ string) (pipeline.Answer, error) {
		return pipeline.Answer{Approved: inv.Name() == "ask_yes"}, nil
	}

	parentCtx, parent := tp.Tracer("test").Start(bg, "caller")
	for _, name := range []string{"ok", "deny", "guarded", "ask_yes", "ask_no", "blocked", "fails", "slow", "nope"} {
		p.Call(parentCtx, pipeline.RawCall{ID: "call-" + name, Name: name, Arguments: json.RawMessage(`{}`)}, pipeline.Env{Approver: approver})
	}
	parent.End()

	type want struct {
		errorType string
		events    []string
	}
	wants := map[string]want{
		"ok":      {},
		"deny":    {"DENIED", []string{"denied"}},
		"guarded": {"DENIED", []string{"denied"}},
		"ask_yes": {"", []string{"asked", "approved"}},
		"ask_no":  {"DENIED", []string{"asked", "denied"}},
		"blocked": {"POST_EXECUTE_BLOCKED", []string{"blocked"}},
		"fails":   {"TOOL_FAILED", nil},
		"slow":    {"TOOL_TIMEOUT", []string{"timed_out"}},
		"nope":    {"UNKNOWN_TOOL", nil},
	}
	spans := rec.Ended()
	require.Len(t, spans, len(wants)+1)
	seen := 0
	for _, s := range spans {
		if s.Name() == "caller" {
			continue
		}
		a := attrs(s)
		tool := a["gen_ai.tool.name"].AsString()
		w, ok := wants[tool]
		require.True(t, ok, "span for %q", tool)
		seen++
		assert.Equal(t, "execute_tool "+tool, s.Name())
		assert.Equal(t, "execute_tool", a["gen_ai.operation.name"].AsString())
		assert.Equal(t, "call-"+tool, a["gen_ai.tool.call.id"].AsString())
		assert.NotEmpty(t, a["ptc.call.token"].AsString())
		assert.Equal(t, parent.SpanContext().SpanID(), s.Parent().SpanID(), tool)
		assert.Equal(t, parent.SpanContext().TraceID(), s.SpanContext().TraceID(), tool)
		assert.Equal(t, w.errorType, a["error.type"].AsString(), tool)
		assert.Equal(t, w.events, events(s), tool)
		if w.errorType != "" {
			assert.Equal(t, codes.Error, s.Status().Code, tool)
		} else {
			assert.Equal(t, codes.Unset, s.Status().Code, tool)
		}
	}
	assert.Equal(t, len(wants), seen)
	// The decision's reason and stage are on the event.
	for _, s := range spans {
		if s.Name() == "execute_tool deny" {
			e := s.Events()[0]
			assert.Contains(t, e.Attributes, attribute.String("ptc.reason", "not today"))
			assert.Contains(t, e.Attributes, attribute.String("ptc.policy", "pre_execute"))
		}
	}
}

// A batch's calls get the same spans as single calls; a nested call
// names its parent's token; the body sees the call's span in its ctx.
func TestPipeline_traceBatchNested(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	var inner *pipeline.Pipeline
	outer := newPipeline(t, pipeline.Config{TracerProvider: tp},
		rawTool("outer", func(ctx context.Context, _ json.RawMessage, exec *registry.Exec) (any, error) {
			o := inner.Call(ctx, call("leaf", `{}`), pipeline.Env{Parent: exec.CallID})
			return o.Invocation().Name(), o.Err()
		}, parallel), echo("other", parallel))
	inner = newPipeline(t, pipeline.Config{TracerProvider: tp}, echo("leaf"))
	outs := outer.Execute(bg, pipeline.Batch{Calls: []pipeline.RawCall{call("outer", `{}`), call("other", `{}`)}})
	require.NoError(t, outs[0].Err(), reason(outs[0]))
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		byName[s.Name()] = s
	}
	require.Len(t, byName, 3)
	leaf, out := byName["execute_tool leaf"], byName["execute_tool outer"]
	assert.Equal(t, out.SpanContext().SpanID(), leaf.Parent().SpanID())
	assert.Equal(t, outs[0].Invocation().Token(), attrs(leaf)["ptc.call.parent"].AsString())
	assert.False(t, byName["execute_tool other"].Parent().IsValid(), "a root call without a caller's span is a root span")
}

func TestPipeline_subcallMetric(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	p := newPipeline(t, pipeline.Config{MeterProvider: mp}, echo("ok"))
	for range 3 {
		p.Call(bg, call("ok", `{}`), pipeline.Env{Parent: "run-1"})
	}
	p.Call(bg, call("ok", `{"x":`), pipeline.Env{Parent: "run-1"})
	p.Call(bg, call("no_such_a", `{}`), pipeline.Env{Parent: "run-1"})
	p.Call(bg, call("no_such_b", `{}`), pipeline.Env{Parent: "run-1"})
	p.Call(bg, call("ok", `{}`), pipeline.Env{}) // a root call is no subcall
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(bg, &rm))
	got := map[[2]string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			require.Equal(t, "ptc_subcalls", m.Name)
			for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
				tool, _ := dp.Attributes.Value("tool")
				code, _ := dp.Attributes.Value("code")
				got[[2]string{tool.AsString(), code.AsString()}] = dp.Value
			}
		}
	}
	assert.Equal(t, map[[2]string]int64{
		{"ok", "OK"}:                  3,
		{"ok", "INVALID_ARGUMENTS"}:   1,
		{"(unknown)", "UNKNOWN_TOOL"}: 2,
	}, got)
}

// With no provider the pipeline makes no span: the caller's span in ctx
// is what the body sees.
func TestPipeline_noProvider(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ctx, parent := tp.Tracer("test").Start(bg, "caller")
	var seen bool
	p := newPipeline(t, pipeline.Config{}, rawTool("t", func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
		seen = ctx.Value(struct{}{}) == nil && parent.SpanContext().Equal(spanContext(ctx))
		return 1, nil
	}))
	p.Call(ctx, call("t", `{}`), pipeline.Env{})
	parent.End()
	assert.True(t, seen)
	assert.Len(t, rec.Ended(), 1)
	assert.Nil(t, p.Config().TracerProvider)
	assert.Nil(t, p.Config().MeterProvider)
}

func spanContext(ctx context.Context) trace.SpanContext { return trace.SpanContextFromContext(ctx) }
