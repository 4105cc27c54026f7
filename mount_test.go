package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Both executors are ToolExecutors.
var (
	_ ptc.ToolExecutor = (*ptc.Executor)(nil)
	_ ptc.ToolExecutor = (*ptc.NativeExecutor)(nil)
)

func TestNativeExecutor(t *testing.T) {
	h := newFixture(t, host.Limits{}, weatherTool())
	n, err := ptc.NewNativeExecutor(h.pipe)
	require.NoError(t, err)
	schemas := n.Describe(registry.Scope{}, nil)
	var own []registry.ToolSchema
	for _, d := range h.reg.Definitions(registry.Scope{}, nil) {
		own = append(own, d.Schema())
	}
	require.Equal(t, own, schemas, "the visible tools' own schemas")
	require.NotEmpty(t, schemas)
	rs := n.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{
		{ID: "1", Name: schemas[0].Name, Arguments: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "2", Name: "nope", Arguments: json.RawMessage(`{}`)},
	}})
	require.Len(t, rs, 2)
	require.False(t, rs[0].IsError, registry.PlainText(rs[0].Content))
	require.NoError(t, rs[0].Err())
	require.ErrorIs(t, rs[1].Err(), registry.ErrUnknownTool)
	_, err = ptc.NewNativeExecutor(nil)
	require.ErrorContains(t, err, "no pipeline")
}

// slowExecutor answers every call after a delay, with its own name.
type slowExecutor struct {
	name  string
	delay time.Duration
}

func (s slowExecutor) Describe(registry.Scope, *registry.ToolSet) []registry.ToolSchema {
	return []registry.ToolSchema{{Name: s.name}}
}

func (s slowExecutor) Execute(_ context.Context, b pipeline.Batch) []*ptc.Result {
	time.Sleep(s.delay)
	rs := make([]*ptc.Result, len(b.Calls))
	for i := range rs {
		rs[i] = &ptc.Result{Content: []registry.Part{registry.TextPart(s.name)}}
	}
	return rs
}

func TestMounts(t *testing.T) {
	var m ptc.Mounts
	deployment, preset, agent := registry.Scope{}, registry.Scope{Preset: "p"}, registry.Scope{Preset: "p", Agent: "a"}
	batch := func(s registry.Scope) pipeline.Batch {
		return pipeline.Batch{Agent: s, Calls: []pipeline.RawCall{{ID: "1", Name: "x"}}}
	}
	text := func(rs []*ptc.Result) string { return registry.PlainText(rs[0].Content) }

	// Nothing mounted: a clear error.
	rs := m.Execute(context.Background(), batch(agent))
	require.True(t, rs[0].IsError)
	require.ErrorIs(t, rs[0].Err(), ptc.ErrNoExecutor)
	require.Equal(t, "Error: ptc: no tool executor is mounted for agent p/a", text(rs))
	require.Nil(t, m.Describe(agent, nil))

	unDeploy, err := m.Mount(deployment, slowExecutor{name: "deployment"})
	require.NoError(t, err)
	_, err = m.Mount(deployment, slowExecutor{name: "again"})
	require.ErrorIs(t, err, ptc.ErrDuplicateExecutor)
	unPreset, err := m.Mount(preset, slowExecutor{name: "preset", delay: 200 * time.Millisecond})
	require.NoError(t, err)

	// The nearest scope provides.
	require.Equal(t, "preset", m.Describe(agent, nil)[0].Name)
	require.Equal(t, "deployment", m.Describe(registry.Scope{Preset: "q", Agent: "b"}, nil)[0].Name)

	// A batch accepted by the preset's executor settles through it even if
	// that executor is unmounted meanwhile; the next batch goes elsewhere.
	done := make(chan []*ptc.Result)
	go func() { done <- m.Execute(context.Background(), batch(agent)) }()
	time.Sleep(50 * time.Millisecond)
	unPreset()
	unPreset() // harmless
	require.Equal(t, "preset", text(<-done))
	require.Equal(t, "deployment", text(m.Execute(context.Background(), batch(agent))))

	// Unmounted everywhere: new batches are refused until a replacement is
	// mounted (Execute, which cannot refuse, fails each call instead).
	unDeploy()
	rs, err = m.ExecuteWith(context.Background(), batch(agent), ptc.RunOptions{})
	require.ErrorIs(t, err, ptc.ErrNoExecutor)
	require.Nil(t, rs, "a refused batch has no results")
	require.ErrorIs(t, m.Execute(context.Background(), batch(agent))[0].Err(), ptc.ErrNoExecutor)
	_, err = m.Mount(agent, slowExecutor{name: "replacement"})
	require.NoError(t, err)
	require.Equal(t, "replacement", text(m.Execute(context.Background(), batch(agent))))
	rs, err = m.ExecuteWith(context.Background(), batch(agent), ptc.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, "replacement", text(rs))
	_, err = m.ExecuteWith(context.Background(), batch(agent), ptc.RunOptions{Record: true})
	require.ErrorContains(t, err, "runs no programs", "options for an executor that runs no programs")
}

// A caller that can take a refusal uses ExecuteWith: while no executor is
// mounted for the batch's agent, the batch is refused and nothing runs.
func ExampleMounts_ExecuteWith() {
	var m ptc.Mounts
	batch := pipeline.Batch{Agent: registry.Scope{Preset: "p", Agent: "a"}, Calls: []pipeline.RawCall{{ID: "1", Name: "ping", Arguments: []byte(`{}`)}}}
	_, err := m.ExecuteWith(context.Background(), batch, ptc.RunOptions{})
	fmt.Println(errors.Is(err, ptc.ErrNoExecutor), err)
	// Output:
	// true ptc: no tool executor is mounted for agent p/a
}

// Mount the PTC executor for every agent and the native one for one
// preset: the nearest scope decides what each agent's model sees.
func ExampleMounts() {
	ctx := context.Background()
	reg := registry.New()
	reg.Register(registry.MustDefine(registry.Spec[struct{}, string]{
		Name: "ping", Description: "Answers pong.",
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return "pong", nil },
	}))
	pipe, _ := pipeline.New(pipeline.Config{Registry: reg})
	ptcEx, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ptcEx.Close(ctx)
	native, _ := ptc.NewNativeExecutor(pipe)

	var m ptc.Mounts
	m.Mount(registry.Scope{}, ptcEx)
	m.Mount(registry.Scope{Preset: "direct"}, native)

	for _, agent := range []registry.Scope{{Preset: "coder", Agent: "a"}, {Preset: "direct", Agent: "b"}} {
		fmt.Println(agent, "sees", m.Describe(agent, nil)[0].Name)
	}
	// Output:
	// agent coder/a sees run_code
	// agent direct/b sees ping
}
