package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/mcptest"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// goServer is an in-process MCP server (the Go SDK's) over streamable
// HTTP, with a small page size so that listing takes several pages.
func goServer(t *testing.T, tools int) (*sdk.Server, string) {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "go", Version: "1"}, &sdk.ServerOptions{PageSize: 2})
	for i := range tools {
		addSumTool(s, "sum"+strconv.Itoa(i))
	}
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(hs.Close)
	return s, hs.URL
}

type sumIn struct {
	A float64 `json:"a" jsonschema:"the first addend"`
	B float64 `json:"b" jsonschema:"the second addend"`
}

type sumOut struct {
	Sum float64 `json:"sum"`
}

func addSumTool(s *sdk.Server, name string) {
	sdk.AddTool(s, &sdk.Tool{Name: name, Description: "Adds a and b."}, func(_ context.Context, _ *sdk.CallToolRequest, in sumIn) (*sdk.CallToolResult, sumOut, error) {
		return nil, sumOut{in.A + in.B}, nil
	})
}

func TestMount_httpPaginationListChanged(t *testing.T) {
	s, url := goServer(t, 5)
	reg := registry.New()
	changes := make(chan registry.Change, 100)
	reg.Subscribe(func(ch registry.Change) { changes <- ch })
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "go", URL: url}, mcp.MountOptions{})
	require.NoError(t, err)
	defer c.Close()
	require.Equal(t, []string{"go__sum0", "go__sum1", "go__sum2", "go__sum3", "go__sum4"}, c.Tools(), "every page is listed")
	for range 5 {
		<-changes
	}
	tool, _ := reg.Get("go__sum3", registry.Scope{}, nil)
	require.NotNil(t, tool.OutputSchema())

	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	o := pipe.Call(context.Background(), pipeline.RawCall{ID: "1", Name: "go__sum3", Arguments: json.RawMessage(`{"a":1,"b":2}`)}, pipeline.Env{})
	require.NoError(t, o.Err(), "%v", o.Content())
	v, _ := o.ValueJSON()
	require.JSONEq(t, `{"sum":3}`, string(v), "structuredContent is the value")

	// notifications/tools/list_changed re-synchronises the registrations.
	addSumTool(s, "late")
	waitChange(t, changes, registry.ChangeRegistered, "go__late")
	s.RemoveTools("sum0")
	waitChange(t, changes, registry.ChangeDisposed, "go__sum0")
	require.Equal(t, []string{"go__late", "go__sum1", "go__sum2", "go__sum3", "go__sum4"}, c.Tools())
	_, ok := reg.Get("go__sum0", registry.Scope{}, nil)
	require.False(t, ok)

	require.NoError(t, c.Close())
	_, ok = reg.Get("go__late", registry.Scope{}, nil)
	require.False(t, ok, "Close disposes the registrations")
}

func waitChange(t *testing.T, changes <-chan registry.Change, kind registry.ChangeKind, tool string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ch := <-changes:
			if ch.Kind == kind && ch.Tool == tool {
				return
			}
		case <-deadline:
			t.Fatalf("no %v of %s", kind, tool)
		}
	}
}

func TestMount_unavailable(t *testing.T) {
	reg := registry.New()
	ctx := context.Background()
	_, err := mcp.Mount(ctx, reg, mcp.Endpoint{Name: "x", Command: "/nonexistent/server"}, mcp.MountOptions{})
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Contains(t, err.Error(), "no such file")

	node, _ := everythingCmd(t)
	_, err = mcp.Mount(ctx, reg, mcp.Endpoint{Name: "x", Command: node, Args: []string{"-e", `console.error("cannot open the database"); process.exit(3)`}}, mcp.MountOptions{})
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Contains(t, err.Error(), "cannot open the database", "the server's last words explain it")

	// A server that never answers initialize: the connect timeout ends it.
	start := time.Now()
	_, err = mcp.Mount(ctx, reg, mcp.Endpoint{Name: "x", Command: node, Args: []string{"-e", `setInterval(() => {}, 1000)`}}, mcp.MountOptions{ConnectTimeout: 500 * time.Millisecond})
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Empty(t, reg.Definitions(registry.Scope{}, nil))

	_, err = mcp.Mount(ctx, reg, mcp.Endpoint{Name: "x", URL: "http://127.0.0.1:1/mcp"}, mcp.MountOptions{ConnectTimeout: 2 * time.Second})
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	_, err = mcp.Mount(ctx, reg, mcp.Endpoint{Name: "bad name", Command: node}, mcp.MountOptions{})
	require.ErrorIs(t, err, mcp.ErrEndpoint)
	requireNoChildren(t)
}

func everythingCmd(t *testing.T) (string, []string) {
	t.Helper()
	node, args := mcptestEverything(t)
	return node, args
}

func TestMount_callTimeout(t *testing.T) {
	reg := registry.New()
	everything(t, reg, mcp.MountOptions{CallTimeout: 300 * time.Millisecond})
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	pipe.Wrap(pipeline.TimeoutPolicy())
	start := time.Now()
	o := pipe.Call(context.Background(), pipeline.RawCall{ID: "1", Name: "ev__trigger-long-running-operation", Arguments: json.RawMessage(`{"duration":20,"steps":20}`)}, pipeline.Env{})
	require.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(o.Err()))
	require.Less(t, time.Since(start), 10*time.Second)
	o = pipe.Call(context.Background(), pipeline.RawCall{ID: "2", Name: "ev__echo", Arguments: json.RawMessage(`{"message":"after"}`)}, pipeline.Env{})
	require.NoError(t, o.Err(), "the server survives a cancelled call: %v", o.Content())
}

// syncBuffer is a bytes.Buffer safe for the logger's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestMount_serverKilledMidRun(t *testing.T) {
	var logs syncBuffer
	f := newFixture(t, host.Limits{Timeout: 20 * time.Second}, mcp.MountOptions{
		Logger:     slog.New(slog.NewJSONHandler(&logs, nil)),
		MinBackoff: 50 * time.Millisecond,
	})
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		time.Sleep(500 * time.Millisecond)
		for _, pid := range children(t) {
			require.NoError(t, killPID(pid))
		}
	}()
	start := time.Now()
	r := f.run(t, `
let first;
try { await tools["ev__trigger-long-running-operation"]({duration: 10, steps: 10}); first = "finished?"; }
catch (e) { first = e.code + ": " + e.message; }
await new Promise(r => setTimeout(r, 200));
const again = await tools.ev__echo({message: "back"});
return {first, again};`)
	<-killed
	require.Less(t, time.Since(start), 10*time.Second, "the dead server's call fails at once, not at the timeout")
	require.False(t, r.IsError, registry.PlainText(r.Content))
	text := registry.PlainText(r.Content)
	require.Contains(t, text, "TOOL_FAILED: MCP server ev exited during the call")
	require.Contains(t, text, `"again": "Echo: back"`, "the next call restarted it")
	require.Equal(t, 1, f.mc.Restarts())
	require.Contains(t, logs.String(), `"msg":"mcp server restarted"`)
	require.Contains(t, logs.String(), `"msg":"mcp server exited"`)
}

func TestMount_closeLeavesNoProcess(t *testing.T) {
	reg := registry.New()
	node, args := mcptestEverything(t)
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "ev", Command: node, Args: args}, mcp.MountOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, children(t))
	require.NoError(t, c.Close())
	requireNoChildren(t)
	o := func() *pipeline.Outcome {
		pipe, _ := pipeline.New(pipeline.Config{Registry: reg})
		return pipe.Call(context.Background(), pipeline.RawCall{ID: "1", Name: "ev__echo", Arguments: json.RawMessage(`{"message":"x"}`)}, pipeline.Env{})
	}()
	require.Equal(t, "UNKNOWN_TOOL", pipeline.CodeOf(o.Err()))
}

// children returns the pids of this process's live children.
func children(t *testing.T) []int {
	t.Helper()
	self := strconv.Itoa(os.Getpid())
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var pids []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) > 1 && fields[1] == self && fields[0] != "Z" {
			pid, _ := strconv.Atoi(strings.Fields(s)[0])
			pids = append(pids, pid)
		}
	}
	return pids
}

func requireNoChildren(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(children(t)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("child processes left: %v", children(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMount_cancellationReachesServer: a call's cancelled context reaches
// the server as notifications/cancelled, which cancels the handler there.
func TestMount_cancellationReachesServer(t *testing.T) {
	s, url := goServer(t, 0)
	cancelled := make(chan struct{})
	sdk.AddTool(s, &sdk.Tool{Name: "block", Description: "Waits until cancelled."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, struct{}, error) {
		<-ctx.Done()
		close(cancelled)
		return nil, struct{}{}, ctx.Err()
	})
	reg := registry.New()
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "go", URL: url}, mcp.MountOptions{})
	require.NoError(t, err)
	defer c.Close()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	o := pipe.Call(ctx, pipeline.RawCall{ID: "1", Name: "go__block", Arguments: json.RawMessage(`{}`)}, pipeline.Env{})
	require.Error(t, o.Err())
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's handler was never cancelled")
	}
}

// TestMount_everythingOverHTTP mounts the reference server over streamable
// HTTP and runs a program against it.
func TestMount_everythingOverHTTP(t *testing.T) {
	start := time.Now()
	url := mcptest.StartEverythingHTTP(t)
	reg := registry.New()
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "ev", URL: url}, mcp.MountOptions{})
	require.NoError(t, err)
	defer c.Close()
	require.Contains(t, c.Tools(), "ev__get-sum")
	t.Logf("mounted after %v", time.Since(start))
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t)})
	require.NoError(t, err)
	defer ex.Close(context.Background())
	args2, _ := json.Marshal(map[string]string{"code": `const [a, b] = await Promise.all([tools.ev__get_sum({a: 1, b: 2}), tools.ev__echo({message: "http"})]); return a + " / " + b`})
	r := ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{{ID: "1", Name: ptc.ToolName, Arguments: args2}}})[0]
	require.False(t, r.IsError, registry.PlainText(r.Content))
	require.Equal(t, "The sum of 1 and 2 is 3. / Echo: http", registry.PlainText(r.Content))
	t.Logf("ran after %v", time.Since(start))
}

// TestMount_hungServer: a stdio server that stops reading its input (here
// stopped with SIGSTOP) while a call's arguments outgrow the pipe: the call
// ends at its timeout, the server is closed as hung, and the next call
// restarts it. The timeout also bounds that next call, whose server has to
// start again: 5 s, ten times a start unloaded (2 s timed out under load).
func TestMount_hungServer(t *testing.T) {
	var logs syncBuffer
	reg := registry.New()
	c := everything(t, reg, mcp.MountOptions{CallTimeout: 5 * time.Second, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	pipe.Wrap(pipeline.TimeoutPolicy())
	pids := children(t)
	require.NotEmpty(t, pids)
	for _, pid := range pids {
		require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	}
	big, _ := json.Marshal(map[string]string{"message": strings.Repeat("x", 300<<10)})
	start := time.Now()
	o := pipe.Call(context.Background(), pipeline.RawCall{ID: "1", Name: "ev__echo", Arguments: big}, pipeline.Env{})
	require.Equal(t, "TOOL_TIMEOUT", pipeline.CodeOf(o.Err()), "%v", o.Content())
	require.Less(t, time.Since(start), 30*time.Second, "the call ends near its timeout, not never")

	o = pipe.Call(context.Background(), pipeline.RawCall{ID: "2", Name: "ev__echo", Arguments: json.RawMessage(`{"message":"again"}`)}, pipeline.Env{})
	require.NoError(t, o.Err(), "the hung server is replaced: %v", o.Content())
	require.Equal(t, 1, c.Restarts())
	require.Contains(t, logs.String(), "mcp server hung")
}

// TestMount_collision: a server's tool whose name is already taken in the
// scope is refused (and logged), not registered over the other.
func TestMount_collision(t *testing.T) {
	var logs syncBuffer
	reg := registry.New()
	mine := registry.MustDefine(registry.Spec[struct{}, string]{
		Name: "ev__echo", Description: "Mine.",
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return "mine", nil },
	})
	_, err := reg.Register(mine)
	require.NoError(t, err)
	c := everything(t, reg, mcp.MountOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	require.NotContains(t, c.Tools(), "ev__echo")
	require.Contains(t, c.Tools(), "ev__get-sum")
	got, _ := reg.Get("ev__echo", registry.Scope{}, nil)
	require.Same(t, mine, got)
	require.Contains(t, logs.String(), "a tool of that name is already registered")
}

// A mounted tool's annotations say whether a durable run may call it
// again, and a call's idempotency key reaches the server in _meta.
func TestMount_idempotency(t *testing.T) {
	s, url := goServer(t, 0)
	keys := make(chan any, 4)
	for name, ann := range map[string]*sdk.ToolAnnotations{
		"read":  {ReadOnlyHint: true},
		"again": {IdempotentHint: true},
		"write": {},
	} {
		sdk.AddTool(s, &sdk.Tool{Name: name, Annotations: ann}, func(_ context.Context, req *sdk.CallToolRequest, in sumIn) (*sdk.CallToolResult, sumOut, error) {
			keys <- req.Params.Meta[mcp.IdempotencyMetaKey]
			return nil, sumOut{in.A + in.B}, nil
		})
	}
	reg := registry.New()
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "go", URL: url}, mcp.MountOptions{})
	require.NoError(t, err)
	defer c.Close()
	for name, want := range map[string]bool{"go__read": true, "go__again": true, "go__write": false} {
		tool, ok := reg.Get(name, registry.Scope{}, nil)
		require.True(t, ok, name)
		require.Equal(t, want, tool.Idempotent(), name)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	o := pipe.Call(context.Background(), pipeline.RawCall{Name: "go__write", Arguments: json.RawMessage(`{"a":1,"b":2}`), IdempotencyKey: "run-7/2"}, pipeline.Env{})
	require.NoError(t, o.Err())
	require.Equal(t, "run-7/2", <-keys)
	o = pipe.Call(context.Background(), pipeline.RawCall{Name: "go__write", Arguments: json.RawMessage(`{"a":1,"b":2}`)}, pipeline.Env{})
	require.NoError(t, o.Err())
	require.Nil(t, <-keys, "no key outside a durable run")
}
