package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/registry"
)

// The stages, one by one.

func stagePipeline(t *testing.T) *Pipeline {
	t.Helper()
	reg := registry.New()
	_, err := reg.Register(registry.MustDefine(registry.RawSpec{
		Name:       "t",
		Parameters: registry.Object(registry.Optional("n", registry.Integer())),
		Execute: func(ctx context.Context, a json.RawMessage, e *registry.Exec) (any, error) {
			if string(a) == `{"n":1}` {
				return nil, errors.New("one")
			}
			return string(a), nil
		},
	}))
	require.NoError(t, err)
	p, err := New(Config{Registry: reg})
	require.NoError(t, err)
	return p
}

func TestPipeline_prepare(t *testing.T) {
	p := stagePipeline(t)
	inv := p.prepare(RawCall{ID: "c1", Name: "t", Arguments: json.RawMessage(`{"n":2}`)}, Env{})
	require.Nil(t, inv.err)
	assert.Equal(t, "c1", inv.CallID())
	assert.NotEmpty(t, inv.Token())
	assert.Equal(t, "t", inv.Tool().Name())

	inv = p.prepare(RawCall{Name: "t", Arguments: json.RawMessage(`{"n":"x"}`)}, Env{})
	assert.Equal(t, codeInvalidArguments, inv.err.Code)
	inv = p.prepare(RawCall{Name: "u", Arguments: json.RawMessage(`{}`)}, Env{})
	assert.Equal(t, codeUnknownTool, inv.err.Code)
	assert.Nil(t, inv.Tool())
	assert.Equal(t, registry.Serial, inv.Mode())
	assert.Nil(t, inv.Args())
}

func TestPipeline_preExecuteAndGuard(t *testing.T) {
	p := stagePipeline(t)
	inv := p.prepare(RawCall{Name: "t", Arguments: json.RawMessage(`{}`)}, Env{})
	h := &hooks{}
	assert.Equal(t, Allow(), p.preExecute(bg(), h, inv))
	h.pre = []hook[PreExecuteListener]{{fn: func(context.Context, *Invocation, Decision) Decision { return Ask("q") }}}
	assert.Equal(t, Ask("q"), p.preExecute(bg(), h, inv))
	assert.Equal(t, "", p.guard(h, inv))
	h.guards = []hook[Guard]{{fn: func(*Invocation) string { return "g" }}}
	assert.Equal(t, "g", p.guard(h, inv))
}

func TestPipeline_askStage(t *testing.T) {
	p := stagePipeline(t)
	inv := p.prepare(RawCall{Name: "t", Arguments: json.RawMessage(`{}`)}, Env{})
	assert.Equal(t, codeAskUnanswered, p.ask(bg(), inv, "q").Code)
	inv.env.Approver = func(context.Context, *Invocation, string) (Answer, error) { return Answer{Approved: true}, nil }
	assert.Nil(t, p.ask(bg(), inv, "q"))
}

func TestPipeline_dispatchAndClassify(t *testing.T) {
	p := stagePipeline(t)
	h := &hooks{}
	inv := p.prepare(RawCall{Name: "t", Arguments: json.RawMessage(`{"n":2}`)}, Env{})
	v, e := p.dispatch(bg(), h, inv)
	require.Nil(t, e)
	assert.Equal(t, `{"n":2}`, v)
	inv = p.prepare(RawCall{Name: "t", Arguments: json.RawMessage(`{"n":1}`)}, Env{})
	_, e = p.dispatch(bg(), h, inv)
	assert.Equal(t, codeToolFailed, e.Code)
	assert.Equal(t, "one", e.Reason)

	// classify fills in the tool of a wrapper's *Error.
	_, e = p.classify(bg(), inv, nil, &Error{Code: codeDenied, Reason: "r"})
	assert.Equal(t, "t", e.Tool)
}

func TestPipeline_projectPostFinalize(t *testing.T) {
	p := stagePipeline(t)
	inv := p.prepare(RawCall{Name: "t", Arguments: json.RawMessage(`{}`)}, Env{})
	c, e := p.project(inv, "v")
	require.Nil(t, e)
	assert.Equal(t, []registry.Part{registry.TextPart("v")}, c)

	h := &hooks{post: []hook[PostExecuteListener]{{fn: func(_ context.Context, _ *Invocation, r *PostResult) { r.Block("b") }}}}
	r := &PostResult{Value: "v", Content: c}
	p.postExecute(bg(), h, inv, r)
	assert.True(t, r.blocked)
	assert.Equal(t, "b", r.feedback)

	out, e := p.finalize(inv, c)
	require.Nil(t, e)
	assert.Equal(t, c, out)
}

func bg() context.Context { return context.Background() }
