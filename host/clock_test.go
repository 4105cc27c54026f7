package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/runhook"
)

var start2026 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// sleepy answers each call after the number of milliseconds its "ms"
// argument says, with that number.
var sleepy = host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
	var a struct{ MS int }
	_ = json.Unmarshal(c.Args, &a)
	select {
	case <-time.After(time.Duration(a.MS) * time.Millisecond):
	case <-ctx.Done():
	}
	return host.Reply{Value: json.RawMessage(strconv.Itoa(a.MS))}
})

// A fan-out whose calls finish in an order of their own and timers that
// race them: on a virtual clock the printed order follows the durations.
const raceProgram = `
const t0 = Date.now()
const seen = []
const calls = [300, 100, 200].map(ms => __ptc_call("s", {ms}).then(v => seen.push("call " + v + " at " + (Date.now() - t0))))
setTimeout(() => seen.push("timer 150 at " + (Date.now() - t0)), 150)
await new Promise(r => setTimeout(r, 5000))
await Promise.all(calls)
console.log(new Date().toISOString(), Math.random())
return seen`

func TestHost_Run_virtualClock(t *testing.T) {
	h := newHost(t, host.Config{})
	tr := &runhook.Trace{}
	run := func() *host.Outcome {
		out := h.Run(hooked(&runhook.Hooks{Record: tr}), host.Program{
			Source: raceProgram, Dispatcher: sleepy, Virtual: true, Start: start2026,
			Random: rand.NewChaCha8([32]byte{1}),
		})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		return out
	}
	began := time.Now()
	out := run()
	// Five seconds of timers cost no real time.
	require.Less(t, time.Since(began), 3*time.Second)
	var seen []string
	require.NoError(t, json.Unmarshal(out.ReturnValue, &seen))
	require.Len(t, seen, 4)
	require.Regexp(t, `^call 100 at 1[0-4]\d$`, seen[0])
	require.Equal(t, "timer 150 at 150", seen[1])
	require.Regexp(t, `^call 200 at 2\d\d$`, seen[2])
	require.Regexp(t, `^call 300 at 3\d\d$`, seen[3])
	require.Regexp(t, `^2026-03-04T05:06:12\.0\d\dZ `, out.Output[0], "the clock moved by the 5 s timer only")
	require.Len(t, tr.Calls, 3)

	// Answered from the trace's durations, the calls come back in the same
	// order at the same virtual times, without waiting.
	took := map[int]time.Duration{}
	for _, c := range tr.Calls {
		took[c.Seq] = time.Duration(c.Took)
	}
	values := map[int]string{1: "300", 2: "100", 3: "200"}
	ans := answerer(func(seq int, _ string, _ json.RawMessage) (runhook.Answer, bool, error) {
		return runhook.Answer{Value: json.RawMessage(values[seq]), Took: took[seq]}, true, nil
	})
	again := h.Run(hooked(&runhook.Hooks{Answer: ans}), host.Program{
		Source: raceProgram, Virtual: true, Start: start2026,
		Random: rand.NewChaCha8([32]byte{1}),
	})
	require.Equal(t, host.KindOK, again.Kind, again.Text())
	require.Equal(t, out.Text(), again.Text())
}

// answerer adapts a function to a runhook.Answerer.
type answerer func(seq int, name string, args json.RawMessage) (runhook.Answer, bool, error)

func (f answerer) Answer(seq int, name string, args json.RawMessage) (runhook.Answer, bool, error) {
	return f(seq, name, args)
}

// hooked returns a context for a run with hooks h.
func hooked(h *runhook.Hooks) context.Context { return runhook.With(context.Background(), h) }

func TestHost_Run_virtualTimeout(t *testing.T) {
	h := newHost(t, host.Config{})
	began := time.Now()
	out := h.Run(context.Background(), host.Program{
		Source:  `console.log("before"); await new Promise(r => setTimeout(r, 60000)); console.log("after")`,
		Virtual: true, Limits: host.Limits{Timeout: 30 * time.Second},
	})
	require.Equal(t, host.KindTimeout, out.Kind, out.Text())
	require.Equal(t, []string{"before"}, out.Output)
	require.Less(t, time.Since(began), 5*time.Second, "a timer past the limit ends the run at once")
}

// A live run recorded with its trace, then followed: the clock readings
// and the order of completions come from the trace, so the output is the
// same bytes although the program prints times and the calls' order.
func TestHost_Run_traceReplay(t *testing.T) {
	h := newHost(t, host.Config{})
	const src = `
const t0 = performance.now()
const order = []
await Promise.all([25, 5, 15].map(ms => __ptc_call("s", {ms}).then(v => order.push(v))))
const t = setInterval(() => order.push("tick"), 3)
await new Promise(r => setTimeout(r, 10))
clearInterval(t)
console.log(new Date().toISOString(), performance.now() - t0, Math.random())
return order`
	tr := &runhook.Trace{}
	first := h.Run(hooked(&runhook.Hooks{Record: tr}), host.Program{Source: src, Dispatcher: sleepy, Random: rand.NewChaCha8([32]byte{2})})
	require.Equal(t, host.KindOK, first.Kind, first.Text())
	require.NotEmpty(t, tr.Reads)
	require.NotEmpty(t, tr.Waits)
	values := map[int]string{1: "25", 2: "5", 3: "15"}
	var mu sync.Mutex
	asked := 0
	ans := answerer(func(seq int, _ string, _ json.RawMessage) (runhook.Answer, bool, error) {
		mu.Lock()
		asked++
		mu.Unlock()
		return runhook.Answer{Value: json.RawMessage(values[seq])}, true, nil
	})
	for range 3 {
		own := &runhook.Trace{}
		again := h.Run(hooked(&runhook.Hooks{Replay: tr, Answer: ans, Record: own}), host.Program{Source: src, Random: rand.NewChaCha8([32]byte{2})})
		require.Equal(t, host.KindOK, again.Kind, again.Text())
		require.Equal(t, first.Text(), again.Text())
		require.Equal(t, tr.Reads, own.Reads, "the replay's own trace is the recorded one")
		require.Equal(t, tr.Waits, own.Waits)
	}
	require.Equal(t, 9, asked)
}

// A program that does something else than the trace says goes on in its
// own mode when the trace no longer fits.
func TestHost_Run_traceDiverges(t *testing.T) {
	h := newHost(t, host.Config{})
	tr := &runhook.Trace{}
	first := h.Run(hooked(&runhook.Hooks{Record: tr}), host.Program{Source: `return await __ptc_call("s", {ms: 1})`, Dispatcher: sleepy})
	require.Equal(t, host.KindOK, first.Kind, first.Text())
	out := h.Run(hooked(&runhook.Hooks{Replay: tr}), host.Program{
		Source:     `const a = await __ptc_call("s", {ms: 1}); await new Promise(r => setTimeout(r, 5)); return a + await __ptc_call("s", {ms: 2})`,
		Dispatcher: sleepy,
	})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Equal(t, "3", out.Text())
}

func TestHost_Run_answerEndsRun(t *testing.T) {
	h := newHost(t, host.Config{})
	ans := answerer(func(seq int, _ string, _ json.RawMessage) (runhook.Answer, bool, error) {
		if seq == 2 {
			return runhook.Answer{}, false, fmt.Errorf("call 2 is not in the recording")
		}
		return runhook.Answer{Value: json.RawMessage(`1`), Took: time.Millisecond}, true, nil
	})
	out := h.Run(hooked(&runhook.Hooks{Answer: ans}), host.Program{
		Source:     `console.log(await __ptc_call("a", {})); await __ptc_call("b", {}); console.log("never")`,
		Dispatcher: sleepy,
	})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, "call 2 is not in the recording", out.Message)
	require.Equal(t, []string{"1"}, out.Output)
}

// Time a subcall spends held by an approver does not count against the
// program's limit while the program only waits for it, nor in the call's
// duration on a virtual clock.
func TestHold(t *testing.T) {
	h := newHost(t, host.Config{})
	approve := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		release := runhook.Hold(ctx)
		select {
		case <-time.After(700 * time.Millisecond): // a person deciding
		case <-ctx.Done():
		}
		release()
		return host.Reply{Value: json.RawMessage(`"approved"`)}
	})
	for _, virtual := range []bool{false, true} {
		t.Run(fmt.Sprint("virtual=", virtual), func(t *testing.T) {
			out := h.Run(context.Background(), host.Program{
				Source:     `const t0 = Date.now(); const a = await __ptc_call("send", {}); return [a, Date.now() - t0 < 300]`,
				Dispatcher: approve, Virtual: virtual, Limits: host.Limits{Timeout: 300 * time.Millisecond},
			})
			require.Equal(t, host.KindOK, out.Kind, out.Text())
			if virtual {
				require.JSONEq(t, `["approved", true]`, string(out.ReturnValue))
			}
		})
	}
	// Without Hold, the same wait is a timeout.
	slow := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		<-ctx.Done()
		return host.Reply{}
	})
	out := h.Run(context.Background(), host.Program{Source: `await __ptc_call("send", {})`, Dispatcher: slow, Limits: host.Limits{Timeout: 100 * time.Millisecond}})
	require.Equal(t, host.KindTimeout, out.Kind)
	// Nor does Hold stop a program that computes meanwhile.
	out = h.Run(context.Background(), host.Program{
		Source:     `const p = __ptc_call("send", {}); for (;;) {}`,
		Dispatcher: approve, Limits: host.Limits{Timeout: 200 * time.Millisecond},
	})
	require.Equal(t, host.KindTimeout, out.Kind)
}

func TestEndRun(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		if c.Seq == 2 {
			runhook.EndRun(ctx, runhook.Aborted("ended for a reason of its own"))
		}
		return host.Reply{Value: json.RawMessage(`1`)}
	})
	out := h.Run(context.Background(), host.Program{
		Source:     `console.log(await __ptc_call("a", {})); try { await __ptc_call("b", {}) } catch {} console.log("never")`,
		Dispatcher: d,
	})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, "ended for a reason of its own", out.Message)
	require.Equal(t, []string{"1"}, out.Output)
	require.Equal(t, []int{1}, out.Received, "the ending call's result never reached the program")
	runhook.EndRun(context.Background(), runhook.Aborted("outside a run: nothing happens"))

	// How the run ended is the End given, typed: a suspended run is
	// reported as one, not as a message to read back.
	d = host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		runhook.EndRun(ctx, runhook.End{Kind: string(host.KindSuspended)})
		return host.Reply{Value: json.RawMessage(`1`)}
	})
	out = h.Run(context.Background(), host.Program{Source: `await __ptc_call("a", {}); console.log("never")`, Dispatcher: d})
	require.Equal(t, host.KindSuspended, out.Kind)
	require.Empty(t, out.Message)
	require.Empty(t, out.Output)

	// An End without a kind is an abort, and the first End still wins.
	d = host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		runhook.EndRun(ctx, runhook.End{Message: "first"})
		runhook.EndRun(ctx, runhook.Aborted("second"))
		return host.Reply{Value: json.RawMessage(`1`)}
	})
	out = h.Run(context.Background(), host.Program{Source: `await __ptc_call("a", {})`, Dispatcher: d})
	require.Equal(t, host.KindAborted, out.Kind)
	require.Equal(t, "first", out.Message)
}

// Review of issue 14: a hold its Dispatch never released ends with the
// Dispatch; it does not pause the clock for the calls after it.
func TestHold_leaked(t *testing.T) {
	h := newHost(t, host.Config{})
	d := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		if c.Seq == 1 {
			runhook.Hold(ctx) // never released
			return host.Reply{Value: json.RawMessage(`1`)}
		}
		<-ctx.Done() // a hung tool
		return host.Reply{}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out := h.Run(ctx, host.Program{Source: `await __ptc_call("a", {}); await __ptc_call("b", {})`, Dispatcher: d, Limits: host.Limits{Timeout: 200 * time.Millisecond}})
	require.Equal(t, host.KindTimeout, out.Kind, out.Text())
}

// A subcall's context carries no hooks of its run: a run the subcall
// starts has its own.
func TestHooks_notInSubcall(t *testing.T) {
	h := newHost(t, host.Config{})
	var seen *runhook.Hooks
	d := host.DispatcherFunc(func(ctx context.Context, c host.Call) host.Reply {
		seen = runhook.From(ctx)
		return host.Reply{}
	})
	out := h.Run(hooked(&runhook.Hooks{Record: &runhook.Trace{}}), host.Program{Source: `await __ptc_call("a", {})`, Dispatcher: d})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Nil(t, seen)
}
