package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// gated is a dispatcher whose calls of "slow" wait until the test
// releases them by their arguments (started says which started); other
// tools echo their arguments at once. It keeps every call it saw.
type gated struct {
	mu      sync.Mutex
	seen    []string
	waiting map[string]chan string
	started chan string
}

func newGated() *gated {
	return &gated{started: make(chan string, 256), waiting: map[string]chan string{}}
}

func (g *gated) Dispatch(ctx context.Context, c host.Call) host.Reply {
	ch := make(chan string, 1)
	g.mu.Lock()
	g.seen = append(g.seen, c.Name+" "+string(c.Args))
	if c.Name == "slow" {
		g.waiting[string(c.Args)] = ch
	}
	g.mu.Unlock()
	if c.Name != "slow" {
		return host.Reply{Value: c.Args}
	}
	g.started <- string(c.Args)
	select {
	case v := <-ch:
		return host.Reply{Value: json.RawMessage(v)}
	case <-ctx.Done():
		return host.Reply{Err: &host.CallError{Code: "ABORTED", Message: "cancelled"}}
	}
}

// release answers the slow call with args.
func (g *gated) release(args, value string) {
	g.mu.Lock()
	ch := g.waiting[args]
	g.mu.Unlock()
	ch <- value
}

// next waits for the next slow call to start and returns its arguments.
func (g *gated) next(t *testing.T) string {
	t.Helper()
	select {
	case a := <-g.started:
		if strings.HasPrefix(a, "failed: ") {
			t.Fatal(a)
		}
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no slow call started")
		return ""
	}
}

func (g *gated) calls() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.seen...)
}

// toolsPrelude gives programs a tools object, as the executor's SDK does.
const toolsPrelude = `globalThis.tools = new Proxy({}, {get: (_, name) => (args) => __ptc_call(name, args)});`

// parkHost is a host whose waiting runs park after 5 ms.
func parkHost(t *testing.T) *host.Host {
	return newHost(t, host.Config{ParkAfter: 5 * time.Millisecond, CompilationCacheDir: t.TempDir()})
}

// parked waits until the host's runs have parked n times in all.
func parked(t *testing.T, h *host.Host, n int64) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); h.Parked() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("runs parked %d times, want %d", h.Parked(), n)
		}
	}
}

// A run that parks while it waits comes back and goes on as if it had
// never left: what it printed, the clock, its random numbers and the
// results it had already received are the same, no call reaches the
// dispatcher twice, and a TypeScript program parks too.
func TestPark_comesBackTheSame(t *testing.T) {
	h := parkHost(t)
	for _, tc := range []struct{ name, src string }{
		{"javascript", `
const r = Math.random(), bytes = crypto.getRandomValues(new Uint8Array(4)).join(","), t0 = Date.now();
await new Promise(res => setTimeout(res, 2));
const echo = await tools.echo({r, bytes});
console.log("before", echo.r === r, echo.bytes === bytes);
const a = await tools.slow({n: 1, r});
const t1 = Date.now();
console.log("after first", JSON.stringify(a), t1 >= t0 + 50);
const [b, c] = await Promise.all([tools.slow({n: 2}), tools.slow({n: 3})]);
console.log("after all", b.v, c.v, Math.random() !== r);
return {r, bytes, sum: a.v + b.v + c.v};`},
		{"typescript", `
interface V { v: number }
const r: number = Math.random();
console.log("before");
const a = await tools.slow({n: 1, r}) as V;
const [b, c] = await Promise.all([tools.slow({n: 2}) as Promise<V>, tools.slow({n: 3}) as Promise<V>]);
console.log("after all", b.v, c.v);
return {r, sum: a.v + b.v + c.v};`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGated()
			p0 := h.Parked()
			done := make(chan *host.Outcome, 1)
			go func() {
				done <- h.Run(context.Background(), host.Program{Source: tc.src, Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: time.Minute}})
			}()
			first := g.next(t)
			parked(t, h, p0+1)
			g.release(first, `{"v":1}`)
			go func() {
				// A run that fails early fails the test at once.
				out := <-done
				done <- out
				if out.Kind != host.KindOK {
					g.started <- "failed: " + out.Message
				}
			}()
			// The two parallel calls: the second released first.
			g.next(t)
			g.next(t)
			parked(t, h, p0+2)
			g.release(`{"n":3}`, `{"v":100}`)
			parked(t, h, p0+3)
			g.release(`{"n":2}`, `{"v":10}`)
			out := <-done
			require.Equal(t, host.KindOK, out.Kind, out.Message)
			assert.Equal(t, 3, out.Parks, "parked while waiting")
			var ret struct {
				R     float64
				Bytes string
				Sum   int
			}
			require.NoError(t, json.Unmarshal(out.ReturnValue, &ret))
			assert.Equal(t, 111, ret.Sum)
			calls := g.calls()
			assert.Len(t, calls, len(out.Received), "each call dispatched once: %v", calls)
			assert.Equal(t, fmt.Sprintf(`slow {"n":1,"r":%v}`, ret.R), calls[len(calls)-3])
			if tc.name == "javascript" {
				assert.Equal(t, []string{"before true true", `after first {"v":1} true`, "after all 10 100 true"}, out.Output)
			} else {
				assert.Equal(t, []string{"before", "after all 10 100"}, out.Output)
			}
		})
	}
}

// A parked run still ends when its time is up, its caller cancels or a
// subcall ends it, with the lines it printed before it parked.
func TestPark_endsWhileParked(t *testing.T) {
	h := parkHost(t)
	src := `console.log("waiting"); await tools.slow({}); console.log("never")`
	t.Run("timeout", func(t *testing.T) {
		g := newGated()
		out := h.Run(context.Background(), host.Program{Source: src, Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: 3 * time.Second}})
		assert.Equal(t, host.KindTimeout, out.Kind, out.Message)
		assert.Equal(t, []string{"waiting"}, out.Output)
		assert.Equal(t, 1, out.Parks)
	})
	t.Run("cancel", func(t *testing.T) {
		g := newGated()
		ctx, cancel := context.WithCancel(context.Background())
		p0 := h.Parked()
		go func() {
			<-g.started
			for h.Parked() == p0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		out := h.Run(ctx, host.Program{Source: src, Prelude: toolsPrelude, Dispatcher: g})
		assert.Equal(t, host.KindAborted, out.Kind, out.Message)
		assert.Equal(t, []string{"waiting"}, out.Output)
		assert.Equal(t, 1, out.Parks)
	})
}

// Many runs waiting at once all park and all come back with their own
// results.
func TestPark_manyWaitingRuns(t *testing.T) {
	h := parkHost(t)
	const n = 50
	g := newGated()
	var wg sync.WaitGroup
	outs := make([]*host.Outcome, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = h.Run(context.Background(), host.Program{
				Source:  fmt.Sprintf(`const x = Math.random(); const v = await tools.slow({i: %d}); return [v.i, x < 1]`, i),
				Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: time.Minute}})
		}()
	}
	p0 := h.Parked()
	var args []string
	for range n {
		args = append(args, g.next(t))
	}
	parked(t, h, p0+n)
	for _, a := range args {
		g.release(a, `{"i":7}`)
	}
	wg.Wait()
	for i, out := range outs {
		require.Equal(t, host.KindOK, out.Kind, "run %d: %s", i, out.Message)
		assert.Equal(t, `[7,true]`, string(out.ReturnValue))
		assert.Equal(t, 1, out.Parks)
	}
	assert.Len(t, g.calls(), n)
	assert.False(t, strings.Contains(strings.Join(g.calls(), ","), "null"))
}

// BenchmarkPark_comeBack measures what parking costs a run when its
// result comes back: the time from the tool's reply to the run's outcome,
// for a run that parked (a new instance, the program run again to its
// wait) and for one that did not (ParkAfter negative). The program
// computes a little before it waits, as model programs do.
func BenchmarkPark_comeBack(b *testing.B) {
	src := `const xs = Array.from({length: 2000}, (_, i) => ({i, s: "item " + i}));
console.log(xs.filter(x => x.i % 7 === 0).length);
const v = await tools.slow({});
return v.n + xs.length`
	for _, c := range []struct {
		name  string
		after time.Duration
	}{{"parked", time.Millisecond}, {"not_parked", -1}} {
		b.Run(c.name, func(b *testing.B) {
			h := newHost(b, host.Config{ParkAfter: c.after, CompilationCacheDir: b.TempDir()})
			var back time.Duration
			for b.Loop() {
				g := newGated()
				p0 := h.Parked()
				done := make(chan *host.Outcome, 1)
				go func() {
					done <- h.Run(context.Background(), host.Program{Source: src, Prelude: toolsPrelude, Dispatcher: g})
				}()
				args := <-g.started
				if c.after > 0 {
					for h.Parked() == p0 {
						time.Sleep(100 * time.Microsecond)
					}
				}
				t0 := time.Now()
				g.release(args, `{"n":1}`)
				out := <-done
				back += time.Since(t0)
				if string(out.ReturnValue) != "2001" || (c.after > 0) != (out.Parks == 1) {
					b.Fatalf("%s %s: parks %d", out.Kind, out.Message, out.Parks)
				}
			}
			b.ReportMetric(float64(back.Nanoseconds())/float64(b.N), "back-ns/op")
		})
	}
}
