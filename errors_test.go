package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// TestResult_Err: one place to branch on a failure, errors.Is against the
// root package's sentinels.
func TestResult_Err(t *testing.T) {
	h := newFixture(t, host.Limits{Timeout: 5 * time.Second})
	run := func(code string, opts ptc.RunOptions) error {
		t.Helper()
		r, err := h.ex.Run(context.Background(), code, opts)
		require.NoError(t, err)
		return r.Err()
	}
	require.NoError(t, run(`return 1`, ptc.RunOptions{}))
	for _, c := range []struct {
		code string
		opts ptc.RunOptions
		want error
	}{
		{`return (`, ptc.RunOptions{}, ptc.ErrSyntax},
		{`throw new Error("x")`, ptc.RunOptions{}, ptc.ErrException},
		{`for (;;) {}`, ptc.RunOptions{Limits: ptc.Limits{Timeout: 200 * time.Millisecond}}, ptc.ErrTimeout},
		{`const a = []; for (;;) a.push("x".repeat(1e6) + a.length)`, ptc.RunOptions{Limits: ptc.Limits{MemoryBytes: 8 << 20}}, ptc.ErrMemory},
		{`for (;;) console.log("spam")`, ptc.RunOptions{Limits: ptc.Limits{OutputBytes: 100}}, ptc.ErrOutputLimit},
		{`for (let i = 0; i < 5; i++) await tools.nope({}).catch(() => 0)`, ptc.RunOptions{Limits: ptc.Limits{Subcalls: 2}}, ptc.ErrSubcallLimit},
	} {
		err := run(c.code, c.opts)
		require.ErrorIs(t, err, c.want, "%s: %v", c.code, err)
		var re *ptc.RunError
		require.ErrorAs(t, err, &re)
		require.NotErrorIs(t, err, ptc.ErrAborted)
	}

	// Aborted: by a deadline, or cancelled.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r, err := h.ex.Run(ctx, `for (;;) {}`, ptc.RunOptions{})
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrAborted)
	require.ErrorIs(t, r.Err(), context.DeadlineExceeded)
	require.NotErrorIs(t, r.Err(), context.Canceled)
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	r, err = h.ex.Run(ctx, `return 1`, ptc.RunOptions{})
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrAborted)
	require.ErrorIs(t, r.Err(), context.Canceled)

	// The cause is the context's, never read from the text: a cancelled
	// program that printed the deadline's words is not a deadline, and a
	// shutdown matches ErrShutdown.
	ctx, cancelCause := context.WithCancelCause(context.Background())
	time.AfterFunc(300*time.Millisecond, func() { cancelCause(ptc.ErrShutdown) })
	r, err = h.ex.Run(ctx, `console.log("the caller's deadline passed"); for (;;) {}`, ptc.RunOptions{})
	require.NoError(t, err)
	require.Contains(t, r.Content[0].Text, "the caller's deadline passed")
	require.ErrorIs(t, r.Err(), ptc.ErrAborted)
	require.ErrorIs(t, r.Err(), ptc.ErrShutdown)
	require.ErrorIs(t, r.Err(), context.Canceled)
	require.NotErrorIs(t, r.Err(), context.DeadlineExceeded)

	// Calls that never ran a program.
	rs := h.ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{
		{ID: "1", Name: "get_weather", Arguments: json.RawMessage(`{}`)},
		{ID: "2", Name: ptc.ToolName, Arguments: json.RawMessage(`{"source": "return 1"}`)},
	}})
	require.ErrorIs(t, rs[0].Err(), registry.ErrUnknownTool)
	require.ErrorIs(t, rs[1].Err(), registry.ErrInvalidArguments)
	require.Equal(t, "Error: get_weather is not a tool; call run_code with a program, which calls tools as tools.NAME(...)", registry.PlainText(rs[0].Content))
	require.Equal(t, "Error: run_code takes {code: string}; it was given {source}: code is missing; source is not a parameter", registry.PlainText(rs[1].Content))
	require.Nil(t, rs[0].Run)
}

func TestExecuteWith_limits(t *testing.T) {
	h := newFixture(t, host.Limits{})
	_, err := h.ex.ExecuteWith(context.Background(), pipeline.Batch{}, ptc.RunOptions{Limits: ptc.Limits{MemoryBytes: 1}})
	require.Error(t, err, "a memory limit under 1 MiB is refused")
	// A batch's limits apply to its runs only.
	r, err := h.ex.Run(context.Background(), `await new Promise(r => setTimeout(r, 300)); return 1`, ptc.RunOptions{Limits: ptc.Limits{Timeout: 100 * time.Millisecond}})
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrTimeout)
	require.Contains(t, r.Content[0].Text, "program exceeded its time limit of 100ms")
	r, err = h.ex.Run(context.Background(), `await new Promise(r => setTimeout(r, 300)); return 1`, ptc.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, r.Err())
}

// Run one program and branch on how it failed.
func ExampleExecutor_Run() {
	ctx := context.Background()
	pipe, _ := pipeline.New(pipeline.Config{Registry: registry.New()})
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ex.Close(ctx)

	r, _ := ex.Run(ctx, `for (;;) {}`, ptc.RunOptions{Limits: ptc.Limits{Timeout: 100 * time.Millisecond}})
	switch err := r.Err(); {
	case errors.Is(err, ptc.ErrTimeout):
		fmt.Println("timeout:", err)
	case err != nil:
		fmt.Println("failed:", err)
	}
	// Output: timeout: code run failed (timeout): program exceeded its time limit of 100ms
}

// TestLimits_argumentDefaults: the host bounds a subcall's arguments with
// the pipeline's defaults, declared once, in package pipeline.
func TestLimits_argumentDefaults(t *testing.T) {
	l := host.Limits{}.WithDefaults()
	p, err := pipeline.New(pipeline.Config{Registry: registry.New()})
	require.NoError(t, err)
	require.Equal(t, p.Config().ArgumentBytes, l.ArgumentBytes)
	require.Equal(t, p.Config().ArgumentDepth, l.ArgumentDepth)
}

// One failure, one sentinel: an aborted run and an aborted call (before
// or after dispatch) match ErrAborted and pipeline.ErrAborted alike.
func TestErrAborted_oneSentinel(t *testing.T) {
	require.Same(t, pipeline.ErrAborted, ptc.ErrAborted)
	for _, code := range []error{pipeline.ErrAborted, pipeline.ErrAbortedBeforeDispatch} {
		e := &pipeline.Error{Code: pipeline.CodeOf(code)}
		assert.ErrorIs(t, e, ptc.ErrAborted, pipeline.CodeOf(code))
	}
	assert.NotErrorIs(t, &pipeline.Error{Code: pipeline.CodeOf(pipeline.ErrAborted)}, pipeline.ErrAbortedBeforeDispatch)
}
