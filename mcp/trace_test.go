package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// A mounted server receives the subcall's trace context in _meta, and
// serve continues a trace from _meta or from the HTTP traceparent header.
func TestTrace_acrossTheWire(t *testing.T) {
	// The mounted server: records the _meta of each call.
	var (
		mu    sync.Mutex
		metas []map[string]any
	)
	remote := sdk.NewServer(&sdk.Implementation{Name: "go", Version: "1"}, nil)
	sdk.AddTool(remote, &sdk.Tool{Name: "sum", Description: "Adds a and b."}, func(_ context.Context, req *sdk.CallToolRequest, in sumIn) (*sdk.CallToolResult, sumOut, error) {
		mu.Lock()
		metas = append(metas, req.Params.Meta)
		mu.Unlock()
		return nil, sumOut{in.A + in.B}, nil
	})
	rs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return remote }, nil))
	defer rs.Close()

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reg := registry.New()
	m, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "go", URL: rs.URL}, mcp.MountOptions{})
	require.NoError(t, err)
	defer m.Close()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg, TracerProvider: tp})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t)})
	require.NoError(t, err)
	defer ex.Close(context.Background())
	srv := mcp.NewServer(ex, mcp.ServerOptions{})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	const (
		traceID    = "4bf92f3577b34da6a3ce929d0e0e4736"
		metaParent = "00f067aa0ba902b7"
		headParent = "00f067aa0ba902b8"
	)
	code := `return (await tools.go__sum({a: 1, b: 2})).sum`

	// _meta: through the SDK client.
	cs := connectHTTP(t, hs.URL+"/mcp")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
		Meta:      sdk.Meta{"traceparent": "00-" + traceID + "-" + metaParent + "-01"},
		Name:      "run_code",
		Arguments: map[string]string{"code": code},
	})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)

	// The header: a plain JSON-RPC POST, as a traced HTTP client sends it.
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_code","arguments":{"code":` + jsonString(code) + `}}}`
	req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("traceparent", "00-"+traceID+"-"+headParent+"-01")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, string(out))
	require.True(t, bytes.Contains(out, []byte(`"isError":false`)) || !bytes.Contains(out, []byte(`"isError":true`)), string(out))

	runs := map[string]sdktrace.ReadOnlySpan{}
	subs := map[string]sdktrace.ReadOnlySpan{} // by parent span ID
	for _, s := range rec.Ended() {
		assert.Equal(t, traceID, s.SpanContext().TraceID().String(), s.Name())
		switch s.Name() {
		case "execute_tool run_code":
			runs[s.Parent().SpanID().String()] = s
		case "execute_tool go__sum":
			subs[s.Parent().SpanID().String()] = s
		}
	}
	require.Contains(t, runs, metaParent)
	require.Contains(t, runs, headParent)
	require.True(t, runs[metaParent].Parent().IsRemote())
	var wantMeta []string
	for _, p := range []string{metaParent, headParent} {
		sub, ok := subs[runs[p].SpanContext().SpanID().String()]
		require.True(t, ok, "the subcall of the run under %s", p)
		wantMeta = append(wantMeta, "00-"+traceID+"-"+sub.SpanContext().SpanID().String()+"-01")
	}
	mu.Lock()
	defer mu.Unlock()
	var gotMeta []string
	for _, m := range metas {
		s, _ := m["traceparent"].(string)
		gotMeta = append(gotMeta, s)
	}
	assert.ElementsMatch(t, wantMeta, gotMeta, "the mounted server saw the subcalls' spans as parents")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
