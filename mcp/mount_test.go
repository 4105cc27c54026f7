package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/mcptest"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/tetratelabs/wazero/internal/engine/wazevo.(*engine).compileModule.func1"))
}

// One host for the package's tests: compiling the guest under -race takes
// seconds.
var (
	hostOnce sync.Once
	testHost *host.Host
	hostErr  error
)

func sharedHost(t testing.TB) *host.Host {
	t.Helper()
	hostOnce.Do(func() { testHost, hostErr = host.New(context.Background(), host.Config{}) })
	if errors.Is(hostErr, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	require.NoError(t, hostErr)
	return testHost
}

// everything mounts a fresh "everything" server as "ev" in reg.
func everything(t *testing.T, reg *registry.Registry, opts mcp.MountOptions) *mcp.Client {
	t.Helper()
	cmd, args := mcptest.Everything(t)
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "ev", Command: cmd, Args: args}, opts)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

type fixture struct {
	reg  *registry.Registry
	pipe *pipeline.Pipeline
	ex   *ptc.Executor
	mc   *mcp.Client
}

func newFixture(t *testing.T, lim host.Limits, opts mcp.MountOptions) *fixture {
	t.Helper()
	reg := registry.New()
	mc := everything(t, reg, opts)
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Limits: lim})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return &fixture{reg: reg, pipe: pipe, ex: ex, mc: mc}
}

func (f *fixture) run(t *testing.T, code string) *ptc.Result {
	t.Helper()
	args, err := json.Marshal(map[string]string{"code": code})
	require.NoError(t, err)
	return f.ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{{ID: "1", Name: ptc.ToolName, Arguments: args}}})[0]
}

func TestMount_tools(t *testing.T) {
	reg := registry.New()
	c := everything(t, reg, mcp.MountOptions{})
	names := c.Tools()
	for _, want := range []string{"ev__echo", "ev__get-sum", "ev__get-tiny-image", "ev__get-structured-content", "ev__trigger-long-running-operation"} {
		require.Contains(t, names, want)
	}
	echo, ok := reg.Get("ev__echo", registry.Scope{}, nil)
	require.True(t, ok)
	require.Contains(t, string(echo.Schema().Parameters), `"message"`)
	sum, _ := reg.Get("ev__get-structured-content", registry.Scope{}, nil)
	require.NotNil(t, sum.OutputSchema(), "outputSchema types the SDK")
	// The schema as the server wrote it, not as the SDK's map re-encodes it:
	// the declarations list the properties in the server's order.
	ann, _ := reg.Get("ev__get-annotated-message", registry.Scope{}, nil)
	raw := string(ann.Schema().Parameters)
	require.Less(t, strings.Index(raw, `"messageType"`), strings.Index(raw, `"includeImage"`), raw)
}

func TestMount_callThroughPipeline(t *testing.T) {
	reg := registry.New()
	everything(t, reg, mcp.MountOptions{})
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ctx := context.Background()

	o := pipe.Call(ctx, pipeline.RawCall{ID: "1", Name: "ev__echo", Arguments: json.RawMessage(`{"message":"hi"}`)}, pipeline.Env{})
	require.NoError(t, o.Err(), "%v", o.Content())
	require.Equal(t, "Echo: hi", registry.Part(o.Content()[0]).Text)
	v, _ := o.ValueJSON()
	require.JSONEq(t, `"Echo: hi"`, string(v))

	o = pipe.Call(ctx, pipeline.RawCall{ID: "2", Name: "ev__echo", Arguments: json.RawMessage(`{"message":3}`)}, pipeline.Env{})
	require.Equal(t, "INVALID_ARGUMENTS", pipeline.CodeOf(o.Err()), "the server's input schema is enforced")

	o = pipe.Call(ctx, pipeline.RawCall{ID: "3", Name: "ev__get-structured-content", Arguments: json.RawMessage(`{"location":"Chicago"}`)}, pipeline.Env{})
	require.NoError(t, o.Err(), "%v", o.Content())
	v, _ = o.ValueJSON()
	require.JSONEq(t, `{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}`, string(v))

	o = pipe.Call(ctx, pipeline.RawCall{ID: "4", Name: "ev__get-tiny-image", Arguments: json.RawMessage(`{}`)}, pipeline.Env{})
	require.NoError(t, o.Err(), "%v", o.Content())
	var types []registry.PartType
	for _, p := range o.Content() {
		types = append(types, p.Type)
	}
	require.Equal(t, []registry.PartType{registry.PartText, registry.PartImage, registry.PartText}, types)
	require.Equal(t, "image/png", o.Content()[1].MimeType)
	require.True(t, strings.HasPrefix(string(o.Content()[1].Data), "\x89PNG"))
}

func TestMount_program(t *testing.T) {
	f := newFixture(t, host.Limits{}, mcp.MountOptions{})
	r := f.run(t, `
const [a, b, c] = await Promise.all([
  tools["ev__get-sum"]({a: 1, b: 2}),
  tools["ev__get-sum"]({a: 40, b: 2}),
  tools.ev__echo({message: "x"}),
]);
console.log(a, b, c);
const w = await tools["ev__get-structured-content"]({location: "New York"});
return w.temperature;`)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	text := registry.PlainText(r.Content)
	require.Contains(t, text, "Echo: x")
	require.Contains(t, text, "33")
	require.Len(t, r.Subcalls, 4)
}

func TestMount_image(t *testing.T) {
	f := newFixture(t, host.Limits{}, mcp.MountOptions{})
	r := f.run(t, `const r = await tools["ev__get-tiny-image"]({}); return typeof r;`)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	i := slices.IndexFunc(r.Content, func(p registry.Part) bool { return p.Type == registry.PartImage })
	require.Positive(t, i, "the image comes back as context")
	require.Equal(t, "Image from ev__get-tiny-image (call 1):", r.Content[i-1].Text)
}

func TestMount_timeout(t *testing.T) {
	f := newFixture(t, host.Limits{Timeout: time.Second}, mcp.MountOptions{})
	start := time.Now()
	r := f.run(t, `return await tools["ev__trigger-long-running-operation"]({duration: 30, steps: 30});`)
	require.True(t, r.IsError)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Contains(t, registry.PlainText(r.Content), "timeout")
	// The server survived the cancellation (or was restarted): it answers.
	r = f.run(t, `return (await tools.ev__echo({message: "still here"}));`)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	require.Contains(t, registry.PlainText(r.Content), "Echo: still here")
}

// A program sees a tool's resource links and embedded resources as the
// model does: lines of its text value.
func TestMount_resourcesReachPrograms(t *testing.T) {
	f := newFixture(t, host.Limits{}, mcp.MountOptions{})
	r := f.run(t, `const links = await tools["ev__get-resource-links"]({count: 2});
const ref = await tools["ev__get-resource-reference"]({resourceType: "Text", resourceId: 2});
return [links, ref]`)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	text := registry.PlainText(r.Content)
	require.Contains(t, text, "Here are 2 resource links to resources available in this server:\\nResource link: Blob Resource 1 <demo://resource/dynamic/blob/1>")
	require.Contains(t, text, "Resource link: Text Resource 2 <demo://resource/dynamic/text/2> (text/plain)")
	require.Contains(t, text, "Resource 2: This is a plaintext resource")
}
