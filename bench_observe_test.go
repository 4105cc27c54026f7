package ptc_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// The programs of the observability benchmarks: the smallest run, and
// 1000 sequential subcalls (the default subcall limit).
const (
	benchReturn1   = `return 1`
	benchSubcalls  = `let s = 0; for (let i = 0; i < 1000; i++) s += (await tools.echo({i})).i; return s`
	benchSubcallsN = "499500"
)

// BenchmarkObserve_none is BenchmarkObserve's programs with no tracer or
// meter provider: what every caller that configures none pays.
func BenchmarkObserve_none(b *testing.B) {
	f := newFixture(b, host.Limits{}, echoTool())
	b.Run("return_1", func(b *testing.B) { benchExecute(b, f, benchReturn1, "1") })
	b.Run("subcalls_1000", func(b *testing.B) { benchExecute(b, f, benchSubcalls, benchSubcallsN) })
}

// BenchmarkObserve_traced runs them with every span sampled and handed
// to the SDK's batch span processor (whose exporter discards them).
func BenchmarkObserve_traced(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	defer tp.Shutdown(context.Background())
	reg := registry.New()
	if _, err := reg.Register(echoTool()); err != nil {
		b.Fatal(err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg, TracerProvider: tp})
	if err != nil {
		b.Fatal(err)
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close(context.Background())
	f := &harness{reg: reg, pipe: pipe, ex: ex}
	b.Run("return_1", func(b *testing.B) { benchExecute(b, f, benchReturn1, "1") })
	b.Run("subcalls_1000", func(b *testing.B) { benchExecute(b, f, benchSubcalls, benchSubcallsN) })
}
