package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/registry"
)

var (
	preset = registry.Scope{Preset: "p"}
	agent  = registry.Scope{Preset: "p", Agent: "a"}
	other  = registry.Scope{Preset: "p", Agent: "b"}
)

func tool(t testing.TB, name string) *registry.Tool {
	t.Helper()
	return registry.MustDefine(registry.RawSpec{Name: name, Description: "d " + name, Execute: noop[json.RawMessage]})
}

func register(t testing.TB, r *registry.Registry, tl *registry.Tool, opts ...registry.Option) func() {
	t.Helper()
	d, err := r.Register(tl, opts...)
	require.NoError(t, err)
	return d
}

func names(tools []*registry.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name()
	}
	return out
}

// executable is the execution lookup's tool.
func executable(r *registry.Registry, name string, scope registry.Scope, set *registry.ToolSet) (*registry.Tool, error) {
	x, err := r.Executable(name, scope, set)
	if err != nil {
		return nil, err
	}
	return x.Tool(), nil
}

// toolSchemas is the model-facing projection of the definitions.
func toolSchemas(r *registry.Registry, scope registry.Scope, set *registry.ToolSet) []registry.ToolSchema {
	defs := r.Definitions(scope, set)
	out := make([]registry.ToolSchema, len(defs))
	for i, t := range defs {
		out[i] = t.Schema()
	}
	return out
}

// condition is what When takes.
type condition = func(ctx context.Context, step registry.Step) (bool, error)

func is(t *testing.T, want *registry.Tool, got *registry.Tool, ok bool) {
	t.Helper()
	assert.True(t, ok)
	assert.Same(t, want, got)
}

// "Registering a tool is enough to make it visible."
func TestRegistry_Register_MakesVisible(t *testing.T) {
	r := registry.New()
	a := tool(t, "a")
	register(t, r, a)
	for _, s := range []registry.Scope{{}, preset, agent, {Agent: "solo"}} {
		got, ok := r.Get("a", s, nil)
		is(t, a, got, ok)
		assert.Equal(t, []string{"a"}, names(r.Definitions(s, nil)), s.String())
		ex, err := executable(r, "a", s, nil)
		require.NoError(t, err)
		assert.Same(t, a, ex)
	}
	_, err := r.Register(nil)
	assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
}

// "The nearest scope ... wins" (deployment → preset → agent).
func TestRegistry_Get_NearestScopeWins(t *testing.T) {
	r := registry.New()
	dep, pre, ag := tool(t, "x"), tool(t, "x"), tool(t, "x")
	register(t, r, dep)
	register(t, r, pre, registry.In(preset))
	disposeAgent := register(t, r, ag, registry.In(agent))

	tests := []struct {
		scope registry.Scope
		want  *registry.Tool
	}{
		{registry.Scope{}, dep},
		{preset, pre},
		{agent, ag},
		{other, pre},
		{registry.Scope{Preset: "q", Agent: "a"}, dep},
	}
	for _, tc := range tests {
		t.Run(tc.scope.String(), func(t *testing.T) {
			got, ok := r.Get("x", tc.scope, nil)
			is(t, tc.want, got, ok)
			assert.Len(t, r.Definitions(tc.scope, nil), 1, "a shadowed tool is listed once")
		})
	}
	disposeAgent()
	got, ok := r.Get("x", agent, nil)
	is(t, pre, got, ok)
}

// "same-name replacement": the latest registration in a scope wins; disposing
// it uncovers the previous one.
func TestRegistry_Register_SameNameReplacement(t *testing.T) {
	r := registry.New()
	v1, v2 := tool(t, "x"), tool(t, "x")
	d1 := register(t, r, v1)
	d2 := register(t, r, v2)
	got, ok := r.Get("x", registry.Scope{}, nil)
	is(t, v2, got, ok)
	assert.Len(t, toolSchemas(r, registry.Scope{}, nil), 1)
	d2()
	d2() // idempotent
	got, ok = r.Get("x", registry.Scope{}, nil)
	is(t, v1, got, ok)
	d1()
	_, ok = r.Get("x", registry.Scope{}, nil)
	assert.False(t, ok)
	_, err := executable(r, "x", registry.Scope{}, nil)
	assert.ErrorIs(t, err, registry.ErrUnknownTool)
	assert.ErrorIs(t, err, registry.ErrUnknownTool)
}

// "applies an allow or deny mask to the global tools one agent inherits;
// masks intersect, scoped registrations stay visible, and the restriction
// lifts when disposed."
func TestRegistry_Restrict(t *testing.T) {
	tests := []struct {
		name    string
		filters []registry.Filter
		want    []string // visible in agent, registration order
	}{
		{"no mask", nil, []string{"a", "b", "c", "mine"}},
		{"allow mask", []registry.Filter{registry.Only("a", "b")}, []string{"a", "b", "mine"}},
		{"deny mask", []registry.Filter{registry.Except("b")}, []string{"a", "c", "mine"}},
		{"masks intersect", []registry.Filter{registry.Only("a", "b"), registry.Only("b", "c")}, []string{"b", "mine"}},
		{"allow and deny intersect", []registry.Filter{registry.Only("a", "b"), registry.Except("a")}, []string{"b", "mine"}},
		{"scoped registrations stay visible", []registry.Filter{registry.Only()}, []string{"mine"}},
		{"patterns", []registry.Filter{registry.Only("[ab]", "z*")}, []string{"a", "b", "mine"}},
		{"pattern star", []registry.Filter{registry.Only("*")}, []string{"a", "b", "c", "mine"}},
		{"no pattern", []registry.Filter{registry.Only()}, []string{"mine"}},
		{"malformed pattern matches nothing", []registry.Filter{registry.Only("[", "c")}, []string{"c", "mine"}},
		{"patterns and a deny mask", []registry.Filter{registry.Only("*"), registry.Except("c")}, []string{"a", "b", "mine"}},
		{"deny pattern", []registry.Filter{registry.Except("[ab]")}, []string{"c", "mine"}},
		{"names and patterns together", []registry.Filter{registry.Only("a", "c*")}, []string{"a", "c", "mine"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			register(t, r, tool(t, "a"))
			register(t, r, tool(t, "b"))
			register(t, r, tool(t, "c"), registry.In(preset))
			register(t, r, tool(t, "mine"), registry.In(agent))
			var lifts []func()
			for _, f := range tc.filters {
				lift, err := r.Restrict(agent, f)
				require.NoError(t, err)
				lifts = append(lifts, lift)
			}
			assert.Equal(t, tc.want, names(r.Definitions(agent, nil)))
			assert.Equal(t, []string{"a", "b", "c"}, names(r.Definitions(preset, nil)), "other scopes are unaffected")
			assert.Equal(t, []string{"a", "b", "c"}, names(r.Definitions(other, nil)))
			for _, n := range []string{"a", "b", "c"} {
				_, err := executable(r, n, agent, nil)
				assert.Equal(t, contains(tc.want, n), err == nil, n)
			}
			for _, lift := range lifts {
				lift()
			}
			assert.Equal(t, []string{"a", "b", "c", "mine"}, names(r.Definitions(agent, nil)), "lifted when disposed")
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestRegistry_Restrict_PresetAppliesBeneath(t *testing.T) {
	r := registry.New()
	register(t, r, tool(t, "a"))
	register(t, r, tool(t, "b"))
	register(t, r, tool(t, "p_own"), registry.In(preset))
	_, err := r.Restrict(preset, registry.Except("a", "p_own"))
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "p_own"}, names(r.Definitions(agent, nil)))
	assert.Equal(t, []string{"a", "b"}, names(r.Definitions(registry.Scope{Agent: "solo"}, nil)))

	_, err = r.Restrict(registry.Scope{}, registry.Except("a"))
	assert.ErrorIs(t, err, registry.ErrInvalidScope)
}

// "schemas(scope) returns the visible schemas without the execute functions";
// the order is registration order and stable.
func TestRegistry_Schemas_StableRegistrationOrder(t *testing.T) {
	r := registry.New()
	for _, n := range []string{"zeta", "alpha", "mid"} {
		register(t, r, tool(t, n))
	}
	register(t, r, tool(t, "agent_tool"), registry.In(agent))
	first, err := json.Marshal(toolSchemas(r, agent, nil))
	require.NoError(t, err)
	for range 20 {
		again, _ := json.Marshal(toolSchemas(r, agent, nil))
		require.Equal(t, string(first), string(again))
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid", "agent_tool"}, names(r.Definitions(agent, nil)))
	var decoded []map[string]any
	require.NoError(t, json.Unmarshal(first, &decoded))
	for _, s := range decoded {
		assert.ElementsMatch(t, []string{"name", "description", "parameters"}, keys(s))
	}
	register(t, r, tool(t, "alpha"))
	assert.Equal(t, []string{"zeta", "mid", "agent_tool", "alpha"}, names(r.Definitions(agent, nil)), "a replacement moves to the end")
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func cond(v bool, err error, calls *atomic.Int32) condition {
	return func(ctx context.Context, _ registry.Step) (bool, error) {
		if calls != nil {
			calls.Add(1)
		}
		return v, err
	}
}

// "evaluates a synchronous or asynchronous condition once for each model
// step"; "False omits the tool from the executor's description, PTC
// bindings, and execution".
func TestRegistry_Resolve_ConditionsOncePerStep(t *testing.T) {
	r := registry.New()
	var onCalls, offCalls atomic.Int32
	register(t, r, tool(t, "always"))
	on, off := tool(t, "on"), tool(t, "off")
	register(t, r, on, registry.When(cond(true, nil, &onCalls)))
	register(t, r, off, registry.When(cond(false, nil, &offCalls)), registry.In(agent))

	set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
	require.NoError(t, err)
	assert.Equal(t, int32(1), onCalls.Load())
	assert.Equal(t, int32(1), offCalls.Load())
	assert.Equal(t, []string{"always", "on"}, set.Names())
	assert.Equal(t, []string{"always", "on"}, names(r.Definitions(agent, set)))
	assert.Len(t, toolSchemas(r, agent, set), 2)

	for range 3 { // retries in the step reuse the set: no re-evaluation
		got, err := executable(r, "on", agent, set)
		require.NoError(t, err)
		assert.Same(t, on, got)
	}
	_, err = executable(r, "off", agent, set)
	assert.ErrorIs(t, err, registry.ErrUnknownTool)
	_, ok := r.Get("off", agent, set)
	assert.False(t, ok)
	assert.Equal(t, int32(1), onCalls.Load())

	got, ok := r.Get("off", agent, nil)
	is(t, off, got, ok) // "omitting toolSet inspects registered definitions without evaluating conditions"
	assert.Equal(t, []string{"always"}, names(r.Definitions(agent, nil)), "what the model is offered without a set is what it can call")
	assert.Equal(t, int32(1), offCalls.Load())
}

func TestRegistry_Resolve_ConditionReceivesStep(t *testing.T) {
	r := registry.New()
	step := registry.Step{Agent: agent, Provider: "prov", Model: "m", ReasoningEffort: "high"}
	var got registry.Step
	register(t, r, tool(t, "c"), registry.When(func(ctx context.Context, s registry.Step) (bool, error) {
		got = s
		return s.ReasoningEffort == "high", ctx.Err()
	}))
	set, err := r.Resolve(context.Background(), step)
	require.NoError(t, err)
	assert.Equal(t, step, got)
	assert.Equal(t, step, set.Step())
	assert.Equal(t, []string{"c"}, set.Names())
}

// "A thrown condition fails step preparation as TOOL_ACTIVATION_FAILED; it is
// not treated as ordinary unavailability."
func TestRegistry_Resolve_FailingConditionIsActivationFailed(t *testing.T) {
	tests := map[string]condition{
		"error": cond(false, errors.New("boom"), nil),
		"panic": func(context.Context, registry.Step) (bool, error) { panic("boom") },
	}
	for name, c := range tests {
		t.Run(name, func(t *testing.T) {
			r := registry.New()
			register(t, r, tool(t, "bad"), registry.When(c))
			set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
			assert.Nil(t, set)
			var e *registry.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, registry.ErrActivationFailed, e.Kind)
			assert.Equal(t, "bad", e.Tool)
			assert.ErrorIs(t, err, registry.ErrActivationFailed)
			assert.ErrorContains(t, err, "boom")
		})
	}
}

// "Conditions must observe cancellation."
func TestRegistry_Resolve_Cancelled(t *testing.T) {
	r := registry.New()
	register(t, r, tool(t, "c"), registry.When(func(ctx context.Context, _ registry.Step) (bool, error) {
		<-ctx.Done()
		return false, ctx.Err()
	}))
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	_, err := r.Resolve(ctx, registry.Step{Agent: agent})
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, registry.ErrActivationFailed, "cancellation is not an activation failure")

	_, err = r.Resolve(ctx, registry.Step{Agent: agent})
	assert.ErrorIs(t, err, context.Canceled, "already cancelled")
}

// "Conditions ... must not change registrations": a condition that does so
// anyway neither deadlocks nor corrupts the set; its change comes after the
// snapshot the set was resolved from.
func TestRegistry_Resolve_RegistrationDuringResolution(t *testing.T) {
	r := registry.New()
	var regErr, resErr error
	register(t, r, tool(t, "c"), registry.When(func(context.Context, registry.Step) (bool, error) {
		_, regErr = r.Register(tool(t, "sneaky"))
		_, resErr = r.Restrict(agent, registry.Except("c"))
		return true, nil
	}))
	set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
	require.NoError(t, err)
	require.NoError(t, regErr)
	require.NoError(t, resErr)
	assert.Equal(t, []string{"c"}, set.Names())
	_, err = executable(r, "sneaky", agent, set)
	assert.ErrorIs(t, err, registry.ErrUnknownTool, "registered after the snapshot")
	_, err = executable(r, "c", agent, set)
	assert.ErrorIs(t, err, registry.ErrStaleToolSet, "hidden by a restriction made after the snapshot")
}

// "A condition that returns false leaves the name to the next registration."
func TestRegistry_Resolve_FalseFallsBackToShadowed(t *testing.T) {
	r := registry.New()
	global, scoped := tool(t, "x"), tool(t, "x")
	register(t, r, global)
	register(t, r, scoped, registry.In(agent), registry.When(cond(false, nil, nil)))
	set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
	require.NoError(t, err)
	got, err := executable(r, "x", agent, set)
	require.NoError(t, err)
	assert.Same(t, global, got)
}

// "Disposal, new restrictions, or same-name replacement prevent unstarted
// calls from using it"; "each selection admits only the original
// registration in its exact agent scope".
func TestToolSet_RefusesStaleCalls(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, r *registry.Registry, dispose func(), set *registry.ToolSet)
		want   error
	}{
		{"registration disposed", func(t *testing.T, _ *registry.Registry, dispose func(), _ *registry.ToolSet) { dispose() }, registry.ErrStaleToolSet},
		{"new restriction", func(t *testing.T, r *registry.Registry, _ func(), _ *registry.ToolSet) {
			_, err := r.Restrict(agent, registry.Except("x"))
			require.NoError(t, err)
		}, registry.ErrStaleToolSet},
		{"same-name replacement", func(t *testing.T, r *registry.Registry, _ func(), _ *registry.ToolSet) {
			register(t, r, tool(t, "x"))
		}, registry.ErrStaleToolSet},
		{"nearer same-name registration", func(t *testing.T, r *registry.Registry, _ func(), _ *registry.ToolSet) {
			register(t, r, tool(t, "x"), registry.In(agent))
		}, registry.ErrStaleToolSet},
		{"set disposed", func(t *testing.T, _ *registry.Registry, _ func(), set *registry.ToolSet) { set.Dispose() }, registry.ErrToolSetDisposed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			x := tool(t, "x")
			dispose := register(t, r, x, registry.When(cond(true, nil, nil)))
			register(t, r, tool(t, "y"))
			set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
			require.NoError(t, err)
			got, err := executable(r, "x", agent, set)
			require.NoError(t, err)
			assert.Same(t, x, got)

			tc.change(t, r, dispose, set)
			_, err = executable(r, "x", agent, set)
			assert.ErrorIs(t, err, tc.want)
			assert.ErrorIs(t, err, registry.ErrUnknownTool)
			if tc.want == registry.ErrStaleToolSet {
				_, err = executable(r, "y", agent, set)
				assert.NoError(t, err, "unaffected tools stay callable")
			}
		})
	}
}

func TestToolSet_AdmitsOnlyItsScope(t *testing.T) {
	r := registry.New()
	register(t, r, tool(t, "x"))
	set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
	require.NoError(t, err)
	_, err = executable(r, "x", other, set)
	assert.ErrorIs(t, err, registry.ErrUnknownTool)
	assert.Empty(t, r.Definitions(other, set))
	_, ok := r.Get("x", other, set)
	assert.False(t, ok)
	_, err = executable(registry.New(), "x", agent, set)
	assert.ErrorIs(t, err, registry.ErrUnknownTool, "a set from another registry admits nothing")

	register(t, r, tool(t, "new"))
	_, err = executable(r, "new", agent, set)
	assert.ErrorIs(t, err, registry.ErrUnknownTool, "the set is a snapshot of the step")
}

// "Conditional calls in a batch without a resolved set return UNKNOWN_TOOL";
// "without one it excludes conditional registrations".
func TestRegistry_Executable_ConditionalWithoutSet(t *testing.T) {
	r := registry.New()
	register(t, r, tool(t, "c"), registry.When(cond(true, nil, nil)))
	_, err := executable(r, "c", agent, nil)
	var e *registry.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, registry.ErrUnknownTool, e.Kind)
	assert.ErrorIs(t, err, registry.ErrConditional)

	global := tool(t, "d")
	register(t, r, global)
	register(t, r, tool(t, "d"), registry.In(agent), registry.When(cond(true, nil, nil)))
	got, err := executable(r, "d", agent, nil)
	require.NoError(t, err)
	assert.Same(t, global, got, "the unconditional registration beneath is used")
}

// "subscribers are told when the visible set of a scope changes".
func TestRegistry_Subscribe(t *testing.T) {
	r := registry.New()
	var got []registry.Change
	cancel := r.Subscribe(func(c registry.Change) { got = append(got, c) })

	d1 := register(t, r, tool(t, "x"))
	d2 := register(t, r, tool(t, "x"), registry.In(agent))
	old := register(t, r, tool(t, "y"))
	register(t, r, tool(t, "y")) // replaces: the old one is no longer visible
	old()                        // not a visible change
	lift, err := r.Restrict(agent, registry.Except("x"))
	require.NoError(t, err)
	lift()
	d2()
	d1()
	cancel()
	register(t, r, tool(t, "z"))

	type ev struct {
		kind  registry.ChangeKind
		scope registry.Scope
		tool  string
	}
	var evs []ev
	var last uint64
	for _, c := range got {
		assert.Greater(t, c.Seq, last)
		last = c.Seq
		evs = append(evs, ev{c.Kind, c.Scope, c.Tool})
	}
	assert.Equal(t, []ev{
		{registry.ChangeRegistered, registry.Scope{}, "x"},
		{registry.ChangeRegistered, agent, "x"},
		{registry.ChangeRegistered, registry.Scope{}, "y"},
		{registry.ChangeRegistered, registry.Scope{}, "y"},
		{registry.ChangeRestricted, agent, ""},
		{registry.ChangeUnrestricted, agent, ""},
		{registry.ChangeDisposed, agent, "x"},
		{registry.ChangeDisposed, registry.Scope{}, "x"},
	}, evs)
}

// TestRegistry_Hammer runs registrations, restrictions, resolutions and
// lookups at once; run it with -race.
func TestRegistry_Hammer(t *testing.T) {
	r := registry.New()
	r.Subscribe(func(registry.Change) { _ = r.Definitions(agent, nil) })
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				name := fmt.Sprintf("t%d", (g*7+i)%13)
				scope := []registry.Scope{{}, preset, agent}[i%3]
				var opts []registry.Option
				opts = append(opts, registry.In(scope))
				if i%4 == 0 {
					opts = append(opts, registry.When(cond(i%8 == 0, nil, nil)))
				}
				if d, err := r.Register(tool(t, name), opts...); err == nil {
					defer d()
				} else {
					t.Error(err)
				}
				if i%10 == 0 {
					if lift, err := r.Restrict(agent, registry.Except(name)); err == nil {
						lift()
					}
				}
				set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
				if err != nil {
					t.Error(err)
					continue
				}
				for _, n := range set.Names() {
					if _, err := executable(r, n, agent, set); err != nil && !errors.Is(err, registry.ErrStaleToolSet) {
						t.Error(err)
					}
				}
				_ = toolSchemas(r, other, nil)
				set.Dispose()
			}
		}()
	}
	wg.Wait()
}

// TestRegistry_Resolve_SlowConditionBlocksNobody is the regression test for
// "while any agent's conditional tool resolves, Register/Restrict fail
// registry-wide": resolution works on a snapshot, so other agents (and the
// deployment) register and restrict while a slow condition runs, and the
// set still refuses what those changes made stale.
func TestRegistry_Resolve_SlowConditionBlocksNobody(t *testing.T) {
	r := registry.New()
	entered, release := make(chan struct{}), make(chan struct{})
	register(t, r, tool(t, "slow"), registry.In(agent), registry.When(func(ctx context.Context, _ registry.Step) (bool, error) {
		close(entered)
		select {
		case <-release:
			return true, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}))
	register(t, r, tool(t, "x"))
	register(t, r, tool(t, "y"))

	type res struct {
		set *registry.ToolSet
		err error
	}
	done := make(chan res, 1)
	go func() {
		set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
		done <- res{set, err}
	}()
	<-entered

	tests := []struct {
		name string
		do   func() error
	}{
		{"register in another agent", func() error {
			_, err := r.Register(tool(t, "mine"), registry.In(other))
			return err
		}},
		{"restrict another agent", func() error {
			_, err := r.Restrict(other, registry.Except("x"))
			return err
		}},
		{"register in the deployment", func() error {
			_, err := r.Register(tool(t, "new"))
			return err
		}},
		{"replace a tool the resolving agent sees", func() error {
			_, err := r.Register(tool(t, "x"))
			return err
		}},
		{"restrict the resolving agent", func() error {
			_, err := r.Restrict(agent, registry.Except("y"))
			return err
		}},
	}
	for _, tc := range tests {
		assert.NoError(t, tc.do(), tc.name)
	}
	close(release)
	got := <-done
	require.NoError(t, got.err)
	set := got.set
	assert.Equal(t, []string{"slow", "x", "y"}, set.Names(), "the set is the snapshot taken when resolution began")

	_, err := executable(r, "slow", agent, set)
	assert.NoError(t, err)
	_, err = executable(r, "x", agent, set)
	assert.ErrorIs(t, err, registry.ErrStaleToolSet, "replaced while resolving")
	_, err = executable(r, "y", agent, set)
	assert.ErrorIs(t, err, registry.ErrStaleToolSet, "restricted while resolving")
	_, err = executable(r, "new", agent, set)
	assert.ErrorIs(t, err, registry.ErrUnknownTool, "registered after the snapshot")
}

// TestRegistry_Definitions_NoSetExcludesConditional is the regression test
// for "Describe/SDK generation with a nil tool set advertise conditional
// tools": without a set, Definitions and Schemas list exactly what
// Executable admits.
func TestRegistry_Definitions_NoSetExcludesConditional(t *testing.T) {
	r := registry.New()
	register(t, r, tool(t, "always"))
	register(t, r, tool(t, "on"), registry.When(cond(true, nil, nil)))
	global := tool(t, "x")
	register(t, r, global)
	register(t, r, tool(t, "x"), registry.In(agent), registry.When(cond(true, nil, nil)))

	defs := r.Definitions(agent, nil)
	assert.Equal(t, []string{"always", "x"}, names(defs))
	assert.Same(t, global, defs[1], "a conditional registration does not hide the unconditional one it shadows")
	var schemas []string
	for _, s := range toolSchemas(r, agent, nil) {
		schemas = append(schemas, s.Name)
	}
	assert.Equal(t, []string{"always", "x"}, schemas)
	for _, d := range defs {
		got, err := executable(r, d.Name(), agent, nil)
		require.NoError(t, err)
		assert.Same(t, d, got)
	}
}

// TestRegistry_Definitions_SetHonoursLaterChanges is the regression test for
// "set-based definitions ignore restrictions made after the set was taken":
// a set lists only what it would still admit.
func TestRegistry_Definitions_SetHonoursLaterChanges(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, r *registry.Registry, disposeX func())
	}{
		{"restriction", func(t *testing.T, r *registry.Registry, _ func()) {
			_, err := r.Restrict(agent, registry.Except("x"))
			require.NoError(t, err)
		}},
		{"allow mask on the preset", func(t *testing.T, r *registry.Registry, _ func()) {
			_, err := r.Restrict(preset, registry.Only("y"))
			require.NoError(t, err)
		}},
		{"disposal", func(_ *testing.T, _ *registry.Registry, disposeX func()) { disposeX() }},
		{"same-name replacement", func(t *testing.T, r *registry.Registry, _ func()) {
			register(t, r, tool(t, "x"), registry.In(agent))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			disposeX := register(t, r, tool(t, "x"), registry.When(cond(true, nil, nil)))
			register(t, r, tool(t, "y"))
			set, err := r.Resolve(context.Background(), registry.Step{Agent: agent})
			require.NoError(t, err)
			require.Equal(t, []string{"x", "y"}, names(r.Definitions(agent, set)))

			tc.change(t, r, disposeX)
			assert.Equal(t, []string{"y"}, names(r.Definitions(agent, set)))
			assert.Len(t, toolSchemas(r, agent, set), 1)
			_, err = executable(r, "x", agent, set)
			assert.ErrorIs(t, err, registry.ErrStaleToolSet)
			assert.Equal(t, []string{"x", "y"}, set.Names(), "the set itself still records what it admitted")
		})
	}
}

// TestRegistry_Executable_Seam: the execution side the lookup returns is
// the tool's own (the same value every time), prepares calls that run the
// body, checks values against the output schema, and is nil on a refusal.
func TestRegistry_Executable_Seam(t *testing.T) {
	r := registry.New()
	tl := registry.MustDefine(registry.Spec[struct{}, string]{
		Name:        "hello",
		Output:      registry.Output[struct{}, string]{Schema: registry.String()},
		Execute:     func(context.Context, struct{}, *registry.Exec) (string, error) { return "hi", nil },
		TimeoutMs:   7,
		PresentCall: func(struct{}) any { return "card" },
	})
	register(t, r, tl)
	x, err := r.Executable("hello", agent, nil)
	require.NoError(t, err)
	again, err := r.Executable("hello", registry.Scope{}, nil)
	require.NoError(t, err)
	assert.Equal(t, x, again, "one registration, one execution side")
	assert.Same(t, tl, x.Tool())
	assert.Equal(t, 7, x.TimeoutMs())
	assert.True(t, x.HasPresentation())
	c, err := x.Prepare(json.RawMessage(`{}`))
	require.NoError(t, err)
	v, err := c.Execute(context.Background(), registry.Exec{})
	require.NoError(t, err)
	assert.Equal(t, "hi", v)
	assert.NoError(t, x.ValidateOutput(v))
	assert.ErrorIs(t, x.ValidateOutput(3), registry.ErrInvalidOutput)
	_, err = x.Prepare(json.RawMessage(`[]`))
	assert.ErrorIs(t, err, registry.ErrInvalidArguments)

	none, err := r.Executable("nope", agent, nil)
	assert.ErrorIs(t, err, registry.ErrUnknownTool)
	assert.Nil(t, none, "a refusal is a nil interface, not a nil pointer in one")
}
