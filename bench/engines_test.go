package bench_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/engine/gojaengine"
	"github.com/ptchost/ptc/bench/engine/ptcexec"
	"github.com/ptchost/ptc/bench/engine/ptchost"
	"github.com/ptchost/ptc/bench/engine/quickjsgo"
	"github.com/ptchost/ptc/bench/engine/wasmtimeguest"
)

// goSandboxes builds every in-process engine, each with its own gate.
func goSandboxes(t *testing.T) map[string]func(*bench.Gate) bench.Sandbox {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	must := func(s bench.Sandbox, err error) bench.Sandbox {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(ctx) })
		return s
	}
	return map[string]func(*bench.Gate) bench.Sandbox{
		"ptc-host": func(g *bench.Gate) bench.Sandbox { return must(ptchost.New(ctx, filepath.Join(dir, "wazero"), g)) },
		"ptc-executor": func(g *bench.Gate) bench.Sandbox {
			return must(ptcexec.New(ctx, filepath.Join(dir, "wazero"), g))
		},
		"goja":       func(g *bench.Gate) bench.Sandbox { return gojaengine.New(g) },
		"quickjs-go": func(g *bench.Gate) bench.Sandbox { return quickjsgo.New(g) },
		"wasmtime-guest": func(g *bench.Gate) bench.Sandbox {
			return must(wasmtimeguest.New(ctx, filepath.Join(dir, "wasmtime.cwasm"), g))
		},
	}
}

// TestWorkloads runs every workload once on every in-process engine and
// checks the value it returns, so that the benchmark cannot measure a
// failing or empty run.
func TestWorkloads(t *testing.T) {
	ctx := context.Background()
	for name, mk := range goSandboxes(t) {
		t.Run(name, func(t *testing.T) {
			e := bench.GoEngine(mk(nil))
			for _, w := range bench.Workloads() {
				s, err := e.Measure(ctx, w.Source, 1)
				if err != nil {
					t.Fatalf("%s: %v", w.ID, err)
				}
				if got := bench.Normalize(s.Result); got != w.Want {
					t.Fatalf("%s: got %s, want %s", w.ID, got, w.Want)
				}
				t.Logf("%s: %v", w.ID, s.PerRun)
			}
			tp, err := e.Throughput(ctx, bench.Return1, 2, 20*time.Millisecond)
			if err != nil || tp.Result != "1" || tp.Runs == 0 {
				t.Fatalf("throughput: %+v, %v", tp, err)
			}
		})
	}
}

// TestIdle blocks a few sandboxes of every engine in tools.wait at once
// and releases them, as the RSS workload does with 200.
func TestIdle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const n = 5
	for name, mk := range goSandboxes(t) {
		t.Run(name, func(t *testing.T) {
			g := bench.NewGate(n)
			s := mk(g)
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for range n {
				wg.Go(func() {
					r, err := s.Run(ctx, bench.IdleProgram)
					if err == nil && r != bench.IdleWant {
						t.Errorf("got %s, want %s", r, bench.IdleWant)
					}
					errs <- err
				})
			}
			if err := g.Arrived(ctx, n); err != nil {
				t.Fatal(err)
			}
			g.Release()
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
