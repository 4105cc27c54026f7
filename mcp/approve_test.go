package mcp_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
)

// askProgram calls double, which the principal's ask patterns match, and
// returns its value or the failure's code and message.
const askProgram = `try { return "ok " + await tools.double({n: 21}); } catch (e) { return e.code + ": " + e.message; }`

// elicitor answers elicitation/create with action after delay, keeping
// the messages it was shown.
type elicitor struct {
	action string
	delay  time.Duration
	mu     sync.Mutex
	asked  []string
}

func (e *elicitor) handle(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	e.mu.Lock()
	e.asked = append(e.asked, req.Params.Message)
	e.mu.Unlock()
	time.Sleep(e.delay)
	return &sdk.ElicitResult{Action: e.action, Content: map[string]any{}}, nil
}

func askServer(t *testing.T, sessions bool) string {
	t.Helper()
	ex, _ := plainExecutor(t, host.Limits{})
	c, err := mcp.ParseAuthConfig([]byte(fmt.Sprintf(`{"principals": [
	  {"name": "asker", "keySha256": %q, "tools": ["*"], "ask": ["doub*"], "limits": {"timeout": "1s"}}]}`, keyHash("k-ask"))))
	require.NoError(t, err)
	hs := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Sessions: sessions}).Handler())
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

func connectElicit(t *testing.T, url string, e *elicitor) *sdk.ClientSession {
	t.Helper()
	var opts *sdk.ClientOptions
	if e != nil {
		opts = &sdk.ClientOptions{ElicitationHandler: e.handle}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: url, HTTPClient: headerClient("Authorization", "Bearer k-ask"),
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestServer_approvalsHTTP(t *testing.T) {
	url := askServer(t, true)
	for _, tc := range []struct {
		action, want string
		delay        time.Duration
	}{
		{"accept", "ok 42", 0},
		// Approval time does not count against the run's 1 s limit.
		{"accept", "ok 42", 1500 * time.Millisecond},
		{"decline", `DENIED: tool "double": the user declined the call`, 0},
		{"cancel", `DENIED: tool "double": the user cancelled the approval`, 0},
	} {
		t.Run(fmt.Sprintf("%s after %v", tc.action, tc.delay), func(t *testing.T) {
			e := &elicitor{action: tc.action, delay: tc.delay}
			cs := connectElicit(t, url, e)
			require.Equal(t, tc.want, text(runCode(t, cs, askProgram)))
			require.Len(t, e.asked, 1)
			require.Contains(t, e.asked[0], "double")
			require.Contains(t, e.asked[0], `"n": 21`)
		})
	}
	// A client that did not declare elicitation cannot be asked.
	cs := connectElicit(t, url, nil)
	require.Equal(t, `DENIED: tool "double": approval required and could not be asked: the client did not declare elicitation`,
		text(runCode(t, cs, askProgram)))
}

func TestServer_approvalsStateless(t *testing.T) {
	url := askServer(t, false)
	e := &elicitor{action: "accept"}
	cs := connectElicit(t, url, e)
	require.Equal(t, `DENIED: tool "double": approval required and could not be asked: serve keeps no MCP sessions (start it with --sessions to ask the client)`,
		text(runCode(t, cs, askProgram)))
	require.Empty(t, e.asked)
}

// TestServer_approvalsStdio: over stdio (one session, not authenticated)
// an ask of the pipeline's own policies reaches the client too, when the
// session's protocol lets a server send a request while it serves one:
// the Go SDK's client negotiates 2026-07-28 over stdio, where asking takes
// multi round-trip requests (SEP-2322), which serve does not make, so the
// call is denied saying why.
func TestServer_approvalsStdio(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{})
	defer ex.Pipeline().OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "double" {
			return pipeline.Ask("may it?")
		}
		return d
	})()
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	for _, tc := range []struct{ action, want string }{
		{"accept", `DENIED: tool "double": approval required and could not be asked: "elicitation/create" cannot be sent while serving a request on protocol version 2026-07-28`},
	} {
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.ServeStdio(ctx, sr, sw) }()
		e := &elicitor{action: tc.action}
		c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{ElicitationHandler: e.handle})
		cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
		require.NoError(t, err)
		require.Contains(t, text(runCode(t, cs, askProgram)), tc.want)
		require.Empty(t, e.asked)
		cs.Close()
		cancel()
		<-done
	}
}
