package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/abort"
)

// Regression tests for issue 10's defects, each named after it. The
// targets (50 ms p99 cancellation, 10 ms pauses) are measured by make soak;
// the bounds here are sanity bounds, ten times those or more.

// longBuiltins are programs that spend their time inside one C built-in,
// which QuickJS's interrupt counter never sees: only the fuel checks stop
// them.
var longBuiltins = map[string]string{
	"reverse":   `const a = new Uint8Array(6e7); for (;;) a.reverse()`,
	"sort":      `const a = []; for (let i = 0; i < 1e6; i++) a.push((i * 7919) % 1000003); for (;;) a.sort()`,
	"join":      `const a = new Array(2e6).fill("abc"); for (;;) a.join(",")`,
	"repeat":    `for (;;) "abcdefgh".repeat(2e7).length`,
	"stringify": `const a = new Array(1e6).fill({k: "v"}); for (;;) JSON.stringify(a)`,
	"parser":    `new Function("0;".repeat(1e7))`,
	"regex":     `/^(a+)+$/.test("a".repeat(40) + "b")`,
}

func TestHost_Run_longBuiltinStopsAtDeadline(t *testing.T) {
	h := newHost(t, host.Config{})
	for name, src := range longBuiltins {
		t.Run(name, func(t *testing.T) {
			const deadline = 300 * time.Millisecond
			start := time.Now()
			out := h.Run(context.Background(), host.Program{Source: src, Limits: host.Limits{Timeout: deadline, MemoryBytes: 256 << 20}})
			require.Equal(t, host.KindTimeout, out.Kind, out.Text())
			// Instantiation included; the target (50 ms) is measured by make soak.
			require.Less(t, time.Since(start), deadline+2500*time.Millisecond)
		})
	}
}

// A long built-in used to keep Go from stopping the world for as long as
// it ran: every goroutine of the process waited for it (152 s measured).
func TestHost_Run_longBuiltinDoesNotStallGC(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := stopping()
	var wg sync.WaitGroup
	for _, src := range []string{longBuiltins["reverse"], longBuiltins["sort"], longBuiltins["parser"]} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.Run(ctx, host.Program{Source: src, Limits: host.Limits{MemoryBytes: 256 << 20}})
		}()
	}
	time.Sleep(300 * time.Millisecond) // let them get into their built-ins
	for range 10 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	// The target, 10 ms, is measured by make soak.
	require.Less(t, longestSince(before, stopping()), 500*time.Millisecond, "stopping the world waited for the guest")
}

// stopping is the histogram of the time Go took to stop the world for a
// garbage collection: the wait a goroutine that cannot be preempted causes.
func stopping() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: "/sched/pauses/stopping/gc:seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64Histogram()
}

// longestSince is the upper bound of the highest bucket that gained counts
// between two readings of a histogram.
func longestSince(before, after *metrics.Float64Histogram) time.Duration {
	for i := len(after.Counts) - 1; i >= 0; i-- {
		if after.Counts[i] > before.Counts[i] {
			return time.Duration(after.Buckets[i+1] * float64(time.Second))
		}
	}
	return 0
}

func TestHost_Run_callerDeadlineIsNotTheProgramsTimeout(t *testing.T) {
	h := newHost(t, host.Config{})
	for name, src := range map[string]string{
		"loop":    `for (;;) {}`,
		"builtin": longBuiltins["sort"],
		"subcall": `await __ptc_call("slow", {})`,
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			out := h.Run(ctx, host.Program{Source: src, Dispatcher: &sleeper{d: time.Hour}, Limits: host.Limits{MemoryBytes: 256 << 20}})
			require.Equal(t, host.KindAborted, out.Kind)
			require.Equal(t, abort.Deadline, out.Message)
		})
	}
}

// A caller's deadline with a cause of its own is still the caller's
// deadline (it was "cancelled by the caller" while a subcall waited).
func TestHost_Run_callerDeadlineWithCause(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond, errors.New("budget"))
	defer cancel()
	out := h.Run(ctx, host.Program{Source: `await __ptc_call("slow", {})`, Dispatcher: &sleeper{d: time.Hour}})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, abort.Deadline, out.Message)
}

// A tool's error message reaches the program bounded by ErrorBytes, like
// every other error text.
func TestHost_Run_toolErrorMessageIsBounded(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(context.Context, host.Call) host.Reply {
		return host.Reply{Err: &host.CallError{Code: "TOOL_FAILED", Message: strings.Repeat("E", 2e6)}}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `try { await __ptc_call("bad", {}) } catch (e) { return e.message.length + " " + e.message.slice(-20) }`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Regexp(t, `^\d+ .* more bytes\]$`, out.Text())
	n, err := strconv.Atoi(strings.Fields(out.Text())[0])
	require.NoError(t, err)
	require.LessOrEqual(t, n, host.Limits{}.WithDefaults().ErrorBytes+32)
}

func TestHost_Run_timeoutOneNanosecondDoesNotSucceed(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: `return 1`, Limits: host.Limits{Timeout: time.Nanosecond}})
	require.Equal(t, host.KindTimeout, out.Kind, out.Text())
}

func TestHost_Run_shutdownCause(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(abort.ErrShutdown) })
	out := h.Run(ctx, host.Program{Source: `for (;;) {}`})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, abort.Shutdown, out.Message)
}

// Closing a host while runs were in flight crashed the process (SIGSEGV):
// the runtime's memory went away under the running guest.
func TestHost_Close_duringRuns(t *testing.T) {
	dir := t.TempDir() // one compilation for all the hosts
	for _, phase := range []struct {
		name, src string
		d         host.Dispatcher
	}{
		{"loop", `for (;;) {}`, nil},
		{"builtin", longBuiltins["sort"], nil},
		{"subcall", `await __ptc_call("slow", {})`, &sleeper{d: time.Hour}},
		{"output", `for (let i = 0; ; i++) console.log(i)`, nil},
		{"instantiation", `return 1`, nil},
	} {
		t.Run(phase.name, func(t *testing.T) {
			h, err := host.New(context.Background(), host.Config{CompilationCacheDir: dir})
			require.NoError(t, err)
			var wg sync.WaitGroup
			outs := make([]*host.Outcome, 8)
			for i := range outs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[i] = h.Run(context.Background(), host.Program{Source: phase.src, Dispatcher: phase.d, Limits: host.Limits{MemoryBytes: 256 << 20, OutputBytes: 1 << 30}})
				}()
			}
			time.Sleep(150 * time.Millisecond)
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			require.NoError(t, h.Close(ctx))
			require.Less(t, time.Since(start), 3*time.Second)
			wg.Wait()
			for _, out := range outs {
				if out.Kind == host.KindOK && phase.name == "instantiation" {
					continue // finished before Close
				}
				require.Equal(t, host.KindAborted, out.Kind, out.Text())
				require.Equal(t, abort.Shutdown, out.Message)
			}
			out := h.Run(context.Background(), host.Program{Source: `return 1`})
			require.Equal(t, host.KindAborted, out.Kind)
			require.Equal(t, abort.Shutdown, out.Message)
		})
	}
	t.Run("waits", func(t *testing.T) { closeWaitsForRuns(t, dir) })
}

// Closing with a context that is never done waits for the runs to finish.
func closeWaitsForRuns(t *testing.T, dir string) {
	h, err := host.New(context.Background(), host.Config{CompilationCacheDir: dir})
	require.NoError(t, err)
	done := make(chan *host.Outcome)
	go func() {
		done <- h.Run(context.Background(), host.Program{Source: `await __ptc_call("slow", {}); return "done"`, Dispatcher: &sleeper{d: 200 * time.Millisecond}})
	}()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, h.Close(context.Background()))
	out := <-done
	require.Equal(t, host.KindOK, out.Kind, out.Text())
}

// Running out of memory used to end as "exception: null", which the
// program could catch and go on.
func TestHost_Run_outOfMemoryIsUncatchable(t *testing.T) {
	h := newHost(t, host.Config{})
	for name, bomb := range map[string]string{
		"array":       `const a = []; for (;;) a.push([1, 2, 3])`,
		"object":      `const o = {}; for (let i = 0; ; i++) o["k" + i] = i`,
		"map":         `const m = new Map(); for (let i = 0; ; i++) m.set(i, "v" + i)`,
		"strings":     `const a = []; for (let i = 0; ; i++) a.push("x".repeat(1 << 20) + i)`,
		"arraybuffer": `const a = []; for (;;) a.push(new ArrayBuffer(1 << 20))`,
		"microtasks":  `for (;;) queueMicrotask(() => {})`,
		"closures":    `const a = []; for (let i = 0; ; i++) a.push(() => i)`,
		"one big":     `new ArrayBuffer(100 << 20)`,
	} {
		t.Run(name, func(t *testing.T) {
			src := `try { ` + bomb + ` } catch (e) { return "caught " + e } finally { console.log("finally ran") }`
			out := h.Run(context.Background(), host.Program{Source: src, Limits: host.Limits{MemoryBytes: 32 << 20}})
			require.Equal(t, host.KindMemory, out.Kind, out.Text())
			require.NotContains(t, out.Output, "finally ran")
		})
	}
}

func TestHost_Run_wrapperEscapeIsASyntaxError(t *testing.T) {
	h := newHost(t, host.Config{})
	for _, src := range []string{
		`})(); (function(){ console.log("escaped")`,
		`}); console.log("escaped"); (async function(){`,
		"return 1\n}\nconsole.log('escaped')\n{",
	} {
		out := h.Run(context.Background(), host.Program{Source: src})
		require.Equal(t, host.KindSyntax, out.Kind, out.Text())
		require.Empty(t, out.Output)
	}
	// Functions the program builds at run time are not affected.
	out := h.Run(context.Background(), host.Program{Source: `return new Function("a", "return a + 1")(1) + eval("(function(){ return 2 })()")`})
	require.Equal(t, "4", out.Text())
}

// recorder answers every subcall with its arguments and keeps them.
type recorder struct {
	mu   sync.Mutex
	args []string
}

func (r *recorder) Dispatch(_ context.Context, c host.Call) host.Reply {
	r.mu.Lock()
	r.args = append(r.args, string(c.Args))
	r.mu.Unlock()
	return host.Reply{Value: json.RawMessage(`{"ok":1}`)}
}

func TestHost_Run_tamperingDoesNotReachTheSDK(t *testing.T) {
	h := newHost(t, host.Config{})
	for name, tamper := range map[string]string{
		"Object.prototype.toJSON": `Object.prototype.toJSON = function () { return "hijacked" }`,
		"JSON.stringify":          `JSON.stringify = () => "{"`,
		"JSON.parse":              `JSON.parse = () => ({hijacked: true})`,
		"Array.prototype":         `Array.prototype.map = Array.prototype.join = () => { throw new Error("hijacked") }`,
		"String":                  `String.prototype.replace = () => "hijacked"; String = () => "hijacked"`,
		"Date.prototype":          `Date.prototype.toISOString = Date.prototype.toJSON = () => "hijacked"`,
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			src := tamper + `
const r = await __ptc_call("echo", {a: [1, "x", null, true], d: new Date(0), n: {m: 1.5}});
console.log("got", typeof r);
return r`
			out := h.Run(context.Background(), host.Program{Source: src, Dispatcher: rec})
			require.Equal(t, host.KindOK, out.Kind, out.Text())
			require.Equal(t, []string{`{"a":[1,"x",null,true],"d":"1970-01-01T00:00:00.000Z","n":{"m":1.5}}`}, rec.args)
			// Printing a string or a number and returning plain data are out
			// of the program's reach too (an object printed after the
			// program replaced built-ins is printed with them: inspect.js
			// loads on first use).
			if name != "Object.prototype.toJSON" { // toJSON applies to what the program prints and returns
				require.NotContains(t, out.Text(), "hijacked")
			}
		})
	}
}

func TestHost_Run_argumentsJSONCannotHold(t *testing.T) {
	h := newHost(t, host.Config{})
	for _, c := range []struct{ args, want string }{
		{`{items: [{price: 10n}]}`, `args.items[0].price is a BigInt`},
		{`(() => { const o = {a: {}}; o.a.b = o; return o })()`, `args.a.b refers to an object that contains it`},
		{`() => 1`, `args is a function`},
		{`{"odd key": {x: Symbol()}, y: undefined, z: () => 1, w: [undefined, () => 1]}`, ``},
		// The byte limit counts object members too (150 000 empty objects).
		{`(() => { const o = {}; for (let i = 0; i < 150000; i++) o["k" + i] = {}; return o })()`, `arguments are over the 1048576-byte limit`},
		{`(() => { const a = []; a[1e7] = 1; return {a} })()`, `arguments are over the 1048576-byte limit`},
	} {
		rec := &recorder{}
		src := `try { await __ptc_call("t", ` + c.args + `); return "sent" } catch (e) { return e.name + " " + e.code + ": " + e.message }`
		out := h.Run(context.Background(), host.Program{Source: src, Dispatcher: rec})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		if c.want == "" {
			require.Equal(t, "sent", out.Text())
			require.Equal(t, []string{`{"odd key":{},"w":[null,null]}`}, rec.args)
			continue
		}
		if strings.HasPrefix(c.want, "arguments are") {
			require.Contains(t, out.Text(), "ToolError INVALID_ARGUMENTS: "+c.want)
		} else {
			require.Contains(t, out.Text(), "ToolError INVALID_ARGUMENTS: tool arguments must be JSON data: "+c.want)
		}
		require.Empty(t, rec.args, "no subcall for arguments JSON cannot hold")
	}
}

func TestHost_Run_unpairedSurrogates(t *testing.T) {
	h := newHost(t, host.Config{})
	rec := &recorder{}
	out := h.Run(context.Background(), host.Program{Dispatcher: rec, Source: `
await __ptc_call("t\ud800", {"k\udc00": "a\ud800\ud800b\ud83d\ude00"});
console.log("x\udfff\ud800y\ud83d\ude00");
return "r\udfff"`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Equal(t, []string{"x\uFFFD\uFFFDy\U0001F600"}, out.Output)
	require.Equal(t, "\"r\uFFFD\"", string(out.ReturnValue))
	require.Equal(t, []string{"{\"k\uFFFD\":\"a\uFFFD\uFFFDb\U0001F600\"}"}, rec.args)
}

func TestHost_Run_errorTextIsBounded(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: `throw new Error("x".repeat(5e6))`})
	require.Equal(t, host.KindException, out.Kind)
	require.LessOrEqual(t, len(out.Message), host.Limits{}.WithDefaults().ErrorBytes+64)
	require.True(t, strings.HasSuffix(out.Message, " more bytes]"), out.Message[len(out.Message)-40:])
	require.Less(t, len(out.Text()), 3*host.Limits{}.WithDefaults().ErrorBytes)
}
