package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// fingerprint is a program that describes the world it runs in (it must
// not name Intl: a program that does starts from another image once that
// image is built, see imagePrelude): the
// global object's and the built-in prototypes' own properties with their
// types, a few values, and what the tools prelude left. Two runs see the
// same world exactly when they return the same fingerprint.
const fingerprint = `
const names = (o) => Object.getOwnPropertyNames(o).sort().map((k) => {
  // Descriptors, not values: a getter may load locale data lazily.
  const d = Object.getOwnPropertyDescriptor(o, k)
  return k + ":" + (d.get ? "get" : typeof d.value) + (d.writable ? "w" : "") + (d.enumerable ? "e" : "") + (d.configurable ? "c" : "")
}).join(",") + "|" + Object.getOwnPropertySymbols(o).length + "|" + Object.isExtensible(o)
const objs = [globalThis, Object, Object.prototype, Array.prototype, Function.prototype, String.prototype,
  Number.prototype, Boolean.prototype, Symbol.prototype, Promise.prototype, Map.prototype, Set.prototype,
  RegExp.prototype, Date.prototype, Error.prototype, JSON, Math, Reflect]
const out = objs.map(names)
out.push(typeof tools, String(Symbol.for("k").description), JSON.stringify({a: [1, "x"]}), [3, 1, 2].sort().join(),
  String(new Date(0).toISOString()), "abc".replace(/b/, "B"), Array.prototype.push.toString(), Math.max.name,
  String(Object.prototype.toString.call(null)), String((function () { return this })()), String(Error.stackTraceLimit))
const sum = (s) => { let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return h }
return out.map(sum).join(" ") + " / " + out.slice(-11).join(" ; ")`

// dirty are programs that leave whatever state they can behind: globals,
// prototypes, built-ins, the heap, the stack, timers, the symbol registry,
// Intl's lazily loaded data.
var dirty = []string{
	`globalThis.x = 1; var y = 2; this.z = 3; return 1`,
	`Object.prototype.polluted = 1; Array.prototype.push = () => 0; String.prototype.trim = null; return 1`,
	`Math.max = () => 42; JSON.stringify = () => "no"; Date.prototype.toISOString = () => "never"; return 1`,
	`Object.freeze(Object.prototype); Object.preventExtensions(globalThis); return 1`,
	`delete globalThis.Map; delete Array.prototype.map; console.log = null; return 1`,
	`Symbol.for("k"); globalThis[Symbol.iterator] = 1; Error.stackTraceLimit = 1; return 1`,
	`globalThis.keep = "x".repeat(1 << 20); globalThis.objs = Array.from({length: 10000}, (_, i) => ({i})); return 1`,
	`const f = (n) => n === 0 ? 0 : 1 + f(n - 1); return f(5000)`,
	`setInterval(() => { globalThis.tick = 1 }, 1); setTimeout(() => { Object.prototype.late = 1 }, 0); return 1`,
	`new Intl.NumberFormat("de-DE", {style: "currency", currency: "EUR"}).format(1234.5); return (1.5).toLocaleString("fr-FR")`,
	`Object.defineProperty(globalThis, "tools", {value: 1, writable: false}); return 1`,
	`try { null.x } catch (e) { globalThis.err = e } throw new Error("thrown, after changing things")`,
	`Promise.prototype.then = function () { return 1 }; return 1`,
	`RegExp.prototype.exec = () => null; "a".match(/a/); return 1`,
}

// TestRecycle_noStateCrosses runs each dirtying program, then the
// fingerprint on the instance it left, and compares the fingerprint with
// that of a new instance: nothing a run does is seen by the next.
func TestRecycle_noStateCrosses(t *testing.T) {
	fresh := newHost(t, host.Config{FreshInstances: true})
	want := fresh.Run(context.Background(), host.Program{Source: fingerprint})
	require.Equal(t, host.KindOK, want.Kind, want.Text())

	// A host of its own: the check must be set before its first run.
	h, err := host.New(context.Background(), host.Config{})
	require.NoError(t, err)
	defer h.Close(context.Background())
	resets := h.ResetCheck()
	before := h.Recycled()
	for _, src := range dirty {
		d := h.Run(context.Background(), host.Program{Source: src, Limits: host.Limits{Timeout: 5 * time.Second}})
		require.NotEqual(t, host.KindInternal, d.Kind, d.Text())
		got := h.Run(context.Background(), host.Program{Source: fingerprint})
		require.Equal(t, host.KindOK, got.Kind, got.Text())
		require.Equal(t, want.Text(), got.Text(), "after %s", src)
	}
	// Every fingerprint but those after the programs that grew their
	// memory (the 1 MiB string, Intl's data) ran on the instance the
	// program before it left, and every program on the one the
	// fingerprint before it left.
	require.GreaterOrEqual(t, h.Recycled()-before, int64(2*len(dirty)-3))
	// With a prelude, the same holds for the prelude's image.
	const prelude = `globalThis.tools = {hello: () => "hi"}`
	wantP := fresh.Run(context.Background(), host.Program{Source: fingerprint, Prelude: prelude})
	for _, src := range dirty {
		h.Run(context.Background(), host.Program{Source: src, Prelude: prelude, Limits: host.Limits{Timeout: 5 * time.Second}})
		got := h.Run(context.Background(), host.Program{Source: fingerprint, Prelude: prelude})
		require.Equal(t, wantP.Text(), got.Text(), "after %s", src)
	}
	// And beyond what a program can see: every reset left the memory
	// its image, byte for byte, though it copied only the stack the run
	// used.
	n, diffs := resets.Seen()
	require.Empty(t, diffs)
	require.GreaterOrEqual(t, n, 2*len(dirty))
}

// TestRecycle_adversarialInterleaved interleaves hostile programs with
// normal ones: the instances they stop, trap or grow are not reused, and a
// normal run after each sees a new world.
func TestRecycle_adversarialInterleaved(t *testing.T) {
	fresh := newHost(t, host.Config{FreshInstances: true})
	want := fresh.Run(context.Background(), host.Program{Source: fingerprint}).Text()
	h := newHost(t, host.Config{})
	hostile := []struct {
		src  string
		kind host.Kind
		lim  host.Limits
	}{
		{`for (;;) {}`, host.KindTimeout, host.Limits{Timeout: 100 * time.Millisecond}},
		{`const a = []; for (;;) a.push("x".repeat(1000))`, host.KindMemory, host.Limits{MemoryBytes: 16 << 20}},
		{`const f = () => f(); f()`, host.KindException, host.Limits{}},
		{`for (let i = 0; ; i++) console.log("line " + i)`, host.KindOutputLimit, host.Limits{OutputBytes: 1000}},
		{`"x".repeat(1 << 28)`, host.KindMemory, host.Limits{MemoryBytes: 16 << 20}},
		{`await new Promise(() => {})`, host.KindException, host.Limits{}},
		{`for (let i = 0; i < 2000; i++) __ptc_call("t", {i}); await new Promise(r => setTimeout(r, 1e9))`, host.KindSubcallLimit, host.Limits{Timeout: 2 * time.Second}},
	}
	for round := 0; round < 2; round++ {
		for _, c := range hostile {
			out := h.Run(context.Background(), host.Program{Source: c.src, Limits: c.lim})
			require.Equal(t, c.kind, out.Kind, "%s: %s", c.src, out.Text())
			before := h.Recycled()
			got := h.Run(context.Background(), host.Program{Source: fingerprint})
			require.Equal(t, want, got.Text(), "after %s", c.src)
			if c.kind == host.KindTimeout || c.kind == host.KindOutputLimit || c.kind == host.KindSubcallLimit {
				// Stopped: its instance was closed (the runs are
				// sequential, so the pool held at most the one instance
				// the hostile run took), and the fingerprint got a new
				// one. (A program that threw, or ran out of memory inside
				// QuickJS's allocator limit, returned normally: its
				// instance is as good as new once reset, unless its memory
				// grew.)
				require.Equal(t, before, h.Recycled(), "after %s", c.src)
			}
		}
	}
}

// A run's clock and random source are its own, also on a recycled
// instance.
func TestRecycle_clockAndRandom(t *testing.T) {
	h := newHost(t, host.Config{})
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	src := `return [new Date().toISOString(), Math.random()]`
	first := h.Run(context.Background(), host.Program{Source: src, Virtual: true, Start: at})
	second := h.Run(context.Background(), host.Program{Source: src})
	require.Contains(t, string(first.ReturnValue), "2030-01-01T00:00:00.000Z")
	require.NotContains(t, string(second.ReturnValue), "2030-01-01")
	var a, b []any
	require.NoError(t, json.Unmarshal(first.ReturnValue, &a))
	require.NoError(t, json.Unmarshal(second.ReturnValue, &b))
	require.NotEqual(t, a[1], b[1])
}

// FuzzRecycle: whatever a program does, the next run on the instance it
// left sees a new world.
func FuzzRecycle(f *testing.F) {
	for _, src := range dirty {
		f.Add(src)
	}
	f.Add(`for (;;) {}`)
	f.Add(`Object.setPrototypeOf(Object.prototype, null)`)
	fresh := newHost(f, host.Config{FreshInstances: true})
	want := fresh.Run(context.Background(), host.Program{Source: fingerprint}).Text()
	h, err := host.New(context.Background(), host.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { h.Close(context.Background()) })
	resets := h.ResetCheck()
	f.Fuzz(func(t *testing.T, src string) {
		h.Run(context.Background(), host.Program{Source: src, Limits: host.Limits{Timeout: 200 * time.Millisecond, MemoryBytes: 16 << 20}})
		if _, diffs := resets.Seen(); len(diffs) > 0 {
			t.Fatalf("after %q: %s", src, diffs[0])
		}
		got := h.Run(context.Background(), host.Program{Source: fingerprint})
		if got.Text() != want {
			t.Fatalf("after %q the next run saw another world:\n%s\nwant\n%s", src, got.Text(), want)
		}
		if strings.Contains(got.Text(), "Error:") {
			t.Fatal(got.Text())
		}
	})
}
