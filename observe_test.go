package ptc_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

type observed struct {
	*harness
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
}

// newObserved is newFixture with a tracer and a meter provider on the
// tools' pipeline, a policy that denies "secret" and asks for "launch"
// (approved by the batch's approver).
func newObserved(t *testing.T, lim host.Limits, tools ...*registry.Tool) *observed {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	reg := registry.New()
	for _, tl := range tools {
		_, err := reg.Register(tl)
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg, TracerProvider: tp, MeterProvider: mp})
	require.NoError(t, err)
	pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		switch inv.Name() {
		case "secret":
			return pipeline.Deny("secrets stay secret")
		case "launch":
			return pipeline.Ask("launch?")
		}
		return d
	})
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Limits: lim})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return &observed{harness: &harness{reg: reg, pipe: pipe, ex: ex}, spans: rec, tp: tp, reader: reader}
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestExecute_trace(t *testing.T) {
	f := newObserved(t, host.Limits{}, weatherTool(),
		rawTool("secret", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return 1, nil }),
		rawTool("launch", registry.Serial, func(context.Context, json.RawMessage) (any, error) { return "launched", nil }))
	approve := func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
		return pipeline.Answer{Approved: true}, nil
	}
	ctx, caller := f.tp.Tracer("test").Start(context.Background(), "agent step")
	r := f.runBatch(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(`
		const [p, o] = await Promise.all([tools.get_weather({city: "Paris"}), tools.get_weather({city: "Oslo"})]);
		try { await tools.get_weather({city: "Atlantis"}); } catch (e) { console.log(e.code); }
		try { await tools.secret({}); } catch (e) { console.log(e.code); }
		await tools.launch({});
		throw new Error("the end");`)}, Approver: approve})
	caller.End()
	require.True(t, r.IsError)

	spans := f.spans.Ended()
	var run sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == "execute_tool run_code" {
			run = s
		}
	}
	require.NotNil(t, run, "run span")
	a := spanAttrs(run)
	assert.Equal(t, caller.SpanContext().SpanID(), run.Parent().SpanID())
	assert.Equal(t, "execute_tool", a["gen_ai.operation.name"].AsString())
	assert.Equal(t, "run_code", a["gen_ai.tool.name"].AsString())
	assert.Equal(t, "call_1", a["gen_ai.tool.call.id"].AsString())
	assert.Equal(t, "exception", a["error.type"].AsString())
	assert.Equal(t, "exception", a["ptc.run.kind"].AsString())
	assert.Equal(t, int64(5), a["ptc.run.subcalls"].AsInt64())
	assert.Positive(t, a["ptc.run.memory_bytes"].AsInt64())
	assert.Equal(t, int64(len("TOOL_FAILED\nDENIED\n")), a["ptc.run.output_bytes"].AsInt64())

	type sub struct {
		errType string
		events  []string
	}
	got := map[string]sub{}
	for _, s := range spans {
		if s == run || s.Name() == "agent step" {
			continue
		}
		require.Equal(t, run.SpanContext().SpanID(), s.Parent().SpanID(), s.Name())
		sa := spanAttrs(s)
		var ev []string
		for _, e := range s.Events() {
			ev = append(ev, e.Name)
		}
		assert.Equal(t, r.Outcome.Invocation().Token(), sa["ptc.call.parent"].AsString())
		got[s.Name()+"#"+sa["gen_ai.tool.call.id"].AsString()] = sub{sa["error.type"].AsString(), ev}
	}
	assert.Equal(t, map[string]sub{
		"execute_tool get_weather#1": {},
		"execute_tool get_weather#2": {},
		"execute_tool get_weather#3": {errType: "TOOL_FAILED"},
		"execute_tool secret#4":      {errType: "DENIED", events: []string{"denied"}},
		"execute_tool launch#5":      {events: []string{"asked", "approved"}},
	}, got)
}

// metrics collects the reader's data points by metric name and the
// attributes' values joined.
func (f *observed) metrics(t *testing.T) map[string]map[string]float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, f.reader.Collect(context.Background(), &rm))
	out := map[string]map[string]float64{}
	key := func(s attribute.Set) string {
		k := ""
		for _, kv := range s.ToSlice() {
			k += string(kv.Key) + "=" + kv.Value.String() + ","
		}
		return k
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			pts := map[string]float64{}
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					pts[key(p.Attributes)] = float64(p.Value)
				}
			case metricdata.Gauge[int64]:
				for _, p := range d.DataPoints {
					pts[key(p.Attributes)] = float64(p.Value)
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					pts[key(p.Attributes)] = float64(p.Count)
				}
			}
			out[m.Name] = pts
		}
	}
	return out
}

func TestExecute_metrics(t *testing.T) {
	f := newObserved(t, host.Limits{Timeout: time.Second}, weatherTool(), rawTool("block", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	f.run(t, `return 1`)
	f.run(t, `return (await tools.get_weather({city: "Paris"})).tempC`)
	f.run(t, `await tools.get_weather({city: "Nowhere"})`)
	f.run(t, `await tools.nope({})`)
	f.run(t, `while (true) {}`) // a syntax-valid runaway: timeout below
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	r := f.runBatch(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(`await tools.block({})`)}})
	require.Equal(t, host.KindAborted, r.Run.Kind)

	// A run for a principal (serve --auth) is counted under its name.
	f.runBatch(telemetry.WithPrincipal(context.Background(), "team-a"), pipeline.Batch{Calls: []pipeline.RawCall{runCall(`return (await tools.get_weather({city: "Oslo"})).tempC`)}})

	m := f.metrics(t)
	assert.Equal(t, map[string]float64{"kind=ok,": 2, "kind=exception,": 2, "kind=timeout,": 1, "kind=aborted,": 1, "kind=ok,principal=team-a,": 1}, m["ptc_runs"])
	assert.Equal(t, map[string]float64{"": 6, "principal=team-a,": 1}, m["ptc_run_duration"])
	assert.Equal(t, map[string]float64{"": 0, "principal=team-a,": 0}, m["ptc_runs_in_flight"])
	assert.Equal(t, map[string]float64{"": 1}, m["ptc_cancel_latency"])
	assert.Contains(t, m, "ptc_sandboxes_idle")
	assert.Equal(t, map[string]float64{
		"code=OK,tool=get_weather,":                  1,
		"code=TOOL_FAILED,tool=get_weather,":         1,
		"code=UNKNOWN_TOOL,tool=(unknown),":          1,
		"code=ABORTED,tool=block,":                   1,
		"code=OK,principal=team-a,tool=get_weather,": 1,
	}, m["ptc_subcalls"])
}

// With no providers nothing is traced: a caller's span stays the only one.
func TestExecute_noProviders(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ctx, caller := tp.Tracer("test").Start(context.Background(), "agent step")
	r := f.runBatch(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(`return (await tools.get_weather({city: "Paris"})).sky`)}})
	caller.End()
	require.False(t, r.IsError, r.Content)
	require.Len(t, rec.Ended(), 1)
	// Nor is the caller's own span written to.
	assert.Empty(t, rec.Ended()[0].Attributes(), "an executor without a TracerProvider set attributes on its caller's span")
}

// A replay's run span says so; its recorded subcalls make no span (no
// tool ran), its live ones do.
func TestReplay_traceMarked(t *testing.T) {
	f := newObserved(t, host.Limits{}, weatherTool())
	r, err := f.ex.Run(context.Background(), `return (await tools.get_weather({city: "Paris"})).sky`, ptc.RunOptions{Record: true})
	require.NoError(t, err)
	require.False(t, r.IsError, r.Content)
	f.spans.Reset()
	again, err := f.ex.Replay(context.Background(), r.Recording, ptc.ReplayOptions{})
	require.NoError(t, err)
	require.Nil(t, again.Divergence)
	spans := f.spans.Ended()
	require.Len(t, spans, 1)
	assert.Equal(t, "execute_tool run_code", spans[0].Name())
	assert.True(t, spanAttrs(spans[0])["ptc.replay"].AsBool())
	assert.Equal(t, "ok", spanAttrs(spans[0])["ptc.run.kind"].AsString())
}
