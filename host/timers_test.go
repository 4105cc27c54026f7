package host_test

import (
	"context"
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/abort"
)

// sleepJS defines sleep(ms) for the programs below.
const sleepJS = "const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n"

// runTimers runs src on the shared host and returns the outcome and the
// wall time Run took.
func runTimers(t testing.TB, src string, lim host.Limits) (*host.Outcome, time.Duration) {
	t.Helper()
	h := newHost(t, host.Config{})
	start := time.Now()
	out := h.Run(context.Background(), host.Program{Source: src, Limits: lim})
	return out, time.Since(start)
}

// requireReturns checks a successful run returned want (compared as JSON).
func requireReturns(t *testing.T, out *host.Outcome, want string) {
	t.Helper()
	require.Equal(t, host.KindOK, out.Kind, "%s", out.Text())
	require.JSONEq(t, want, string(out.ReturnValue), "%s", out.Text())
}

func TestTimers_ordering(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "zero delay after microtasks",
			src: `const log = [];
				setTimeout(() => log.push("timeout"), 0);
				Promise.resolve().then(() => log.push("then1")).then(() => log.push("then2"));
				(async () => { await null; log.push("await"); })();
				log.push("sync");
				await sleep(20);
				return log;`,
			want: `["sync","then1","await","then2","timeout"]`,
		},
		{
			name: "equal delays in creation order",
			src: `const log = [];
				for (let i = 0; i < 20; i++) setTimeout(() => log.push(i), 10);
				await sleep(40);
				return log;`,
			want: `[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]`,
		},
		{
			name: "shorter delay first",
			src: `const log = [];
				setTimeout(() => log.push("c"), 60);
				setTimeout(() => log.push("b"), 30);
				setTimeout(() => log.push("a"), 5);
				await sleep(90);
				return log;`,
			want: `["a","b","c"]`,
		},
		{
			name: "zero and one are the same delay",
			src: `const log = [];
				setTimeout(() => log.push("one"), 1);
				setTimeout(() => log.push("zero"), 0);
				setTimeout(() => log.push("none"));
				await sleep(20);
				return log;`,
			want: `["one","zero","none"]`,
		},
		{
			name: "bad delays become one millisecond",
			src: `const log = [];
				setTimeout(() => log.push("five"), 5);
				setTimeout(() => log.push("neg"), -100);
				setTimeout(() => log.push("nan"), NaN);
				setTimeout(() => log.push("str"), "abc");
				setTimeout(() => log.push("inf"), Infinity);
				setTimeout(() => log.push("huge"), 2 ** 40);
				await sleep(30);
				return log;`,
			want: `["neg","nan","str","inf","huge","five"]`,
		},
		{
			name: "numeric string delay",
			src: `const log = [];
				setTimeout(() => log.push("30"), "30");
				setTimeout(() => log.push("5"), 5);
				await sleep(60);
				return log;`,
			want: `["5","30"]`,
		},
		{
			name: "microtasks run between timers",
			src: `const log = [];
				setTimeout(() => { log.push("t1"); Promise.resolve().then(() => log.push("m1")); }, 5);
				setTimeout(() => log.push("t2"), 5);
				await sleep(30);
				return log;`,
			want: `["t1","m1","t2"]`,
		},
		{
			name: "extra arguments reach the callback",
			src: `let got;
				setTimeout((a, b, c) => { got = [a, b, c]; }, 1, "x", 2, { y: 3 });
				await sleep(10);
				return got;`,
			want: `["x",2,{"y":3}]`,
		},
		{
			name: "timer created in a timer",
			src: `const log = [];
				setTimeout(() => { log.push("outer"); setTimeout(() => log.push("inner"), 0); }, 1);
				setTimeout(() => log.push("later"), 40);
				await sleep(60);
				return log;`,
			want: `["outer","inner","later"]`,
		},
		{
			name: "this is undefined in a callback",
			src: `let self = "unset";
				setTimeout(function () { "use strict"; self = this; }, 1);
				await sleep(10);
				return self === undefined || self === globalThis;`,
			want: `true`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := runTimers(t, sleepJS+c.src, host.Limits{})
			requireReturns(t, out, c.want)
		})
	}
}

func TestTimers_clear(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "clearTimeout with the object",
			src: `const log = [];
				const a = setTimeout(() => log.push("a"), 5);
				setTimeout(() => log.push("b"), 5);
				clearTimeout(a);
				await sleep(30);
				return log;`,
			want: `["b"]`,
		},
		{
			name: "clearTimeout with the number",
			src: `const log = [];
				const a = setTimeout(() => log.push("a"), 5);
				const id = +a;
				clearTimeout(id);
				await sleep(30);
				return [typeof id, log];`,
			want: `["number",[]]`,
		},
		{
			name: "clearTimeout with the id as a string",
			src: `const log = [];
				const a = setTimeout(() => log.push("a"), 5);
				clearTimeout(String(+a));
				await sleep(30);
				return log;`,
			want: `[]`,
		},
		{
			name: "clearInterval clears a timeout",
			src: `const log = [];
				const a = setTimeout(() => log.push("a"), 5);
				clearInterval(a);
				await sleep(30);
				return log;`,
			want: `[]`,
		},
		{
			name: "clear from an earlier timer",
			src: `const log = [];
				let b;
				setTimeout(() => { log.push("a"); clearTimeout(b); }, 5);
				b = setTimeout(() => log.push("b"), 10);
				await sleep(40);
				return log;`,
			want: `["a"]`,
		},
		{
			name: "clearing twice or after firing is harmless",
			src: `const log = [];
				const a = setTimeout(() => log.push("a"), 1);
				await sleep(10);
				clearTimeout(a); clearTimeout(a);
				const b = setTimeout(() => log.push("b"), 1);
				clearTimeout(b); clearTimeout(b);
				clearTimeout(); clearTimeout(null); clearTimeout({}); clearTimeout(12345); clearTimeout("nope");
				await sleep(10);
				return log;`,
			want: `["a"]`,
		},
		{
			name: "a cleared timeout does not keep the run alive",
			src: `const a = setTimeout(() => console.log("never"), 5000);
				clearTimeout(a);
				return "done";`,
			want: `"done"`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, d := runTimers(t, sleepJS+c.src, host.Limits{})
			requireReturns(t, out, c.want)
			require.Empty(t, out.Output)
			require.Less(t, d, 3*time.Second)
		})
	}
}

func TestTimers_setInterval(t *testing.T) {
	t.Run("clear inside the callback", func(t *testing.T) {
		out, _ := runTimers(t, sleepJS+`
			let n = 0;
			const times = [];
			const start = performance.now();
			await new Promise((resolve) => {
				const iv = setInterval((tag) => {
					times.push(performance.now());
					if (++n === 5) { clearInterval(iv); resolve(); }
				}, 10, "tag");
			});
			await sleep(50);
			// performance is set up on first use: start reads it first.
			let spaced = times[0] - start >= 10;
			for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] < 9) spaced = false;
			return [n, spaced];`, host.Limits{})
		requireReturns(t, out, `[5,true]`)
	})
	t.Run("clear from outside", func(t *testing.T) {
		out, _ := runTimers(t, sleepJS+`
			let n = 0;
			const iv = setInterval(() => n++, 5);
			while (n < 4) await sleep(5);
			clearInterval(iv);
			const at = n;
			await sleep(40);
			return [at >= 4, n === at];`, host.Limits{})
		requireReturns(t, out, `[true,true]`)
	})
	t.Run("clear by number", func(t *testing.T) {
		out, _ := runTimers(t, sleepJS+`
			let n = 0;
			const iv = setInterval(() => { if (++n === 3) clearInterval(+iv); }, 1);
			await sleep(60);
			return n;`, host.Limits{})
		requireReturns(t, out, `3`)
	})
	t.Run("clearTimeout clears an interval", func(t *testing.T) {
		out, _ := runTimers(t, sleepJS+`
			let n = 0;
			const iv = setInterval(() => { if (++n === 2) clearTimeout(iv); }, 1);
			await sleep(40);
			return n;`, host.Limits{})
		requireReturns(t, out, `2`)
	})
	t.Run("keeps a pending body alive", func(t *testing.T) {
		// The body awaits a promise only the interval settles: the
		// interval keeps the run going until it does.
		out, _ := runTimers(t, `
			let n = 0;
			await new Promise((resolve) => { setInterval(() => { if (++n === 3) resolve(); }, 5); });
			return n;`, host.Limits{Timeout: 5 * time.Second})
		requireReturns(t, out, `3`)
	})
	t.Run("throw in the callback fails the run", func(t *testing.T) {
		out, _ := runTimers(t, sleepJS+`
			let n = 0;
			setInterval(() => { if (++n === 3) throw new Error("interval boom " + n); }, 1);
			await sleep(2000);
			return "unreachable";`, host.Limits{})
		require.Equal(t, host.KindException, out.Kind, "%s", out.Text())
		require.Contains(t, out.Message, "interval boom 3")
	})
}

func TestTimers_setImmediate(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "after microtasks, before a later timeout",
			src: `const log = [];
				setTimeout(() => log.push("timeout"), 10);
				setImmediate(() => log.push("immediate"));
				Promise.resolve().then(() => log.push("then"));
				log.push("sync");
				await sleep(30);
				return log;`,
			want: `["sync","then","immediate","timeout"]`,
		},
		{
			name: "in creation order, with arguments",
			src: `const log = [];
				setImmediate((x) => log.push(x), "a");
				setImmediate((x, y) => log.push(x + y), "b", "c");
				await sleep(10);
				return log;`,
			want: `["a","bc"]`,
		},
		{
			name: "clearImmediate",
			src: `const log = [];
				const i = setImmediate(() => log.push("cleared"));
				setImmediate(() => log.push("kept"));
				clearImmediate(i);
				await sleep(10);
				return log;`,
			want: `["kept"]`,
		},
		{
			name: "awaitable",
			src: `let n = 0;
				for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
				return "ok";`,
			want: `"ok"`,
		},
		{
			name: "returns a Timeout-like object",
			src: `const i = setImmediate(() => {});
				const r = [typeof i, typeof +i, i.hasRef()];
				clearImmediate(i);
				return r;`,
			want: `["object","number",true]`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := runTimers(t, sleepJS+c.src, host.Limits{})
			requireReturns(t, out, c.want)
		})
	}
}

func TestTimers_timeoutObject(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "hasRef, unref and ref",
			src: `const t = setTimeout(() => {}, 1000);
				const a = t.hasRef();
				const u = t.unref();
				const b = t.hasRef();
				const r = t.ref();
				const c = t.hasRef();
				clearTimeout(t);
				return [a, b, c, u === t, r === t];`,
			want: `[true,false,true,true,true]`,
		},
		{
			name: "primitive is the id",
			src: `const a = setTimeout(() => {}, 1000);
				const b = setTimeout(() => {}, 1000);
				const r = [typeof +a === "number", Number.isInteger(+a), +a !== +b, ` + "`${a}`" + ` === String(+a), a + 0 === +a];
				clearTimeout(a); clearTimeout(b);
				return r;`,
			want: `[true,true,true,true,true]`,
		},
		{
			name: "toStringTag",
			src: `const a = setTimeout(() => {}, 1);
				return Object.prototype.toString.call(a);`,
			want: `"[object Timeout]"`,
		},
		{
			name: "unref'd timeout still fires while the body waits",
			src: `const log = [];
				setTimeout(() => log.push("unref"), 5).unref();
				await sleep(40);
				return log;`,
			want: `["unref"]`,
		},
		{
			name: "refresh restarts the delay",
			src: `let fired = -1;
				const start = performance.now();
				const t = setTimeout(() => { fired = performance.now() - start; }, 60);
				await sleep(30);
				t.refresh();
				await sleep(40);
				const early = fired;
				await sleep(60);
				return [early, fired >= 85];`,
			want: `[-1,true]`,
		},
		{
			name: "close clears",
			src: `const log = [];
				setTimeout(() => log.push("a"), 5).close();
				await sleep(20);
				return log;`,
			want: `[]`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := runTimers(t, sleepJS+c.src, host.Limits{})
			requireReturns(t, out, c.want)
		})
	}
}

func TestTimers_settledRun(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		output  []string
		want    string
		under   time.Duration // the run must end sooner than this
		atLeast time.Duration
	}{
		{
			name:    "pending timeout keeps a settled run alive",
			src:     `setTimeout(() => console.log("late"), 100); console.log("early"); return 1;`,
			output:  []string{"early", "late"},
			want:    `1`,
			under:   3 * time.Second,
			atLeast: 100 * time.Millisecond,
		},
		{
			name:   "unref'd timeout does not",
			src:    `setTimeout(() => console.log("late"), 5000).unref(); console.log("done"); return 1;`,
			output: []string{"done"},
			want:   `1`,
			under:  2 * time.Second,
		},
		{
			name:   "re-ref'd timeout does",
			src:    `setTimeout(() => console.log("late"), 50).unref().ref(); return 1;`,
			output: []string{"late"},
			want:   `1`,
			under:  3 * time.Second,
		},
		{
			name:   "lone interval does not",
			src:    `let n = 0; setInterval(() => { n++; console.log("tick"); }, 10); return "done";`,
			output: nil,
			want:   `"done"`,
			under:  time.Second,
		},
		{
			name: "interval runs while a timeout keeps the run alive",
			src: `let n = 0;
				const iv = setInterval(() => n++, 5);
				setTimeout(() => { clearInterval(iv); console.log(n >= 3 ? "ticked" : "too few " + n); }, 60);
				return "done";`,
			output: []string{"ticked"},
			want:   `"done"`,
			under:  3 * time.Second,
		},
		{
			name: "un-awaited async main completes",
			src: sleepJS + `async function main() {
					console.log("start");
					await sleep(50);
					console.log("middle");
					await sleep(50);
					console.log("end");
				}
				main();`,
			output:  []string{"start", "middle", "end"},
			want:    ``,
			under:   3 * time.Second,
			atLeast: 100 * time.Millisecond,
		},
		{
			name:   "setImmediate after return runs",
			src:    `setImmediate(() => console.log("immediate")); return 2;`,
			output: []string{"immediate"},
			want:   `2`,
			under:  2 * time.Second,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, d := runTimers(t, c.src, host.Limits{})
			require.Equal(t, host.KindOK, out.Kind, "%s", out.Text())
			require.Equal(t, c.output, out.Output)
			if c.want == "" {
				require.Nil(t, out.ReturnValue)
			} else {
				require.JSONEq(t, c.want, string(out.ReturnValue))
			}
			require.Less(t, d, c.under)
			require.GreaterOrEqual(t, d, c.atLeast)
		})
	}
}

func TestTimers_cancelMidSleep(t *testing.T) {
	h := newHost(t, host.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	out := h.Run(ctx, host.Program{Source: sleepJS + `console.log("sleeping"); await sleep(10000); return "woke"`})
	d := time.Since(start)
	require.Equal(t, host.KindAborted, out.Kind, "%s", out.Text())
	require.Equal(t, abort.Cancelled, out.Message)
	require.Equal(t, []string{"sleeping"}, out.Output)
	require.GreaterOrEqual(t, d, 50*time.Millisecond)
	require.Less(t, d, 50*time.Millisecond+hadvSlack)
}

func TestTimers_deadlineMidSleep(t *testing.T) {
	cases := []struct{ name, src string }{
		{"timeout", sleepJS + `console.log("sleeping"); await sleep(5000); return "woke"`},
		{"interval", `console.log("sleeping"); await new Promise(() => setInterval(() => {}, 5000));`},
		{"settled body, pending timeout", `console.log("sleeping"); setTimeout(() => {}, 5000); return 1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, d := runTimers(t, c.src, host.Limits{Timeout: 200 * time.Millisecond})
			require.Equal(t, host.KindTimeout, out.Kind, "%s", out.Text())
			require.Equal(t, []string{"sleeping"}, out.Output)
			require.Nil(t, out.ReturnValue)
			require.GreaterOrEqual(t, d, 200*time.Millisecond)
			require.Less(t, d, 2*time.Second)
		})
	}
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestTimers_sleepUsesNoCPU(t *testing.T) {
	h := newHost(t, host.Config{})
	// Warm up: the first run of a host may compile or build its snapshot.
	warm := h.Run(context.Background(), host.Program{Source: sleepJS + `await sleep(1); return 1`})
	require.Equal(t, host.KindOK, warm.Kind, "%s", warm.Text())

	cases := []struct{ name, src string }{
		{"one timeout", sleepJS + `await sleep(300); return "woke"`},
		{"many pending timeouts", `const ps = []; for (let i = 0; i < 200; i++) ps.push(new Promise((r) => setTimeout(r, 300))); await Promise.all(ps); return "woke"`},
		{"slow interval", `let n = 0; await new Promise((r) => { const iv = setInterval(() => { if (++n === 3) { clearInterval(iv); r(); } }, 100); }); return "woke"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, start := cpuTime(t), time.Now()
			out := h.Run(context.Background(), host.Program{Source: c.src})
			wall, cpu := time.Since(start), cpuTime(t)-before
			requireReturns(t, out, `"woke"`)
			t.Logf("wall %v, cpu %v", wall, cpu)
			require.GreaterOrEqual(t, wall, 300*time.Millisecond)
			require.Less(t, cpu, 100*time.Millisecond, "a sleeping run must not spin (wall %v)", wall)
		})
	}
}

func TestTimers_many(t *testing.T) {
	// 10 000 timers, 500 pending at a time, each chunk complete before the
	// next: the live count falls back as timers fire.
	out, d := runTimers(t, `
		let n = 0;
		for (let c = 0; c < 20; c++) {
			const ps = [];
			for (let i = 0; i < 500; i++) ps.push(new Promise((r) => setTimeout(() => { n++; r(); }, 0)));
			await Promise.all(ps);
		}
		return n;`, host.Limits{Timers: 1000})
	requireReturns(t, out, `10000`)
	require.Less(t, d, 10*time.Second)
	t.Logf("10000 timers in %v", d)

	// And up to the limit at once, in order.
	out, d = runTimers(t, `
		const log = [];
		const ps = [];
		for (let i = 0; i < 1000; i++) ps.push(new Promise((r) => setTimeout(() => { log.push(i); r(); }, 1 + (i % 7))));
		await Promise.all(ps);
		// Timers of one delay fire in creation order (across delays the
		// order depends on how long creating them took).
		const last = [-1, -1, -1, -1, -1, -1, -1];
		let sorted = true;
		for (const i of log) {
			if (i < last[i % 7]) sorted = false;
			last[i % 7] = i;
		}
		return [log.length, new Set(log).size, sorted];`, host.Limits{Timers: 1000})
	requireReturns(t, out, `[1000,1000,true]`)
	require.Less(t, d, 10*time.Second)

	// Sequential zero-delay sleeps: each waits about a millisecond.
	out, d = runTimers(t, `
		for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 0));
		return "done";`, host.Limits{})
	requireReturns(t, out, `"done"`)
	require.GreaterOrEqual(t, d, 200*time.Millisecond)
	require.Less(t, d, 10*time.Second)
}

func TestTimers_limit(t *testing.T) {
	lim := host.Limits{Timers: 10}
	t.Run("the eleventh throws a catchable RangeError", func(t *testing.T) {
		out, _ := runTimers(t, `
			const ts = [];
			for (let i = 0; i < 10; i++) ts.push(setTimeout(() => {}, 1000));
			let err;
			try { setTimeout(() => {}, 1); } catch (e) { err = e; }
			const r = [err instanceof RangeError, err.name, err.message];
			ts.forEach((t) => clearTimeout(t));
			return r;`, lim)
		require.Equal(t, host.KindOK, out.Kind, "%s", out.Text())
		var got []any
		require.NoError(t, json.Unmarshal(out.ReturnValue, &got))
		require.Equal(t, true, got[0])
		require.Equal(t, "RangeError", got[1])
		require.Contains(t, got[2], "at most 10 timers")
	})
	t.Run("intervals and immediates count", func(t *testing.T) {
		out, _ := runTimers(t, `
			const ts = [];
			for (let i = 0; i < 4; i++) ts.push(setInterval(() => {}, 1000));
			for (let i = 0; i < 3; i++) ts.push(setImmediate(() => {}));
			for (let i = 0; i < 3; i++) ts.push(setTimeout(() => {}, 1000).unref());
			const errs = [];
			for (const f of [setTimeout, setInterval, setImmediate]) {
				try { f(() => {}, 1); errs.push("created"); } catch (e) { errs.push(e.name); }
			}
			ts.forEach((t) => clearTimeout(t));
			return errs;`, lim)
		requireReturns(t, out, `["RangeError","RangeError","RangeError"]`)
	})
	t.Run("fired and cleared timers free their slots", func(t *testing.T) {
		out, _ := runTimers(t, sleepJS+`
			let fired = 0;
			for (let round = 0; round < 5; round++) {
				for (let i = 0; i < 9; i++) setTimeout(() => fired++, 1);
				await sleep(10);
			}
			for (let round = 0; round < 5; round++) {
				const ts = [];
				for (let i = 0; i < 10; i++) ts.push(setTimeout(() => {}, 1000));
				ts.forEach((t) => clearTimeout(t));
			}
			const iv = [];
			for (let i = 0; i < 10; i++) iv.push(setInterval(() => {}, 1000));
			iv.forEach(clearInterval);
			return fired;`, lim)
		requireReturns(t, out, `45`)
	})
	t.Run("uncaught", func(t *testing.T) {
		out, _ := runTimers(t, `for (let i = 0; i < 11; i++) setTimeout(() => {}, 1000);`, lim)
		require.Equal(t, host.KindException, out.Kind, "%s", out.Text())
		require.Contains(t, out.Message, "RangeError")
		require.Contains(t, out.Message, "at most 10 timers")
	})
	t.Run("default is 1000", func(t *testing.T) {
		out, _ := runTimers(t, `
			const ts = [];
			let err;
			try { for (let i = 0; i < 1001; i++) ts.push(setTimeout(() => {}, 1000)); } catch (e) { err = e; }
			ts.forEach((t) => clearTimeout(t));
			return [ts.length, err.message.includes("at most 1000 timers")];`, host.Limits{})
		requireReturns(t, out, `[1000,true]`)
	})
}

func TestTimers_callbackFailures(t *testing.T) {
	cases := []struct {
		name, src, message string
		output             []string
	}{
		{
			name:    "throw while the body waits",
			src:     sleepJS + `console.log("before"); setTimeout(() => { throw new Error("boom in timer") }, 5); await sleep(2000); return "unreachable";`,
			message: "boom in timer",
			output:  []string{"before"},
		},
		{
			name:    "throw after the body returned",
			src:     `setTimeout(() => { throw new TypeError("late boom") }, 5); return 1;`,
			message: "late boom",
		},
		{
			name:    "throw in an immediate",
			src:     `setImmediate(() => { null.x }); return 1;`,
			message: "TypeError",
		},
		{
			name:    "throw a non-error",
			src:     `setTimeout(() => { throw "plain string" }, 1); return 1;`,
			message: "plain string",
		},
		{
			name:    "rejection in an async callback",
			src:     `setTimeout(async () => { throw new Error("async boom") }, 1); return 1;`,
			message: "async boom",
		},
		{
			name:    "later timers do not run",
			src:     `setTimeout(() => { throw new Error("first") }, 1); setTimeout(() => console.log("second"), 20); return 1;`,
			message: "first",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, d := runTimers(t, c.src, host.Limits{})
			require.Equal(t, host.KindException, out.Kind, "%s", out.Text())
			require.Contains(t, out.Message, c.message)
			require.Contains(t, out.Text(), "Error: code run failed (exception)")
			require.Equal(t, c.output, out.Output)
			require.Nil(t, out.ReturnValue)
			require.Less(t, d, 1500*time.Millisecond)
		})
	}
}

func TestTimers_nonFunction(t *testing.T) {
	cases := []struct{ name, call string }{
		{"string", `setTimeout("console.log(1)", 1)`},
		{"no arguments", `setTimeout()`},
		{"null", `setTimeout(null, 1)`},
		{"number", `setInterval(42, 1)`},
		{"object", `setImmediate({})`},
		{"undefined interval", `setInterval(undefined, 1)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := runTimers(t, `
				try { `+c.call+`; return "no throw"; }
				catch (e) { return [e instanceof TypeError, e.code, /callback/.test(e.message)]; }`, host.Limits{})
			requireReturns(t, out, `[true,"ERR_INVALID_ARG_TYPE",true]`)

			out, _ = runTimers(t, c.call+`; return "no throw";`, host.Limits{})
			require.Equal(t, host.KindException, out.Kind, "%s", out.Text())
			require.Contains(t, out.Message, "TypeError")
		})
	}
}

func BenchmarkTimers_sleep0(b *testing.B) {
	h := newHost(b, host.Config{})
	src := `for (let i = 0; i < 100; i++) await new Promise((r) => setTimeout(r, 0)); return 1;`
	for b.Loop() {
		out := h.Run(context.Background(), host.Program{Source: src})
		if out.Kind != host.KindOK {
			b.Fatal(out.Text())
		}
	}
}

// Regressions found while writing these tests.
func TestTimers_regressions(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(ctx context.Context, _ host.Call) host.Reply {
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
		}
		return host.Reply{Value: json.RawMessage(`1`)}
	})
	for _, c := range []struct{ name, src string }{
		// A setImmediate loop does not starve a subcall's result.
		{"immediate loop polls calls", `let done = false; __ptc_call("x", {}).then(() => { done = true; });
			while (!done) await new Promise((r) => setImmediate(r)); return "done"`},
		// Cleared and refreshed timers do not pile up in memory.
		{"clear does not grow memory", `for (let i = 0; i < 2e5; i++) clearTimeout(setTimeout(() => {}, 1000)); return "done"`},
		{"refresh does not grow memory", `const t = setTimeout(() => {}, 1000); for (let i = 0; i < 2e5; i++) t.refresh(); clearTimeout(t); return "done"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := h.Run(context.Background(), host.Program{Source: c.src, Dispatcher: d, Limits: host.Limits{Timeout: 20 * time.Second, MemoryBytes: 16 << 20}})
			require.Equal(t, host.KindOK, out.Kind, out.Text())
			require.Equal(t, "done", out.Text())
		})
	}
	// An unref'd timer does not keep a pending body alive: as in Node, the
	// run ends at once, awaiting what can never settle.
	start := time.Now()
	out := h.Run(context.Background(), host.Program{Source: `setTimeout(() => {}, 3000).unref(); await new Promise(() => {})`})
	require.Equal(t, host.KindException, out.Kind, out.Text())
	require.Contains(t, out.Text(), "can never settle")
	require.Less(t, time.Since(start), 2*time.Second)
}
