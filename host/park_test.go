package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/advtest"
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
	return newHost(t, host.Config{ParkAfter: 5 * time.Millisecond, CompilationCacheDir: cacheDir})
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

// startRuns starts n runs of the program src (%d: the run's number) over
// g; wait waits for them all, whose outcomes are then in outs.
func startRuns(h *host.Host, g *gated, n int, src string) (outs []*host.Outcome, wait func()) {
	var wg sync.WaitGroup
	outs = make([]*host.Outcome, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = h.Run(context.Background(), host.Program{Source: fmt.Sprintf(src, i), Prelude: toolsPrelude,
				Dispatcher: g, Limits: host.Limits{Timeout: 2 * time.Minute}})
		}()
	}
	return outs, wg.Wait
}

// Many runs waiting at once all park and all come back with their own
// results.
func TestPark_manyWaitingRuns(t *testing.T) {
	h := parkHost(t)
	const n = 50
	g := newGated()
	outs, wait := startRuns(h, g, n, `const x = Math.random(); const v = await tools.slow({i: %d}); return [v.i, x < 1]`)
	p0 := h.Parked()
	var args []string
	for range n {
		args = append(args, g.next(t))
	}
	parked(t, h, p0+n)
	for _, a := range args {
		g.release(a, `{"i":7}`)
	}
	wait()
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

// comeBackSrc prints 50 lines, each after some work, waits for a slow
// call, then loops until it is stopped: a run ended while it comes back
// from parking ends during its replay of the 50 lines.
const comeBackSrc = `
for (let i = 0; i < 50; i++) { let x = 0; for (let j = 0; j < 40000; j++) x += j % 7; console.log("line", i, x); }
const v = await tools.slow({});
console.log("back", v.n);
while (true) {}`

// A run that ends while it comes back from parking (its time limit, its
// caller) reports what it printed, counted and received before it parked,
// not only what its replay had printed again so far.
func TestPark_endsWhileComingBack(t *testing.T) {
	h := newHost(t, host.Config{ParkAfter: 5 * time.Millisecond, CompilationCacheDir: cacheDir})
	h.SetParkFactor(0) // park however long the program computed
	var want []string
	for i := range 50 {
		want = append(want, fmt.Sprintf("line %d 119995", i))
	}
	check := func(t *testing.T, out *host.Outcome, kind host.Kind) {
		t.Helper()
		assert.Equal(t, kind, out.Kind, out.Message)
		assert.Equal(t, 1, out.Parks)
		require.GreaterOrEqual(t, len(out.Output), 50, "lines kept through the come-back")
		assert.Equal(t, want, out.Output[:50])
		assert.Equal(t, 1, out.Subcalls)
		if len(out.Output) > 50 {
			// The replay got past the wait: the result was received.
			assert.Equal(t, []string{"back 1"}, out.Output[50:])
			assert.Equal(t, []int{1}, out.Received)
		} else {
			assert.Empty(t, out.Received)
		}
	}
	t.Run("cancel", func(t *testing.T) {
		g := newGated()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		p0 := h.Parked()
		done := make(chan *host.Outcome, 1)
		go func() {
			done <- h.Run(ctx, host.Program{Source: comeBackSrc, Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: time.Minute}})
		}()
		a := g.next(t)
		parked(t, h, p0+1)
		g.release(a, `{"n":1}`)
		time.Sleep(10 * time.Millisecond) // the replay of 50 lines takes longer
		cancel()
		check(t, <-done, host.KindAborted)
	})
	t.Run("timeout", func(t *testing.T) {
		g := newGated()
		p0 := h.Parked()
		const limit = 4 * time.Second
		start := time.Now()
		done := make(chan *host.Outcome, 1)
		go func() {
			done <- h.Run(context.Background(), host.Program{Source: comeBackSrc, Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: limit}})
		}()
		a := g.next(t)
		parked(t, h, p0+1)
		time.Sleep(time.Until(start.Add(limit - 10*time.Millisecond)))
		g.release(a, `{"n":1}`)
		check(t, <-done, host.KindTimeout)
	})
}

// clockLoop reads the clock in a loop for ms milliseconds and returns how
// many times it did.
func clockLoop(ms int) string {
	return fmt.Sprintf(`let n = 0; const e = Date.now() + %d; while (Date.now() < e) n++; return n`, ms)
}

// A run that reads the clock in a loop keeps a bounded trace: past what
// parking may keep, it lets go of its trace and never parks, so the
// process does not grow with the readings (10 s of them were 160-296 MiB).
func TestPark_clockLoopBounded(t *testing.T) {
	if int64(advtest.RSS()) == 0 {
		t.Skip("no /proc/self/statm here")
	}
	h := newHost(t, host.Config{CompilationCacheDir: cacheDir}) // parking on (its default)
	run := func(ms int) *host.Outcome {
		return h.Run(context.Background(), host.Program{Source: clockLoop(ms), Limits: host.Limits{Timeout: time.Minute}})
	}
	require.Equal(t, host.KindOK, run(50).Kind) // an instance to reuse
	runtime.GC()
	before := int64(advtest.RSS())
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
				if r := int64(advtest.RSS()); r > peak.Load() {
					peak.Store(r)
				}
			}
		}
	}()
	out := run(10_000)
	close(done)
	require.Equal(t, host.KindOK, out.Kind, out.Message)
	grew := max(peak.Load(), int64(advtest.RSS())) - before
	t.Logf("%s readings in 10 s; the process grew by %.1f MiB", out.ReturnValue, float64(grew)/(1<<20))
	assert.Less(t, grew, int64(heapShadow*8<<20))
}

// Waiting for a timer is not computing: a run that slept before it waits
// for a slow call parks as soon as one that did not (the sleep counted as
// computed time, so coming back looked 20 times as costly: 8 s for 400 ms).
func TestPark_sleepIsNotComputing(t *testing.T) {
	h := parkHost(t)
	g := newGated()
	p0 := h.Parked()
	done := make(chan *host.Outcome, 1)
	go func() {
		done <- h.Run(context.Background(), host.Program{
			Source:  `await new Promise(r => setTimeout(r, 400)); const v = await tools.slow({}); return v.n`,
			Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: time.Minute}})
	}()
	a := g.next(t)
	waiting := time.Now()
	parked(t, h, p0+1)
	took := time.Since(waiting)
	g.release(a, `{"n":7}`)
	out := <-done
	require.Equal(t, host.KindOK, out.Kind, out.Message)
	assert.Equal(t, "7", string(out.ReturnValue))
	t.Logf("parked %v after it started waiting", took)
	assert.Less(t, took, 4*time.Second, "parked after its 5 ms plus 20 times what it computed (8 s counting the sleep)")
}

// Runs that start together and share the cores park soon after they wait:
// the time a run waits for a thread is not what coming back would cost.
// Each computes about 15 ms then waits for a slow call; counted in wall
// time, each computed for about as long as all of them did.
func TestPark_manyRunsAtOnce(t *testing.T) {
	h := newHost(t, host.Config{ParkAfter: 100 * time.Millisecond, CompilationCacheDir: cacheDir})
	const n = 240
	// About 15 ms of work (unloaded, amd64), then a slow call.
	src := `let x = 0; for (let i = 0; i < 170000; i++) x += i %% 3; const v = await tools.slow({x, run: %d}); return v.n + x`
	g := newGated()
	p0 := h.Parked()
	outs, wait := startRuns(h, g, n, src)
	start := time.Now()
	var last time.Time
	for i := range n {
		select {
		case <-g.started:
			last = time.Now()
		case <-time.After(time.Minute):
			t.Fatalf("%d of %d runs started waiting", i, n)
		}
	}
	for h.Parked() < p0+n && time.Since(last) < 30*time.Second {
		time.Sleep(5 * time.Millisecond)
	}
	all := time.Since(last)
	t.Logf("%d runs: the last started waiting %v after they started; %d parked %v after that",
		n, last.Sub(start).Round(time.Millisecond), h.Parked()-p0, all.Round(time.Millisecond))
	assert.Equal(t, p0+n, h.Parked(), "every run parked")
	// Unloaded, the last park comes about 0.3 s after the last wait
	// starts (20 times 15 ms); counted in wall time it took 40 s.
	assert.Less(t, all, 10*time.Second)
	for _, a := range g.calls() {
		g.release(strings.TrimPrefix(a, "slow "), `{"n":1}`)
	}
	wait()
	for i, out := range outs {
		require.Equal(t, host.KindOK, out.Kind, "run %d: %s", i, out.Message)
		assert.Equal(t, "170000", string(out.ReturnValue))
	}
}

// BenchmarkPark_sequential runs a program that makes K sequential calls of
// a slow tool (PTC_BENCH_SLOW each, 30ms unless set; the figures use
// 300ms, which the default ParkAfter parks on), computing a little before
// each, as model programs do: what parking and coming back costs in wall
// time, against the same run with parking off.
func BenchmarkPark_sequential(b *testing.B) {
	slow := 30 * time.Millisecond
	if s := os.Getenv("PTC_BENCH_SLOW"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		slow = d
	}
	d := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		select {
		case <-time.After(slow):
		case <-ctx.Done():
		}
		return host.Reply{Value: c.Args}
	})
	for _, k := range []int{1, 10, 50} {
		src := fmt.Sprintf(`let sum = 0;
for (let i = 0; i < %d; i++) {
  const xs = Array.from({length: 500}, (_, j) => ({j, s: "item " + j}));
  const v = await tools.slow({i, n: xs.filter(x => x.j %% 7 === 0).length});
  sum += v.n;
}
return sum`, k)
		for _, c := range []struct {
			name  string
			after time.Duration
		}{{"parking", 0}, {"parking_off", -1}} {
			b.Run(fmt.Sprintf("K=%d/%s", k, c.name), func(b *testing.B) {
				h := newHost(b, host.Config{ParkAfter: c.after, CompilationCacheDir: cacheDir})
				parks := 0
				for b.Loop() {
					out := h.Run(context.Background(), host.Program{Source: src, Prelude: toolsPrelude, Dispatcher: d, Limits: host.Limits{Timeout: 5 * time.Minute}})
					if out.Kind != host.KindOK || string(out.ReturnValue) != strconv.Itoa(72*k) {
						b.Fatalf("%s %s %s", out.Kind, out.Message, out.ReturnValue)
					}
					parks += out.Parks
				}
				b.ReportMetric(float64(parks)/float64(b.N), "parks/op")
			})
		}
	}
}

// BenchmarkClockLoop measures a loop that reads the clock: the cost of
// each reading for a run that may park (it keeps its readings until they
// outgrow what parking may keep, then lets go of them and never parks)
// against one with parking off. 100k readings stay within the budget; 2M
// go past it.
func BenchmarkClockLoop(b *testing.B) {
	for _, n := range []int{100_000, 2_000_000} {
		src := fmt.Sprintf(`let n = 0; for (let i = 0; i < %d; i++) n += Date.now() & 1; return n >= 0`, n)
		for _, c := range []struct {
			name  string
			after time.Duration
		}{{"parkable", 0}, {"parking_off", -1}} {
			b.Run(fmt.Sprintf("reads=%d/%s", n, c.name), func(b *testing.B) {
				h := newHost(b, host.Config{ParkAfter: c.after, CompilationCacheDir: cacheDir})
				for b.Loop() {
					out := h.Run(context.Background(), host.Program{Source: src, Limits: host.Limits{Timeout: time.Minute}})
					if out.Kind != host.KindOK {
						b.Fatalf("%s %s", out.Kind, out.Message)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/read")
			})
		}
	}
}

// A run that read the clock many times (its readings kept in many chunks
// of its log) comes back reading the same values.
func TestPark_comesBackAfterManyReadings(t *testing.T) {
	h := newHost(t, host.Config{ParkAfter: 5 * time.Millisecond, CompilationCacheDir: cacheDir})
	h.SetParkFactor(0)
	g := newGated()
	done := make(chan *host.Outcome, 1)
	go func() {
		done <- h.Run(context.Background(), host.Program{Prelude: toolsPrelude, Dispatcher: g, Limits: host.Limits{Timeout: time.Minute}, Source: `
let s = 0;
for (let i = 0; i < 60000; i++) s = (s * 31 + Math.floor(performance.now() * 1000) + Date.now()) % 1000000007;
console.log("sum", s);
const v = await tools.slow({});
return [s, v.n]`})
	}()
	a := g.next(t)
	parked(t, h, 1)
	g.release(a, `{"n":1}`)
	out := <-done
	require.Equal(t, host.KindOK, out.Kind, out.Message)
	assert.Equal(t, 1, out.Parks)
	require.Len(t, out.Output, 1)
	assert.Equal(t, "sum "+strings.Trim(strings.Split(string(out.ReturnValue), ",")[0], "["), out.Output[0])
}
