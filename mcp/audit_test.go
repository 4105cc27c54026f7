package mcp_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
)

// TestServer_audit: with sessions, the records of a run and of its
// subcalls name the principal and the session; refusals are logged; no
// key appears anywhere.
func TestServer_audit(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{})
	c, err := mcp.ParseAuthConfig([]byte(fmt.Sprintf(`{"principals": [{"name": "p1", "keySha256": %q, "tools": ["*"], "limits": {"runsPerMinute": 1}}]}`, keyHash("sk-audit-key"))))
	require.NoError(t, err)
	var logs syncBuffer
	logger := slog.New(mcp.AuditHandler(slog.NewJSONHandler(&logs, nil)))
	defer ex.Pipeline().OnResult(pipeline.SlogResult(logger))()
	hs := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Sessions: true, Logger: logger}).Handler())
	defer hs.Close()
	cs := connectAs(t, hs.URL+"/mcp", "sk-audit-key", nil)
	require.Equal(t, "6", text(runCode(t, cs, `return await tools.double({n: 3})`)))
	// Over the quota: refused and logged.
	_, err = cs.CallTool(t.Context(), runCodeParams(`return 1`))
	require.Error(t, err)
	// Unauthenticated: logged.
	post(t, hs.URL+"/mcp", initBody, "Authorization", "Bearer sk-wrong-key")

	var run, sub, quota, unauth bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct{ Msg, Principal, Session, Reason, Tool string }
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		switch {
		case rec.Msg == "run":
			run = true
			require.Equal(t, "p1", rec.Principal, line)
			require.Equal(t, cs.ID(), rec.Session, line)
		case rec.Msg == "tool result" && rec.Tool == "double":
			sub = true
			require.Equal(t, "p1", rec.Principal, line)
			require.Equal(t, cs.ID(), rec.Session, line)
		case rec.Msg == "request refused" && strings.HasPrefix(rec.Reason, "quota: "):
			quota = true
			require.Equal(t, "p1", rec.Principal, line)
			require.Equal(t, cs.ID(), rec.Session, line)
		case rec.Msg == "request refused" && strings.HasPrefix(rec.Reason, "unauthenticated: "):
			unauth = true
		}
	}
	require.True(t, run && sub && quota && unauth, "run %v, subcall %v, quota %v, unauthenticated %v:\n%s", run, sub, quota, unauth, logs.String())
	require.NotContains(t, logs.String(), "sk-")
	require.NotEmpty(t, cs.ID())
	require.NoError(t, cs.Close())
}

func runCodeParams(code string) *sdk.CallToolParams {
	return &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": code}}
}
