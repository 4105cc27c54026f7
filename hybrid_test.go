package ptc_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// callersTool answers its own name; callers says who may call it.
func callersTool(name string, callers registry.Callers) *registry.Tool {
	return registry.MustDefine(registry.Spec[struct{}, string]{
		Name: name, Description: "Answers " + name + ".", Callers: callers,
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return name, nil },
	})
}

// TestHybrid: tools marked direct-only, program-only or both, as
// allowed_callers: the PTC executor offers run_code plus the direct tools
// and settles a batch that mixes them in call order.
func TestHybrid(t *testing.T) {
	h := newFixture(t, host.Limits{},
		callersTool("lookup", registry.CallersDefault),
		callersTool("confirm", registry.CallersDirect),
		callersTool("either", registry.CallersDirect|registry.CallersProgram),
		callersTool("crunch", registry.CallersProgram))
	names := func(ss []registry.ToolSchema) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	require.Equal(t, []string{"run_code", "confirm", "either"}, names(h.ex.Describe(registry.Scope{}, nil)))
	decls := h.ex.Declarations(registry.Scope{}, nil)
	for _, n := range []string{"lookup(", "either(", "crunch("} {
		require.Contains(t, decls, n)
	}
	require.NotContains(t, decls, "confirm(", "a direct-only tool is not in the SDK")

	code := func(src string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"code": src})
		return b
	}
	rs := h.ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{
		{ID: "1", Name: "confirm", Arguments: json.RawMessage(`{}`)},
		{ID: "2", Name: ptc.ToolName, Arguments: code(`return [await tools.lookup({}), await tools.either({}), await tools.crunch({})].join()`)},
		{ID: "3", Name: "either", Arguments: json.RawMessage(`{}`)},
		{ID: "4", Name: ptc.ToolName, Arguments: code(`try { await tools.confirm({}) } catch (e) { return e.code + ": " + e.message }`)},
		{ID: "5", Name: "lookup", Arguments: json.RawMessage(`{}`)},
	}})
	require.Len(t, rs, 5)
	require.Equal(t, "confirm", registry.PlainText(rs[0].Content))
	require.Equal(t, "lookup,either,crunch", registry.PlainText(rs[1].Content))
	require.Equal(t, "either", registry.PlainText(rs[2].Content))
	require.Equal(t, "UNKNOWN_TOOL: tools.confirm is not callable from programs: the model calls it directly, outside run_code", registry.PlainText(rs[3].Content))
	require.ErrorIs(t, rs[4].Err(), registry.ErrUnknownTool, "a program-only tool is not the model's to call")
	require.Equal(t, "Error: lookup is callable only from programs: call tools.lookup(...) inside run_code", registry.PlainText(rs[4].Content))

	// The native executor: every tool but the program-only ones.
	n, err := ptc.NewNativeExecutor(h.pipe)
	require.NoError(t, err)
	require.Equal(t, []string{"lookup", "confirm", "either"}, names(n.Describe(registry.Scope{}, nil)))
	rs = n.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{
		{ID: "1", Name: "crunch", Arguments: json.RawMessage(`{}`)},
		{ID: "2", Name: "lookup", Arguments: json.RawMessage(`{}`)},
	}})
	require.ErrorIs(t, rs[0].Err(), ptc.ErrProgramOnly)
	require.Equal(t, "lookup", registry.PlainText(rs[1].Content))
}
