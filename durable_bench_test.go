package ptc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/internal/pgtest"
	"github.com/ptchost/ptc/registry"
	"github.com/ptchost/ptc/runstore"
)

// benchStores are the stores the durable benchmarks compare: none,
// SQLite in a temporary directory, and a PostgreSQL cluster on loopback
// (fsync on) when PostgreSQL is installed.
func benchStores(b *testing.B) []struct {
	name  string
	store runstore.Store
} {
	out := []struct {
		name  string
		store runstore.Store
	}{{"none", nil}, {"sqlite", openStore(b, filepath.Join(b.TempDir(), "runs.db"))}}
	if pgtest.Bin() != "" {
		url := pgtest.Start(b, pgtest.Options{Durable: true})
		s, err := runstore.Open(context.Background(), url)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		out = append(out, struct {
			name  string
			store runstore.Store
		}{"postgres", s})
	}
	return out
}

// BenchmarkDurable_sequential: 1000 sequential subcalls of a tool that
// takes 1 ms, and of an echo tool, with no store, SQLite and PostgreSQL
// (issue 37: SQLite ≤ 1.15× no store for the 1 ms tool).
func BenchmarkDurable_sequential(b *testing.B) {
	sleep := rawTool("t", registry.Parallel, func(ctx context.Context, a json.RawMessage) (any, error) {
		time.Sleep(time.Millisecond)
		return a, nil
	})
	echo := rawTool("t", registry.Parallel, func(ctx context.Context, a json.RawMessage) (any, error) { return a, nil })
	const code = `let n = 0; for (let i = 0; i < 1000; i++) n += (await tools.t({i})).i; return n`
	stores := benchStores(b)
	for _, tool := range []struct {
		name string
		t    *registry.Tool
	}{{"tool_1ms", sleep}, {"echo", echo}} {
		for _, s := range stores {
			ex := durableExecutor(b, s.store, 0, tool.t)
			b.Run(tool.name+"/"+s.name, func(b *testing.B) {
				for b.Loop() {
					r, err := ex.Run(context.Background(), code, ptc.RunOptions{})
					if err != nil || r.Err() != nil || text(r) != "499500" {
						b.Fatalf("%v %v %s", err, r.Err(), text(r))
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/call")
			})
		}
	}
}

// BenchmarkDurable_resume50: resuming a run of 50 settled calls whose
// process stopped (its lease released, as after a crash once the lease
// lapsed), against running the program fresh with the results at hand
// (an echo tool), without a store and with one (issue 37: ≤ 2×).
func BenchmarkDurable_resume50(b *testing.B) {
	const code = `let n = 0; for (let i = 0; i < 50; i++) n += (await tools.echo({i})).i;
let g; try { g = await tools.gate({}) } catch (e) { g = e.code }
return [n, g]`
	gate := make(chan struct{})
	tools := func(wait bool) []*registry.Tool {
		return []*registry.Tool{echoTool(), rawTool("gate", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
			if wait {
				gate <- struct{}{}
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return "open", nil
		})}
	}
	b.Run("fresh", func(b *testing.B) {
		ex := durableExecutor(b, nil, 0, tools(false)...)
		for b.Loop() {
			r, _ := ex.Run(context.Background(), code, ptc.RunOptions{})
			if text(r) != `[1225, "open"]` {
				b.Fatal(text(r))
			}
		}
	})
	b.Run("fresh_store", func(b *testing.B) {
		ex := durableExecutor(b, openStore(b, filepath.Join(b.TempDir(), "runs.db")), 0, tools(false)...)
		for b.Loop() {
			r, _ := ex.Run(context.Background(), code, ptc.RunOptions{})
			if text(r) != `[1225, "open"]` {
				b.Fatal(text(r))
			}
		}
	})
	b.Run("resume", func(b *testing.B) {
		store := openStore(b, filepath.Join(b.TempDir(), "runs.db"))
		cut := durableExecutor(b, store, 0, tools(true)...)
		ex := durableExecutor(b, store, 0, tools(false)...)
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			id := fmt.Sprint("r", i)
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-gate; cancel() }()
			cut.Run(ctx, code, ptc.RunOptions{RunID: id})
			b.StartTimer()
			r, _ := ex.Run(context.Background(), code, ptc.RunOptions{RunID: id})
			if text(r) != `[1225, "UNAVAILABLE"]` {
				b.Fatal(text(r))
			}
		}
	})
}
