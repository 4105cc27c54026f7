package ptc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

// roundTrip encodes and decodes a recording, as a file would.
func roundTrip(t testing.TB, rec *recording.Recording) *recording.Recording {
	t.Helper()
	require.NotNil(t, rec)
	b, err := json.Marshal(rec)
	require.NoError(t, err)
	back, err := recording.Decode(b)
	require.NoError(t, err)
	return back
}

// Every program of testdata/programs, recorded live and deterministic,
// replays to the same bytes on an executor that has none of its tools.
func TestReplay_testdata(t *testing.T) {
	files, err := filepath.Glob("testdata/programs/*.js")
	require.NoError(t, err)
	for _, f := range files {
		for _, det := range []bool{false, true} {
			name := strings.TrimSuffix(filepath.Base(f), ".js")
			if det {
				name += "/deterministic"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				src, lim, tools := loadProgram(t, f)
				opts := ptc.RunOptions{Record: true}
				if det {
					opts.Deterministic = &ptc.Deterministic{Seed: 7}
				}
				r, err := newFixture(t, lim, tools...).ex.Run(context.Background(), src, opts)
				require.NoError(t, err)
				rec := roundTrip(t, r.Recording)
				require.Equal(t, registry.PlainText(r.Content), registry.PlainText(rec.Content))

				bare := newFixture(t, lim)
				again, err := bare.ex.Replay(context.Background(), rec, ptc.ReplayOptions{})
				require.NoError(t, err)
				require.Nil(t, again.Divergence, "%v", again.Divergence)
				if again.Run.Kind != host.KindTimeout && again.Run.Kind != host.KindMemory {
					require.Equal(t, registry.PlainText(r.Content), registry.PlainText(again.Content))
				}
				require.Equal(t, r.Run.Kind, again.Run.Kind)
			})
		}
	}
}

// weatherTools are a parallel tool whose calls take their own time and a
// clock-reading program around them.
func weatherTools() []*registry.Tool {
	return []*registry.Tool{rawTool("weather", registry.Parallel, func(ctx context.Context, a json.RawMessage) (any, error) {
		var args struct{ City string }
		_ = json.Unmarshal(a, &args)
		time.Sleep(time.Duration(len(args.City)) * 3 * time.Millisecond)
		return map[string]any{"city": args.City, "temp": len(args.City) * 3}, nil
	})}
}

const weatherProgram = `
const cities = ["Paris", "Rome", "Oslo"]
const out = []
await Promise.all(cities.map(city => tools.weather({city}).then(w => out.push(w.city + " " + w.temp))))
await new Promise(r => setTimeout(r, 20))
console.log(new Date().toISOString(), Math.random().toFixed(6), crypto.randomUUID())
const last = await tools.weather({city: "Lisbon"})
return {order: out, last}`

func recordWeather(t *testing.T, det bool) (*harness, *ptc.Result) {
	t.Helper()
	f := newFixture(t, host.Limits{}, weatherTools()...)
	opts := ptc.RunOptions{Record: true}
	if det {
		opts.Deterministic = &ptc.Deterministic{Seed: 42}
	}
	r, err := f.ex.Run(context.Background(), weatherProgram, opts)
	require.NoError(t, err)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	require.Len(t, r.Recording.Calls, 4)
	return f, r
}

func TestReplay_deterministic(t *testing.T) {
	f, a := recordWeather(t, true)
	// Two deterministic runs with the same answers give the same bytes,
	// whatever order the fan-out's calls came back in live.
	b, err := f.ex.Run(context.Background(), weatherProgram, ptc.RunOptions{Deterministic: &ptc.Deterministic{Seed: 42}})
	require.NoError(t, err)
	require.Contains(t, registry.PlainText(a.Content), "2000-01-01T00:00:00.")
	// The durations are real ones, so only the replay repeats them exactly.
	again, err := f.ex.Replay(context.Background(), roundTrip(t, a.Recording), ptc.ReplayOptions{})
	require.NoError(t, err)
	require.Nil(t, again.Divergence)
	require.Equal(t, registry.PlainText(a.Content), registry.PlainText(again.Content))
	require.Equal(t, strings.Split(registry.PlainText(a.Content), " ")[1:3], strings.Split(registry.PlainText(b.Content), " ")[1:3], "same seed, same random numbers")
}

// With a fixed CallTime, a deterministic run does not depend on the tools'
// latency: calls come back in the order they were made, on time.
func TestDeterministic_callTime(t *testing.T) {
	var n atomic.Int32
	f := newFixture(t, host.Limits{}, rawTool("jitter", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
		time.Sleep(time.Duration(7*n.Add(1)%11) * time.Millisecond)
		return json.RawMessage(a), nil
	}))
	const code = `
const order = []
const t0 = performance.now()
await Promise.all([1, 2, 3, 4, 5].map(i => tools.jitter({i}).then(() => order.push(i + "@" + (performance.now() - t0)))))
setTimeout(() => order.push("timer"), 10)
await tools.jitter({i: 6}).then(() => order.push("6@" + (performance.now() - t0)))
return order.join(" ")`
	opts := ptc.RunOptions{Deterministic: &ptc.Deterministic{CallTime: 25 * time.Millisecond}}
	var first string
	for i := range 4 {
		r, err := f.ex.Run(context.Background(), code, opts)
		require.NoError(t, err)
		require.False(t, r.IsError, registry.PlainText(r.Content))
		if i == 0 {
			first = registry.PlainText(r.Content)
			require.Equal(t, "1@25 2@25 3@25 4@25 5@25 timer 6@50", first)
		}
		require.Equal(t, first, registry.PlainText(r.Content))
	}
}

func TestReplay_tampered(t *testing.T) {
	f, r := recordWeather(t, false)
	base, err := json.Marshal(r.Recording)
	require.NoError(t, err)
	fresh := func() *recording.Recording {
		rec, err := recording.Decode(base)
		require.NoError(t, err)
		return rec
	}
	replay := func(rec *recording.Recording, opts ptc.ReplayOptions) *ptc.Result {
		out, err := f.ex.Replay(context.Background(), rec, opts)
		require.NoError(t, err)
		return out
	}
	require.Nil(t, replay(fresh(), ptc.ReplayOptions{}).Divergence)

	t.Run("changed argument", func(t *testing.T) {
		rec := fresh()
		rec.Calls[1].Arguments = json.RawMessage(`{"city":"Roma"}`)
		d := replay(rec, ptc.ReplayOptions{}).Divergence
		require.NotNil(t, d)
		require.Equal(t, 2, d.Call)
		require.Equal(t, `tools.weather({"city":"Roma"})`, d.Expected.String())
		require.Equal(t, `tools.weather({"city":"Rome"})`, d.Actual.String())
		require.Contains(t, d.String(), "call 2: the program's call differs from the recorded one")
	})
	t.Run("missing call", func(t *testing.T) {
		rec := fresh()
		rec.Calls = rec.Calls[:3]
		d := replay(rec, ptc.ReplayOptions{}).Divergence
		require.NotNil(t, d)
		require.Equal(t, 4, d.Call)
		require.Nil(t, d.Expected)
		require.Contains(t, d.Reason, "does not have")
	})
	t.Run("extra call", func(t *testing.T) {
		rec := fresh()
		extra := rec.Calls[3]
		extra.Seq = 5
		rec.Calls = append(rec.Calls, extra)
		d := replay(rec, ptc.ReplayOptions{}).Divergence
		require.NotNil(t, d)
		require.Equal(t, 5, d.Call)
		require.Nil(t, d.Actual)
		require.Contains(t, d.Reason, "never made")
	})
	t.Run("changed program", func(t *testing.T) {
		rec := fresh()
		rec.Program = strings.Replace(rec.Program, "return {order: out, last}", "return {order: out, last, more: 1}", 1)
		d := replay(rec, ptc.ReplayOptions{}).Divergence
		require.NotNil(t, d)
		require.Equal(t, 0, d.Call)
		require.Contains(t, d.Reason, "content differs")
		require.Contains(t, d.Diff, "+ ")
		require.Contains(t, d.Diff, `"more": 1`)
	})
	t.Run("edited program", func(t *testing.T) {
		edited := strings.Replace(weatherProgram, `{city: "Lisbon"}`, `{city: "Porto"}`, 1)
		d := replay(fresh(), ptc.ReplayOptions{Program: edited}).Divergence
		require.NotNil(t, d)
		require.Equal(t, 4, d.Call)
		require.Equal(t, `tools.weather({"city":"Porto"})`, d.Actual.String())
	})
	t.Run("live tool", func(t *testing.T) {
		out := replay(fresh(), ptc.ReplayOptions{Live: []string{"weather"}})
		require.Nil(t, out.Divergence)
		require.NotNil(t, out.Subcalls[0].Outcome, "called through the pipeline")
	})
	t.Run("changed declarations", func(t *testing.T) {
		rec := fresh()
		rec.Declarations += "// edited\n"
		_, err := f.ex.Replay(context.Background(), rec, ptc.ReplayOptions{})
		require.ErrorIs(t, err, recording.ErrUnusable)
		require.Contains(t, err.Error(), "declarations do not match")
	})
	t.Run("changed tools", func(t *testing.T) {
		rec := fresh()
		rec.Tools[0].Description = "Weather, now described otherwise."
		d := replay(rec, ptc.ReplayOptions{}).Divergence
		require.NotNil(t, d)
		require.Contains(t, d.Reason, "declarations")
		require.Contains(t, d.Diff, "+ ")
	})
	t.Run("future version", func(t *testing.T) {
		b := strings.Replace(string(base), `"version":1`, `"version":2`, 1)
		_, err := recording.Decode([]byte(b))
		require.ErrorIs(t, err, recording.ErrUnusable)
		require.Contains(t, err.Error(), "format version 2; this ptc reads version 1")
	})
}

// The recording holds the images a tool returned once, by hash, and the
// replay puts them back in the content.
func TestRecording_images(t *testing.T) {
	f := newFixture(t, host.Limits{}, imageTool("pic", func(json.RawMessage) any { return "p" }))
	r, err := f.ex.Run(context.Background(), `await tools.pic({}); await tools.pic({}); return "ok"`, ptc.RunOptions{Record: true})
	require.NoError(t, err)
	b, err := json.Marshal(r.Recording)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(b), `"data":`), "image bytes stored once")
	again, err := newFixture(t, host.Limits{}).ex.Replay(context.Background(), roundTrip(t, r.Recording), ptc.ReplayOptions{})
	require.NoError(t, err)
	require.Nil(t, again.Divergence)
	require.Len(t, again.Content, len(r.Content))
	require.Equal(t, r.Content[len(r.Content)-1].Data, again.Content[len(again.Content)-1].Data)
}

// askTools are "lookup" (allowed) and "send" (asks), counting their calls.
func askFixture(t *testing.T, key []byte) (*harness, *atomic.Int32, *atomic.Int32) {
	t.Helper()
	var lookups, sends atomic.Int32
	f := newFixture(t, host.Limits{},
		rawTool("lookup", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
			lookups.Add(1)
			return "addr-" + string(a[len(a)-2:len(a)-1]), nil
		}),
		rawTool("send", registry.Serial, func(_ context.Context, a json.RawMessage) (any, error) {
			sends.Add(1)
			return "sent", nil
		}))
	f.pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "send" {
			return pipeline.Ask("may the program send " + string(inv.Arguments()) + "?")
		}
		return d
	})
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: f.pipe, Host: sharedHost(t), ContinuationKey: key})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	f.ex = ex
	return f, &lookups, &sends
}

const askProgram = `
const a = await tools.lookup({n: 1})
console.log("first", a, Math.random().toFixed(4))
let r1
try { r1 = await tools.send({to: a}) } catch (e) { r1 = e.code }
const b = await tools.lookup({n: 2})
let r2
try { r2 = await tools.send({to: b}) } catch (e) { r2 = e.code }
return [r1, r2]`

func TestResume(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	f, lookups, sends := askFixture(t, key)
	ctx := context.Background()
	opts := ptc.RunOptions{SuspendAsks: true}
	r, err := f.ex.Run(ctx, askProgram, opts)
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrSuspended)
	require.NotEmpty(t, r.Continuation)
	require.Equal(t, &recording.PendingAsk{Call: 2, Tool: "send", Arguments: json.RawMessage(`{"to":"addr-1"}`), Question: `may the program send {"to":"addr-1"}?`}, r.Pending)
	require.EqualValues(t, 1, lookups.Load())
	require.EqualValues(t, 0, sends.Load())

	// Approve the first send: the prefix is answered from the
	// continuation (lookup is not called again), send runs, and the
	// second ask suspends the run again.
	r2, err := f.ex.Resume(ctx, pipeline.Batch{}, r.Continuation, pipeline.Answer{Approved: true}, opts)
	require.NoError(t, err)
	require.ErrorIs(t, r2.Err(), ptc.ErrSuspended, registry.PlainText(r2.Content))
	require.Equal(t, 4, r2.Pending.Call)
	require.EqualValues(t, 2, lookups.Load())
	require.EqualValues(t, 1, sends.Load())

	// Deny the second: it rejects with DENIED, nothing else runs twice.
	r3, err := f.ex.Resume(ctx, pipeline.Batch{}, r2.Continuation, pipeline.Answer{Approved: false, Reason: "no"}, opts)
	require.NoError(t, err)
	require.NoError(t, r3.Err(), registry.PlainText(r3.Content))
	require.Contains(t, registry.PlainText(r3.Content), `["sent", "DENIED"]`)
	require.EqualValues(t, 2, lookups.Load())
	require.EqualValues(t, 1, sends.Load())
	// The printed line is the suspended run's: same seed, same numbers.
	require.Equal(t, strings.Split(registry.PlainText(r3.Content), "\n")[0], "first addr-1 "+strings.Fields(registry.PlainText(r3.Content))[2])

	// A suspended run's recording is resumed, not replayed.
	_, err = f.ex.Replay(ctx, roundTrip(t, r.Recording), ptc.ReplayOptions{})
	require.ErrorIs(t, err, recording.ErrUnusable)

	// A continuation resumes once.
	_, err = f.ex.Resume(ctx, pipeline.Batch{}, r.Continuation, pipeline.Answer{Approved: true}, opts)
	require.ErrorIs(t, err, ptc.ErrResumed)

	// A tampered one is refused.
	bad := []byte(strings.Replace(string(r2.Continuation), "A", "B", 1))
	_, err = f.ex.Resume(ctx, pipeline.Batch{}, bad, pipeline.Answer{Approved: true}, opts)
	require.ErrorIs(t, err, recording.ErrUnusable)
	// And one signed with another key.
	other, _, _ := askFixture(t, []byte("another key, another key, another"))
	_, err = other.ex.Resume(ctx, pipeline.Batch{}, r2.Continuation, pipeline.Answer{Approved: true}, opts)
	require.ErrorIs(t, err, recording.ErrUnusable)
	require.Contains(t, err.Error(), "signature does not verify")
}

func TestResume_toolsChanged(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	f, _, _ := askFixture(t, key)
	ctx := context.Background()
	r, err := f.ex.Run(ctx, askProgram, ptc.RunOptions{SuspendAsks: true})
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrSuspended)
	_, err = f.reg.Register(rawTool("newcomer", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return 1, nil }))
	require.NoError(t, err)
	_, err = f.ex.Resume(ctx, pipeline.Batch{}, r.Continuation, pipeline.Answer{Approved: true}, ptc.RunOptions{})
	require.ErrorIs(t, err, recording.ErrUnusable)
	require.Contains(t, err.Error(), "the tools changed since the run was suspended")
}

func TestRunOptions_suspendNeedsKey(t *testing.T) {
	f := newFixture(t, host.Limits{})
	_, err := f.ex.Run(context.Background(), `return 1`, ptc.RunOptions{SuspendAsks: true})
	require.ErrorContains(t, err, "ContinuationKey")
}

// An approver that takes longer than the program's whole time limit does
// not make the run time out: approval time does not count.
func TestExecute_approvalTimeNotCounted(t *testing.T) {
	f, _, sends := askFixture(t, nil)
	var mu sync.Mutex
	asked := 0
	b := pipeline.Batch{Calls: []pipeline.RawCall{runCall(`return await tools.send({to: "x"})`)},
		Approver: func(ctx context.Context, _ *pipeline.Invocation, _ string) (pipeline.Answer, error) {
			mu.Lock()
			asked++
			mu.Unlock()
			select {
			case <-time.After(1500 * time.Millisecond):
			case <-ctx.Done():
				return pipeline.Answer{}, ctx.Err()
			}
			return pipeline.Answer{Approved: true}, nil
		}}
	rs, err := f.ex.ExecuteWith(context.Background(), b, ptc.RunOptions{Limits: ptc.Limits{Timeout: 500 * time.Millisecond}})
	require.NoError(t, err)
	require.NoError(t, rs[0].Err(), registry.PlainText(rs[0].Content))
	require.Equal(t, "sent", registry.PlainText(rs[0].Content))
	require.EqualValues(t, 1, sends.Load())
	require.Equal(t, 1, asked)
}

// Replaying a recording of 1000 subcalls.
func BenchmarkReplay(b *testing.B) {
	f := newFixture(b, host.Limits{}, echoTool())
	const code = `for (let i = 0; i < 1000; i++) await tools.echo({i, name: "x", tags: [1, 2]}); return "done"`
	r, err := f.ex.Run(context.Background(), code, ptc.RunOptions{Record: true})
	if err != nil || r.IsError {
		b.Fatal(err, registry.PlainText(r.Content))
	}
	rec := roundTrip(b, r.Recording)
	bare := newFixture(b, host.Limits{})
	b.Run("1000_subcalls", func(b *testing.B) {
		for b.Loop() {
			out, err := bare.ex.Replay(context.Background(), rec, ptc.ReplayOptions{})
			if err != nil || out.Divergence != nil {
				b.Fatal(err, out.Divergence)
			}
		}
	})
	b.Run("1000_subcalls_live", func(b *testing.B) {
		for b.Loop() {
			out := f.run(b, code)
			if out.IsError {
				b.Fatal(registry.PlainText(out.Content))
			}
		}
	})
}

// Resuming a suspended run against running it fresh (with the approver
// answering at once).
func BenchmarkResume(b *testing.B) {
	key := []byte("0123456789abcdef0123456789abcdef")
	f := newFixture(b, host.Limits{}, echoTool(),
		rawTool("send", registry.Serial, func(context.Context, json.RawMessage) (any, error) { return "sent", nil }))
	f.pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "send" {
			return pipeline.Ask("send?")
		}
		return d
	})
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: f.pipe, Host: sharedHost(b), ContinuationKey: key})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close(context.Background())
	const code = `for (let i = 0; i < 10; i++) await tools.echo({i}); return await tools.send({})`
	ctx := context.Background()
	b.Run("fresh", func(b *testing.B) {
		batch := pipeline.Batch{Calls: []pipeline.RawCall{runCall(code)},
			Approver: func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
				return pipeline.Answer{Approved: true}, nil
			}}
		for b.Loop() {
			if r := ex.Execute(ctx, batch)[0]; r.IsError {
				b.Fatal(registry.PlainText(r.Content))
			}
		}
	})
	b.Run("resume", func(b *testing.B) {
		conts := make([][]byte, 0, 64)
		next := func() []byte {
			if len(conts) == 0 {
				b.StopTimer()
				for range 64 {
					r, err := ex.Run(ctx, code, ptc.RunOptions{SuspendAsks: true})
					if err != nil || r.Continuation == nil {
						b.Fatal(err, registry.PlainText(r.Content))
					}
					conts = append(conts, r.Continuation)
				}
				b.StartTimer()
			}
			c := conts[len(conts)-1]
			conts = conts[:len(conts)-1]
			return c
		}
		for b.Loop() {
			r, err := ex.Resume(ctx, pipeline.Batch{}, next(), pipeline.Answer{Approved: true}, ptc.RunOptions{})
			if err != nil || r.IsError {
				b.Fatal(err, registry.PlainText(r.Content))
			}
		}
	})
}

// Review of issue 14: a run suspended in an agent's scope resumes in that
// scope, with that agent's tools, and only there.
func TestResume_agentScope(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	f, _, deploymentSends := askFixture(t, key)
	var agentSends atomic.Int32
	mailer := registry.Scope{Agent: "mailer"}
	_, err := f.reg.Register(rawTool("send", registry.Serial, func(context.Context, json.RawMessage) (any, error) {
		agentSends.Add(1)
		return "sent by the agent's tool", nil
	}), registry.In(mailer))
	require.NoError(t, err)
	ctx := context.Background()
	rs, err := f.ex.ExecuteWith(ctx, pipeline.Batch{Agent: mailer, Calls: []pipeline.RawCall{runCall(`return await tools.send({to: "x"})`)}}, ptc.RunOptions{SuspendAsks: true})
	require.NoError(t, err)
	require.ErrorIs(t, rs[0].Err(), ptc.ErrSuspended)
	_, err = f.ex.Resume(ctx, pipeline.Batch{}, rs[0].Continuation, pipeline.Answer{Approved: true}, ptc.RunOptions{})
	require.ErrorIs(t, err, recording.ErrUnusable)
	require.Contains(t, err.Error(), `suspended for agent scope`)
	r, err := f.ex.Resume(ctx, pipeline.Batch{Agent: mailer}, rs[0].Continuation, pipeline.Answer{Approved: true}, ptc.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, "sent by the agent's tool", registry.PlainText(r.Content))
	require.EqualValues(t, 1, agentSends.Load())
	require.EqualValues(t, 0, deploymentSends.Load())
}

// Review of issue 14: a call in flight beside the asking one when the run
// suspends finishes, and the resume answers it from the continuation: no
// tool is called twice.
func TestResume_inFlightCallFinishes(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	f, _, sends := askFixture(t, key)
	var fetches atomic.Int32
	_, err := f.reg.Register(rawTool("fetch", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		fetches.Add(1)
		select {
		case <-time.After(300 * time.Millisecond):
			return "page", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}))
	require.NoError(t, err)
	// send is serial: make it parallel here so that both are in flight.
	ctx := context.Background()
	const code = `return await Promise.all([tools.fetch({}), tools.lookup({n: 3}).then(() => tools.send({to: "y"}))])`
	r, err := f.ex.Run(ctx, code, ptc.RunOptions{SuspendAsks: true})
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrSuspended)
	require.EqualValues(t, 1, fetches.Load())
	require.True(t, r.Recording.Calls[0].Done, "the fetch in flight finished and was recorded")
	r2, err := f.ex.Resume(ctx, pipeline.Batch{}, r.Continuation, pipeline.Answer{Approved: true}, ptc.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, r2.Err(), registry.PlainText(r2.Content))
	require.Equal(t, `["page", "sent"]`, registry.PlainText(r2.Content))
	require.EqualValues(t, 1, fetches.Load(), "fetch was not made again")
	require.EqualValues(t, 1, sends.Load())
}

// Review of issue 14: approval time does not count while another call
// waits for its turn behind the one being approved, live or deterministic.
func TestExecute_approvalTimeWithQueuedCall(t *testing.T) {
	for _, det := range []bool{false, true} {
		t.Run(fmt.Sprint("deterministic=", det), func(t *testing.T) {
			f, _, sends := askFixture(t, nil)
			b := pipeline.Batch{Calls: []pipeline.RawCall{runCall(`const t0 = Date.now(); const r = await Promise.all([tools.send({to: "x"}), tools.lookup({n: 1})]); return [r, Date.now() - t0 < 400]`)},
				Approver: func(ctx context.Context, _ *pipeline.Invocation, _ string) (pipeline.Answer, error) {
					select {
					case <-time.After(1200 * time.Millisecond):
					case <-ctx.Done():
						return pipeline.Answer{}, ctx.Err()
					}
					return pipeline.Answer{Approved: true}, nil
				}}
			opts := ptc.RunOptions{Limits: ptc.Limits{Timeout: 500 * time.Millisecond}}
			if det {
				opts.Deterministic = &ptc.Deterministic{}
			}
			rs, err := f.ex.ExecuteWith(context.Background(), b, opts)
			require.NoError(t, err)
			require.NoError(t, rs[0].Err(), registry.PlainText(rs[0].Content))
			want := `[["sent", "addr-1"], `
			require.True(t, strings.HasPrefix(registry.PlainText(rs[0].Content), want), registry.PlainText(rs[0].Content))
			if det {
				require.Contains(t, registry.PlainText(rs[0].Content), "true]", "the virtual clock did not move by the approval")
			}
			require.EqualValues(t, 1, sends.Load())
		})
	}
}

// Review of issue 14: a recording of a run its caller cancelled while it
// waited replays to the same end at once, not after the time limit.
func TestReplay_cutRun(t *testing.T) {
	f := newFixture(t, host.Limits{Timeout: 20 * time.Second}, rawTool("slow", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}), echoTool())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r, err := f.ex.Run(ctx, `console.log(await tools.echo({a: 1})); await tools.slow({})`, ptc.RunOptions{Record: true})
	require.NoError(t, err)
	require.Equal(t, host.KindAborted, r.Run.Kind, registry.PlainText(r.Content))
	began := time.Now()
	again, err := newFixture(t, host.Limits{}).ex.Replay(context.Background(), roundTrip(t, r.Recording), ptc.ReplayOptions{})
	require.NoError(t, err)
	require.Less(t, time.Since(began), 5*time.Second)
	require.Nil(t, again.Divergence, "%v", again.Divergence)
	require.Equal(t, host.KindAborted, again.Run.Kind)
	require.Equal(t, registry.PlainText(r.Content), registry.PlainText(again.Content))
}

// A run cut before it made its first call (its deadline passed while the
// sandbox started, as on a loaded machine) replays to the same end: the
// replay's first call is where the recorded run had already stopped, not a
// divergence.
func TestReplay_cutBeforeFirstCall(t *testing.T) {
	f := newFixture(t, host.Limits{Timeout: 20 * time.Second}, echoTool())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r, err := f.ex.Run(ctx, `await new Promise(r => setTimeout(r, 10_000)); return await tools.echo({a: 1})`, ptc.RunOptions{Record: true})
	require.NoError(t, err)
	require.Equal(t, host.KindAborted, r.Run.Kind, registry.PlainText(r.Content))
	rec := roundTrip(t, r.Recording)
	// The recorded run as if its deadline had passed before it waited:
	// no wait, no call.
	rec.Program = `return await tools.echo({a: 1})`
	rec.Reads, rec.Waits, rec.Calls = nil, nil, nil
	again, err := newFixture(t, host.Limits{}).ex.Replay(context.Background(), rec, ptc.ReplayOptions{})
	require.NoError(t, err)
	require.Nil(t, again.Divergence, "%v", again.Divergence)
	require.Equal(t, host.KindAborted, again.Run.Kind)
	require.Empty(t, again.Subcalls)
}

func TestNew_shortContinuationKey(t *testing.T) {
	f := newFixture(t, host.Limits{})
	_, err := ptc.New(context.Background(), ptc.Config{Pipeline: f.pipe, Host: sharedHost(t), ContinuationKey: []byte("short")})
	require.ErrorContains(t, err, "at least 32 random bytes")
}

// TestRecording_errorInfo keeps the ErrorInfo a denying policy attached to
// a subcall in the recording (the program and the model never see it),
// through JSON and the recording's schema; the replay is unchanged.
func TestRecording_errorInfo(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	info := pipeline.ErrorInfo{Name: "PolicyDenied", Code: "P1", UserReason: "ask an admin"}
	f.pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if strings.Contains(string(inv.Arguments()), "Oslo") {
			return pipeline.Decision{Verdict: pipeline.VerdictDeny, Reason: "Oslo is off limits", Info: &info}
		}
		return d
	})
	code := `const a = await tools.get_weather({city: "Paris"});
try { await tools.get_weather({city: "Oslo"}) } catch (e) { return [a.sky, e.code, e.message, Object.keys(e)] }`
	r, err := f.ex.Run(context.Background(), code, ptc.RunOptions{Record: true})
	require.NoError(t, err)
	require.Equal(t, `["clear", "DENIED", "Oslo is off limits", ["code", "tool"]]`, registry.PlainText(r.Content))
	require.NotContains(t, registry.PlainText(r.Content), "ask an admin")
	b, err := json.Marshal(r.Recording)
	require.NoError(t, err)
	require.NoError(t, validateRecording(recordingSchema(t), b))
	rec := roundTrip(t, r.Recording)
	require.Nil(t, rec.Calls[0].Info)
	require.Equal(t, &info, rec.Calls[1].Info)

	again, err := f.ex.Replay(context.Background(), rec, ptc.ReplayOptions{})
	require.NoError(t, err)
	require.Nil(t, again.Divergence)
	require.Equal(t, registry.PlainText(r.Content), registry.PlainText(again.Content))
}
