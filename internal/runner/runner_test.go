package runner

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

var (
	hostOnce sync.Once
	testHost *host.Host
	hostErr  error
)

// runParams is a run of program over the tools echo (returns its
// arguments), fail (fails) and ask (needs approval).
func runParams(t *testing.T, program string, plan *Plan) Params {
	t.Helper()
	hostOnce.Do(func() { testHost, hostErr = host.New(context.Background(), host.Config{ParkAfter: -1}) })
	if errors.Is(hostErr, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	require.NoError(t, hostErr)
	reg := registry.New()
	for _, tool := range []*registry.Tool{
		registry.MustDefine(registry.RawSpec{Name: "echo", Description: "echo",
			Execute: func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) { return a, nil }}),
		registry.MustDefine(registry.RawSpec{Name: "fail", Description: "fail",
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
				return nil, errors.New("it broke")
			}}),
		registry.MustDefine(registry.RawSpec{Name: "ask", Description: "ask",
			Execute: func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) { return a, nil }}),
	} {
		_, err := reg.Register(tool)
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "ask" {
			return pipeline.Ask("may it?")
		}
		return d
	})
	return Params{Host: testHost, Pipe: pipe, Limits: host.Limits{Timeout: 30 * time.Second}.WithDefaults(),
		SDK: toolsdk.NewCache(reg, -1).Get(registry.Scope{}, nil), Program: program, Plan: plan, Report: &Report{}}
}

// A run's report has its subcalls in issue order, each marked with what
// the program received.
func TestRun_report(t *testing.T) {
	p := runParams(t, `const a = await tools.echo({x: 1});
let err; try { await tools.fail({}) } catch (e) { err = e.code }
return [a.x, err]`, nil)
	out, err := Run(context.Background(), p)
	require.NoError(t, err)
	require.Equal(t, host.KindOK, out.Kind, out.Message)
	assert.JSONEq(t, `[1, "TOOL_FAILED"]`, string(out.ReturnValue))
	calls := p.Report.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, 1, calls[0].N)
	assert.Equal(t, "echo", calls[0].Tool)
	assert.True(t, calls[0].OK && calls[0].Received)
	assert.Equal(t, "fail", calls[1].Tool)
	assert.False(t, calls[1].OK)
	assert.Equal(t, pipeline.CodeOf(pipeline.ErrToolFailed), calls[1].Code)
	assert.Same(t, out, p.Report.Outcome())
}

// A failed run is the run_code call's failure: its code says how it
// ended, its reason is the model-facing text.
func TestRun_failure(t *testing.T) {
	for _, c := range []struct {
		name, program string
		code          error
		reason        string
	}{
		{"exception", `throw new Error("nope")`, pipeline.ErrToolFailed, "code run failed (exception): Error: nope (line 1)"},
		{"timeout", `for (;;) {}`, pipeline.ErrToolTimeout, "code run failed (timeout): program exceeded its time limit of 200ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := runParams(t, c.program, nil)
			p.Limits.Timeout = 200 * time.Millisecond
			_, err := Run(context.Background(), p)
			var pe *pipeline.Error
			require.ErrorAs(t, err, &pe)
			assert.ErrorIs(t, err, c.code)
			assert.Equal(t, "run_code", pe.Tool)
			assert.Contains(t, pe.Reason, c.reason)
		})
	}
}

// A run whose subcall needs approval, with asks suspended, ends as
// suspended (the host reports the kind; no message is read back) and its
// report names the ask.
func TestRun_suspends(t *testing.T) {
	p := runParams(t, `console.log("before"); await tools.ask({n: 1}); console.log("never")`,
		&Plan{SuspendAsks: true, Key: []byte("0123456789abcdef0123456789abcdef")})
	_, err := Run(context.Background(), p)
	require.Error(t, err)
	out := p.Report.Outcome()
	require.NotNil(t, out)
	assert.Equal(t, host.KindSuspended, out.Kind)
	assert.Equal(t, []string{"before"}, out.Output)
	ask := p.Report.session.pending()
	require.NotNil(t, ask)
	assert.Equal(t, "ask", ask.Tool)
	assert.JSONEq(t, `{"n": 1}`, string(ask.Arguments))
}

// recordedMessage is the failure message inside a recorded run's content.
func TestRecordedMessage(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{"Error: code run failed (timeout): program exceeded its time limit of 30s", "program exceeded its time limit of 30s"},
		{"Error: code run failed (aborted): cancelled by the caller\n\nCaptured output:\na\nb", "cancelled by the caller"},
		{"", ""},
	} {
		rec := &recording.Recording{}
		if c.content != "" {
			rec.Content = []registry.Part{registry.TextPart(c.content)}
		}
		assert.Equal(t, c.want, recordedMessage(rec), c.content)
	}
}
