package ptc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

func echoTool() *registry.Tool {
	return rawTool("echo", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) { return a, nil })
}

func benchExecute(b *testing.B, f *harness, code, want string) {
	b.Helper()
	call := runCall(code)
	batch := pipeline.Batch{Calls: []pipeline.RawCall{call}}
	ctx := context.Background()
	cpu := cpuTime()
	for b.Loop() {
		r := f.ex.Execute(ctx, batch)[0]
		if got := registry.PlainText(r.Content); got != want {
			b.Fatalf("got %q, want %q", got, want)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkExecute is a whole run_code call: the private pipeline, the
// SDK prelude (cached image), the run and the subcalls through the
// pipeline.
func BenchmarkExecute(b *testing.B) {
	f := newFixture(b, host.Limits{}, echoTool(), weatherTool())
	b.Run("subcalls_0", func(b *testing.B) {
		benchExecute(b, f, `return 1`, "1")
	})
	b.Run("subcalls_1", func(b *testing.B) {
		benchExecute(b, f, `return (await tools.echo({a: 1})).a`, "1")
	})
	b.Run("subcalls_100_sequential", func(b *testing.B) {
		benchExecute(b, f, `let s = 0; for (let i = 0; i < 100; i++) s += (await tools.echo({i})).i; return s`, "4950")
	})
	b.Run("subcalls_100_parallel", func(b *testing.B) {
		benchExecute(b, f, `const r = await Promise.all(Array.from({length: 100}, (_, i) => tools.echo({i}))); return r.length`, "100")
	})
}

// BenchmarkExecute_fanout50 is a 50-way Promise.all over a tool that takes
// 50 ms; x50ms reports the run's wall time as a multiple of 50 ms (the
// target is at most 1.3). With the default in-flight limit of 32 the
// calls go in two waves; in_flight_64 lifts the limit.
func BenchmarkExecute_fanout50(b *testing.B) {
	sleep := rawTool("sleep", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-time.After(50 * time.Millisecond):
			return "ok", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	for _, c := range []struct {
		name     string
		inFlight int
	}{{"in_flight_default", 0}, {"in_flight_64", 64}} {
		b.Run(c.name, func(b *testing.B) {
			f := newFixture(b, host.Limits{InFlight: c.inFlight}, sleep)
			benchExecute(b, f, `return (await Promise.all(Array.from({length: 50}, () => tools.sleep({})))).length`, "50")
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(50*time.Millisecond), "x50ms")
		})
	}
}

// BenchmarkSDK_200tools generates the SDK of 200 tools: cached is what
// every Describe and Execute of one tool set pays after the first,
// uncached regenerates (a registry change invalidates the cache).
func BenchmarkSDK_200tools(b *testing.B) {
	type unitArgs struct {
		City  string `json:"city"`
		Units string `json:"units,omitempty"`
	}
	var tools []*registry.Tool
	for i := range 200 {
		tools = append(tools, registry.MustDefine(registry.Spec[unitArgs, weather]{
			Name:        fmt.Sprintf("tool_%03d", i),
			Description: "Current weather for a city.",
			Parameters: registry.Object(
				registry.Required("city", registry.String().Describe("City name")),
				registry.Optional("units", registry.String().WithEnum("metric", "imperial")),
			),
			Output: registry.Output[unitArgs, weather]{Schema: registry.Object(
				registry.Required("tempC", registry.Number()),
				registry.Required("sky", registry.String()),
			)},
			Execute: func(context.Context, unitArgs, *registry.Exec) (weather, error) { return weather{}, nil },
		}))
	}
	f := newFixture(b, host.Limits{}, tools...)
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			f.ex.RunCodeSchema(registry.Scope{}, nil)
		}
	})
	b.Run("uncached", func(b *testing.B) {
		extra := rawTool("extra", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return nil, nil })
		for b.Loop() {
			dispose, err := f.reg.Register(extra)
			if err != nil {
				b.Fatal(err)
			}
			f.ex.RunCodeSchema(registry.Scope{}, nil)
			dispose()
		}
	})
}

// BenchmarkExecute_cancel measures how long Execute takes to return once
// its context is cancelled while the program waits on a subcall that
// honours its context (ms_after_cancel), and while it spins in a JS loop.
func BenchmarkExecute_cancel(b *testing.B) {
	entered := make(chan struct{}, 1)
	block := rawTool("block", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		entered <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	f := newFixture(b, host.Limits{}, block)
	for _, c := range []struct{ name, code string }{
		{"mid_subcall", `await tools.block({})`},
		{"js_loop", `tools.block({}).catch(() => {}); for (;;) {}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				at := make(chan time.Time, 1)
				go func() { <-entered; time.Sleep(time.Millisecond); at <- time.Now(); cancel() }()
				r := f.ex.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(c.code)}})[0]
				total += time.Since(<-at)
				if !strings.HasPrefix(registry.PlainText(r.Content), "Error: code run failed (aborted)") {
					b.Fatal(registry.PlainText(r.Content))
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms_after_cancel")
		})
	}
}
