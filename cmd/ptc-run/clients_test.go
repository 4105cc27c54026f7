//go:build linux

package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/mcptest"
)

// clientOut is what mcp/testdata/clients/client.mjs prints.
type clientOut struct {
	Tools       []string
	Description string
	Text        string
	IsError     bool
	Elicited    []string
	Session     string
	Error       string
	Code        any
}

// tsClient runs client.mjs (the official MCP TypeScript SDK's client).
func tsClient(t *testing.T, node, dir, url, authorization, mode, code string) clientOut {
	t.Helper()
	cmd := exec.Command(node, "client.mjs", url, authorization, mode, code)
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err, "client.mjs: %s", out)
	var o clientOut
	require.NoError(t, json.Unmarshal(out, &o), "%s", out)
	return o
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// startIssuer starts a JWT issuer (go-oidc's oidctest: OIDC discovery and
// JWKS) with an RSA key the test generates, and returns a function that
// signs a token for sub.
func startIssuer(t *testing.T) (issuer string, sign func(sub string) string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	srv := &oidctest.Server{PublicKeys: []oidctest.PublicKey{{PublicKey: key.Public(), KeyID: "k1", Algorithm: oidc.RS256}}}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	srv.SetIssuer(hs.URL)
	return hs.URL, func(sub string) string {
		now := time.Now()
		claims, _ := json.Marshal(map[string]any{"iss": hs.URL, "aud": "ptc", "sub": sub, "exp": now.Add(time.Hour).Unix(), "iat": now.Unix()})
		return oidctest.SignIDToken(key, "k1", oidc.RS256, string(claims))
	}
}

// TestServe_clients drives ptc-run serve --auth --sessions with clients
// nobody here wrote: the official MCP TypeScript SDK's client (a bearer
// key, a JWT, elicitation accepted and declined, no credential) and the
// MCP Inspector CLI (listing and calling with an Authorization header).
func TestServe_clients(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: starts ptc-run serve and node clients")
	}
	skipUnbuilt(t)
	node, dir := mcptest.Clients(t)
	bin := ptcRunBinary(t)
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)
	iss, sign := startIssuer(t)
	authFile := filepath.Join(t.TempDir(), "auth.json")
	require.NoError(t, os.WriteFile(authFile, fmt.Appendf(nil, `{"principals": [
	  {"name": "ts-key", "keySha256": %q, "tools": ["get_weather"]},
	  {"name": "ts-jwt", "tools": ["*"]},
	  {"name": "asker", "keySha256": %q, "tools": ["*"], "ask": ["get_weather"]}],
	 "jwt": {"issuer": %q, "audience": "ptc", "principalClaim": "sub"}}`, sha("ts-secret"), sha("ask-secret"), iss), 0o600))
	r := startReplica(t, "auth", bin, tools, "--auth", authFile, "--sessions")
	r.waitListening(t)
	url := "http://" + r.address() + "/mcp"
	weather := `return await tools.get_weather({city: "Paris"})`
	paris := `{"tempC": 21, "sky": "clear"}`

	t.Run("key", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "Bearer ts-secret", "plain", weather)
		require.Empty(t, o.Error)
		require.Equal(t, []string{"run_code"}, o.Tools)
		require.Contains(t, o.Description, "get_weather(")
		require.NotContains(t, o.Description, "radar_image", "outside the principal's tools")
		require.Equal(t, paris, o.Text)
		require.NotEmpty(t, o.Session, "--sessions keeps a session")
	})
	t.Run("jwt", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "Bearer "+sign("ts-jwt"), "plain", weather)
		require.Empty(t, o.Error)
		require.Contains(t, o.Description, "radar_image(")
		require.Equal(t, paris, o.Text)
	})
	t.Run("jwt of an unknown principal", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "Bearer "+sign("nobody"), "plain", weather)
		require.EqualValues(t, 401, o.Code, o.Error)
	})
	t.Run("no credential", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "", "plain", weather)
		require.EqualValues(t, 401, o.Code, o.Error)
	})
	catch := `try { return await tools.get_weather({city: "Paris"}); } catch (e) { return e.code + ": " + e.message; }`
	t.Run("elicitation accepted", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "Bearer ask-secret", "elicit-accept", catch)
		require.Empty(t, o.Error)
		require.Equal(t, paris, o.Text)
		require.Len(t, o.Elicited, 1)
		require.Contains(t, o.Elicited[0], "get_weather")
		require.Contains(t, o.Elicited[0], `"city": "Paris"`)
	})
	t.Run("elicitation declined", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "Bearer ask-secret", "elicit-decline", catch)
		require.Equal(t, `DENIED: tool "get_weather": the user declined the call`, o.Text)
		require.Len(t, o.Elicited, 1)
	})
	t.Run("no elicitation", func(t *testing.T) {
		o := tsClient(t, node, dir, url, "Bearer ask-secret", "plain", catch)
		require.Equal(t, `DENIED: tool "get_weather": approval required and could not be asked: the client did not declare elicitation`, o.Text)
	})

	// The MCP Inspector CLI. Its 1.0.3 reads its own package.json relative
	// to the working directory, so it runs from its build directory.
	inspector := func(args ...string) string {
		cmd := exec.Command(node, append([]string{"cli.js", "--cli", url, "--transport", "http", "--header", "Authorization: Bearer ts-secret"}, args...)...)
		cmd.Dir = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector-cli", "build")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	t.Run("inspector", func(t *testing.T) {
		out := inspector("--method", "tools/list")
		require.Contains(t, out, `"name": "run_code"`)
		out = inspector("--method", "tools/call", "--tool-name", "run_code", "--tool-arg", "code="+weather)
		require.Contains(t, out, `"returnValue": {`)
		require.Contains(t, out, `"tempC": 21`)
	})

	// Runs and subcalls were logged with the principal and session.
	log := r.tail()
	require.Contains(t, log, `"principal":"asker"`)
	require.Regexp(t, regexp.MustCompile(`"msg":"tool result".*"principal":"ts-jwt","session":"[A-Z0-9]+"`), log)
	require.NotContains(t, log, "ts-secret")
	require.NotContains(t, log, "ask-secret")
}

// conformanceScenarios are the server scenarios of the MCP conformance
// suite 0.1.16 (conformance list --server) that apply to a server offering
// one tool, run_code. dns-rebinding-protection runs with the origin it
// uses allowed (--allow-origin), as a deployment serving a page there
// would. The others do not apply:
//   - tools-call-simple-text, tools-call-image, tools-call-audio,
//     tools-call-embedded-resource, tools-call-mixed-content,
//     tools-call-with-logging, tools-call-error, tools-call-with-progress,
//     json-schema-2020-12: call (or look for) tools of the suite's own test
//     server (test_simple_text, json_schema_2020_12_tool, ...);
//   - tools-call-sampling, tools-call-elicitation,
//     elicitation-sep1034-defaults, elicitation-sep1330-enums: a tool of
//     the suite's server that sends sampling or elicitation requests of
//     fixed shapes (serve elicits only for an ask subcall: TestServe_clients);
//   - completion-complete, prompts-get-*, resources-read-text,
//     resources-read-binary, resources-templates-read,
//     resources-subscribe, resources-unsubscribe: prompts, resources and
//     completions of the suite's server; serve declares none of these
//     capabilities (and answers -32601 or -32602, as the spec says);
//   - server-sse-polling: resumption of a POST SSE stream the suite's
//     test_reconnection tool closes mid-call; serve answers POSTs with JSON,
//     for which the scenario records no check (run by hand: 0/0).
var conformanceScenarios = []string{
	"server-initialize", "ping", "logging-set-level", "tools-list",
	"resources-list", "prompts-list", "dns-rebinding-protection",
}

// conformanceSessionScenarios are the scenarios of the streamable HTTP
// session behaviour, run against serve --sessions (several POST streams
// at once within one Mcp-Session-Id).
var conformanceSessionScenarios = []string{"server-sse-multiple-streams"}

// TestServe_conformance runs the applicable server scenarios of the MCP
// conformance suite against ptc-run serve, without auth, with --sessions
// and with --auth (the suite's client sends no credential, so a proxy the
// test starts adds a principal's bearer key to each request). The suite
// runs on Node 22 (mcptest.Node22); a check that warns fails the test.
func TestServe_conformance(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: starts ptc-run serve and the conformance suite")
	}
	skipUnbuilt(t)
	_, dir := mcptest.Clients(t)
	node := mcptest.Node22(t, dir)
	bin := ptcRunBinary(t)
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)
	authFile := filepath.Join(t.TempDir(), "auth.json")
	require.NoError(t, os.WriteFile(authFile, fmt.Appendf(nil, `{"principals": [{"name": "suite", "keySha256": %q, "tools": ["*"]}]}`, sha("suite-key")), 0o600))

	run := func(t *testing.T, url string, scenarios []string) {
		for _, sc := range scenarios {
			cmd := exec.Command(node, "node_modules/.bin/conformance", "server", "--url", url, "--scenario", sc)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s: %s", sc, out)
			m := regexp.MustCompile(`Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings`).FindStringSubmatch(string(out))
			require.NotNil(t, m, "%s: %s", sc, out)
			require.Equal(t, m[1], m[2], "%s: %s", sc, out)
			require.NotEqual(t, "0", m[2], "%s ran no check: %s", sc, out)
			require.Equal(t, "0", m[3], "%s: %s", sc, out)
			require.Equal(t, "0", m[4], "%s warned: %s", sc, out)
		}
	}
	t.Run("no auth", func(t *testing.T) {
		t.Parallel() // each has its own serve; the suite is mostly node starting
		addr := freeAddr(t)
		_, port, _ := strings.Cut(addr, ":")
		r := startReplica(t, "open", bin, tools, "--listen", addr, "--allow-origin", "http://localhost:"+port)
		r.waitListening(t)
		run(t, "http://localhost:"+port+"/mcp", conformanceScenarios)
	})
	t.Run("sessions", func(t *testing.T) {
		t.Parallel() // each has its own serve; the suite is mostly node starting
		addr := freeAddr(t)
		_, port, _ := strings.Cut(addr, ":")
		r := startReplica(t, "sessions", bin, tools, "--listen", addr, "--allow-origin", "http://localhost:"+port, "--sessions")
		r.waitListening(t)
		run(t, "http://localhost:"+port+"/mcp", conformanceSessionScenarios)
	})
	t.Run("auth", func(t *testing.T) {
		t.Parallel() // each has its own serve; the suite is mostly node starting
		front := freeAddr(t)
		_, port, _ := strings.Cut(front, ":")
		r := startReplica(t, "authed", bin, tools, "--auth", authFile, "--allow-origin", "http://localhost:"+port)
		r.waitListening(t)
		// Without the key, the suite's client is refused.
		code, _, _ := postJSON(t, "http://"+r.address()+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		require.Equal(t, http.StatusUnauthorized, code)
		target, err := url.Parse("http://" + r.address())
		require.NoError(t, err)
		proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host // serve sees the suite's Host, as behind any proxy
			pr.Out.Header.Set("Authorization", "Bearer suite-key")
		}}
		ps := &http.Server{Addr: front, Handler: proxy}
		go ps.ListenAndServe()
		t.Cleanup(func() { ps.Close() })
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp, err := http.Get("http://" + front + "/healthz")
			if err == nil {
				resp.Body.Close()
				break
			}
			require.True(t, time.Now().Before(deadline), "the proxy does not answer: %v", err)
			time.Sleep(20 * time.Millisecond)
		}
		run(t, "http://localhost:"+port+"/mcp", conformanceScenarios)
	})
}

// postJSON posts a JSON-RPC body as a streamable HTTP client does.
func postJSON(t *testing.T, url, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}
