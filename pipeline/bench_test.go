package pipeline_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

func noop() *registry.Tool {
	return rawTool("noop", func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
		return "ok", nil
	}, parallel)
}

// BenchmarkCall measures one no-op call through all stages: bare (no
// policies), and with one policy of every kind plus the timeout wrapper
// (the tool declares no timeout, so the wrapper passes through).
func BenchmarkCall(b *testing.B) {
	args := json.RawMessage(`{}`)
	b.Run("bare", func(b *testing.B) {
		p := newPipeline(b, pipeline.Config{}, noop())
		b.ReportAllocs()
		for b.Loop() {
			if o := p.Call(bg, pipeline.RawCall{Name: "noop", Arguments: args}, pipeline.Env{}); o.Err() != nil {
				b.Fatal(o.Err())
			}
		}
	})
	b.Run("policies", func(b *testing.B) {
		p := newPipeline(b, pipeline.Config{}, noop())
		p.OnPreExecute(func(_ context.Context, _ *pipeline.Invocation, d pipeline.Decision) pipeline.Decision { return d })
		p.Guard(func(*pipeline.Invocation) string { return "" })
		p.Wrap(pipeline.TimeoutPolicy())
		p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) {})
		p.OnResult(func(context.Context, *pipeline.Outcome) {})
		b.ReportAllocs()
		for b.Loop() {
			if o := p.Call(bg, pipeline.RawCall{Name: "noop", Arguments: args}, pipeline.Env{}); o.Err() != nil {
				b.Fatal(o.Err())
			}
		}
	})
	b.Run("parallel-callers", func(b *testing.B) {
		p := newPipeline(b, pipeline.Config{}, noop())
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				p.Call(bg, pipeline.RawCall{Name: "noop", Arguments: args}, pipeline.Env{Parent: "run_code-1"})
			}
		})
	})
}

// BenchmarkExecute measures a 100-call batch of parallel no-op calls.
func BenchmarkExecute(b *testing.B) {
	p := newPipeline(b, pipeline.Config{}, noop())
	calls := make([]pipeline.RawCall, 100)
	for i := range calls {
		calls[i] = pipeline.RawCall{Name: "noop", Arguments: json.RawMessage(`{}`)}
	}
	b.Run("parallel100", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.Execute(bg, pipeline.Batch{Calls: calls})
		}
	})
}
