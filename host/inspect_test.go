package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ptchost/ptc/guest/quickjs"
)

// The guest's printing (guest/quickjs/js/inspect.js) is held to Node 20's:
// testdata/inspect/cases.json, written by gen.js with Node, holds each
// case's code and what Node printed. The cases run in the real guest with
// inspect.js loaded by a prelude over a stub of the natives the bootstrap
// gives it.

type inspectCase struct {
	Name     string `json:"name"`
	Code     string `json:"code"`
	Expected string `json:"expected"`
}

func loadInspectCases(t testing.TB) []inspectCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "inspect", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []inspectCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func inspectSource(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "guest", "quickjs", "js", "inspect.js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// inspectHarness defines __inspectCases(cases): it runs each case's code
// with a fresh instance of the library (so console's groups, counts and
// timers start empty) and returns, as one JSON string, what each printed.
// The stub natives: write collects, now reads h.clock, frames returns what
// h.err registered (else h.traceFrames), promiseState what h.track saw.
// h.sabotage replaces the built-ins a printer could use with functions
// that throw, until the case ends.
const inspectHarness = `
globalThis.__inspectCases = (function (factory) {
  'use strict';
  const stringify = JSON.stringify;
  const AsyncFunction = (async function () {}).constructor;
  const gopd = Object.getOwnPropertyDescriptor, dp = Object.defineProperty, ownKeys = Reflect.ownKeys;
  const getProto = Object.getPrototypeOf, apply = Reflect.apply;
  const wm = WeakMap.prototype, wmGet = wm.get, wmSet = wm.set, wmHas = wm.has;
  const then = Promise.prototype.then;
  const WM = WeakMap, Err = Error;
  const st = { out: '', now: 0, traceFrames: '', frames: null, promises: null, boom: '' };
  const native = {
    write(text) { st.out += text + '\n'; },
    now() { return st.now; },
    frames(e) {
      return apply(wmHas, st.frames, [e]) ? apply(wmGet, st.frames, [e]) : st.traceFrames;
    },
    promiseState(p) {
      return apply(wmHas, st.promises, [p]) ? apply(wmGet, st.promises, [p]) : undefined;
    },
  };
  const targets = [globalThis, Object, Object.prototype, Array, Array.prototype, String, String.prototype,
    Number, Number.prototype, Boolean.prototype, BigInt.prototype, Symbol, Symbol.prototype, Math, JSON, Reflect,
    RegExp, RegExp.prototype, Map.prototype, Set.prototype, WeakMap.prototype, WeakSet.prototype,
    Date, Date.prototype, Error, Error.prototype, Function.prototype, Promise, Promise.prototype,
    getProto(new Map().entries()), getProto(new Set().values()), getProto([].values()),
    getProto(getProto([].values())), getProto(Uint8Array.prototype), getProto(Uint8Array), Uint8Array.prototype,
    ArrayBuffer, ArrayBuffer.prototype, DataView.prototype];
  const keep = ['constructor', 'prototype', 'length', 'name', 'caller', 'arguments', 'globalThis',
    '__inspectCases', 'undefined', 'NaN', 'Infinity'];
  const has = (arr, v) => { for (let i = 0; i < arr.length; i++) if (arr[i] === v) return true; return false; };
  function boom() { const e = new Err('a sabotaged built-in was called'); if (st.boom === '') st.boom = e.stack; throw e; }
  let saved = [];
  function sabotage() {
    for (let t = 0; t < targets.length; t++) {
      const target = targets[t];
      const keys = ownKeys(target);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (has(keep, key)) continue;
        const d = gopd(target, key);
        if (!d.configurable) continue;
        if ('value' in d && (typeof d.value === 'function' || (target === globalThis && typeof d.value === 'object'))) {
          saved[saved.length] = [target, key, d];
          dp(target, key, { value: boom, writable: true, configurable: true });
        } else if (d.get) {
          saved[saved.length] = [target, key, d];
          dp(target, key, { get: boom, set: d.set, configurable: true });
        }
      }
    }
  }
  function restore() {
    for (let i = saved.length - 1; i >= 0; i--) dp(saved[i][0], saved[i][1], saved[i][2]);
    saved = [];
  }
  async function runCase(code) {
    st.out = '';
    st.boom = '';
    st.now = 0;
    st.traceFrames = '';
    st.frames = new WM();
    st.promises = new WM();
    const lib = factory(native);
    const h = {
      err(e, frames = '') { apply(wmSet, st.frames, [e, frames]); return e; },
      traceFrames(f) { st.traceFrames = f; },
      clock(ms) { st.now = ms; },
      track(p) {
        apply(wmSet, st.promises, [p, ['pending']]);
        apply(then, p, [(v) => apply(wmSet, st.promises, [p, ['fulfilled', v]]),
          (e) => apply(wmSet, st.promises, [p, ['rejected', e]])]);
        return p;
      },
      async tick() { for (let i = 0; i < 10; i++) await null; },
      rv: (v) => lib.returnValue(v),
      rvText: (v) => stringify(lib.returnValue(v)),
      sabotage,
    };
    try {
      await new AsyncFunction('console', 'util', 'h', code)(lib.console, { format: lib.format, inspect: lib.inspect }, h);
    } catch (e) {
      restore();
      st.out += 'THREW: ' + String(e) + '\n' + (e && e.stack);
    }
    restore();
    if (st.boom !== '') st.out += 'SABOTAGED BUILT-IN CALLED:\n' + st.boom;
    return st.out;
  }
  return async function (cases) {
    const out = [];
    for (let i = 0; i < cases.length; i++) out.push(await runCase(cases[i].code));
    return stringify(out);
  };
})(%s);
`

var inspectHosts sync.Map // struct{} -> *Host

func inspectHost(t testing.TB) *Host {
	t.Helper()
	if h, ok := inspectHosts.Load(struct{}{}); ok {
		return h.(*Host)
	}
	h, err := New(context.Background(), Config{})
	if errors.Is(err, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	if err != nil {
		t.Fatal(err)
	}
	if prev, loaded := inspectHosts.LoadOrStore(struct{}{}, h); loaded {
		h.Close(context.Background())
		return prev.(*Host)
	}
	return h
}

// runInspectCases runs cases in one guest run and returns what each printed.
func runInspectCases(t testing.TB, h *Host, src string, cases []inspectCase) []string {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	prelude := fmt.Sprintf(inspectHarness, src) + "globalThis.__cases = " + string(in) + ";\n"
	out := h.Run(context.Background(), Program{
		Prelude: prelude,
		Source:  `return await __inspectCases(__cases);`,
	})
	if out.Kind != KindOK {
		t.Fatalf("run failed: %s: %s\n%s", out.Kind, out.Message, out.Stack)
	}
	raw := []byte(out.ReturnValue)
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		raw = []byte(s)
	}
	var got []string
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("results: %v: %.200s", err, raw)
	}
	if len(got) != len(cases) {
		t.Fatalf("%d results for %d cases", len(got), len(cases))
	}
	return got
}

func TestInspect_node20(t *testing.T) {
	cases := loadInspectCases(t)
	h := inspectHost(t)
	got := runInspectCases(t, h, inspectSource(t), cases)
	match := 0
	var b strings.Builder
	for i, c := range cases {
		if got[i] == c.Expected {
			match++
			continue
		}
		fmt.Fprintf(&b, "\n--- %s\ncode:\n%s\nwant:\n%s\ngot:\n%s", c.Name, c.Code, c.Expected, got[i])
	}
	t.Logf("%d/%d cases match", match, len(cases))
	if match != len(cases) {
		t.Errorf("%d mismatches:%s", len(cases)-match, b.String())
	}
}

// BenchmarkInspect measures, inside the guest, what printing costs: the
// guest-ms/op metric is the mean over a loop in one run (the run's own
// start-up is not in it).
func BenchmarkInspect(b *testing.B) {
	h := inspectHost(b)
	src := inspectSource(b)
	quoted, err := json.Marshal(src)
	if err != nil {
		b.Fatal(err)
	}
	prelude := "globalThis.__native = { write() {}, now() { return 0; }, frames() { return ''; }, promiseState() {} };\n" +
		"globalThis.__src = " + string(quoted) + ";\n" +
		"globalThis.__factory = (" + src + ");\n" +
		"globalThis.__lib = __factory(__native);\n"
	for _, bc := range []struct {
		name, setup, op string
		loops           int
	}{
		{"parse-and-factory", "", "(0, eval)(__src)(__native)", 10},
		{"factory", "", "__factory(__native)", 20},
		{"log-small-object", "const o = { id: 1, name: 'x', tags: ['a', 'b'] };", "__lib.console.log(o)", 500},
		{"log-300-rows", "const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, name: 'user' + i, active: i % 2 === 0 }));",
			"__lib.console.log(rows)", 10},
		{"inspect-map-1000", "const m = new Map(Array.from({ length: 1000 }, (_, i) => ['key' + i, { v: i }]));",
			"__lib.inspect(m)", 10},
		{"returnValue-map-1000", "const m = new Map(Array.from({ length: 1000 }, (_, i) => ['key' + i, { v: i }]));",
			"__lib.returnValue(m)", 5},
		{"returnValue-plain-1000", "const a = Array.from({ length: 1000 }, (_, i) => ({ id: i, name: 'n' + i }));",
			"__lib.returnValue(a)", 10},
	} {
		b.Run(bc.name, func(b *testing.B) {
			source := fmt.Sprintf("%s\nconst t0 = Date.now();\nfor (let i = 0; i < %d; i++) %s;\nreturn (Date.now() - t0) / %d;",
				bc.setup, bc.loops, bc.op, bc.loops)
			var total float64
			for b.Loop() {
				out := h.Run(context.Background(), Program{Prelude: prelude, Source: source})
				if out.Kind != KindOK {
					b.Fatalf("%s: %s", out.Kind, out.Message)
				}
				var ms float64
				if err := json.Unmarshal(out.ReturnValue, &ms); err != nil {
					b.Fatal(err)
				}
				total += ms
			}
			b.ReportMetric(total/float64(b.N), "guest-ms/op")
		})
	}
}

// TestInspect_hostile holds what Node cannot be asked about: values whose
// every operation throws, structures deeper than the stack, huge arrays,
// and what the guest cannot see (an iterator's items). Printing them never
// throws and stays within the run's memory.
func TestInspect_hostile(t *testing.T) {
	h := inspectHost(t)
	prelude := "globalThis.__out = [];\nglobalThis.__lib = (" + inspectSource(t) + ")({ write(s) { __out.push(s); }, now() { return 0; }, frames() { return ''; } });\n"
	for _, c := range []struct {
		name, code string
		want       []string // lines printed, in order
	}{
		{"revoked proxy", "const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); console.log(proxy, [proxy]); console.log(lib.returnValue(proxy)[1]);",
			[]string{"<Revoked Proxy> [ <Revoked Proxy> ]", "<Revoked Proxy>"}},
		{"throwing traps", `const p = new Proxy({}, { ownKeys() { throw new Error('ownKeys'); }, getPrototypeOf() { throw new Error('proto'); },
			get() { throw new Error('get'); }, has() { throw new Error('has'); }, getOwnPropertyDescriptor() { throw new Error('gopd'); } });
			console.log(p, { p }); console.log('%s|%d|%i|%f|%j|%o|%O', p, p, p, p, p, p, p); console.table(p); console.dir(p);
			console.log(JSON.stringify(lib.returnValue(p)));`,
			[]string{"<Inspection threw (get)> { p: <Inspection threw (get)> }",
				"<Inspection threw (get)>|NaN|NaN|NaN|<Inspection threw (get)>|<Inspection threw (get)>|<Inspection threw (get)>",
				"<Inspection threw (proto)>", "<Inspection threw (proto)>", `["text","<Inspection threw (get)>","null"]`}},
		{"throwing custom inspect", "console.log({ [Symbol.for('nodejs.util.inspect.custom')]() { throw new Error('custom'); } });",
			[]string{"<Inspection threw (custom)>"}},
		{"throwing toString", "console.log('%s', { toString() { throw new Error('ts'); } }); console.log('%d', { valueOf() { throw new Error('v'); } });",
			[]string{"<Inspection threw (ts)>", "NaN"}},
		{"symbol labels", "console.assert(false, Symbol('x')); console.count(Symbol('c')); console.time(Symbol('t')); console.timeEnd(Symbol('t'));",
			[]string{"Assertion failed: Symbol(x)", "Symbol(c): 1", "Symbol(t): 0ms"}},
		{"deeper than the stack", `let deep = {}; for (let i = 0; i < 100000; i++) deep = { a: deep };
			const s = lib.inspect(deep, { depth: Infinity }); console.log(s.includes('Maximum call stack size exceeded'));
			const rv = lib.returnValue(deep); console.log(rv[0], rv[1].includes('Maximum call stack size exceeded'), rv[2]);
			let arr = []; for (let i = 0; i < 100000; i++) arr = [arr]; console.log(lib.returnValue(arr)[0]);`,
			[]string{"true", "text true null", "text"}},
		{"huge arrays", `const big = new Array(1e6).fill(1); big.extra = 1; console.log(lib.inspect(big).length);
			delete big[5]; console.log(lib.inspect(big).split('\n')[2]);
			console.log(lib.inspect(new Uint8Array(1e7)).length);`,
			[]string{"345", "  <1 empty item>, 1, 1, 1, 1,", "367"}},
		{"iterators", "const m = new Map([['a', 1]]); console.log(m.entries(), m.keys(), new Set([1]).values()); console.log([...m.entries()]);",
			[]string{"[Map Iterator] { <items unknown> } [Map Iterator] { <items unknown> } [Set Iterator] { <items unknown> }", "[ [ 'a', 1 ] ]"}},
		{"promise without promiseState", "console.log(Promise.resolve(1));",
			[]string{"Promise { <unknown> }"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "const lib = __lib, console = lib.console;\n" + c.code + "\nreturn JSON.stringify(__out);"
			out := h.Run(context.Background(), Program{Prelude: prelude, Source: src})
			if out.Kind != KindOK {
				t.Fatalf("%s: %s\n%s", out.Kind, out.Message, out.Stack)
			}
			var s string
			if err := json.Unmarshal(out.ReturnValue, &s); err != nil {
				t.Fatal(err)
			}
			var got []string
			if err := json.Unmarshal([]byte(s), &got); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("printed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
