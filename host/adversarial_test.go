// The host's side of the adversarial suite (issue 10, item 4): Close of a
// host during every phase of a run, sources and replies a careless or
// hostile caller may hand the host, and state that must not cross runs,
// through host.New/Run against the real guest. Each case asserts the
// outcome kind, no host panic, a return within 2.5 s of the deadline, a
// well-behaved run beside it that kept succeeding, no stop-the-world
// pause over 250 ms and no leaked goroutine. Cases marked isolate run in a
// child process (killed after PTC_ADV_KILL, default 30s): a Close with a
// run in flight crashed the process, and a long built-in froze it, when
// issue 10 was filed.
//
//	go test -run 'TestAdversarialHost$' -v ./host
package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/advtest"
)

const (
	hadvSlack    = 2500 * time.Millisecond
	hadvBysMax   = time.Second
	hadvSTWMax   = 250 * time.Millisecond
	hadvWatchdog = 20 * time.Second
)

type hadvCase struct {
	name    string
	src     string
	prelude string // "" none; "fresh" a prelude no run has seen
	lim     host.Limits
	// own runs the case on a host of its own (always when close is set).
	own        bool
	ctxTimeout time.Duration
	close      string        // before, instantiate, call, loop, builtin, parser, graceful
	grace      time.Duration // given to Close
	runs       int           // concurrent copies of the run (default 1)
	first      string        // a program run (and finished) before src on the same host
	firstLim   host.Limits

	want     host.Kind
	alt      []host.Kind
	exact    *string // the whole Text()
	contains []string
	anyOf    []string
	excludes []string
	maxLen   int
	check    func(t *testing.T, out *host.Outcome, env *hadvEnv)

	isolate bool
}

type hadvEnv struct {
	entered chan string
	mu      sync.Mutex
	calls   []host.Call
}

func (e *hadvEnv) enter(name string) {
	select {
	case e.entered <- name:
	default:
	}
}

// hadvTools answers: mark (at once), block (until cancelled), wait
// ({ms}), big (2 MiB value), badjson, hugeerr (2 MiB message), deep
// (100k-deep array), boom (panics); anything else UNKNOWN_TOOL.
func hadvTools(env *hadvEnv) host.Dispatcher {
	return host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		env.mu.Lock()
		env.calls = append(env.calls, c)
		env.mu.Unlock()
		switch c.Name {
		case "mark":
			env.enter("mark")
			return host.Reply{Value: json.RawMessage(`"marked"`)}
		case "block":
			env.enter("block")
			<-ctx.Done()
			return host.Reply{Err: &host.CallError{Code: "ABORTED", Message: ctx.Err().Error()}}
		case "wait":
			env.enter("wait")
			var a struct{ Ms int }
			_ = json.Unmarshal(c.Args, &a)
			select {
			case <-time.After(time.Duration(a.Ms) * time.Millisecond):
				return host.Reply{Value: json.RawMessage(strconv.Itoa(a.Ms))}
			case <-ctx.Done():
				return host.Reply{Err: &host.CallError{Code: "ABORTED", Message: ctx.Err().Error()}}
			}
		case "big":
			return host.Reply{Value: json.RawMessage(`"` + strings.Repeat("x", 2<<20) + `"`)}
		case "badjson":
			return host.Reply{Value: json.RawMessage(`{not json`)}
		case "hugeerr":
			return host.Reply{Err: &host.CallError{Code: "TOOL_FAILED", Message: strings.Repeat("e", 2<<20)}}
		case "deep":
			return host.Reply{Value: json.RawMessage(strings.Repeat("[", 1e5) + strings.Repeat("]", 1e5))}
		case "boom":
			panic("dispatcher exploded")
		}
		return host.Reply{Err: &host.CallError{Code: "UNKNOWN_TOOL", Message: "unknown tool: " + c.Name}}
	})
}

// hadvNoOutput checks that nothing of the program ran: it printed nothing.
func hadvNoOutput(t *testing.T, out *host.Outcome, _ *hadvEnv) {
	t.Helper()
	if len(out.Output) != 0 {
		t.Errorf("the program printed %q", out.Output)
	}
}

func hadvStr(s string) *string { return &s }

func TestAdversarialHost(t *testing.T) {
	const shut = "the executor shut down"
	lim10 := host.Limits{Timeout: 10 * time.Second}
	big10 := host.Limits{Timeout: 10 * time.Second, MemoryBytes: 512 << 20}
	lim300 := host.Limits{Timeout: 300 * time.Millisecond}
	bomb := host.Limits{Timeout: 10 * time.Second, MemoryBytes: 32 << 20}
	closing := func(name, phase, src string, lim host.Limits) hadvCase {
		return hadvCase{name: "host_close_" + name, src: src, lim: lim, close: phase, grace: 20 * time.Millisecond,
			want: host.KindAborted, contains: []string{shut}, isolate: true}
	}
	noState := `return [typeof leak, typeof ({}).polluted, typeof Array.prototype.evil, Object.isFrozen(Object.prototype)].join()`
	const clean = "undefined,undefined,undefined,false"
	pollute := `globalThis.leak = 1; Object.prototype.polluted = 2; Array.prototype.evil = 3; `
	cases := []hadvCase{
		{name: "host_close_before_run", src: `return 1`, lim: lim10, close: "before", grace: 20 * time.Millisecond,
			want: host.KindAborted, anyOf: []string{shut, "cancelled before it started"}, isolate: true},
		closing("during_instantiation", "instantiate", `for (;;) {}`, lim10),
		closing("during_call", "call", `await __ptc_call("block", {})`, lim10),
		closing("in_js_loop", "loop", `await __ptc_call("mark", {}); for (;;) {}`, lim10),
		closing("in_builtin", "builtin", `await __ptc_call("mark", {}); const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.reverse()`, big10),
		closing("in_parser", "parser", `await __ptc_call("mark", {}); new Function("0;".repeat(1e7))`, big10),
		closing("in_memory_bomb", "loop", `await __ptc_call("mark", {}); const a = []; for (;;) a.push({})`, host.Limits{Timeout: 10 * time.Second, MemoryBytes: 1 << 30}),
		func() hadvCase {
			c := closing("many_runs", "loop", `await __ptc_call("mark", {}); for (;;) {}`, lim10)
			c.runs = 8
			return c
		}(),
		{name: "host_close_graceful", src: `await __ptc_call("wait", {ms: 1000}); return "finished"`, lim: lim10, close: "graceful", grace: 10 * time.Second,
			want: host.KindOK, exact: hadvStr("finished"), isolate: true},

		{name: "host_builtin_timeout", lim: host.Limits{Timeout: 300 * time.Millisecond, MemoryBytes: 256 << 20}, want: host.KindTimeout,
			src: `const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.reverse()`, isolate: true},
		{name: "host_invalid_utf8_source", src: "return '\xff\xfe\xc0'.length", want: host.KindOK, alt: []host.Kind{host.KindSyntax}},
		{name: "host_invalid_utf8_in_comment", src: "// \xff\xfe\nreturn 1", want: host.KindOK, alt: []host.Kind{host.KindSyntax}},
		// The syntax error quotes the offending line: what must not appear
		// is output (the console.log never ran).
		{name: "host_nul_outside_string", src: "return 1\x00; console.log('hidden')", want: host.KindSyntax, check: hadvNoOutput},
		{name: "host_wrapper_escape", src: `})(); console.log("escaped"); (function(){`, want: host.KindSyntax, check: hadvNoOutput},
		{name: "host_lone_surrogates_output", src: `console.log("\uD800\uD800")`, want: host.KindOK, exact: hadvStr("\uFFFD\uFFFD"),
			check: func(t *testing.T, out *host.Outcome, _ *hadvEnv) {
				if len(out.Output) != 1 || out.Output[0] != "\uFFFD\uFFFD" {
					t.Errorf("output %q, want one U+FFFD per surrogate", out.Output)
				}
			}},
		{name: "host_lone_surrogates_call_name", src: `try { await __ptc_call("a\uD800\uD800b", {}) } catch (e) {} return 1`, want: host.KindOK,
			check: func(t *testing.T, _ *host.Outcome, env *hadvEnv) {
				env.mu.Lock()
				defer env.mu.Unlock()
				if len(env.calls) != 1 || env.calls[0].Name != "a\uFFFD\uFFFDb" {
					t.Errorf("calls %+v, want one named %q", env.calls, "a\uFFFD\uFFFDb")
				}
			}},
		{name: "host_lone_surrogate_return", src: `return {s: "\uDFFF"}`, want: host.KindOK,
			check: func(t *testing.T, out *host.Outcome, _ *hadvEnv) {
				if regexp.MustCompile(`(?i)\\ud[89a-f][0-9a-f]{2}`).Match(out.ReturnValue) || !utf8.Valid(out.ReturnValue) {
					t.Errorf("return value %s keeps a lone surrogate", out.ReturnValue)
				}
			}},
		{name: "host_memory_caught", lim: bomb, want: host.KindMemory, excludes: []string{"caught"},
			src: `try { let s = "x"; for (;;) s = (s + s).toLowerCase() } catch (e) { return "caught " + e }`},
		{name: "host_memory_map_caught", lim: bomb, want: host.KindMemory, excludes: []string{"caught"},
			src: `try { const m = new Map(); for (let i = 0; ; i++) m.set(i, {i}) } catch (e) { return "caught " + e }`},
		{name: "host_timeout_1ns", lim: host.Limits{Timeout: 1}, want: host.KindTimeout, src: `return 1`},
		{name: "host_timeout_1us_call", lim: host.Limits{Timeout: time.Microsecond}, want: host.KindTimeout, src: `return await __ptc_call("mark", {})`},
		{name: "host_caller_deadline", lim: host.Limits{Timeout: 30 * time.Second}, ctxTimeout: 300 * time.Millisecond, want: host.KindAborted,
			contains: []string{"the caller's deadline passed"}, src: `for (;;) {}`},
		{name: "host_caller_deadline_in_call", lim: host.Limits{Timeout: 30 * time.Second}, ctxTimeout: 300 * time.Millisecond, want: host.KindAborted,
			contains: []string{"the caller's deadline passed"}, src: `await __ptc_call("block", {})`},
		{name: "host_no_state_after_timeout", own: true, first: pollute + `for (;;) {}`, firstLim: lim300, src: noState, want: host.KindOK, exact: hadvStr(clean)},
		{name: "host_no_state_after_memory", own: true, first: pollute + `const a = []; for (;;) a.push({})`, firstLim: bomb, src: noState, want: host.KindOK, exact: hadvStr(clean)},
		{name: "host_no_state_after_ok", own: true, first: pollute + `return 1`, src: noState, want: host.KindOK, exact: hadvStr(clean)},
		{name: "host_no_state_after_freeze", own: true, first: `Object.freeze(Object.prototype); Object.freeze(Array.prototype); return 1`, src: noState, want: host.KindOK, exact: hadvStr(clean)},
		{name: "host_no_state_after_stack_overflow", own: true, first: pollute + `function f() { return f() } f()`, src: noState, want: host.KindOK, exact: hadvStr(clean)},
		{name: "host_dispatcher_panics", src: `await __ptc_call("boom", {})`, want: host.KindInternal},
		{name: "host_reply_oversized", src: `try { await __ptc_call("big", {}); return "got" } catch (e) { return e.code }`, want: host.KindOK, exact: hadvStr("TOOL_FAILED")},
		{name: "host_reply_invalid_json", src: `try { await __ptc_call("badjson", {}); return "got" } catch (e) { return e.code }`, want: host.KindOK, exact: hadvStr("TOOL_FAILED")},
		{name: "host_reply_huge_error", src: `await __ptc_call("hugeerr", {})`, want: host.KindException, maxLen: 2*8<<10 + 512, contains: []string{"… [", " more bytes]"}},
		{name: "host_reply_deep", src: `try { const r = await __ptc_call("deep", {}); return "got" } catch (e) { return e.code }`, want: host.KindOK},
		{name: "host_call_flood", src: `for (;;) __ptc_call("mark", {})`, want: host.KindSubcallLimit},
		{name: "host_call_flood_caught", src: `for (;;) { try { __ptc_call("mark", {}) } catch (e) {} }`, want: host.KindSubcallLimit},
		{name: "host_output_flood_unicode", src: `for (;;) console.log("😀".repeat(999) + "x")`, want: host.KindOutputLimit,
			check: func(t *testing.T, out *host.Outcome, _ *hadvEnv) {
				for _, l := range out.Output {
					if !utf8.ValidString(l) {
						t.Errorf("an output line is cut inside a character")
					}
				}
			}},
		{name: "host_prelude_fresh_loop", prelude: "fresh", lim: lim300, want: host.KindTimeout, src: `for (;;) {}`},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case %s", c.name)
		}
		seen[c.name] = true
	}
	child := advtest.IsChild()
	mode := os.Getenv("PTC_ADV_ISOLATE")
	hadvShared(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !child && (mode == "all" || (c.isolate && mode != "none")) {
				if os.Getenv("PTC_ADV_PARALLEL") != "" {
					t.Parallel()
				}
				advtest.RunChild(t, advtest.Cache())
				return
			}
			hadvRun(t, c)
		})
	}
}

var (
	hadvMu   sync.Mutex
	hadvHost *host.Host
)

func hadvNew(t *testing.T) *host.Host {
	h, err := host.New(context.Background(), host.Config{CompilationCacheDir: advtest.Cache()})
	if errors.Is(err, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// hadvShared is the host shared by the cases that do not close theirs,
// and by the well-behaved runs.
func hadvShared(t *testing.T) *host.Host {
	hadvMu.Lock()
	h := hadvHost
	hadvMu.Unlock()
	if h != nil {
		return h
	}
	h = hadvNew(t)
	hadvMu.Lock()
	defer hadvMu.Unlock()
	if hadvHost != nil {
		h.Close(context.Background())
		return hadvHost
	}
	hadvHost = h
	return h
}

// hadvBystander runs `return 1+1` in a loop on the shared host.
type hadvBystander struct {
	stop, done chan struct{}
	mu         sync.Mutex
	runs       int
	lastStart  time.Time
	slowest    time.Duration
	failures   []string
}

func hadvStartBystander(h *host.Host) *hadvBystander {
	b := &hadvBystander{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		for {
			select {
			case <-b.stop:
				return
			default:
			}
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			out := h.Run(ctx, host.Program{Source: `return 1+1`})
			cancel()
			d := time.Since(start)
			b.mu.Lock()
			b.runs++
			b.lastStart = start
			b.slowest = max(b.slowest, d)
			if out.Text() != "2" && len(b.failures) < 3 {
				b.failures = append(b.failures, out.Text())
			}
			b.mu.Unlock()
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return b
}

func (b *hadvBystander) finish(since time.Time) (progressed, stopped bool) {
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		b.mu.Lock()
		p := b.runs > 0 && b.lastStart.After(since)
		b.mu.Unlock()
		if p {
			progressed = true
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(b.stop)
	select {
	case <-b.done:
		stopped = true
	case <-time.After(15 * time.Second):
	}
	return progressed, stopped
}

func hadvRun(t *testing.T, c hadvCase) {
	shared := hadvShared(t)
	if advtest.IsChild() {
		stop := make(chan struct{})
		defer close(stop)
		go advtest.Heartbeat(stop)
	}
	baseline := goleak.IgnoreCurrent()
	h := shared
	owned := false
	if c.own || c.close != "" {
		h, owned = hadvNew(t), true
	}
	closed := false
	defer func() {
		if owned && !closed {
			h.Close(context.Background())
		}
	}()
	env := &hadvEnv{entered: make(chan string, 64)}
	prelude := c.prelude
	if prelude == "fresh" {
		prelude = fmt.Sprintf("globalThis.fresh_%d = 1;", time.Now().UnixNano())
	}
	if c.first != "" {
		l := c.firstLim
		if l.Timeout == 0 {
			l.Timeout = 5 * time.Second
		}
		out := h.Run(context.Background(), host.Program{Source: c.first, Limits: l, Dispatcher: hadvTools(env), Prelude: prelude})
		t.Logf("first run: %s", out.Kind)
	}
	lim := c.lim
	if lim.Timeout == 0 {
		lim.Timeout = 5 * time.Second
	}
	ctx := context.Background()
	deadline := lim.Timeout
	if c.ctxTimeout > 0 {
		cctx, cancel := context.WithTimeout(ctx, c.ctxTimeout)
		defer cancel()
		ctx = cctx
		deadline = min(deadline, c.ctxTimeout)
	} else {
		cctx, cancel := context.WithTimeout(ctx, lim.Timeout+hadvWatchdog/2)
		defer cancel()
		ctx = cctx
	}
	bys := hadvStartBystander(shared)
	probeStop, probeDone := make(chan struct{}), make(chan struct{})
	var slowestGC atomic.Int64
	go func() {
		defer close(probeDone)
		for {
			select {
			case <-probeStop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			s := time.Now()
			runtime.GC()
			if d := int64(time.Since(s)); d > slowestGC.Load() {
				slowestGC.Store(d)
			}
		}
	}()
	stw0 := advtest.ReadSTW()

	if c.close == "before" {
		cctx, cancel := context.WithTimeout(context.Background(), c.grace)
		h.Close(cctx)
		cancel()
		closed = true
	}
	runs := max(c.runs, 1)
	type result struct {
		out   *host.Outcome
		panic any
		stack []byte
		at    time.Time
	}
	resCh := make(chan result, runs)
	start := time.Now()
	for range runs {
		go func() {
			defer func() {
				if p := recover(); p != nil {
					resCh <- result{panic: p, stack: debug.Stack(), at: time.Now()}
				}
			}()
			out := h.Run(ctx, host.Program{Source: c.src, Limits: lim, Dispatcher: hadvTools(env), Prelude: prelude})
			resCh <- result{out: out, at: time.Now()}
		}()
	}
	var closeStart, closeEnd time.Time
	closeDone := make(chan struct{})
	if c.close != "" && c.close != "before" {
		closed = true
		go func() {
			defer close(closeDone)
			waitFor := func(name string, n int) {
				timeout := time.After(10 * time.Second)
				for n > 0 {
					select {
					case got := <-env.entered:
						if got == name {
							n--
						}
					case <-timeout:
						t.Errorf("the program never reached call %q", name)
						return
					}
				}
			}
			switch c.close {
			case "instantiate":
				time.Sleep(time.Millisecond)
			case "call":
				waitFor("block", runs)
			case "loop":
				waitFor("mark", runs)
				time.Sleep(30 * time.Millisecond)
			case "builtin", "parser":
				waitFor("mark", runs)
				time.Sleep(150 * time.Millisecond)
			case "graceful":
				waitFor("wait", runs)
			}
			cctx, cancel := context.WithTimeout(context.Background(), c.grace)
			defer cancel()
			closeStart = time.Now()
			if err := h.Close(cctx); err != nil {
				t.Logf("Close: %v", err)
			}
			closeEnd = time.Now()
		}()
	} else {
		close(closeDone)
	}

	watchdog := deadline + hadvSlack + hadvWatchdog
	var results []result
	timeout := time.After(watchdog)
collect:
	for len(results) < runs {
		select {
		case r := <-resCh:
			results = append(results, r)
		case <-timeout:
			break collect
		}
	}
	wall := time.Since(start)
	select {
	case <-closeDone:
	case <-time.After(c.grace + hadvSlack + 10*time.Second):
		t.Errorf("Host.Close did not return")
	}
	stw1 := advtest.ReadSTW()
	progressed, stopped := bys.finish(start)
	close(probeStop)
	select {
	case <-probeDone:
	case <-time.After(15 * time.Second):
		t.Errorf("the GC probe is stuck: the process cannot stop the world")
	}
	stw := advtest.MaxNewPause(stw0, stw1)
	bys.mu.Lock()
	bysRuns, bysSlow, bysFail := bys.runs, bys.slowest, bys.failures
	bys.mu.Unlock()

	if len(results) < runs {
		t.Logf("ADV %s want=%s got=no-return wall=%v stw=%v", c.name, c.want, wall.Round(time.Millisecond), stw.Round(time.Millisecond))
		t.Errorf("%d of %d runs did not return within %v", runs-len(results), runs, watchdog)
		return
	}
	for i, res := range results {
		if res.panic != nil {
			t.Errorf("Run panicked: %v\n%s", res.panic, res.stack)
			continue
		}
		out := res.out
		text := out.Text()
		w := res.at.Sub(start)
		snippet := text
		if len(snippet) > 200 {
			snippet = snippet[:200] + "…"
		}
		if i == 0 {
			t.Logf("ADV %s want=%s got=%s wall=%v stw=%v gc=%v bystander=%d/%v content=%q", c.name, c.want, out.Kind, w.Round(time.Millisecond),
				stw.Round(time.Millisecond), time.Duration(slowestGC.Load()).Round(time.Millisecond), bysRuns, bysSlow.Round(time.Millisecond), snippet)
		}
		if out.Kind != c.want && !hadvHasKind(c.alt, out.Kind) {
			t.Errorf("run %d: kind %s, want %s; %.300q", i, out.Kind, c.want, text)
		}
		if c.exact != nil && text != *c.exact {
			t.Errorf("run %d: text %.300q, want %q", i, text, *c.exact)
		}
		for _, s := range c.contains {
			if !strings.Contains(text, s) {
				t.Errorf("run %d: text lacks %q: %.300q", i, s, text)
			}
		}
		if len(c.anyOf) > 0 {
			found := false
			for _, s := range c.anyOf {
				found = found || strings.Contains(text, s)
			}
			if !found {
				t.Errorf("run %d: text has none of %q: %.300q", i, c.anyOf, text)
			}
		}
		for _, s := range c.excludes {
			if strings.Contains(text, s) {
				t.Errorf("run %d: text holds %q: %.300q", i, s, text)
			}
		}
		maxLen := c.maxLen
		if maxLen == 0 {
			maxLen = host.Limits{}.WithDefaults().ResultBytes + 128<<10
		}
		if len(text) > maxLen {
			t.Errorf("run %d: text is %d bytes, over %d", i, len(text), maxLen)
		}
		if !utf8.ValidString(text) {
			t.Errorf("run %d: text is not valid UTF-8: %.300q", i, text)
		}
		if c.want == host.KindTimeout && out.Kind == host.KindTimeout && !strings.Contains(text, "program exceeded its time limit of "+lim.Timeout.String()) {
			t.Errorf("run %d: timeout message %q", i, text)
		}
		if c.check != nil {
			c.check(t, out, env)
		}
		if !closeStart.IsZero() {
			if res.at.After(closeStart.Add(c.grace + hadvSlack)) {
				t.Errorf("run %d returned %v after Close began (grace %v)", i, res.at.Sub(closeStart).Round(time.Millisecond), c.grace)
			}
		} else if w > deadline+hadvSlack {
			t.Errorf("run %d returned after %v, more than %v past its deadline of %v", i, w.Round(time.Millisecond), hadvSlack, deadline)
		}
	}
	if !closeStart.IsZero() {
		if d := closeEnd.Sub(closeStart); d > c.grace+hadvSlack {
			t.Errorf("Close took %v (grace %v)", d.Round(time.Millisecond), c.grace)
		}
		if c.close == "graceful" {
			// The run stamps its end after Run returned, Close after the
			// run settled inside the host: the two goroutines race, so a
			// scheduling delay is allowed, far below the run's 1 s wait.
			for _, res := range results {
				if res.at.Sub(closeEnd) > 300*time.Millisecond {
					t.Errorf("Close returned %v before a running run settled", res.at.Sub(closeEnd).Round(time.Millisecond))
				}
			}
		}
	}
	if len(bysFail) > 0 {
		t.Errorf("the well-behaved run failed beside this case: %q", bysFail)
	}
	if bysSlow > hadvBysMax {
		t.Errorf("a well-behaved run took %v beside this case (max %v)", bysSlow.Round(time.Millisecond), hadvBysMax)
	}
	if !progressed {
		t.Errorf("no well-behaved run completed after this case started")
	}
	if !stopped {
		t.Errorf("the well-behaved run is stuck")
		return
	}
	if stw > hadvSTWMax {
		t.Errorf("a stop-the-world pause of at least %v during this case (max %v)", stw.Round(time.Millisecond), hadvSTWMax)
	}
	if owned && !closed {
		h.Close(context.Background())
		closed = true
	}
	if err := goleak.Find(baseline); err != nil {
		t.Errorf("goroutines leaked: %v", err)
	}
}

func hadvHasKind(list []host.Kind, k host.Kind) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}
