package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/abort"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// plainExecutor is an executor over one Go tool, "double".
func plainExecutor(t testing.TB, lim host.Limits) (*ptc.Executor, *registry.Registry) {
	t.Helper()
	reg := registry.New()
	double := registry.MustDefine(registry.Spec[struct{ N float64 }, float64]{
		Name:        "double",
		Description: "Doubles n.",
		Parameters:  registry.Object(registry.Required("n", registry.Number())),
		Execute: func(_ context.Context, a struct{ N float64 }, _ *registry.Exec) (float64, error) {
			return 2 * a.N, nil
		},
	})
	_, err := reg.Register(double)
	require.NoError(t, err)
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Limits: lim})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return ex, reg
}

func connectHTTP(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func runCode(t *testing.T, cs *sdk.ClientSession, code string) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": code}})
	require.NoError(t, err)
	return res
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestServer_http(t *testing.T) {
	ex, reg := plainExecutor(t, host.Limits{})
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	cs := connectHTTP(t, hs.URL+"/mcp")

	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	require.Equal(t, "run_code", tools.Tools[0].Name)
	require.Equal(t, ex.RunCodeSchema(registry.Scope{}, nil).Description, tools.Tools[0].Description, "the description is Describe's, verbatim")

	res := runCode(t, cs, `console.log("hi"); return {d: await tools.double({n: 21})};`)
	require.False(t, res.IsError, text(res))
	require.Equal(t, "hi\n{\"d\": 42}", text(res))
	sc, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.JSONEq(t, `{"returnValue":{"d":42}}`, string(sc))

	res = runCode(t, cs, `throw new Error("boom")`)
	require.True(t, res.IsError)
	require.Contains(t, text(res), "boom")

	// A tool registered later shows in the description of the next list.
	_, err = reg.Register(registry.MustDefine(registry.Spec[struct{}, string]{
		Name: "later", Description: "Registered later.",
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return "ok", nil },
	}))
	require.NoError(t, err)
	tools, err = cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Contains(t, tools.Tools[0].Description, "later")

	// Health.
	resp, err := http.Get(hs.URL + "/healthz")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "ok\n", string(body))
}

func TestServer_stdio(t *testing.T) {
	ex, reg := plainExecutor(t, host.Limits{})
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, sr, sw) }()
	changed := make(chan struct{}, 10)
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	require.NoError(t, err)
	res := runCode(t, cs, `return 6 * 7`)
	require.False(t, res.IsError, text(res))
	require.Equal(t, "42", text(res))

	// A tool registered later: the client is told, and the next list has it.
	_, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	_, err = reg.Register(registry.MustDefine(registry.Spec[struct{}, string]{
		Name: "later", Description: "Registered later.",
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) { return "ok", nil },
	}))
	require.NoError(t, err)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Contains(t, tools.Tools[0].Description, "later(")
	cs.Close()
	cancel()
	<-done
}

func TestServer_shutdown(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{Timeout: time.Minute})
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	cs := connectHTTP(t, hs.URL+"/mcp")

	var wg sync.WaitGroup
	results := make([]*sdk.CallToolResult, 2)
	started := time.Now()
	for i, code := range []string{
		`await new Promise(r => setTimeout(r, 200)); return "finished"`, // within the grace
		`await new Promise(r => setTimeout(r, 60000)); return "never"`,  // aborted
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runCode(t, cs, code)
		}()
	}
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	require.Error(t, s.Shutdown(ctx), "a run was aborted")
	wg.Wait()
	require.Less(t, time.Since(started), 30*time.Second)
	require.False(t, results[0].IsError, text(results[0]))
	require.Equal(t, "finished", text(results[0]))
	require.True(t, results[1].IsError)
	require.Equal(t, "Error: code run failed (aborted): "+abort.Shutdown, text(results[1]))

	// After shutdown: unhealthy, and new runs are refused.
	resp, err := http.Get(hs.URL + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	res := runCode(t, cs, `return 1`)
	require.True(t, res.IsError)
	require.Contains(t, text(res), "aborted")
}
