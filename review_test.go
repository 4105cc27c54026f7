package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// imageTool returns value(args) with content holding an image.
func imageTool(name string, value func(json.RawMessage) any) *registry.Tool {
	return registry.MustDefine(registry.RawSpec{
		Name:     name,
		Parallel: true,
		Execute: func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
			return value(a), nil
		},
		ProjectContent: func(json.RawMessage, any) []registry.Part {
			return []registry.Part{registry.TextPart("x"), registry.ImagePart("image/png", []byte("png"))}
		},
	})
}

// A value the program cannot receive fails the subcall for the program,
// in the record too, and brings no image.
func TestExecute_undeliverableValues(t *testing.T) {
	f := newFixture(t, host.Limits{ResultBytes: 1000},
		imageTool("nan", func(json.RawMessage) any { return math.NaN() }),
		imageTool("big", func(json.RawMessage) any { return strings.Repeat("x", 2000) }),
		imageTool("badraw", func(json.RawMessage) any { return json.RawMessage("{not json") }),
	)
	r := f.run(t, `
		const out = [];
		for (const n of ["nan", "big", "badraw"]) { try { await tools[n]({}); out.push(n + " ok") } catch (e) { out.push(n + " " + e.code) } }
		return out.join("\n")`)
	require.Equal(t, "nan TOOL_FAILED\nbig TOOL_FAILED\nbadraw TOOL_FAILED", registry.PlainText(r.Content))
	require.Len(t, r.Subcalls, 3)
	for _, sc := range r.Subcalls {
		require.False(t, sc.OK, sc.Tool)
		require.Equal(t, "TOOL_FAILED", sc.Code, sc.Tool)
		require.NoError(t, sc.Outcome.Err(), "the pipeline call itself succeeded")
		require.True(t, sc.Received)
	}
}

// Subcalls a program never awaits are all recorded and, as in Node, the
// run ends only when they have settled: they are received and their images
// reach the content, in call order, however the race went.
func TestExecute_unawaitedSubcalls(t *testing.T) {
	f := newFixture(t, host.Limits{}, imageTool("pic", func(json.RawMessage) any { return "p" }))
	for range 20 {
		r := f.run(t, `tools.pic({}); tools.pic({}); return "done"`)
		require.Equal(t, "done\nImage from pic (call 1):\n[image image/png 3 bytes]\nImage from pic (call 2):\n[image image/png 3 bytes]", registry.PlainText(r.Content))
		require.Len(t, r.Subcalls, 2)
		require.Equal(t, 2, r.Run.Subcalls)
		for _, sc := range r.Subcalls {
			require.True(t, sc.Received)
		}
	}
	r := f.run(t, `const p = tools.pic({}); tools.pic({}); await p; return "done"`)
	require.Equal(t, "done\nImage from pic (call 1):\n[image image/png 3 bytes]\nImage from pic (call 2):\n[image image/png 3 bytes]", registry.PlainText(r.Content))
}

// Cancellation while a serial call waits behind parallel ones: the running
// calls end ABORTED, the queued ones ABORTED_BEFORE_DISPATCH, and the next
// program of the batch does not start.
func TestExecute_cancelWhileQueued(t *testing.T) {
	entered := make(chan struct{}, 10)
	slow := rawTool("slow", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		entered <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	ser := rawTool("ser", registry.Serial, func(context.Context, json.RawMessage) (any, error) { return 1, nil })
	f := newFixture(t, host.Limits{InFlight: 2}, slow, ser)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-entered; <-entered; cancel() }()
	rs := f.ex.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{
		runCall(`await Promise.all([tools.slow({}), tools.slow({}), tools.slow({}), tools.ser({}), tools.slow({})])`),
		runCall(`return 1`),
	}})
	require.Len(t, rs, 2)
	require.Equal(t, "Error: code run failed (aborted): cancelled by the caller", registry.PlainText(rs[0].Content))
	// The calls the program started after the cancellation (it may have
	// been quicker than the program) never existed; every call that did is
	// recorded.
	require.GreaterOrEqual(t, len(rs[0].Subcalls), 3)
	require.Equal(t, rs[0].Run.Subcalls, len(rs[0].Subcalls))
	for _, sc := range rs[0].Subcalls {
		want := "ABORTED_BEFORE_DISPATCH"
		if sc.N <= 2 {
			want = "ABORTED"
		}
		require.Equal(t, want, pipeline.CodeOf(sc.Outcome.Err()), "call %d", sc.N)
	}
	require.Equal(t, "Error: code run failed (aborted): cancelled before it started", registry.PlainText(rs[1].Content))
}

func TestExecute_runCodeAsk(t *testing.T) {
	f := newFixture(t, host.Limits{})
	f.ex.RunCodePipeline().OnPreExecute(func(context.Context, *pipeline.Invocation, pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("run this program?")
	})
	var asked []string
	approver := func(_ context.Context, _ *pipeline.Invocation, q string) (pipeline.Answer, error) {
		asked = append(asked, q)
		return pipeline.Answer{Approved: true}, nil
	}
	r := f.runBatch(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(`return 1`)}, Approver: approver})
	require.Equal(t, "1", registry.PlainText(r.Content))
	require.Equal(t, []string{"run this program?"}, asked)
}

func TestNew_badLimits(t *testing.T) {
	reg := registry.New()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	for _, lim := range []host.Limits{{MemoryBytes: 1000}, {MemoryBytes: 4 << 30}, {StackBytes: 1 << 20}} {
		_, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Limits: lim})
		require.Error(t, err, "%+v", lim)
	}
	_, err = ptc.New(context.Background(), ptc.Config{})
	require.ErrorContains(t, err, "no pipeline")
}

func TestExecute_longToolName(t *testing.T) {
	f := newFixture(t, host.Limits{Timeout: 10 * time.Second})
	r := f.run(t, `try { await __ptc_call("x".repeat(5e6), {}) } catch (e) { return [e.code, e.message.length < 400] }`)
	require.JSONEq(t, `["UNKNOWN_TOOL", true]`, string(r.Run.ReturnValue))
	require.Len(t, r.Subcalls[0].Tool, 256, "the host cuts a tool name at 256 bytes")
}

func TestExecute_deterministicClockAndRandom(t *testing.T) {
	reg := registry.New()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	fixed := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t)})
	require.NoError(t, err)
	defer ex.Close(context.Background())
	opts := ptc.RunOptions{Deterministic: &ptc.Deterministic{Start: fixed, Seed: 1}}
	const code = `return [new Date().toISOString(), Math.random(), Math.random(), crypto.randomUUID()]`
	a, err := ex.Run(context.Background(), code, opts)
	require.NoError(t, err)
	b, err := ex.Run(context.Background(), code, opts)
	require.NoError(t, err)
	require.False(t, a.IsError, registry.PlainText(a.Content))
	require.Contains(t, registry.PlainText(a.Content), "2026-12-02T12:00:00.000Z")
	require.Equal(t, registry.PlainText(a.Content), registry.PlainText(b.Content), "a replay sees the same clock and random numbers")
	opts.Deterministic.Seed = 2
	c, err := ex.Run(context.Background(), code, opts)
	require.NoError(t, err)
	require.NotEqual(t, registry.PlainText(a.Content), registry.PlainText(c.Content), "another seed, other numbers")
}

// Issue 10: context that post-execute listeners attach to a subcall reached
// the pipeline outcome but never the run_code content. It follows the
// subcall's images, for calls the program received successfully.
func TestExecute_postExecuteContext(t *testing.T) {
	f := newFixture(t, host.Limits{},
		imageTool("pic", func(json.RawMessage) any { return "p" }),
		rawTool("plain", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return 1, nil }),
		rawTool("fails", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("no") }))
	f.pipe.OnPostExecute(func(_ context.Context, inv *pipeline.Invocation, r *pipeline.PostResult) {
		r.Context = append(r.Context, registry.TextPart("note on "+inv.Name()))
	})
	r := f.run(t, `await tools.pic({}); await tools.plain({}); try { await tools.fails({}) } catch {} return "done"`)
	var texts []string
	for _, p := range r.Content {
		if p.Type == registry.PartText {
			texts = append(texts, p.Text)
		} else {
			texts = append(texts, "["+string(p.Type)+"]")
		}
	}
	require.Equal(t, []string{"done", "Image from pic (call 1):", "[image]", "note on pic", "note on plain"}, texts)
}
