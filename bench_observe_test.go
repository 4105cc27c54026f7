package ptc_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/telemetry"
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

// BenchmarkObserve runs the smallest program and 1000 subcalls with no
// tracer or meter provider (none: what every caller that configures none
// pays), with every span sampled and handed to the SDK's batch span
// processor, whose exporter discards them (traced), and with a meter
// provider too (traced_metered). sdk_spans_1000 is the floor: the SDK
// alone starting and ending 1000 sampled spans with the attributes a
// subcall's span carries, under one parent, through the same processor.
//
// Each leaf reports cpu-ns/op, the process's CPU time (user and system,
// every goroutine: the batch processor's and the collector's too) per
// op: on a shared machine it moves less than the wall time. Compare them
// with interleaved runs, e.g. 8 rounds of -count 1 and benchstat.
func BenchmarkObserve(b *testing.B) {
	none := newFixture(b, host.Limits{}, echoTool())
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	defer tp.Shutdown(context.Background())
	traced := newBenchFixture(b, pipeline.Config{TracerProvider: tp})
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer mp.Shutdown(context.Background())
	metered := newBenchFixture(b, pipeline.Config{TracerProvider: tp, MeterProvider: mp})
	for _, c := range []struct {
		name string
		f    *harness
	}{{"none", none}, {"traced", traced}, {"traced_metered", metered}} {
		b.Run(c.name+"/return_1", func(b *testing.B) { benchExecute(b, c.f, benchReturn1, "1") })
		b.Run(c.name+"/subcalls_1000", func(b *testing.B) { benchExecute(b, c.f, benchSubcalls, benchSubcallsN) })
	}
	b.Run("sdk_spans_1000", func(b *testing.B) {
		tracer := tp.Tracer(telemetry.ScopeName)
		opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
			telemetry.KeyOperationName.String(telemetry.OperationExecuteTool),
			telemetry.KeyToolName.String("echo"))}
		cpu := cpuTime()
		for b.Loop() {
			ctx, parent := tracer.Start(context.Background(), "execute_tool run_code")
			for range 1000 {
				_, s := tracer.Start(ctx, "execute_tool echo", opts...)
				s.SetAttributes(telemetry.KeyToken.String("t"), telemetry.KeyToolCallID.String("1"), telemetry.KeyParent.String("p"))
				s.End()
			}
			parent.End()
		}
		reportCPU(b, cpu)
	})
}

// newBenchFixture is newFixture's executor for echo on a pipeline made
// with cfg (its Registry set here).
func newBenchFixture(b *testing.B, cfg pipeline.Config) *harness {
	b.Helper()
	reg := registry.New()
	if _, err := reg.Register(echoTool()); err != nil {
		b.Fatal(err)
	}
	cfg.Registry = reg
	pipe, err := pipeline.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ex.Close(context.Background()) })
	return &harness{reg: reg, pipe: pipe, ex: ex}
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time used since start per op, as cpu-ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
