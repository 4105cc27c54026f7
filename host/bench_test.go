package host_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptchost/ptc/host"
)

// echo answers every subcall with its arguments, at once.
var echo = host.DispatcherFunc(func(_ context.Context, c host.Call) host.Reply {
	return host.Reply{Value: c.Args}
})

func BenchmarkHost_New(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			h, err := host.New(context.Background(), host.Config{})
			if err != nil {
				b.Skip(err)
			}
			h.Close(context.Background())
		}
	})
	b.Run("cache_dir", func(b *testing.B) {
		dir := b.TempDir()
		h, err := host.New(context.Background(), host.Config{CompilationCacheDir: dir})
		if err != nil {
			b.Skip(err)
		}
		h.Close(context.Background())
		for b.Loop() {
			h, err := host.New(context.Background(), host.Config{CompilationCacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			h.Close(context.Background())
		}
	})
}

func benchRun(b *testing.B, h *host.Host, p host.Program, want string) {
	b.Helper()
	ctx := context.Background()
	for b.Loop() {
		out := h.Run(ctx, p)
		if out.Kind != host.KindOK || (want != "" && out.Text() != want) {
			b.Fatalf("%s: %s", out.Kind, out.Text())
		}
	}
}

const fib = `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } return fib(27)`

func BenchmarkHost_Run(b *testing.B) {
	h := newHost(b, host.Config{})
	b.Run("return_1", func(b *testing.B) {
		benchRun(b, h, host.Program{Source: `return 1`}, "1")
	})
	b.Run("subcall_1", func(b *testing.B) {
		benchRun(b, h, host.Program{Dispatcher: echo, Source: `return (await __ptc_call("echo", {a: 1})).a`}, "1")
	})
	b.Run("subcalls_1000_sequential", func(b *testing.B) {
		benchRun(b, h, host.Program{Dispatcher: echo, Source: `
			let s = 0; for (let i = 0; i < 1000; i++) s += (await __ptc_call("echo", {i})).i; return s`}, "499500")
	})
	b.Run("subcalls_100_parallel", func(b *testing.B) {
		benchRun(b, h, host.Program{Dispatcher: echo, Source: `
			const r = await Promise.all(Array.from({length: 100}, (_, i) => __ptc_call("echo", {i})));
			return r.length`}, "100")
	})
	// A prelude of 200 small functions: evaluated per run ("uncached",
	// a new prelude each time) against started from its cached image.
	var sdk strings.Builder
	sdk.WriteString("globalThis.tools = Object.freeze({")
	for i := range 200 {
		fmt.Fprintf(&sdk, "t%d: (a) => __ptc_call(\"t%d\", a),\n", i, i)
	}
	sdk.WriteString("});")
	b.Run("prelude_200_cached", func(b *testing.B) {
		benchRun(b, h, host.Program{Prelude: sdk.String(), Source: `return Object.keys(tools).length`}, "200")
	})
	b.Run("prelude_200_uncached", func(b *testing.B) {
		n := 0
		for b.Loop() {
			n++
			p := host.Program{Prelude: sdk.String() + "//" + fmt.Sprint(n), Source: `return Object.keys(tools).length`}
			if out := h.Run(context.Background(), p); out.Text() != "200" {
				b.Fatal(out.Text())
			}
		}
	})
	// Intl from a run: "lazy" reaches it without naming it, so it loads the
	// bundle's bytecode on first use; "warm" names it and starts from the
	// image with Intl installed (built before the timing starts).
	const intlProg = `const d = new Date(Date.UTC(2024, 2, 10));
		return [(192500.7)[%q]("en-US", {style: "currency", currency: "USD"}), d[%q]("de-DE", {dateStyle: "long"})].join(" ")`
	const intlWant = "$192,500.70 10. März 2024"
	b.Run("intl_lazy", func(b *testing.B) {
		benchRun(b, h, host.Program{Source: fmt.Sprintf(intlProg, "to"+"Locale"+"String", "to"+"Locale"+"DateString")}, intlWant)
	})
	b.Run("intl_warm", func(b *testing.B) {
		p := host.Program{Source: fmt.Sprintf(intlProg, "toLocaleString", "toLocaleDateString") + " // Intl"}
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) { // the first run starts the image's build
			h.Run(context.Background(), p)
			if h.Run(context.Background(), p).MemoryBytes > 8<<20 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		benchRun(b, h, p, intlWant)
	})
	b.Run("memory_grow_40MB", func(b *testing.B) {
		benchRun(b, h, host.Program{Source: `
			const k = []; for (let i = 0; i < 40; i++) k.push(new Uint8Array(1 << 20)); return k.length`}, "40")
	})
}

// BenchmarkHost_Run_recycle compares a run on an instance an earlier run
// left (the default) with one on a new instance (Config.FreshInstances).
func BenchmarkHost_Run_recycle(b *testing.B) {
	for _, fresh := range []bool{false, true} {
		h := newHost(b, host.Config{FreshInstances: fresh})
		name := "recycled"
		if fresh {
			name = "fresh"
		}
		b.Run(name+"/return_1", func(b *testing.B) {
			benchRun(b, h, host.Program{Source: `return 1`}, "1")
		})
		b.Run(name+"/subcall_1", func(b *testing.B) {
			benchRun(b, h, host.Program{Dispatcher: echo, Source: `return (await __ptc_call("echo", {a: 1})).a`}, "1")
		})
	}
}

// BenchmarkHost_Run_subcallRoundTrip isolates one subcall: the difference
// between 1001 and 1 sequential subcalls, divided by 1000, is what each
// round trip costs. Reported as ns/subcall.
func BenchmarkHost_Run_subcallRoundTrip(b *testing.B) {
	h := newHost(b, host.Config{})
	p := host.Program{Dispatcher: echo, Limits: host.Limits{Subcalls: 10000}, Source: `for (let i = 0; i < 10000; i++) await __ptc_call("e", 0)`}
	for b.Loop() {
		if out := h.Run(context.Background(), p); out.Kind != host.KindOK {
			b.Fatal(out.Text())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/subcall")
}

// BenchmarkHost_Run_fib27 is CPU-bound JavaScript: what the fuel checks
// cost shows here (RATIONALE.md, "Why fuel?").
func BenchmarkHost_Run_fib27(b *testing.B) {
	h := newHost(b, host.Config{})
	benchRun(b, h, host.Program{Source: fib}, fmt.Sprint(196418))
}
