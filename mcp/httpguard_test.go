package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/registry"
)

// post sends one raw body to url with the headers a streamable HTTP client
// sends, plus extra ones.
func post(t testing.TB, url, body string, hdr ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, string(b)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestServer_origin(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{})
	for _, tc := range []struct {
		name   string
		allow  []string
		origin string
		want   int
	}{
		{"absent", nil, "", http.StatusOK},
		{"none allowed", nil, "http://evil.example.com", http.StatusForbidden},
		{"not listed", []string{"https://app.example.com"}, "http://evil.example.com", http.StatusForbidden},
		{"listed", []string{"https://app.example.com"}, "https://app.example.com", http.StatusOK},
		{"another port", []string{"https://app.example.com"}, "https://app.example.com:8443", http.StatusForbidden},
		{"null", nil, "null", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{AllowOrigins: tc.allow}).Handler())
			defer hs.Close()
			var hdr []string
			if tc.origin != "" {
				hdr = []string{"Origin", tc.origin}
			}
			code, _, body := post(t, hs.URL+"/mcp", initBody, hdr...)
			require.Equal(t, tc.want, code, body)
			if tc.want == http.StatusForbidden {
				require.Contains(t, body, "Origin not allowed")
			}
		})
	}
}

// rpcCases are requests whose JSON-RPC error code must be the same over
// HTTP and over stdio.
var rpcCases = []struct {
	name, body string
	code       int64
}{
	{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"no/such/method","params":{}}`, -32601},
	{"unknown method without params", `{"jsonrpc":"2.0","id":7,"method":"no/such/method"}`, -32601},
	{"params not an object", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}`, -32602},
	{"name not a string", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}`, -32602},
	{"unknown tool", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, -32602},
}

func TestServer_jsonrpcErrors(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{})
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	url := hs.URL + "/mcp"

	// Over stdio: the codes the SDK's JSON-RPC connection gives.
	var in bytes.Buffer
	in.WriteString(initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i, c := range rpcCases {
		in.WriteString(strings.Replace(c.body, `"id":7`, fmt.Sprintf(`"id":%d`, 100+i), 1) + "\n")
	}
	stdio := stdioAnswers(t, s, in.String())

	for i, c := range rpcCases {
		t.Run(c.name, func(t *testing.T) {
			status, hdr, body := post(t, url, c.body, "Mcp-Protocol-Version", "2025-06-18")
			require.Equal(t, http.StatusOK, status, body)
			require.Equal(t, "application/json", hdr.Get("Content-Type"))
			var got struct {
				ID    int
				Error struct{ Code int64 }
			}
			require.NoError(t, json.Unmarshal([]byte(body), &got), body)
			require.Equal(t, 7, got.ID)
			require.Equal(t, c.code, got.Error.Code, body)
			require.Equal(t, c.code, stdio[100+i], "stdio")
		})
	}

	// A parse error and a message that is not JSON-RPC: HTTP 400 with the
	// JSON-RPC error, as other MCP servers answer.
	for body, want := range map[string]int64{
		`{not json`:                 -32700,
		`{"id": 3, "x": 1}`:         -32600,
		`"just a string"`:           -32600,
		`{"jsonrpc":"2.0"}`:         -32600,
		strings.Repeat("[", 100000): -32700,
	} {
		status, _, resp := post(t, url, body)
		require.Equal(t, http.StatusBadRequest, status, resp)
		var got struct{ Error struct{ Code int64 } }
		require.NoError(t, json.Unmarshal([]byte(resp), &got), resp)
		require.Equal(t, want, got.Error.Code, resp)
	}
	// A notification nobody handles is accepted and ignored.
	status, _, resp := post(t, url, `{"jsonrpc":"2.0","method":"notifications/whatever"}`)
	require.Equal(t, http.StatusAccepted, status, resp)
	// A body over the bound is refused before it is read whole.
	status, _, _ = post(t, url, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("a", 5<<20)+`"}}`)
	require.Equal(t, http.StatusRequestEntityTooLarge, status)
}

// stdioAnswers writes in to ServeStdio, closes the input and returns the
// error code of every answer by id (0 for a result).
func stdioAnswers(t *testing.T, s *mcp.Server, in string) map[int]int64 {
	t.Helper()
	var out outBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.ServeStdio(ctx, io.NopCloser(strings.NewReader(in)), &out))
	got := map[int]int64{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID    *int
			Error *struct{ Code int64 }
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		if m.ID == nil {
			continue
		}
		got[*m.ID] = 0
		if m.Error != nil {
			got[*m.ID] = m.Error.Code
		}
	}
	return got
}

// TestServer_stdioEndOfInput: requests written before the input ends (a
// shell pipe) are all answered before ServeStdio returns.
func TestServer_stdioEndOfInput(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{})
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	var in strings.Builder
	in.WriteString(initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := range 3 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"await new Promise(r => setTimeout(r, 200)); return %d"}}}`+"\n", 10+i, i)
	}
	got := stdioAnswers(t, s, in.String())
	require.Equal(t, map[int]int64{1: 0, 10: 0, 11: 0, 12: 0}, got)
}

// TestServer_stdioEndOfInputListening: a client of the 2026 protocol keeps
// a subscriptions/listen call open for the whole session; it is answered
// only when the session ends, so the end of input must not wait for it.
// The call in flight when the input ends is still answered, and
// ServeStdio returns without its context being cancelled.
func TestServer_stdioEndOfInputListening(t *testing.T) {
	ex, reg := plainExecutor(t, host.Limits{})
	started, release := make(chan struct{}), make(chan struct{})
	_, err := reg.Register(registry.MustDefine(registry.Spec[struct{}, float64]{
		Name: "gate", Description: "Waits to be released.",
		Execute: func(context.Context, struct{}, *registry.Exec) (float64, error) {
			close(started)
			<-release
			return 42, nil
		},
	}))
	require.NoError(t, err)
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), sr, sw) }()
	// A client that wants list changes opens subscriptions/listen.
	c := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {},
	})
	cs, err := c.Connect(context.Background(), &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	require.NoError(t, err)
	defer cs.Close()
	answer := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), runCodeParams(`return await tools.gate({})`))
		if err != nil {
			res = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
		}
		answer <- res
	}()
	<-started
	require.NoError(t, cw.Close()) // the end of the server's input
	close(release)
	select {
	case res := <-answer:
		require.False(t, res.IsError, text(res))
		require.Equal(t, "42", text(res))
	case <-time.After(30 * time.Second):
		t.Fatal("the call in flight at the end of input was not answered")
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ServeStdio did not return at the end of input")
	}
}

// outBuffer is a syncBuffer with the Close the transport wants.
type outBuffer struct{ syncBuffer }

func (*outBuffer) Close() error { return nil }
