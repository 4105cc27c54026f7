// The adversarial suite (issue 10, item 4): hostile programs and careless
// tools run through ptc.New/Execute, with a real registry and pipeline,
// against the real guest. Each case asserts the outcome KIND docs/ARCHITECTURE.md
// fixes (and, where useful, words of the content), that the host did not
// panic, that the run returned within 2.5 s of its deadline, that a
// well-behaved run on another goroutine kept succeeding meanwhile, that no
// stop-the-world pause over 250 ms happened (a run that never reaches the
// host freezes every goroutine of the process), and that no goroutine
// leaked.
//
// The expectations are docs/ARCHITECTURE.md's and issue 10's. Cases that await
// another issue's work say which (pending) and are skipped until then.
// make test runs the suite without -race (the race detector distorts its
// timings): under -race it skips itself.
//
//	go test -run 'TestAdversarial$' -v .
//	go test -run 'TestAdversarial$/bomb_' -v .
//
// Cases marked isolate (long C built-ins, the parser, regex, Close) froze
// or crashed the whole process when issue 10 was filed: each runs in a
// child process of the test binary that is killed after PTC_ADV_KILL
// (default 30s), so a freeze costs bounded time and a crash fails one
// case. -short skips those that froze or crashed. PTC_ADV_ISOLATE=all runs every case in a child, =none runs
// every case in this process; PTC_ADV_PARALLEL=1 lets isolated cases run
// in parallel (timings then suffer).
package ptc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/advtest"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

const (
	// advSlack is how long after its deadline a run may return: 50x the
	// 50 ms cancellation target, room for -race and a loaded machine.
	advSlack = 2500 * time.Millisecond
	// advBystanderMax bounds one well-behaved `return 1+1` run while a
	// hostile case runs beside it.
	advBystanderMax = time.Second
	// advSTWMax bounds a stop-the-world pause during a case.
	advSTWMax = 250 * time.Millisecond
	// advWatchdogExtra is how long past its bound a run may take before the
	// watchdog gives up on it.
	advWatchdogExtra = 15 * time.Second
)

// advCase is one hostile program (or call) and what docs/ARCHITECTURE.md says must
// come of it.
type advCase struct {
	name string
	code string
	raw  string // run_code's arguments verbatim, instead of {"code": code}

	lim         host.Limits
	ctxTimeout  time.Duration // the caller's deadline, from the start
	ctxExpired  bool          // the caller's deadline passed before Execute
	cancelAfter time.Duration // the caller cancels after this long
	preCancel   bool          // the caller cancelled before Execute
	close       *advClose     // close the executor during the run

	want     string   // the kind (host.Kind), or "error:CODE" when no program ran
	alt      []string // other acceptable kinds
	exact    *string  // the whole content
	contains []string // substrings of the content
	anyOf    []string // at least one of these is in the content
	excludes []string // never in the content
	maxLen   int      // bound on the content's length; 0: 1 MiB + 128 KiB
	args     map[string][]string
	check    func(t *testing.T, r *ptc.Result)

	isolate bool   // run in a child process: it may crash or freeze the process today
	freezes string // the freeze or crash of issue 10 this case exercises (skipped by -short)
	pending string // the open issue whose work this case awaits: skipped, saying so
}

// advClose closes the executor at a phase of the run.
type advClose struct {
	phase      string        // before, instantiate, subcall, loop, builtin, parser, graceful, twice
	grace      time.Duration // how long Close lets running batches go on
	sharedHost bool          // the executor runs on a host it does not own
}

func advStrp(s string) *string { return &s }

// Limits used across cases.
var (
	advLim300ms = host.Limits{Timeout: 300 * time.Millisecond}
	advLimBomb  = host.Limits{Timeout: 10 * time.Second, MemoryBytes: 32 << 20}
	advLimBig   = host.Limits{Timeout: 300 * time.Millisecond, MemoryBytes: 512 << 20}
)

const (
	freezeBuiltin = "a long C built-in does not reach the interrupt handler (issue 10: 153-273 s, GC stop-the-world waits on it)"
	freezeParser  = "the parser is not interruptible (issue 10: ends 2-3 s after a 300 ms deadline)"
	freezeClose   = "Close of an executor or host with a run in flight: SIGSEGV (issue 10)"
)

func TestAdversarial(t *testing.T) {
	if raceEnabled {
		t.Skip("runs without -race: make test runs it separately (go test -run Adversarial .)")
	}
	var cases []advCase
	for _, group := range [][]advCase{
		advLoops(), advBuiltins(), advParser(), advRegex(), advJobs(), advBombs(),
		advDeep(), advOutput(), advErrors(), advTamper(), advWrapper(), advNames(),
		advPanics(), advSandbox(), advDeadlines(), advCloses(),
	} {
		cases = append(cases, group...)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] || !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(c.name) {
			t.Fatalf("bad or duplicate case name %q", c.name)
		}
		seen[c.name] = true
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	advSuite(t, cases)
}

// --- the cases --------------------------------------------------------

func advLoops() []advCase {
	to := func(name, code string) advCase {
		return advCase{name: "loop_" + name, code: code, lim: advLim300ms, want: "timeout"}
	}
	cs := []advCase{
		to("for", `for (;;) {}`),
		to("while", `while (true) {}`),
		to("do_while", `do {} while (1)`),
		to("labeled_continue", `a: for (;;) { continue a }`),
		to("try_catch", `for (;;) { try { for (;;) {} } catch (e) {} }`),
		to("in_finally", `try { throw new Error("x") } finally { for (;;) {} }`),
		to("finally_after_return", `try { return 1 } finally { for (;;) {} }`),
		to("in_catch", `try { null.x } catch (e) { while (true) {} }`),
		to("finally_continue", `for (;;) { try { try { for (;;) {} } finally { continue } } finally {} }`),
		to("async_fn", `async function f() { for (;;) {} } await f()`),
		to("async_fn_try", `async function f() { try { for (;;) {} } catch { return "caught" } } return await f()`),
		to("after_await", `await null; for (;;) {}`),
		to("unawaited_async", `(async () => { await null; for (;;) {} })(); return "done"`),
		to("promise_then", `Promise.resolve().then(() => { for (;;) {} }); return 1`),
		to("promise_catch_handler", `Promise.reject(new Error("x")).catch(() => { for (;;) {} }); return 1`),
		to("await_in_try_loop", `for (;;) { try { await null; for (let i = 0; i < 1e9; i++) {} } catch {} }`),
		to("getter", `const o = { get x() { for (;;) {} } }; return o.x`),
		to("generator", `function* g() { for (;;) yield 1 } for (const x of g()) {}`),
		to("async_generator", `async function* g() { for (;;) yield 1 } for await (const x of g()) {}`),
		to("foreach_callback", `[1].forEach(() => { for (;;) {} })`),
		to("sort_comparator", `[3, 2, 1].sort(() => { for (;;) {} })`),
		to("json_reviver", `JSON.parse("[1,2]", () => { for (;;) {} })`),
		to("tostring_coercion", "return `${{ toString() { for (;;) {} } }}`"),
		to("proxy_trap", `return new Proxy({}, { get() { for (;;) {} } }).x`),
		to("after_subcall", `await tools.rec({a: 1}); for (;;) {}`),
		to("in_subcall_then", `await tools.rec({a: 1}).then(() => { for (;;) {} })`),
		to("static_block", `class A { static { for (;;) {} } }`),
		to("stack_overflow_retry", `function f() { try { f() } catch (e) { f() } } f()`),
		to("in_tojson_of_return", `return { toJSON() { for (;;) {} } }`),
		// A thrown object is shown as Node's inspect shows it: its getters
		// as [Getter], never called.
		to("in_thrown_getter", `throw { get message() { for (;;) {} }, get stack() { for (;;) {} }, toString() { for (;;) {} }, [Symbol.for("nodejs.util.inspect.custom")]() { for (;;) {} } }`),
		to("in_error_name_getter", `const e = new Error("x"); Object.defineProperty(e, "name", { get() { for (;;) {} } }); throw e`),
	}
	// The interrupt is uncatchable: nothing a catch block does may show.
	cs = append(cs, advCase{name: "loop_catch_reports", lim: advLim300ms, want: "timeout", excludes: []string{"caught"},
		code: `for (;;) { try { for (;;) {} } catch (e) { console.log("caught", String(e)) } }`})
	return cs
}

func advBuiltins() []advCase {
	// Each loop is long enough to be unbounded; a built-in call may take
	// from milliseconds to seconds, all of it in C.
	b := func(name, code string, mem uint64) advCase {
		l := advLimBig
		if mem != 0 {
			l.MemoryBytes = mem
		}
		return advCase{name: "builtin_" + name, code: code, lim: l, want: "timeout", isolate: true, freezes: freezeBuiltin}
	}
	return []advCase{
		b("reverse_u8_60mb", `const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.reverse()`, 256<<20),
		b("sort_1e6_default", `const a = Array.from({length: 1e6}, (_, i) => (i * 7919) % 1000003); for (let i = 0; i < 1e9; i++) { a.reverse(); a.sort() }`, 0),
		b("sort_1e6_comparator", `const a = Array.from({length: 1e6}, (_, i) => (i * 7919) % 1000003); for (let i = 0; i < 1e9; i++) { a.reverse(); a.sort((x, y) => x - y) }`, 0),
		b("typed_sort", `const a = new Float64Array(8e6); for (let i = 0; i < 1e4; i++) a[i] = (i * 7919) % 10007; for (let n = 1e4; n < a.length; n *= 2) a.copyWithin(n, 0, n); for (let i = 0; i < 1e9; i++) { a.reverse(); a.sort() }`, 0),
		b("join", `const a = new Array(1e7).fill("abcd"); for (let i = 0; i < 1e9; i++) a.join(",")`, 0),
		b("repeat", `for (let i = 0; i < 1e9; i++) "abcdefgh".repeat(1 << 24)`, 0),
		b("json_stringify", `const a = new Array(1e6).fill({i: 1, s: "xyz", t: [1, 2, 3]}); for (let i = 0; i < 1e9; i++) JSON.stringify(a)`, 0),
		b("json_parse", `const s = "[" + "123456,".repeat(3e6) + "0]"; for (let i = 0; i < 1e9; i++) JSON.parse(s)`, 0),
		b("replace_regex", `const s = "ab".repeat(1 << 24); for (let i = 0; i < 1e9; i++) s.replace(/a/g, "c")`, 0),
		b("replaceall_string", `const s = "ab".repeat(1 << 24); for (let i = 0; i < 1e9; i++) s.replaceAll("a", "cc")`, 0),
		b("split", `const s = "a,".repeat(1 << 23); for (let i = 0; i < 1e9; i++) s.split(",")`, 0),
		b("array_from_typed", `const u = new Uint8Array(2e7); for (let i = 0; i < 1e9; i++) Array.from(u)`, 0),
		b("array_from_length", `for (let i = 0; i < 1e9; i++) Array.from({length: 2e7})`, 0),
		b("typed_fill", `const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.fill(i & 255)`, 256<<20),
		b("typed_copywithin", `const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.copyWithin(1, 0)`, 256<<20),
		b("typed_set", `const a = new Uint8Array(60e6), c = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.set(c)`, 256<<20),
		b("string_indexof", `const s = "a".repeat(1 << 27); for (let i = 0; i < 1e9; i++) s.indexOf("b")`, 0),
		b("array_indexof", `const a = new Array(2e7).fill(0); for (let i = 0; i < 1e9; i++) a.indexOf(1)`, 0),
		b("typed_indexof", `const a = new Float64Array(3e7); for (let i = 0; i < 1e9; i++) a.indexOf(1)`, 0),
		b("unshift", `const a = new Array(1e7).fill(0); for (let i = 0; i < 1e9; i++) a.unshift(0)`, 0),
		b("splice", `const a = new Array(1e7).fill(0); for (let i = 0; i < 1e9; i++) a.splice(0, 0, 1)`, 0),
		b("bigint_pow", `for (let i = 0; i < 1e9; i++) (7n ** 300000n).toString()`, 0),
		b("concat", `const a = new Array(1e7).fill(0); for (let i = 0; i < 1e9; i++) a.concat(a)`, 0),
		b("flat", `const a = new Array(1e6).fill([1, 2, 3, 4, 5]); for (let i = 0; i < 1e9; i++) a.flat()`, 0),
		b("padend", `for (let i = 0; i < 1e9; i++) "".padEnd(1 << 27, "ab")`, 0),
		b("encode_uri", `const s = "é".repeat(1 << 23); for (let i = 0; i < 1e9; i++) encodeURIComponent(s)`, 0),
		b("to_upper", `const s = "a".repeat(1 << 27); for (let i = 0; i < 1e9; i++) s.toUpperCase()`, 0),
		// One call that alone outlasts the deadline must not report success.
		b("single_call_then_return", `const s = "ab".repeat(1 << 25); const t = s.replace(/a/g, "cd"); return t.length`, 0),
	}
}

func advParser() []advCase {
	p := func(name, code string) advCase {
		return advCase{name: "parser_" + name, code: code, lim: advLimBig, want: "timeout", isolate: true, freezes: freezeParser}
	}
	atLimit := "return 1;" + strings.Repeat("0;", (host.Limits{}.WithDefaults().SourceBytes-len("return 1;"))/2)
	return []advCase{
		p("new_function_1e7", `new Function("0;".repeat(1e7))`),
		p("eval_1e7", `eval("0;".repeat(1e7))`),
		p("eval_long_expression", `eval("1+".repeat(5e6) + "1")`),
		// QuickJS refuses over 65 534 parameters with a SyntaxError; on a
		// fast machine that comes before the deadline.
		func() advCase {
			c := p("many_params", `new Function(Array.from({length: 1e5}, (_, i) => "a" + i).join(), "return 1")`)
			c.alt = []string{"exception"}
			return c
		}(),
		p("regexp_compile", `for (let i = 0; i < 1e9; i++) new RegExp("(?:a|b|c)".repeat(1e6))`),
		{name: "parser_source_at_limit", code: atLimit, want: "ok", exact: advStrp("1")},
		{name: "parser_source_over_limit", code: atLimit + "  ", want: "syntax", contains: []string{"over the 262144-byte limit"}},
		{name: "parser_deep_parens_source", code: "return " + strings.Repeat("(", 1e5) + "1" + strings.Repeat(")", 1e5), want: "syntax"},
		{name: "parser_deep_functions_source", code: strings.Repeat("function f(){", 15000) + strings.Repeat("}", 15000), want: "syntax"},
		{name: "parser_eval_deep_parens_caught", want: "ok", contains: []string{"caught"},
			code: `try { eval("(".repeat(1e5) + "1" + ")".repeat(1e5)); return "parsed" } catch (e) { return "caught " + e.name }`},
	}
}

func advRegex() []advCase {
	r := func(name, code string) advCase {
		return advCase{name: "regex_" + name, code: code, lim: advLim300ms, want: "timeout", isolate: true}
	}
	return []advCase{
		r("nested_quantifier", `return /(a+)+$/.test("a".repeat(40) + "!")`),
		r("alternation", `return /(a|a)*b/.test("a".repeat(40))`),
		r("words", `return /^(\w+\s?)*$/.test("word ".repeat(30) + "!")`),
		r("replace_global", `return "a".repeat(1e4).replace(/(a*)*b/g, "")`),
		r("in_try_loop", `for (;;) { try { /(x+x+)+y/.test("x".repeat(40)) } catch {} }`),
		r("backref", `return /^(a+)+\1$/.test("a".repeat(40) + "b")`),
		r("split", `return "a".repeat(40).split(/(a+)+b/).length`),
		r("matchall", `return [..."a".repeat(40).matchAll(/(a+)+b/g)].length`),
		r("polynomial_groups", `return /(.*a){20}/.test("a".repeat(19) + "b".repeat(30))`),
		r("unicode_class", `return /^([\p{L}\d]+)+$/u.test("é".repeat(40) + "!")`),
		r("huge_input", `const s = "a".repeat(1 << 25); return /a*a*a*a*b/.test(s)`),
	}
}

func advJobs() []advCase {
	const q = `const q = typeof queueMicrotask === "function" ? queueMicrotask : (f) => Promise.resolve().then(f); `
	return []advCase{
		{name: "jobs_microtask_doubling", lim: advLimBomb, want: "memory", code: q + `const f = () => { q(f); q(f) }; f()`},
		{name: "jobs_microtask_doubling_caught", lim: advLimBomb, want: "memory", code: q + `const f = () => { try { q(f); q(f) } catch (e) {} }; f()`},
		{name: "jobs_microtask_chain", lim: advLim300ms, want: "timeout", code: q + `const f = () => q(f); f()`},
		{name: "jobs_then_chain", lim: advLim300ms, want: "timeout", code: `const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})`},
		{name: "jobs_then_doubling", lim: advLimBomb, want: "memory", code: `const f = () => { Promise.resolve().then(f); Promise.resolve().then(f) }; f()`},
		{name: "jobs_async_recursion", lim: advLimBomb, want: "memory", code: `async function f() { await null; return f() } await f()`},
		{name: "jobs_async_recursion_await", lim: advLimBomb, want: "memory", code: `async function f(n) { await null; await f(n + 1) } await f(0)`},
		{name: "jobs_sync_async_recursion", want: "exception", code: `async function f() { await f() } await f()`},
		{name: "jobs_sync_async_recursion_caught", want: "ok", exact: advStrp("true"), code: `async function f() { await f() } try { await f() } catch (e) { return e instanceof RangeError }`},
		{name: "jobs_thenable_loop", lim: advLim300ms, want: "timeout", code: `const t = { then(r) { r(t) } }; await t`},
		{name: "jobs_promise_all_huge", lim: advLimBomb, want: "memory", code: `await Promise.all(Array.from({length: 1e7}, () => Promise.resolve()))`},
		{name: "jobs_await_loop", lim: advLim300ms, want: "timeout", code: `for (;;) await null`},
		{name: "jobs_unhandled_rejections", lim: advLim300ms, want: "timeout", alt: []string{"memory"}, code: `for (;;) Promise.reject(new Error("x"))`},
		{name: "jobs_async_generator_requests", lim: advLimBomb, want: "memory", code: `async function* g() { for (;;) yield 1 } const it = g(); for (;;) it.next()`},
		{name: "jobs_finally_chain", lim: advLimBomb, want: "memory", code: `let p = Promise.resolve(); for (;;) p = p.finally(() => {})`},
	}
}

func advBombs() []advCase {
	// functions and eval_strings thrash the collector near the limit: they
	// reach it only after 8-15 s, so they get 30 s.
	slow := map[string]bool{"functions": true, "eval_strings": true}
	bombs := []struct{ name, code string }{
		{"arraybuffer", `const b = new ArrayBuffer(64 << 20); return b.byteLength`},
		{"arraybuffers", `const a = []; for (;;) a.push(new ArrayBuffer(1 << 20))`},
		{"uint8array_1e9", `return new Uint8Array(1e9).length`},
		{"arraybuffer_resizable", `const b = new ArrayBuffer(1, { maxByteLength: 1 << 30 }); b.resize(1 << 29); return b.byteLength`},
		{"string_doubling", `let s = "x"; for (;;) s = (s + s).toLowerCase()`},
		{"string_repeat", `return "x".repeat(1 << 26).length`},
		{"string_parts", `const a = []; for (let i = 0; ; i++) a.push("item" + i)`},
		{"array_push", `const a = []; for (;;) a.push(1)`},
		{"array_of_arrays", `const a = []; for (;;) a.push([1, 2, 3])`},
		{"array_fill", `return new Array(1e8).fill(0).length`},
		{"array_from", `return Array.from({length: 1e8}).length`},
		{"objects", `const a = []; for (;;) a.push({a: 1, b: "x"})`},
		{"object_properties", `const o = {}; for (let i = 0; ; i++) o["k" + i] = i`},
		{"sparse_properties", `const o = {}; for (let i = 0; ; i++) o[i * 2 + 1e9] = i`},
		{"global_properties", `for (let i = 0; ; i++) globalThis["g" + i] = i`},
		{"accessor_properties", `const o = {}; for (let i = 0; ; i++) Object.defineProperty(o, "p" + i, { get() { return i } })`},
		{"map", `const m = new Map(); for (let i = 0; ; i++) m.set(i, i)`},
		{"map_string_keys", `const m = new Map(); for (let i = 0; ; i++) m.set("k" + i, {})`},
		{"set", `const s = new Set(); for (let i = 0; ; i++) s.add("k" + i)`},
		{"weakmap", `const keep = [], w = new WeakMap(); for (;;) { const k = {}; keep.push(k); w.set(k, [k]) }`},
		{"closures", `const fs = []; for (let i = 0; ; i++) { const x = {i}; fs.push(() => x) }`},
		{"closure_chain", `let f = () => 0; for (;;) { const g = f; f = () => g() + 1 }`},
		{"linked_list", `let l = null; for (;;) l = { next: l, v: 1 }`},
		{"json_parse", `return JSON.parse("[" + "0,".repeat(2e7) + "0]").length`},
		{"split_chars", `return "x".repeat(1 << 23).split("").length`},
		{"concat_doubling", `let a = [1]; for (;;) a = a.concat(a)`},
		{"typed_arrays", `const a = []; for (;;) a.push(new Float64Array(1e5))`},
		{"symbols", `const a = []; for (;;) a.push(Symbol("s"))`},
		{"errors", `const a = []; for (;;) a.push(new Error("e"))`},
		{"class_instances", `class P { constructor(i) { this.i = i; this.j = [i] } } const a = []; for (let i = 0; ; i++) a.push(new P(i))`},
		{"pending_promises", `const a = []; for (;;) a.push(new Promise(() => {}))`},
		{"regexp_matches", `const s = "a".repeat(1 << 24); const a = []; for (;;) a.push(s.match(/a/g))`},
		{"arraybuffer_slices", `const b = new ArrayBuffer(1 << 24); const a = []; for (;;) a.push(b.slice(0))`},
		{"parsed_objects", `const a = []; for (;;) a.push(JSON.parse('{"a":[1,2,3],"b":{"c":"d"}}'))`},
		{"functions", `const a = []; for (let i = 0; ; i++) a.push(new Function("return " + i))`},
		{"eval_strings", `const a = []; for (let i = 0; ; i++) a.push(eval("'" + "x".repeat(100) + i + "'"))`},
	}
	var cs []advCase
	for _, b := range bombs {
		l := advLimBomb
		if slow[b.name] {
			l.Timeout = 30 * time.Second
		}
		cs = append(cs, advCase{name: "bomb_" + b.name, code: b.code, lim: l, want: "memory"})
		// Running out of memory cannot be caught.
		cs = append(cs, advCase{name: "bomb_" + b.name + "_caught", lim: l, want: "memory", excludes: []string{"caught"},
			code: "try {\n" + b.code + "\n} catch (e) { return \"caught \" + e }"})
	}
	return append(cs,
		advCase{name: "bomb_in_reaction", lim: advLimBomb, want: "memory", code: `Promise.resolve().then(() => { const a = []; for (;;) a.push({}) }); return 1`},
		advCase{name: "bomb_after_subcall", lim: advLimBomb, want: "memory", code: `await tools.rec({a: 1}); let s = "x"; for (;;) s = (s + s).toLowerCase()`},
		advCase{name: "bomb_in_async_catch", lim: advLimBomb, want: "memory", excludes: []string{"caught"}, code: `return await (async () => { const a = []; for (;;) a.push([0]) })().catch(() => "caught")`},
		advCase{name: "bomb_catch_loop", lim: advLimBomb, want: "memory", excludes: []string{"caught"}, code: `for (;;) { try { const a = []; for (;;) a.push(new Array(1000)) } catch (e) { console.log("caught") } }`},
		advCase{name: "bomb_in_tojson_of_return", lim: advLimBomb, want: "memory", code: `return { toJSON() { let s = "x"; for (;;) s = (s + s).toLowerCase() } }`},
		advCase{name: "bomb_in_error_name_getter", lim: advLimBomb, want: "memory", code: `const e = new Error("x"); Object.defineProperty(e, "name", { get() { let s = "x"; for (;;) s = (s + s).toLowerCase() } }); throw e`},
	)
}

func advDeep() []advCase {
	tr := advStrp("true")
	return []advCase{
		{name: "deep_recursion", want: "exception", contains: []string{"RangeError"}, code: `function f() { return f() + 1 } return f()`},
		{name: "deep_recursion_caught", want: "ok", exact: tr, code: `function f() { return f() + 1 } try { return f() } catch (e) { return e instanceof RangeError }`},
		{name: "deep_mutual_getters", want: "ok", exact: tr, code: `const o = { get a() { return this.b }, get b() { return this.a } }; try { return o.a } catch (e) { return e instanceof RangeError }`},
		{name: "deep_json_parse", want: "exception", code: `JSON.parse("[".repeat(1e5) + "]".repeat(1e5))`},
		{name: "deep_json_parse_caught", want: "ok", exact: tr, code: `try { JSON.parse("[".repeat(1e5) + "]".repeat(1e5)); return "parsed" } catch (e) { return e instanceof RangeError }`},
		{name: "deep_json_stringify", want: "exception", code: `let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; JSON.stringify(o)`},
		{name: "deep_json_stringify_caught", want: "ok", exact: tr, code: `let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; try { JSON.stringify(o); return "done" } catch (e) { return e instanceof RangeError }`},
		{name: "deep_eval_recursion", want: "ok", exact: tr, code: `function f(n) { return eval("f(n + 1)") } try { f(0) } catch (e) { return e instanceof RangeError }`},
		{name: "deep_eval_self", want: "ok", exact: tr, code: `globalThis.d = 0; globalThis.src = "d++ < 1e6 ? eval(src) : d"; try { return eval(src) } catch (e) { return e instanceof RangeError }`},
		{name: "deep_tostring", want: "ok", exact: tr, code: `const o = { toString() { return "" + o } }; try { return String(o) } catch (e) { return e instanceof RangeError }`},
		{name: "deep_proxy_chain", want: "ok", exact: tr, code: `let p = {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); try { return p.x } catch (e) { return e instanceof RangeError }`},
		{name: "deep_prototype_chain", want: "ok", exact: advStrp("undefined"), code: `let o = {}; for (let i = 0; i < 1e5; i++) o = Object.create(o); return typeof o.x`},
		{name: "deep_finally_recursion", want: "ok", exact: tr, code: `function f() { try { return f() } finally { } } try { f() } catch (e) { return e instanceof RangeError }`},
		{name: "deep_generators", want: "ok", exact: tr, code: `function* g(n) { yield* g(n + 1) } try { g(0).next() } catch (e) { return e instanceof RangeError }`},
		{name: "deep_bound_functions", want: "ok", alt: []string{"memory"}, code: `let f = function () { return 1 }; for (let i = 0; i < 1e5; i++) f = f.bind(null); try { return f() } catch (e) { return e instanceof RangeError }`},
		{name: "deep_array_flat", want: "ok", code: `let a = [1]; for (let i = 0; i < 1e5; i++) a = [a]; try { return a.flat(Infinity).length } catch (e) { return e instanceof RangeError }`},
		{name: "deep_array_tostring", want: "ok", code: `let a = []; for (let i = 0; i < 1e5; i++) a = [a]; try { return String(a).length } catch (e) { return e instanceof RangeError }`},
		// docs/ARCHITECTURE.md: the return value never fails the run because of its type
		// or shape; a rendering over ResultBytes is cut.
		{name: "deep_return_nested_array", want: "ok", code: `let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return a`},
		{name: "deep_return_cycle", want: "ok", contains: []string{"[Circular *1]"}, code: `const o = { a: 1 }; o.self = o; return o`},
		{name: "deep_console_nested", want: "ok", contains: []string{"printed"}, code: `let a = []; for (let i = 0; i < 1e5; i++) a = [a]; console.log(a); return "printed"`},
		{name: "deep_return_throwing_getter", want: "ok", code: `return { get x() { throw new Error("g") } }`},
		// Resolving the body's promise with the proxy reads its then, which
		// throws: the program fails as it would in Node, before any rendering.
		{name: "deep_return_hostile_proxy", want: "exception", code: `const t = () => { throw new Error("trap") }; return new Proxy({}, { get: t, ownKeys: t, getOwnPropertyDescriptor: t, getPrototypeOf: t, has: t })`},
	}
}

func advOutput() []advCase {
	noEscapes := func(t *testing.T, r *ptc.Result) {
		if r.Run != nil && regexp.MustCompile(`(?i)\\ud[89a-f][0-9a-f]{2}`).Match(r.Run.ReturnValue) {
			t.Errorf("return value JSON keeps a lone surrogate escape: %s", r.Run.ReturnValue)
		}
	}
	outLine := func(want string) func(t *testing.T, r *ptc.Result) {
		return func(t *testing.T, r *ptc.Result) {
			if r.Run == nil || len(r.Run.Output) != 1 || r.Run.Output[0] != want {
				var got []string
				if r.Run != nil {
					got = r.Run.Output
				}
				t.Errorf("output %q, want [%q]", got, want)
			}
		}
	}
	outBound := host.Limits{}.WithDefaults().OutputBytes + 8<<10 + 512
	return []advCase{
		{name: "out_flood_lines", want: "output_limit", contains: []string{"[output truncated]"}, maxLen: outBound, code: `for (;;) console.log("flood line")`},
		{name: "out_one_huge_line", want: "output_limit", maxLen: outBound, code: `console.log("x".repeat(1e6))`},
		{name: "out_flood_in_try", want: "output_limit", excludes: []string{"escaped"}, maxLen: outBound, code: `try { for (;;) console.log("x".repeat(100)) } catch (e) {} return "escaped"`},
		{name: "out_flood_console_error", want: "output_limit", maxLen: outBound, code: `for (;;) console.error("e")`},
		{name: "out_flood_other_methods", want: "output_limit", maxLen: outBound, code: `for (;;) { console.info("i"); console.warn("w"); console.debug("d") }`},
		{name: "out_flood_in_reaction", want: "output_limit", maxLen: outBound, code: `Promise.resolve().then(() => { for (;;) console.log("r") }); return 1`},
		{name: "out_flood_unicode", want: "output_limit", maxLen: outBound, code: `for (;;) console.log("😀".repeat(1000))`},
		{name: "out_many_args", want: "output_limit", maxLen: outBound, code: `console.log(...new Array(6e4).fill("a"))`},
		{name: "out_control_chars", want: "ok", contains: []string{"done"}, code: `console.log("a\x00b\x07c\x1b[31md\re\u2028f\u0085g"); return "done"`},
		{name: "out_lone_surrogate", want: "ok", exact: advStrp("a\uFFFDb"), check: outLine("a\uFFFDb"), code: `console.log("a\uD800b")`},
		{name: "out_lone_surrogates_each", want: "ok", exact: advStrp("\uFFFD\uFFFD|\uFFFD\uFFFD|\uFFFD"), check: outLine("\uFFFD\uFFFD|\uFFFD\uFFFD|\uFFFD"), code: `console.log("\uD800\uD800|\uDC00\uD800|\uDFFF")`},
		{name: "out_paired_surrogate", want: "ok", exact: advStrp("😀"), code: `console.log("\uD83D\uDE00")`},
		{name: "out_return_lone_surrogate", want: "ok", exact: advStrp("x\uFFFD"), check: noEscapes, code: `return "x\uDBFF"`},
		{name: "out_return_lone_surrogates_in_object", want: "ok", contains: []string{"\uFFFD\uFFFD"}, excludes: []string{"\uFFFD\uFFFD\uFFFD"}, check: noEscapes, code: `return { s: "\uDC00\uD800" }`},
		{name: "out_return_nul", want: "ok", exact: advStrp("a\x00b"), code: `return "a\0b"`},
		{name: "out_return_huge_string", want: "ok", contains: []string{"[return value truncated: "}, maxLen: host.Limits{}.WithDefaults().ResultBytes + 1024, code: `return "x".repeat(2e6)`},
		{name: "out_return_huge_array", want: "ok", contains: []string{"[return value truncated: "}, maxLen: host.Limits{}.WithDefaults().ResultBytes + 1024, code: `return Array.from({length: 3e5}, (_, i) => i)`},
		{name: "out_near_limit_then_throw", want: "exception", contains: []string{"Captured output:", "after"}, code: `for (let i = 0; i < 600; i++) console.log("y".repeat(100)); throw new Error("after")`},
		{name: "out_return_not_counted_as_output", want: "ok", code: `console.log("z".repeat(60000)); return "x".repeat(60000)`},
	}
}

func advErrors() []advCase {
	// ErrorBytes (8 KiB) bounds the message and the stack.
	const errBound = 2*8<<10 + 512
	cut := []string{"… [", " more bytes]"}
	cutMark := regexp.MustCompile(`… \[\d+ more bytes\]`)
	marked := func(t *testing.T, r *ptc.Result) {
		if !cutMark.MatchString(registry.PlainText(r.Content)) {
			t.Errorf("no \"… [N more bytes]\" mark")
		}
	}
	cs := []advCase{
		{name: "err_5mb_message", want: "exception", contains: cut, maxLen: errBound, code: `throw new Error("x".repeat(5e6))`},
		{name: "err_5mb_string", want: "exception", contains: cut, maxLen: errBound, code: `throw "x".repeat(5e6)`},
		{name: "err_5mb_rejection", want: "exception", contains: cut, maxLen: errBound, code: `await Promise.reject("x".repeat(5e6))`},
		{name: "err_huge_name", want: "exception", contains: cut, maxLen: errBound, code: `const e = new Error("m"); e.name = "N".repeat(5e6); throw e`},
		{name: "err_huge_stack_property", want: "exception", maxLen: errBound, code: `const e = new Error("m"); e.stack = "s".repeat(5e6); throw e`},
		{name: "err_deep_stack", want: "exception", maxLen: errBound, code: `function f(n) { if (n === 0) throw new Error("deep"); return f(n - 1) } f(5000)`},
		{name: "err_cause_chain", want: "exception", maxLen: errBound, code: `let e = new Error("0"); for (let i = 0; i < 1e4; i++) e = new Error(String(i), { cause: e }); throw e`},
		{name: "err_aggregate", want: "exception", maxLen: errBound, code: `throw new AggregateError(Array.from({length: 1e5}, (_, i) => new Error("e" + i)), "agg")`},
		{name: "err_tool_2mib_message", want: "exception", contains: cut, maxLen: errBound, code: `await tools.bigerr({})`},
		{name: "err_tool_2mib_message_caught", want: "ok", exact: advStrp("TOOL_FAILED"), code: `try { await tools.bigerr({}) } catch (e) { return e.code }`},
		{name: "err_message_getter_throws", want: "exception", code: `const e = new Error("m"); Object.defineProperty(e, "message", { get() { throw new Error("inner") } }); throw e`},
		{name: "err_hostile_proxy", want: "exception", code: `const t = () => { throw new Error("trap") }; throw new Proxy({}, { get: t, getPrototypeOf: t, ownKeys: t, getOwnPropertyDescriptor: t, has: t })`},
		{name: "err_throw_null", want: "exception", code: `throw null`},
		{name: "err_throw_undefined", want: "exception", code: `throw undefined`},
		{name: "err_throw_symbol", want: "exception", code: `throw Symbol("s")`},
		{name: "err_lone_surrogate_message", want: "exception", contains: []string{"bad\uFFFD!"}, code: `throw new Error("bad\uD800!")`},
		{name: "err_huge_error_logged", want: "output_limit", maxLen: host.Limits{}.WithDefaults().OutputBytes + 8<<10 + 512, code: `console.log(new Error("x".repeat(5e6)))`},
	}
	for i := range cs {
		if len(cs[i].contains) > 0 && cs[i].contains[0] == cut[0] {
			cs[i].check = marked
		}
	}
	return cs
}

func advTamper() []advCase {
	one := advStrp("1")
	return []advCase{
		{name: "tamper_object_tojson", want: "ok", exact: advStrp("2"), args: map[string][]string{"rec": {`{"a":1,"b":[1,{"c":2}]}`}},
			code: `Object.prototype.toJSON = function () { return "pwned" }; const r = await tools.rec({a: 1, b: [1, {c: 2}]}); return r.b[1].c`},
		{name: "tamper_date_tojson", want: "ok", exact: advStrp("1970-01-01T00:00:00.000Z"), args: map[string][]string{"rec": {`{"d":"1970-01-01T00:00:00.000Z"}`}},
			code: `Date.prototype.toJSON = () => "pwned"; Date.prototype.toISOString = () => "pwned"; const r = await tools.rec({d: new Date(0)}); return r.d`},
		{name: "tamper_own_tojson", want: "ok", exact: advStrp("sent"), args: map[string][]string{"rec": {`{"a":1}`}},
			code: `await tools.rec({a: 1, toJSON() { return {b: 2} }}); return "sent"`},
		{name: "tamper_json_stringify", want: "ok", exact: one, args: map[string][]string{"rec": {`{"a":1}`}},
			code: `JSON.stringify = () => "{"; const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_json_stringify_return", want: "ok", contains: []string{`"x"`}, code: `JSON.stringify = () => "{"; return {x: 1}`},
		{name: "tamper_json_stringify_console", want: "ok", contains: []string{"printed"}, code: `JSON.stringify = () => { throw new Error("no") }; console.log({a: 1}); return "printed"`},
		{name: "tamper_json_parse", want: "ok", exact: one, code: `JSON.parse = () => ({evil: true}); const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_json_parse_error_path", want: "ok", exact: advStrp("TOOL_FAILED it failed"), code: `JSON.parse = () => { throw new Error("no") }; try { await tools.fail({}) } catch (e) { return e.code + " " + e.message }`},
		{name: "tamper_promise_then", want: "ok", exact: one, code: `Promise.prototype.then = function () { throw new Error("hijacked") }; const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_promise_global", want: "ok", exact: one, code: `globalThis.Promise = function () { throw new Error("no") }; const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_object_prototype_then", want: "ok", exact: one, code: `Object.prototype.then = function (res) { res("hijacked") }; const r = await tools.rec({a: 1}); delete Object.prototype.then; return r.a`},
		{name: "tamper_tools_reassigned", want: "ok", exact: one, args: map[string][]string{"rec": {`{"a":1}`}}, code: `try { tools = {} } catch (e) {} const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_tools_frozen", want: "ok", exact: one, code: `try { Object.freeze(tools); Object.seal(tools); Object.preventExtensions(tools) } catch (e) {} const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_tools_redefined", want: "ok", exact: one, code: `try { Object.defineProperty(globalThis, "tools", { value: {} }) } catch (e) {} try { tools.rec = () => 42 } catch (e) {} try { delete tools.rec } catch (e) {} const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_globals_deleted", want: "ok", exact: one, code: `delete globalThis.tools; delete globalThis.__ptc_call; delete globalThis.ToolError; const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_array_prototype", want: "ok", exact: advStrp("2,1,2"), args: map[string][]string{"rec": {`{"a":[1,2],"b":[]}`}},
			code: `Array.prototype.push = null; Array.prototype.map = null; Array.prototype.join = null; Array.prototype[Symbol.iterator] = function* () { yield "evil" }; Object.defineProperty(Array.prototype, "0", { set() { throw new Error("setter") }, get() { return "evil" }, configurable: true }); const r = await tools.rec({a: [1, 2], b: []}); return r.a.length + "," + r.a[0] + "," + r.a[1]`},
		{name: "tamper_object_prototype_enumerable", want: "ok", exact: advStrp("a"), args: map[string][]string{"rec": {`{"a":1}`}},
			code: `Object.defineProperty(Object.prototype, "inherited", { value: "evil", enumerable: true }); const r = await tools.rec({a: 1}); return Object.keys(r).join()`},
		{name: "tamper_object_prototype_setters", want: "ok", exact: advStrp("1,2"),
			code: `for (const k of ["a", "b", "ok", "code", "value"]) Object.defineProperty(Object.prototype, k, { set() { throw new Error("setter " + k) }, configurable: true }); const r = await tools.rec({a: 1, b: 2}); return r.a + "," + r.b`},
		{name: "tamper_object_prototype_ok", want: "ok", exact: advStrp("TOOL_FAILED"),
			code: `Object.defineProperty(Object.prototype, "ok", { get() { return true }, configurable: true }); Object.prototype.value = "forged"; try { await tools.fail({}); return "no error" } catch (e) { return e.code }`},
		{name: "tamper_getter_args", want: "ok", exact: advStrp("5"), args: map[string][]string{"rec": {`{"a":5}`}}, code: `const r = await tools.rec({ get a() { return 5 } }); return r.a`},
		{name: "tamper_getter_throws_args", want: "ok", contains: []string{"caught"}, args: map[string][]string{"rec": {}},
			code: `try { await tools.rec({ get a() { throw new Error("getter") } }); return "sent" } catch (e) { return "caught " + e.message }`},
		{name: "tamper_proxy_args", want: "ok", code: `try { await tools.rec(new Proxy({a: 1}, { ownKeys() { throw new Error("trap") } })); return "sent" } catch (e) { return "caught" }`},
		{name: "tamper_bigint_arg", want: "ok", contains: []string{"INVALID_ARGUMENTS"}, args: map[string][]string{"rec": {}},
			code: `try { await tools.rec({n: 1n}); return "sent" } catch (e) { return e.code + ": " + e.message }`},
		{name: "tamper_cycle_arg", want: "ok", contains: []string{"INVALID_ARGUMENTS"}, args: map[string][]string{"rec": {}},
			code: `const o = {}; o.self = o; try { await tools.rec(o); return "sent" } catch (e) { return e.code + ": " + e.message }`},
		{name: "tamper_function_arg", want: "ok", contains: []string{"INVALID_ARGUMENTS"}, args: map[string][]string{"rec": {}},
			code: `try { await tools.rec(() => 1); return "sent" } catch (e) { return e.code + ": " + e.message }`},
		{name: "tamper_undefined_members", want: "ok", exact: advStrp("sent"), args: map[string][]string{"rec": {`{"b":1,"c":[null,null]}`}},
			code: `await tools.rec({a: undefined, b: 1, c: [undefined, () => 1]}); return "sent"`},
		{name: "tamper_holes", want: "ok", exact: advStrp("sent"), args: map[string][]string{"rec": {`{"a":[1,null,3]}`}}, code: `await tools.rec({a: [1, , 3]}); return "sent"`},
		{name: "tamper_function_prototype", want: "ok", exact: one,
			code: `Function.prototype.call = null; Function.prototype.apply = null; Function.prototype.bind = null; Reflect.apply = null; const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_globals_nulled", want: "ok", exact: one, code: `Object = null; String = null; Array = null; Error = null; Symbol = null; const r = await tools.rec({a: 1}); return r.a`},
		{name: "tamper_error_global", want: "ok", exact: advStrp("ToolError TOOL_FAILED"), code: `globalThis.Error = null; try { await tools.fail({}) } catch (e) { return e.name + " " + e.code }`},
		{name: "tamper_toolerror_prototype", want: "ok", exact: advStrp("TOOL_FAILED"),
			code: `for (const k of ["code", "tool", "name"]) try { Object.defineProperty(ToolError.prototype, k, { get() { return "FAKE" }, configurable: true }) } catch (e) {} try { await tools.fail({}) } catch (e) { return e.code }`},
		{name: "tamper_string_prototype", want: "ok", exact: advStrp("abc"), args: map[string][]string{"rec": {`{"s":"abc"}`}},
			code: `String.prototype.toString = () => "evil"; String.prototype.valueOf = () => "evil"; String.prototype[Symbol.iterator] = null; const r = await tools.rec({s: "abc"}); return r.s`},
		{name: "tamper_number_prototype", want: "ok", exact: advStrp("6"), args: map[string][]string{"rec": {`{"n":5}`}},
			code: `Number.prototype.toString = () => "evil"; Number.prototype.toJSON = () => "evil"; const r = await tools.rec({n: 5}); return r.n + 1`},
		{name: "tamper_boxed_primitives", want: "ok", exact: advStrp("sent"), args: map[string][]string{"rec": {`{"s":"abc","n":5,"b":false}`}},
			code: `await tools.rec({s: new String("abc"), n: new Number(5), b: new Boolean(false)}); return "sent"`},
		{name: "tamper_console", want: "ok", contains: []string{"still"}, code: `try { console.log = () => {} } catch (e) {} try { globalThis.console = {log() {}} } catch (e) {} console.log("still"); return 1`},
		{name: "tamper_object_keys", want: "ok", exact: advStrp("3"), args: map[string][]string{"rec": {`{"a":1,"b":2}`}},
			code: `Object.keys = () => ["evil"]; Object.entries = () => []; Reflect.ownKeys = () => []; Object.getOwnPropertyNames = () => []; const r = await tools.rec({a: 1, b: 2}); return r.a + r.b`},
		{name: "tamper_symbol_toprimitive", want: "ok", exact: advStrp("sent"), args: map[string][]string{"rec": {`{"a":{"b":1}}`}},
			code: `await tools.rec({a: {[Symbol.toPrimitive]() { throw new Error("x") }, b: 1}}); return "sent"`},
		{name: "tamper_tostringtag", want: "ok", exact: advStrp("TOOL_FAILED 1"),
			code: `Object.defineProperty(Object.prototype, Symbol.toStringTag, { get() { throw new Error("tag") }, configurable: true }); const r = await tools.rec({a: 1}); try { await tools.fail({}) } catch (e) { return e.code + " " + r.a }`},
		{name: "tamper_iterator_prototype", want: "ok", exact: advStrp("2"),
			code: `Object.getPrototypeOf([][Symbol.iterator]()).next = () => { throw new Error("it") }; const r = await tools.rec({a: [1, 2]}); return r.a.length`},
		{name: "tamper_proto_key", want: "ok", exact: advStrp("true,1"), args: map[string][]string{"rec": {`{"__proto__":{"polluted":1},"a":1}`}},
			code: `const o = JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}'); const r = await tools.rec(o); return [({}).polluted === undefined, r.a].join()`},
	}
}

func advWrapper() []advCase {
	syn := func(name, code string) advCase {
		return advCase{name: "wrap_" + name, code: code, want: "syntax", excludes: []string{"escaped", "hidden"},
			check: func(t *testing.T, r *ptc.Result) {
				if r.Run != nil && len(r.Run.Output) > 0 {
					t.Errorf("code outside the body ran: %q", r.Run.Output)
				}
			}}
	}
	return []advCase{
		syn("close_iife", `})(); (function(){`),
		syn("close_iife_log", `})(); console.log("escaped"); (function(){`),
		syn("close_async", `}); console.log("escaped"); (async function () {`),
		syn("close_twice", `}))(); console.log("escaped"); ((async function(){`),
		syn("brace_only", `} console.log("escaped"); {`),
		syn("escaped_brace", `\u007d)(); console.log("escaped"); (function(){`),
		syn("comment_close", `*/ console.log("escaped") /*`),
		syn("unterminated_comment", `return 1 /*`),
		syn("unterminated_template", "return `abc"),
		syn("unterminated_string", `return "abc`),
		syn("lone_paren", `)`),
		syn("nul_outside_string", "return 1\x00; console.log(\"hidden\")"),
		syn("import_meta", `return import.meta`),
		syn("static_import", `import fs from "fs"`),
		syn("export", `export const x = 1`),
		syn("super", `return super.x`),
		syn("yield", `yield 1`),
		syn("strict_with", `"use strict"; with ({}) {}`),
		{name: "wrap_trailing_line_comment", want: "ok", exact: advStrp("1"), code: `return 1 // })`},
		{name: "wrap_html_comment", want: "ok", alt: []string{"syntax"}, excludes: []string{"escaped"}, code: `return 1 <!-- })(); console.log("escaped")`},
		{name: "wrap_bom", want: "ok", exact: advStrp("1"), code: "\ufeffreturn 1"},
		{name: "wrap_nul_in_string", want: "ok", exact: advStrp("3"), code: "return \"a\x00b\".length"},
		{name: "wrap_line_separator", want: "ok", exact: advStrp("2"), code: "return 1\u2028+1"},
	}
}

func advNames() []advCase {
	unknown := func(name, jsName string) advCase {
		return advCase{name: "name_" + name, want: "ok", exact: advStrp("UNKNOWN_TOOL"), args: map[string][]string{"rec": {}},
			code: `try { await __ptc_call(` + jsName + `, {}); return "called" } catch (e) { return e.code }`}
	}
	limit := func(t *testing.T, r *ptc.Result) {
		if !regexp.MustCompile(`1048576|1 ?MiB`).MatchString(registry.PlainText(r.Content)) {
			t.Errorf("the message does not name the 1 MiB argument limit")
		}
	}
	deep := func(t *testing.T, r *ptc.Result) {
		if !strings.Contains(registry.PlainText(r.Content), "64") {
			t.Errorf("the message does not name the depth limit of 64")
		}
	}
	invalid := func(name, code string, check func(*testing.T, *ptc.Result)) advCase {
		return advCase{name: name, want: "ok", contains: []string{"true INVALID_ARGUMENTS: "}, args: map[string][]string{"rec": {}}, check: check,
			code: code + `; try { await tools.rec(a); return "sent" } catch (e) { return (e instanceof ToolError) + " " + e.code + ": " + e.message }`}
	}
	deepTool := func(n int) string {
		return fmt.Sprintf(`try { const r = await tools.deep({n: %d}); let d = 0; for (let x = r; Array.isArray(x); x = x[0]) d++; return d } catch (e) { return e.code }`, n)
	}
	return []advCase{
		unknown("empty", `""`),
		unknown("proto", `"__proto__"`),
		unknown("constructor", `"constructor"`),
		unknown("tostring", `"toString"`),
		unknown("nul_suffix", `"rec\u0000"`),
		unknown("lone_surrogate", `"\uD800"`),
		unknown("path", `"../../etc/passwd"`),
		unknown("newline_suffix", `"rec\n"`),
		unknown("upper_case", `"REC"`),
		unknown("huge", `"x".repeat(1e6)`),
		{name: "name_tostring_throws", want: "ok", contains: []string{"caught"}, code: `try { await __ptc_call({ toString() { throw new Error("n") } }, {}) } catch (e) { return "caught " + e.message }`},
		{name: "name_symbol", want: "ok", contains: []string{"caught"}, code: `try { await __ptc_call(Symbol("x"), {}) } catch (e) { return "caught" }`},
		{name: "name_unknown_via_tools", want: "ok", exact: advStrp("UNKNOWN_TOOL"), code: `try { await tools.no_such_tool({}); return "called" } catch (e) { return e.code }`},
		{name: "args_run_code_duplicate_keys", raw: `{"code":"return 1","code":"return 2"}`, want: "error:INVALID_ARGUMENTS"},
		{name: "args_run_code_extra_key", raw: `{"code":"return 1","extra":1}`, want: "error:INVALID_ARGUMENTS"},
		{name: "args_run_code_deep", raw: `{"code":"return 1","x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`, want: "error:INVALID_ARGUMENTS"},
		invalid("args_depth_10k_objects", `let a = {}; for (let i = 0; i < 1e4; i++) a = {a}`, deep),
		invalid("args_depth_10k_arrays", `let a = []; for (let i = 0; i < 1e4; i++) a = [a]`, deep),
		invalid("args_depth_100", `let a = {}; for (let i = 0; i < 100; i++) a = {a}`, deep),
		{name: "args_depth_60_ok", want: "ok", exact: advStrp("sent"), code: `let a = {}; for (let i = 0; i < 60; i++) a = {a}; await tools.rec(a); return "sent"`},
		{name: "args_100mb", lim: host.Limits{Timeout: 30 * time.Second, MemoryBytes: 1 << 30}, want: "ok", contains: []string{"true INVALID_ARGUMENTS: "}, args: map[string][]string{"rec": {}}, check: limit,
			code: `const s = "x".repeat(100 << 20); try { await tools.rec({s}); return "sent" } catch (e) { return (e instanceof ToolError) + " " + e.code + ": " + e.message }`},
		invalid("args_2mb", `const a = {s: "x".repeat(2 << 20)}`, limit),
		invalid("args_many_keys", `const a = {}; for (let i = 0; i < 2e5; i++) a["k" + i] = i`, limit),
		invalid("args_sparse_array", `const a = []; a[1e7] = 1`, limit),
		{name: "args_just_under_limit", want: "ok", exact: advStrp("sent"), code: `await tools.rec({s: "x".repeat((1 << 20) - 100)}); return "sent"`},
		{name: "args_not_object", want: "ok", exact: advStrp("INVALID_ARGUMENTS"), code: `try { await tools.get_weather("Paris"); return "called" } catch (e) { return e.code }`},
		{name: "args_lone_surrogate", want: "ok", exact: advStrp("2"), code: `const r = await tools.rec({s: "a\uD800"}); return r.s.length`},
		{name: "args_numbers", want: "ok", exact: advStrp("sent"), args: map[string][]string{"rec": {`{"a":null,"b":0,"c":null,"d":1e21,"e":5e-324}`}},
			code: `await tools.rec({a: 1e400, b: -0, c: NaN, d: 1e21, e: 5e-324}); return "sent"`},
		{name: "result_duplicate_keys", want: "ok", code: `try { const r = await tools.dupkeys({}); return r.a } catch (e) { return e.code }`},
		{name: "result_deep_10k", want: "ok", code: deepTool(1e4)},
		{name: "result_deep_200k", want: "ok", code: deepTool(2e5)},
		{name: "result_lone_surrogate", want: "ok", exact: advStrp("\uFFFDx"), code: `return await tools.surrogate({})`},
	}
}

func advPanics() []advCase {
	tf := advStrp("TOOL_FAILED")
	return []advCase{
		{name: "tool_panic_caught", want: "ok", exact: tf, code: `try { await tools.boom({}) } catch (e) { return e.code }`},
		{name: "tool_panic_uncaught", want: "exception", code: `await tools.boom({})`},
		{name: "tool_panic_nil_map", want: "ok", exact: tf, code: `try { await tools.boomnil({}) } catch (e) { return e.code }`},
		{name: "tool_panic_stringer", want: "ok", exact: tf, code: `try { await tools.boomstringer({}) } catch (e) { return e.code }`},
		{name: "tool_panic_parallel", want: "ok", exact: advStrp("rejected,fulfilled,rejected"), code: `const r = await Promise.allSettled([tools.boom({}), tools.rec({a: 1}), tools.boom({})]); return r.map((x) => x.status).join()`},
		{name: "tool_marshal_panics", want: "ok", exact: tf, code: `try { await tools.badmarshal({}); return "ok" } catch (e) { return e.code }`},
		{name: "tool_ignores_context", lim: advLim300ms, want: "timeout", code: `await tools.sleepy({})`},
	}
}

func advSandbox() []advCase {
	noPasswd := []string{"root:", "/bin/"}
	return []advCase{
		{name: "sandbox_globals", want: "ok", exact: advStrp("none"),
			code: `return ["std", "os", "process", "fetch", "WebAssembly", "XMLHttpRequest", "Deno", "Bun", "scriptArgs", "bjson", "Worker", "importScripts", "localStorage", "load", "read", "readbuffer", "quit", "module", "exports"].filter((n) => typeof globalThis[n] !== "undefined").join() || "none"`},
		{name: "sandbox_global_names", want: "ok", exact: advStrp("none"),
			code: `return Object.getOwnPropertyNames(globalThis).filter((n) => /^(std|os|scriptArgs|bjson|process|module|exports|__filename|__dirname|fs|net)$/.test(n)).join() || "none"`},
		// require exists only to say there are no modules.
		{name: "sandbox_require", want: "ok", contains: []string{"there are no modules here"}, code: `try { require("fs"); return "loaded" } catch (e) { return e.message }`},
		{name: "sandbox_import_std", want: "ok", contains: []string{"blocked"}, code: `try { await import("std"); return "imported" } catch (e) { return "blocked: " + e.message }`},
		{name: "sandbox_import_os_exec", want: "exception", excludes: noPasswd, code: `const os = await import("os"); return os.exec(["cat", "/etc/passwd"])`},
		{name: "sandbox_import_passwd", want: "exception", excludes: noPasswd, code: `return String(await import("/etc/passwd"))`},
		{name: "sandbox_import_passwd_caught", want: "ok", contains: []string{"blocked"}, excludes: noPasswd, code: `try { const m = await import("/etc/passwd"); return JSON.stringify(m) } catch (e) { return "blocked: " + e.message }`},
		{name: "sandbox_import_data_url", want: "ok", exact: advStrp("blocked"), code: `try { await import("data:text/javascript,export default 1"); return "imported" } catch (e) { return "blocked" }`},
		{name: "sandbox_import_relative", want: "exception", code: `await import("./program.js")`},
		{name: "sandbox_require_fs", want: "exception", excludes: noPasswd, code: `return require("fs").readFileSync("/etc/passwd", "utf8")`},
		{name: "sandbox_fetch_file", want: "exception", excludes: noPasswd, code: `return await (await fetch("file:///etc/passwd")).text()`},
		{name: "sandbox_process_env", want: "exception", code: `return JSON.stringify(process.env)`},
		{name: "sandbox_function_this", want: "ok", exact: advStrp("undefined,undefined,undefined"), code: `const g = new Function("return this")(); return [typeof g.std, typeof g.os, typeof g.process].join()`},
		{name: "sandbox_constructor_chain", want: "ok", exact: advStrp("undefinedundefined"), code: `return (() => {}).constructor("return typeof std + typeof os")()`},
		{name: "sandbox_no_host_paths_in_stack", want: "ok", excludes: []string{"/work/", "/home/", "/tmp/", ".c:"}, code: `try { null.x } catch (e) { return String(e.stack) }`},
		{name: "sandbox_atomics_wait", lim: advLim300ms, want: "ok", alt: []string{"timeout"}, isolate: true,
			code: `try { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000); return "waited" } catch (e) { return "threw " + e.name }`},
	}
}

func advDeadlines() []advCase {
	const deadline = "the caller's deadline passed"
	lim30 := host.Limits{Timeout: 30 * time.Second}
	big30 := host.Limits{Timeout: 30 * time.Second, MemoryBytes: 512 << 20}
	return []advCase{
		{name: "deadline_caller_in_loop", lim: lim30, ctxTimeout: 300 * time.Millisecond, want: "aborted", contains: []string{deadline}, excludes: []string{"time limit"}, code: `for (;;) {}`},
		{name: "deadline_caller_in_subcall", lim: lim30, ctxTimeout: 300 * time.Millisecond, want: "aborted", contains: []string{deadline}, excludes: []string{"time limit", "TOOL_TIMEOUT"}, code: `await tools.block({})`},
		{name: "deadline_caller_tool_ignores_context", lim: lim30, ctxTimeout: 300 * time.Millisecond, want: "aborted", contains: []string{deadline}, code: `await tools.sleepy({})`},
		{name: "deadline_caller_in_builtin", lim: big30, ctxTimeout: 300 * time.Millisecond, want: "aborted", contains: []string{deadline}, isolate: true, freezes: freezeBuiltin,
			code: `const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.reverse()`},
		{name: "deadline_caller_in_parser", lim: big30, ctxTimeout: 300 * time.Millisecond, want: "aborted", contains: []string{deadline}, isolate: true, freezes: freezeParser,
			code: `new Function("0;".repeat(1e7))`},
		{name: "deadline_expired_before", lim: lim30, ctxExpired: true, want: "aborted", anyOf: []string{"cancelled before it started", deadline}, code: `return 1`},
		{name: "cancel_caller_in_loop", lim: lim30, cancelAfter: 100 * time.Millisecond, want: "aborted", contains: []string{"cancelled by the caller"}, code: `for (;;) {}`},
		{name: "cancel_caller_in_subcall", lim: lim30, cancelAfter: 100 * time.Millisecond, want: "aborted", contains: []string{"cancelled by the caller"}, code: `await tools.block({})`},
		{name: "cancel_before_start", lim: lim30, preCancel: true, want: "aborted", contains: []string{"cancelled before it started"}, code: `return 1`},
		{name: "timeout_1ns", lim: host.Limits{Timeout: 1}, want: "timeout", code: `return 1`},
		{name: "timeout_1ns_loop", lim: host.Limits{Timeout: 1}, want: "timeout", code: `for (;;) {}`},
		{name: "timeout_1us_subcall", lim: host.Limits{Timeout: time.Microsecond}, want: "timeout", code: `return await tools.rec({a: 1})`},
		{name: "timeout_program_shorter_than_caller", lim: advLim300ms, ctxTimeout: 10 * time.Second, want: "timeout", code: `for (;;) {}`},
		{name: "timeout_in_subcall", lim: advLim300ms, want: "timeout", excludes: []string{"TOOL_TIMEOUT"}, code: `await tools.block({})`},
	}
}

func advCloses() []advCase {
	const shut = "the executor shut down"
	lim := host.Limits{Timeout: 10 * time.Second}
	big := host.Limits{Timeout: 10 * time.Second, MemoryBytes: 512 << 20}
	c := func(name, phase, code string, l host.Limits) advCase {
		return advCase{name: "close_" + name, code: code, lim: l, close: &advClose{phase: phase, grace: 20 * time.Millisecond},
			want: "aborted", contains: []string{shut}, isolate: true, freezes: freezeClose}
	}
	cs := []advCase{
		c("before_start", "before", `return 1`, lim),
		c("during_instantiation", "instantiate", `for (;;) {}`, lim),
		c("during_subcall", "subcall", `await tools.block({})`, lim),
		c("in_js_loop", "loop", `await tools.mark({}); for (;;) {}`, lim),
		c("in_builtin", "builtin", `await tools.mark({}); const a = new Uint8Array(60e6); for (let i = 0; i < 1e9; i++) a.reverse()`, big),
		c("in_parser", "parser", `await tools.mark({}); new Function("0;".repeat(1e7))`, big),
		c("twice_concurrently", "twice", `await tools.mark({}); for (;;) {}`, lim),
		c("memory_bomb", "loop", `await tools.mark({}); const a = []; for (;;) a.push({})`, host.Limits{Timeout: 10 * time.Second, MemoryBytes: 1 << 30}),
	}
	shared := c("shared_host_in_js_loop", "loop", `await tools.mark({}); for (;;) {}`, lim)
	shared.close.sharedHost = true
	graceful := advCase{name: "close_graceful", lim: lim, close: &advClose{phase: "graceful", grace: 10 * time.Second},
		code: `await tools.wait({ms: 300}); return "finished"`, want: "ok", exact: advStrp("finished"), isolate: true, freezes: freezeClose}
	return append(cs, shared, graceful)
}

// --- tools ------------------------------------------------------------

// advEnv is one case's tool state.
type advEnv struct {
	mu      sync.Mutex
	args    map[string][]json.RawMessage
	entered chan string
	waited  time.Time // when the wait tool returned its value
}

func (e *advEnv) record(name string, a json.RawMessage) {
	e.mu.Lock()
	e.args[name] = append(e.args[name], append(json.RawMessage(nil), a...))
	e.mu.Unlock()
}

func (e *advEnv) enter(name string) {
	select {
	case e.entered <- name:
	default:
	}
}

type advBadMarshal struct{}

func (advBadMarshal) MarshalJSON() ([]byte, error) { panic("MarshalJSON exploded") }

type advBadStringer struct{}

func (advBadStringer) String() string { panic("String exploded") }

func advTools(env *advEnv) []*registry.Tool {
	raw := func(name string, fn func(ctx context.Context, a json.RawMessage) (any, error)) *registry.Tool {
		return registry.MustDefine(registry.RawSpec{
			Name:        name,
			Description: name + " (adversarial fixture)",
			Parallel:    true,
			Execute: func(ctx context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
				env.record(name, a)
				return fn(ctx, a)
			},
		})
	}
	weather := registry.MustDefine(registry.Spec[struct {
		City string `json:"city"`
	}, string]{
		Name:       "get_weather",
		Parameters: registry.Object(registry.Required("city", registry.String())),
		Execute: func(_ context.Context, a struct {
			City string `json:"city"`
		}, _ *registry.Exec) (string, error) {
			return "sunny in " + a.City, nil
		},
	})
	return []*registry.Tool{
		weather,
		raw("rec", func(_ context.Context, a json.RawMessage) (any, error) {
			return json.RawMessage(append([]byte(nil), a...)), nil
		}),
		raw("fail", func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("it failed") }),
		raw("boom", func(context.Context, json.RawMessage) (any, error) { panic("kaboom") }),
		raw("boomnil", func(context.Context, json.RawMessage) (any, error) {
			var m map[string]int
			m["x"] = 1 //lint:ignore SA5000 the tool panics on purpose (a runtime error, not a panic call)
			return m, nil
		}),
		raw("boomstringer", func(context.Context, json.RawMessage) (any, error) { panic(advBadStringer{}) }),
		raw("badmarshal", func(context.Context, json.RawMessage) (any, error) { return advBadMarshal{}, nil }),
		raw("block", func(ctx context.Context, _ json.RawMessage) (any, error) {
			env.enter("block")
			<-ctx.Done()
			return nil, ctx.Err()
		}),
		raw("mark", func(context.Context, json.RawMessage) (any, error) {
			env.enter("mark")
			return "marked", nil
		}),
		raw("wait", func(ctx context.Context, a json.RawMessage) (any, error) {
			env.enter("wait")
			var n struct{ Ms int }
			_ = json.Unmarshal(a, &n)
			select {
			case <-time.After(time.Duration(n.Ms) * time.Millisecond):
				env.mu.Lock()
				env.waited = time.Now()
				env.mu.Unlock()
				return n.Ms, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}),
		raw("sleepy", func(context.Context, json.RawMessage) (any, error) {
			time.Sleep(time.Second) // ignores its context
			return "slept", nil
		}),
		raw("bigerr", func(context.Context, json.RawMessage) (any, error) {
			return nil, errors.New(strings.Repeat("e", 2<<20))
		}),
		raw("deep", func(_ context.Context, a json.RawMessage) (any, error) {
			var n struct{ N int }
			_ = json.Unmarshal(a, &n)
			return json.RawMessage(strings.Repeat("[", n.N) + strings.Repeat("]", n.N)), nil
		}),
		raw("dupkeys", func(context.Context, json.RawMessage) (any, error) { return json.RawMessage(`{"a":1,"a":2}`), nil }),
		raw("surrogate", func(context.Context, json.RawMessage) (any, error) { return json.RawMessage(`"\ud800x"`), nil }),
	}
}

// --- the harness ------------------------------------------------------

var (
	advHostOnce sync.Once
	advHostVal  *host.Host
	advHostErr  error

	advBysOnce sync.Once
	advBysEx   *ptc.Executor
	advBysErr  error
)

func advHost(t *testing.T) *host.Host {
	t.Helper()
	advHostOnce.Do(func() {
		advHostVal, advHostErr = host.New(context.Background(), host.Config{CompilationCacheDir: advtest.Cache()})
	})
	if errors.Is(advHostErr, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	if advHostErr != nil {
		t.Fatal(advHostErr)
	}
	return advHostVal
}

// advBystanderExecutor runs the well-behaved programs, on the shared host.
func advBystanderExecutor(t *testing.T) *ptc.Executor {
	h := advHost(t)
	advBysOnce.Do(func() {
		pipe, err := pipeline.New(pipeline.Config{Registry: registry.New()})
		if err != nil {
			advBysErr = err
			return
		}
		advBysEx, advBysErr = ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: h})
	})
	if advBysErr != nil {
		t.Fatal(advBysErr)
	}
	return advBysEx
}

func advSuite(t *testing.T, cases []advCase) {
	advHost(t)
	advBystanderExecutor(t)
	child := advtest.IsChild()
	mode := os.Getenv("PTC_ADV_ISOLATE")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.pending != "" {
				t.Skip("pending " + c.pending)
			}
			if c.freezes != "" && testing.Short() && !child {
				t.Skip("froze or crashed the process in issue 10 (-short): " + c.freezes)
			}
			if !child && (mode == "all" || (c.isolate && mode != "none")) {
				if os.Getenv("PTC_ADV_PARALLEL") != "" {
					t.Parallel()
				}
				advtest.RunChild(t, advtest.Cache())
				return
			}
			advRunCase(t, c)
		})
	}
}

// advLimits fills a case's limits.
func advLimits(c advCase) host.Limits {
	l := c.lim
	if l.Timeout == 0 {
		l.Timeout = 5 * time.Second
	}
	return l
}

// advObserved is the kind the content reports.
func advObserved(r *ptc.Result) string {
	text := registry.PlainText(r.Content)
	if rest, ok := strings.CutPrefix(text, "Error: code run failed ("); ok {
		if i := strings.Index(rest, ")"); i > 0 {
			return rest[:i]
		}
	}
	if r.IsError {
		if r.Run == nil && r.Outcome != nil {
			return "error:" + pipeline.CodeOf(r.Outcome.Err())
		}
		return "error?"
	}
	return "ok"
}

// advBystander runs `return 1+1` in a loop on the shared host.
type advBystander struct {
	stop chan struct{}
	done chan struct{}

	mu        sync.Mutex
	runs      int
	lastStart time.Time
	lastEnd   time.Time
	slowest   time.Duration
	failures  []string
}

func advStartBystander(ex *ptc.Executor) *advBystander {
	b := &advBystander{stop: make(chan struct{}), done: make(chan struct{})}
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
			rs := ex.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{{ID: "bys", Name: ptc.ToolName, Arguments: json.RawMessage(`{"code":"return 1+1"}`)}}})
			cancel()
			d := time.Since(start)
			b.mu.Lock()
			b.runs++
			b.lastStart, b.lastEnd = start, time.Now()
			b.slowest = max(b.slowest, d)
			if len(rs) != 1 || registry.PlainText(rs[0].Content) != "2" {
				got := "no result"
				if len(rs) == 1 {
					got = registry.PlainText(rs[0].Content)
				}
				if len(b.failures) < 3 {
					b.failures = append(b.failures, got)
				}
			}
			b.mu.Unlock()
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return b
}

// finish waits until a run that started after since has completed (at
// most wait), then stops the loop.
func (b *advBystander) finish(since time.Time, wait time.Duration) (progressed bool, stopped bool) {
	deadline := time.Now().Add(wait)
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

// advProbe forces a GC every 100 ms so that a run the Go runtime cannot
// stop shows as a long stop-the-world pause.
type advProbe struct {
	stop, done chan struct{}
	slowestGC  atomic.Int64
}

func advStartProbe() *advProbe {
	p := &advProbe{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for {
			select {
			case <-p.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			s := time.Now()
			runtime.GC()
			if d := int64(time.Since(s)); d > p.slowestGC.Load() {
				p.slowestGC.Store(d)
			}
		}
	}()
	return p
}

// advRunCase runs one case in this process and checks everything.
func advRunCase(t *testing.T, c advCase) {
	h := advHost(t)
	bysEx := advBystanderExecutor(t)
	if advtest.IsChild() {
		stop := make(chan struct{})
		defer close(stop)
		go advtest.Heartbeat(stop)
	}
	baseline := goleak.IgnoreCurrent()
	lim := advLimits(c)

	env := &advEnv{args: map[string][]json.RawMessage{}, entered: make(chan string, 64)}
	reg := registry.New()
	for _, tl := range advTools(env) {
		if _, err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	if c.close != nil && c.close.phase == "instantiate" {
		// A tool set no run has seen: its prelude image is built now.
		extra := registry.MustDefine(registry.RawSpec{
			Name: fmt.Sprintf("fresh_%d", time.Now().UnixNano()),
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
				return nil, nil
			},
		})
		if _, err := reg.Register(extra); err != nil {
			t.Fatal(err)
		}
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	cfg := ptc.Config{Pipeline: pipe, Limits: lim, Host: h}
	if c.close != nil && !c.close.sharedHost {
		cfg.Host, cfg.HostConfig = nil, host.Config{CompilationCacheDir: advtest.Cache()}
	}
	ex, err := ptc.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			ex.Close(cctx)
			cancel()
		}
	}()

	args := c.raw
	if args == "" {
		b, _ := json.Marshal(map[string]string{"code": c.code})
		args = string(b)
	}
	batch := pipeline.Batch{Calls: []pipeline.RawCall{{ID: "call_1", Name: ptc.ToolName, Arguments: json.RawMessage(args)}}}

	ctx := context.Background()
	deadline := lim.Timeout
	var cancels []context.CancelFunc
	defer func() {
		for _, f := range cancels {
			f()
		}
	}()
	if c.ctxTimeout > 0 {
		cctx, cancel := context.WithTimeout(ctx, c.ctxTimeout)
		ctx, cancels = cctx, append(cancels, cancel)
		deadline = min(deadline, c.ctxTimeout)
	}
	if c.ctxExpired {
		cctx, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
		ctx, cancels = cctx, append(cancels, cancel)
		deadline = 0
	}
	if c.cancelAfter > 0 || c.preCancel {
		cctx, cancel := context.WithCancel(ctx)
		ctx, cancels = cctx, append(cancels, cancel)
		if c.preCancel {
			cancel()
			deadline = 0
		} else {
			time.AfterFunc(c.cancelAfter, cancel)
			deadline = min(deadline, c.cancelAfter)
		}
	}
	if c.ctxTimeout == 0 && !c.ctxExpired {
		// A safety net far past the program's own limit: a case whose
		// limit does not fire still ends, as aborted.
		cctx, cancel := context.WithTimeout(ctx, lim.Timeout+advWatchdogExtra/2)
		ctx, cancels = cctx, append(cancels, cancel)
	}

	bys := advStartBystander(bysEx)
	probe := advStartProbe()
	stw0 := advtest.ReadSTW()

	if c.close != nil && c.close.phase == "before" {
		cctx, cancel := context.WithTimeout(context.Background(), c.close.grace)
		if err := ex.Close(cctx); err != nil {
			t.Logf("Close before the batch: %v", err)
		}
		cancel()
		closed = true
	}

	type result struct {
		r     *ptc.Result
		panic any
		stack []byte
		at    time.Time
	}
	resCh := make(chan result, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				resCh <- result{panic: p, stack: debug.Stack(), at: time.Now()}
			}
		}()
		rs := ex.Execute(ctx, batch)
		var r *ptc.Result
		if len(rs) == 1 {
			r = rs[0]
		}
		resCh <- result{r: r, at: time.Now()}
	}()

	// Close during the run.
	var closeStart, closeEnd time.Time
	closeDone := make(chan struct{})
	if c.close != nil && c.close.phase != "before" {
		go func() {
			defer close(closeDone)
			waitFor := func(name string) bool {
				timeout := time.After(10 * time.Second)
				for {
					select {
					case n := <-env.entered:
						if n == name {
							return true
						}
					case <-timeout:
						t.Errorf("the program never reached tool %q", name)
						return false
					}
				}
			}
			switch c.close.phase {
			case "instantiate":
				time.Sleep(time.Millisecond)
			case "subcall":
				waitFor("block")
			case "loop":
				waitFor("mark")
				time.Sleep(30 * time.Millisecond)
			case "builtin", "parser":
				waitFor("mark")
				time.Sleep(150 * time.Millisecond)
			case "graceful":
				waitFor("wait")
			case "twice":
				waitFor("mark")
				time.Sleep(30 * time.Millisecond)
			}
			cctx, cancel := context.WithTimeout(context.Background(), c.close.grace)
			defer cancel()
			closeStart = time.Now()
			if c.close.phase == "twice" {
				var wg sync.WaitGroup
				for range 2 {
					wg.Add(1)
					go func() { defer wg.Done(); ex.Close(cctx) }()
				}
				wg.Wait()
			} else if err := ex.Close(cctx); err != nil {
				t.Logf("Close: %v", err)
			}
			closeEnd = time.Now()
		}()
		closed = true
	} else {
		close(closeDone)
	}

	watchdog := deadline + advSlack + advWatchdogExtra
	if c.close != nil {
		watchdog = 10*time.Second + c.close.grace + advSlack + advWatchdogExtra
	}
	var res result
	returned := false
	select {
	case res = <-resCh:
		returned = true
	case <-time.After(watchdog):
	}
	wall := time.Since(start)
	if returned {
		wall = res.at.Sub(start)
	}
	select {
	case <-closeDone:
	case <-time.After(c.closeWait()):
		t.Errorf("Executor.Close did not return within %v", c.closeWait())
	}
	stw1 := advtest.ReadSTW()
	progressed, stopped := bys.finish(start, 3*time.Second)
	close(probe.stop)
	select {
	case <-probe.done:
	case <-time.After(15 * time.Second):
		t.Errorf("the GC probe is stuck: the process cannot stop the world")
	}
	stw := advtest.MaxNewPause(stw0, stw1)

	summary := func(got, content string) {
		if len(content) > 200 {
			content = content[:200] + "…"
		}
		bys.mu.Lock()
		runs, slowest := bys.runs, bys.slowest
		bys.mu.Unlock()
		t.Logf("ADV %s want=%s got=%s wall=%v stw=%v gc=%v bystander=%d/%v content=%q",
			c.name, c.want, got, wall.Round(time.Millisecond), stw.Round(time.Millisecond),
			time.Duration(probe.slowestGC.Load()).Round(time.Millisecond), runs, slowest.Round(time.Millisecond), content)
	}

	if !returned {
		summary("no-return", "")
		t.Errorf("Execute did not return within %v (deadline %v): the run is stuck", watchdog, deadline)
		return // the stuck run's goroutines are not a leak to report
	}
	if res.panic != nil {
		summary("panic", fmt.Sprint(res.panic))
		t.Errorf("Execute panicked: %v\n%s", res.panic, res.stack)
		return
	}
	if res.r == nil {
		summary("no-result", "")
		t.Errorf("Execute returned no result")
		return
	}
	r := res.r
	text := registry.PlainText(r.Content)
	got := advObserved(r)
	summary(got, text)

	// The kind.
	if got != c.want && !advContains(c.alt, got) {
		t.Errorf("kind %s, want %s%s; content: %.300q", got, c.want, advAltText(c.alt), text)
	}
	if (got == "ok") == r.IsError {
		t.Errorf("IsError %v for kind %s", r.IsError, got)
	}
	if got == "internal" && c.want != "internal" {
		t.Errorf("an internal error: %.300q", text)
	}
	// The content.
	if c.exact != nil && text != *c.exact {
		t.Errorf("content %.300q, want %q", text, *c.exact)
	}
	want := c.contains
	if c.want == "timeout" && got == "timeout" {
		want = append(advClone(want), "program exceeded its time limit of "+lim.Timeout.String())
	}
	for _, s := range want {
		if !strings.Contains(text, s) {
			t.Errorf("content lacks %q: %.300q", s, text)
		}
	}
	if len(c.anyOf) > 0 {
		found := false
		for _, s := range c.anyOf {
			found = found || strings.Contains(text, s)
		}
		if !found {
			t.Errorf("content has none of %q: %.300q", c.anyOf, text)
		}
	}
	for _, s := range c.excludes {
		// A syntax error quotes the offending line of the program: what
		// must not show is the program's output or a value.
		if strings.Contains(strings.Join(syntaxExcerptFree(text), "\n"), s) {
			t.Errorf("content holds %q: %.300q", s, text)
		}
	}
	maxLen := c.maxLen
	if maxLen == 0 {
		maxLen = host.Limits{}.WithDefaults().ResultBytes + 128<<10
	}
	if len(text) > maxLen {
		t.Errorf("content is %d bytes, over %d", len(text), maxLen)
	}
	if !utf8.ValidString(text) {
		t.Errorf("content is not valid UTF-8 (a raw surrogate?): %.300q", text)
	}
	// The arguments the tools received.
	for tool, wantArgs := range c.args {
		env.mu.Lock()
		gotArgs := env.args[tool]
		env.mu.Unlock()
		if len(gotArgs) != len(wantArgs) {
			t.Errorf("tool %s received %d calls %q, want %d %q", tool, len(gotArgs), gotArgs, len(wantArgs), wantArgs)
			continue
		}
		for i := range wantArgs {
			if !advJSONEqual(gotArgs[i], []byte(wantArgs[i])) {
				t.Errorf("tool %s call %d received %s, want %s", tool, i+1, gotArgs[i], wantArgs[i])
			}
		}
	}
	if c.check != nil {
		c.check(t, r)
	}
	// Time.
	if c.close != nil && c.close.phase != "before" && !closeStart.IsZero() {
		if bound := closeStart.Add(c.close.grace + advSlack); res.at.After(bound) {
			t.Errorf("Execute returned %v after Close began (grace %v)", res.at.Sub(closeStart).Round(time.Millisecond), c.close.grace)
		}
		if closeEnd.Sub(closeStart) > c.close.grace+advSlack {
			t.Errorf("Close took %v (grace %v)", closeEnd.Sub(closeStart).Round(time.Millisecond), c.close.grace)
		}
		// The batch settles after its tool returned, and Close waits for
		// the batch: Close cannot return before the tool did. (Execute's
		// own return is observed a scheduling step after the batch is
		// done, so it cannot be compared with Close's end.)
		env.mu.Lock()
		waited := env.waited
		env.mu.Unlock()
		if c.close.phase == "graceful" && (waited.IsZero() || closeEnd.Before(waited)) {
			t.Errorf("Close returned before the running batch settled")
		}
	} else if wall > deadline+advSlack {
		t.Errorf("returned after %v, more than %v past its deadline of %v", wall.Round(time.Millisecond), advSlack, deadline)
	}
	// The rest of the process.
	bys.mu.Lock()
	if len(bys.failures) > 0 {
		t.Errorf("the well-behaved run failed beside this case: %q", bys.failures)
	}
	if bys.slowest > advBystanderMax {
		t.Errorf("a well-behaved run took %v beside this case (max %v)", bys.slowest.Round(time.Millisecond), advBystanderMax)
	}
	bys.mu.Unlock()
	if !progressed {
		t.Errorf("no well-behaved run completed after this case started")
	}
	if !stopped {
		t.Errorf("the well-behaved run is stuck")
		return
	}
	if stw > advSTWMax {
		t.Errorf("a stop-the-world pause of at least %v during this case (max %v): the run stalled every goroutine", stw.Round(time.Millisecond), advSTWMax)
	}
	if !closed {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ex.Close(cctx)
		cancel()
		closed = true
	}
	if err := goleak.Find(baseline); err != nil {
		t.Errorf("goroutines leaked: %v", err)
	}
}

func (c advCase) closeWait() time.Duration {
	if c.close == nil {
		return time.Second
	}
	return c.close.grace + advSlack + 10*time.Second
}

func advContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func advAltText(alt []string) string {
	if len(alt) == 0 {
		return ""
	}
	return " (or " + strings.Join(alt, ", ") + ")"
}

func advClone(s []string) []string { return append([]string(nil), s...) }

func advJSONEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

// syntaxExcerptFree drops the lines a syntax error quotes (the offending
// line and its caret, indented by four spaces) from content.
func syntaxExcerptFree(text string) []string {
	lines := strings.Split(text, "\n")
	if !strings.HasPrefix(text, "Error: code run failed (syntax)") {
		return lines
	}
	out := lines[:1]
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "    ") {
			out = append(out, l)
		}
	}
	return out
}
