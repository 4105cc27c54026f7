package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
)

var shared sync.Map // struct{} -> *host.Host

// cacheDir is a compilation cache the package's tests share: a test that
// needs a host of its own (a Config other than the plain one) then does
// not compile the guest again (seconds under -race).
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ptc-host-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cacheDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// newHost returns a host over the real guest, skipping when it is not built.
// Hosts for a plain Config are shared by the package's tests: compiling the
// guest under -race takes seconds.
func newHost(t testing.TB, cfg host.Config) *host.Host {
	t.Helper()
	if cfg.CompilationCacheDir == "" && cfg.Wasm == nil && !cfg.FreshInstances {
		if h, ok := shared.Load(struct{}{}); ok {
			return h.(*host.Host)
		}
		h, err := host.New(context.Background(), cfg)
		if errors.Is(err, quickjs.ErrNotBuilt) {
			t.Skip("guest not built: run make guest")
		}
		require.NoError(t, err)
		if prev, loaded := shared.LoadOrStore(struct{}{}, h); loaded {
			h.Close(context.Background())
			return prev.(*host.Host)
		}
		return h
	}
	h, err := host.New(context.Background(), cfg)
	if errors.Is(err, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	require.NoError(t, err)
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

var directive = regexp.MustCompile(`(?m)^// ptc: (.*)$`)

// limitsFor reads the "// ptc: timeout=D memory=N" line of a program.
func limitsFor(t *testing.T, src string) host.Limits {
	var l host.Limits
	m := directive.FindStringSubmatch(src)
	if m == nil {
		return l
	}
	for _, kv := range strings.Fields(m[1]) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "timeout":
			d, err := time.ParseDuration(v)
			require.NoError(t, err)
			l.Timeout = d
		case "memory":
			n, err := strconv.ParseUint(v, 10, 64)
			require.NoError(t, err)
			l.MemoryBytes = n
		default:
			t.Fatalf("unknown directive %q", k)
		}
	}
	return l
}

// TestHost_Run_programs runs every testdata/programs/*.js and compares the
// model-facing content with the .expected file beside it.
func TestHost_Run_programs(t *testing.T) {
	{
		h := newHost(t, host.Config{})
		files, err := filepath.Glob("../testdata/programs/*.js")
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".js")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				want, err := os.ReadFile(strings.TrimSuffix(f, ".js") + ".expected")
				require.NoError(t, err)
				if strings.Contains(string(src), "// ptc: tools=") {
					t.Skip("needs fixture tools: the executor's tests run it")
				}
				lim := limitsFor(t, string(src))
				start := time.Now()
				out := h.Run(context.Background(), host.Program{Source: string(src), Limits: lim})
				require.Equal(t, string(want), out.Text()+"\n")
				if out.Kind == host.KindTimeout {
					require.Less(t, time.Since(start), lim.Timeout+hadvSlack, "runaway must stop soon after its deadline")
				}
			})
		}
	}
}

func TestHost_Run_outputFlood(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: `for (;;) console.log("flood line")`})
	require.Equal(t, host.KindOutputLimit, out.Kind)
	require.Equal(t, host.TruncationMarker, out.Output[len(out.Output)-1])
	total := 0
	for _, l := range out.Output[:len(out.Output)-1] {
		total += len(l) + 1
	}
	require.LessOrEqual(t, total, host.Limits{}.WithDefaults().OutputBytes)
	require.True(t, strings.HasPrefix(out.Text(), "Error: code run failed (output_limit): captured output exceeded 65536 bytes\n\nCaptured output:\nflood line\n"))
}

func TestHost_Run_outputFloodCaught(t *testing.T) {
	// The stop is uncatchable: a try/catch around the flood cannot go on.
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: `
		try { for (;;) console.log("x".repeat(100)) } catch (e) { }
		return "escaped"`})
	require.Equal(t, host.KindOutputLimit, out.Kind)
	require.Nil(t, out.ReturnValue)
}

func TestHost_Run_timeoutCaught(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{
		Source: `for (;;) { try { for (;;) {} } catch (e) { console.log("caught") } }`,
		Limits: host.Limits{Timeout: 200 * time.Millisecond},
	})
	require.Equal(t, host.KindTimeout, out.Kind)
	require.Empty(t, out.Output)
}

func TestHost_Run_callerCancel(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	out := h.Run(ctx, host.Program{Source: `console.log("started"); for (;;) {}`})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, []string{"started"}, out.Output)
	require.Less(t, time.Since(start), 100*time.Millisecond+hadvSlack)
}

func TestHost_Run_cancelledBeforeStart(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := h.Run(ctx, host.Program{Source: `return 1`})
	require.Equal(t, host.KindAborted, out.Kind)
}

func TestHost_Run_sourceLimit(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: strings.Repeat(" ", 11) + "return 1", Limits: host.Limits{SourceBytes: 10}})
	require.Equal(t, host.KindSyntax, out.Kind)
	require.Contains(t, out.Message, "over the 10-byte limit")
}

// sleeper answers every call after d, honouring cancellation, and records
// the largest number of calls in flight at once.
type sleeper struct {
	d        time.Duration
	inFlight atomic.Int32
	peak     atomic.Int32
	calls    atomic.Int32
}

func (s *sleeper) Dispatch(ctx context.Context, c host.Call) host.Reply {
	s.calls.Add(1)
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			break
		}
	}
	select {
	case <-time.After(s.d):
		return host.Reply{Value: json.RawMessage(`{"tool":"` + c.Name + `","args":` + string(c.Args) + `}`)}
	case <-ctx.Done():
		return host.Reply{Err: &host.CallError{Code: "ABORTED", Message: ctx.Err().Error()}}
	}
}

func TestHost_Run_parallelSubcalls(t *testing.T) {
	h := newHost(t, host.Config{})
	s := &sleeper{d: 300 * time.Millisecond}
	start := time.Now()
	out := h.Run(context.Background(), host.Program{
		Dispatcher: s,
		Source: `
			const rs = await Promise.all([1, 2, 3, 4, 5].map((i) => __ptc_call("slow", { i })));
			return rs.map((r) => r.args.i);`,
	})
	el := time.Since(start)
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.JSONEq(t, `[1,2,3,4,5]`, string(out.ReturnValue))
	require.Equal(t, 5, out.Subcalls)
	require.EqualValues(t, 5, s.peak.Load(), "5 x 300 ms in parallel (%v)", el)
}

// A call the program starts and goes on computing past is dispatched
// while the program runs, not when it next waits.
func TestHost_Run_callOverlapsComputation(t *testing.T) {
	h := newHost(t, host.Config{})
	var calledAt atomic.Int64
	d := host.DispatcherFunc(func(_ context.Context, c host.Call) host.Reply {
		calledAt.Store(time.Now().UnixNano())
		return host.Reply{Value: c.Args}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `
		const p = __ptc_call("t", { i: 1 });
		const t = Date.now(); while (Date.now() - t < 400) {}
		return [(await p).i, Date.now()]`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	var ret [2]int64
	require.NoError(t, json.Unmarshal(out.ReturnValue, &ret))
	require.EqualValues(t, 1, ret[0])
	// The live clock is the wall clock: the call was dispatched before the
	// loop ended.
	require.Less(t, calledAt.Load()/int64(time.Millisecond), ret[1], "dispatched during the busy loop")
}

func TestHost_Run_completionOrder(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		var a struct{ Ms int }
		_ = json.Unmarshal(c.Args, &a)
		time.Sleep(time.Duration(a.Ms) * time.Millisecond)
		return host.Reply{Value: c.Args}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `
		const order = [];
		await Promise.all([300, 10, 150].map(async (ms) => { await __ptc_call("t", { ms }); order.push(ms); }));
		return order;`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.JSONEq(t, `[10,150,300]`, string(out.ReturnValue))
}

func TestHost_Run_inFlightLimit(t *testing.T) {
	h := newHost(t, host.Config{})
	s := &sleeper{d: 20 * time.Millisecond}
	out := h.Run(context.Background(), host.Program{
		Dispatcher: s,
		Limits:     host.Limits{InFlight: 3},
		Source:     `await Promise.all(Array.from({ length: 12 }, (_, i) => __ptc_call("t", { i }))); return "done"`,
	})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.EqualValues(t, 3, s.peak.Load())
	require.EqualValues(t, 12, s.calls.Load())
}

func TestHost_Run_blockingDispatcherCancelled(t *testing.T) {
	h := newHost(t, host.Config{})
	var sawCancel atomic.Bool
	d := host.DispatcherFunc(func(ctx context.Context, _ host.Call) host.Reply {
		<-ctx.Done()
		sawCancel.Store(true)
		return host.Reply{Err: &host.CallError{Code: "ABORTED", Message: "cancelled"}}
	})
	start := time.Now()
	out := h.Run(context.Background(), host.Program{
		Dispatcher: d,
		Limits:     host.Limits{Timeout: 200 * time.Millisecond},
		Source:     `console.log("calling"); await __ptc_call("block", {}); return "unreachable"`,
	})
	require.Equal(t, host.KindTimeout, out.Kind)
	require.True(t, sawCancel.Load(), "pending subcall must see its context cancelled before Run returns")
	require.Less(t, time.Since(start), 200*time.Millisecond+hadvSlack)
}

func TestHost_Run_callerCancelMidSubcall(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	s := &sleeper{d: time.Hour}
	time.AfterFunc(100*time.Millisecond, cancel)
	out := h.Run(ctx, host.Program{Dispatcher: s, Source: `await __ptc_call("slow", {})`})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, "Error: code run failed (aborted): cancelled by the caller", out.Text())
}

func TestHost_Run_subcallLimit(t *testing.T) {
	h := newHost(t, host.Config{})
	s := &sleeper{}
	out := h.Run(context.Background(), host.Program{
		Dispatcher: s,
		Limits:     host.Limits{Subcalls: 5},
		Source:     `for (let i = 0; ; i++) { try { await __ptc_call("t", { i }) } catch (e) {} }`,
	})
	require.Equal(t, host.KindSubcallLimit, out.Kind)
	require.Equal(t, 5, out.Subcalls)
	require.Equal(t, "Error: code run failed (subcall_limit): program started more than 5 subcalls", out.Text())
}

func TestHost_Run_toolError(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(context.Context, host.Call) host.Reply {
		return host.Reply{Err: &host.CallError{Code: "DENIED", Message: "not allowed"}}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `
		try { await __ptc_call("rm", {}) } catch (e) { return [e.name, e.code, e.tool, e.message, e instanceof ToolError] }`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.JSONEq(t, `["ToolError","DENIED","rm","not allowed",true]`, string(out.ReturnValue))
}

func TestHost_Run_resultLimits(t *testing.T) {
	h := newHost(t, host.Config{})
	big := `"` + strings.Repeat("a", 2000) + `"`
	d := host.DispatcherFunc(func(context.Context, host.Call) host.Reply {
		return host.Reply{Value: json.RawMessage(big)}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Limits: host.Limits{ResultBytes: 1000}, Source: `
		try { await __ptc_call("big", {}) } catch (e) { return e.code + ": " + e.message }`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Equal(t, "TOOL_FAILED: tool result is 2002 bytes, over the 1000-byte limit", out.Text())

	// A return value over the limit is cut; the run still succeeds.
	out = h.Run(context.Background(), host.Program{Limits: host.Limits{ResultBytes: 1000}, Source: `return "b".repeat(5000)`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Equal(t, strings.Repeat("b", 1000)+"\n[return value truncated: 4000 more bytes]", out.Text())
}

func TestHost_Run_megabyteResult(t *testing.T) {
	h := newHost(t, host.Config{})
	payload := strings.Repeat("\u00e9\U0001F600\u2028x", 1<<16)
	v, err := json.Marshal(payload)
	require.NoError(t, err)
	require.Less(t, len(v), host.Limits{}.WithDefaults().ResultBytes)
	d := host.DispatcherFunc(func(context.Context, host.Call) host.Reply {
		return host.Reply{Value: v}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `const s = await __ptc_call("big", {}); return s`})
	require.Equal(t, host.KindOK, out.Kind, out.Message)
	require.Equal(t, payload, out.Text())
}

func TestHost_Run_deterministicClock(t *testing.T) {
	h := newHost(t, host.Config{})
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := func() string {
		out := h.Run(context.Background(), host.Program{
			Start:   at,
			Virtual: true,
			Random:  rand.NewChaCha8([32]byte{7}),
			Source:  `return [new Date().toISOString(), Math.random(), Math.random()]`,
		})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		return string(out.ReturnValue)
	}
	first := run()
	require.Contains(t, first, "2026-01-02T03:04:05.000Z")
	require.Equal(t, first, run(), "same clock, same Math.random sequence")
}

func TestHost_Run_dispatcherPanic(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(context.Context, host.Call) host.Reply { panic("boom") })
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `await __ptc_call("p", {})`})
	require.Equal(t, host.KindInternal, out.Kind)
	require.Contains(t, out.Message, "boom")
}

func TestHost_Run_badLimits(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: `return 1`, Limits: host.Limits{StackBytes: 4 << 20}})
	require.Equal(t, host.KindInternal, out.Kind)
}

func TestHost_New_compilationCache(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 2; i++ {
		h := newHost(t, host.Config{CompilationCacheDir: dir})
		out := h.Run(context.Background(), host.Program{Source: `return 6 * 7`})
		require.Equal(t, "42", out.Text())
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
}

// TestHost_Run_hammer runs 50 programs at once, some runaway, and checks
// each outcome and that no goroutine outlives the runs.
func TestHost_Run_hammer(t *testing.T) {
	h := newHost(t, host.Config{})
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := &sleeper{d: 10 * time.Millisecond}
	cases := []struct {
		src  string
		kind host.Kind
		text string
	}{
		{`return 1 + 1`, host.KindOK, "2"},
		{`for (;;) {}`, host.KindTimeout, ""},
		{`const r = await Promise.all([__ptc_call("a", {x: 1}), __ptc_call("b", {})]); return r[0].args.x`, host.KindOK, "1"},
		{`const k = []; for (;;) k.push("y".repeat(1 << 20) + k.length)`, host.KindMemory, ""},
		{`for (;;) console.log("z")`, host.KindOutputLimit, ""},
		{`throw new Error("x")`, host.KindException, "Error: code run failed (exception): Error: x (line 1)"},
		{`await __ptc_call("slow", {}); for (;;) {}`, host.KindTimeout, ""},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		c := cases[i%len(cases)]
		// Runaways burn their whole budget; keep it short so the others,
		// which must reach their own limits, get the CPU on two cores.
		timeout := 20 * time.Second
		if c.kind == host.KindTimeout {
			timeout = 500 * time.Millisecond
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := h.Run(context.Background(), host.Program{
				Source: c.src, Dispatcher: s,
				Limits: host.Limits{Timeout: timeout, MemoryBytes: 16 << 20},
			})
			if out.Kind != c.kind || (c.text != "" && out.Text() != c.text) {
				errs <- fmt.Errorf("%q: got %s %q", c.src, out.Kind, out.Message)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
