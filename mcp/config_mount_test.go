package mcp_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/mcptest"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// lookup is a fixed environment for ReadConfig.
func lookup(kv map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
}

// mountConfig reads a config and mounts each of its servers in reg.
func mountConfig(t *testing.T, reg *registry.Registry, file string, env map[string]string, opts ...mcp.MountOptions) ([]*mcp.Client, error) {
	t.Helper()
	eps, err := mcp.ReadConfig([]byte(file), mcp.ConfigOptions{LookupEnv: lookup(env)})
	require.NoError(t, err)
	var cs []*mcp.Client
	for _, ep := range eps {
		c, err := mcp.Mount(context.Background(), reg, ep, append(opts, mcp.MountOptions{})[0])
		if err != nil {
			return cs, err
		}
		t.Cleanup(func() { c.Close() })
		cs = append(cs, c)
	}
	return cs, nil
}

// call calls a registered tool through a pipeline.
func call(t *testing.T, reg *registry.Registry, name, args string) *pipeline.Outcome {
	t.Helper()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	return pipe.Call(context.Background(), pipeline.RawCall{ID: "1", Name: name, Arguments: json.RawMessage(args)}, pipeline.Env{})
}

// TestConfig_referenceServers: the reference servers from npm, started
// from a config file: env reaches the server (its get-env tool echoes its
// environment), cwd is its working directory, and tools and deferLoading
// choose and mark the filesystem server's tools.
func TestConfig_referenceServers(t *testing.T) {
	evNode, evArgs := mcptest.Everything(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from a file"), 0o644))
	fsNode, fsArgs := mcptest.Filesystem(t, dir)
	q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	file := `{"mcpServers": {
  "ev": {"command": ` + q(evNode) + `, "args": ` + q(evArgs) + `,
         "env": {"PTC_GREETING": "${GREETING}", "PTC_LITERAL": "plain"}, "cwd": ` + q(dir) + `},
  "fs": {"command": ` + q(fsNode) + `, "args": ` + q(fsArgs) + `,
         "tools": ["read_*", "list_*", "reed_*"], "deferLoading": true}
}}`
	reg := registry.New()
	var logs syncBuffer
	cs, err := mountConfig(t, reg, file, map[string]string{"GREETING": "hello-from-config"}, mcp.MountOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	require.NoError(t, err)
	require.Contains(t, logs.String(), `"msg":"mcp tools pattern matches no tool of the server","mcp_server":"fs","pattern":"reed_*"`)
	require.Equal(t, 1, strings.Count(logs.String(), "matches no tool"))

	o := call(t, reg, "ev__get-env", `{}`)
	require.NoError(t, o.Err(), registry.PlainText(o.Content()))
	var envOut map[string]string
	require.NoError(t, json.Unmarshal([]byte(registry.PlainText(o.Content())), &envOut))
	require.Equal(t, "hello-from-config", envOut["PTC_GREETING"])
	require.Equal(t, "plain", envOut["PTC_LITERAL"])
	require.Equal(t, os.Getenv("PATH"), envOut["PATH"], "the server inherits our environment")

	fsTools := cs[1].Tools()
	require.NotEmpty(t, fsTools)
	for _, name := range fsTools {
		require.True(t, strings.HasPrefix(name, "fs__read_") || strings.HasPrefix(name, "fs__list_"), name)
		tool, ok := reg.Get(name, registry.Scope{}, nil)
		require.True(t, ok)
		require.True(t, tool.Schema().DeferLoading, name)
	}
	require.Contains(t, fsTools, "fs__read_text_file")
	_, ok := reg.Get("fs__write_file", registry.Scope{}, nil)
	require.False(t, ok, "a tool the allow list leaves out is not registered")
	o = call(t, reg, "fs__read_text_file", `{"path": `+q(filepath.Join(dir, "hello.txt"))+`}`)
	require.NoError(t, o.Err(), registry.PlainText(o.Content()))
	require.Equal(t, "hello from a file", registry.PlainText(o.Content()))
	evTool, _ := reg.Get("ev__echo", registry.Scope{}, nil)
	require.False(t, evTool.Schema().DeferLoading)
}

// TestConfig_bearerToken: server-everything over streamable HTTP behind a
// proxy that demands a bearer token. Without the header the mount fails
// with an error that says credentials are needed; with the token from
// ${EV_TOKEN} the tools are mounted and callable; once the token is
// rotated, a call fails with an error naming EV_TOKEN, never showing the
// token.
func TestConfig_bearerToken(t *testing.T) {
	const token = "tok-3f9a1c-secret"
	proxy := mcptest.NewBearerProxy(t, mcptest.StartEverythingHTTP(t), token)
	url := proxy.URL

	reg := registry.New()
	_, err := mountConfig(t, reg, `{"mcpServers": {"ev": {"url": "`+url+`"}}}`, nil)
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Contains(t, err.Error(), "MCP server ev="+url+" answered 401 Unauthorized: it needs credentials; none was sent: set one in its mcpServers entry")
	require.Contains(t, err.Error(), `(WWW-Authenticate: Bearer realm="everything")`)
	require.Empty(t, reg.Definitions(registry.Scope{}, nil))
	// --mcp NAME=URL cannot send a header: the advice says where one can.
	_, err = mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "ev", URL: url}, mcp.MountOptions{})
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Contains(t, err.Error(), "none was sent: give the server as an entry of an --mcp-config file")

	_, err = mountConfig(t, reg, `{"mcpServers": {"ev": {"url": "`+url+`", "headers": {"Authorization": "Bearer ${EV_TOKEN}"}}}}`,
		map[string]string{"EV_TOKEN": "tok-wrong-value"})
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Contains(t, err.Error(), "the header Authorization it was sent was refused: set EV_TOKEN to a valid credential")
	require.NotContains(t, err.Error(), "tok-wrong-value")

	proxy.RotateOn("rotate-now", "tok-rotated-value")
	cs, err := mountConfig(t, reg, `{"mcpServers": {"ev": {"url": "`+url+`", "headers": {"Authorization": "Bearer ${EV_TOKEN}"}}}}`,
		map[string]string{"EV_TOKEN": token})
	require.NoError(t, err)
	require.Contains(t, cs[0].Tools(), "ev__get-sum")
	require.True(t, proxy.Sent("Bearer "+token))
	o := call(t, reg, "ev__get-sum", `{"a": 2, "b": 40}`)
	require.NoError(t, o.Err(), registry.PlainText(o.Content()))
	require.Equal(t, "The sum of 2 and 40 is 42.", registry.PlainText(o.Content()))

	o = call(t, reg, "ev__echo", `{"message": "rotate-now"}`)
	require.Error(t, o.Err())
	require.Contains(t, registry.PlainText(o.Content()), "MCP server ev answered 401 Unauthorized")
	require.Contains(t, registry.PlainText(o.Content()), "set EV_TOKEN to a valid credential")
	require.NotContains(t, registry.PlainText(o.Content()), token)
}

// issuer is an OAuth token endpoint for the client-credentials grant
// (RFC 6749 section 4.4) and the check of its tokens.
type issuer struct {
	clientID, secret string
	ttl              time.Duration // the tokens' expires_in

	mu      sync.Mutex
	issued  map[string]time.Time // token → expiry
	fetches int
	last    time.Time // the last token's expiry
	revoked bool
}

func (s *issuer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.FormValue("client_id"), r.FormValue("client_secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.FormValue("grant_type") != "client_credentials" || id != s.clientID || secret != s.secret || s.revoked {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error": "invalid_client", "error_description": "client authentication failed"}`)
		return
	}
	b := make([]byte, 16)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	s.last = time.Now().Add(s.ttl)
	s.issued[tok] = s.last
	s.fetches++
	fmt.Fprintf(w, `{"access_token": %q, "token_type": "Bearer", "expires_in": %d, "scope": %q}`, tok, int(s.ttl.Seconds()), r.FormValue("scope"))
}

func (s *issuer) verify(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.issued[tok]
	if !ok || s.revoked || time.Now().After(exp) {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Expiration: exp}, nil
}

func (s *issuer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetches
}

// renewal is when the client renews the last token: oauth2 does it 10s
// before the token expires.
func (s *issuer) renewal() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last.Add(-10*time.Second + 150*time.Millisecond)
}

// TestConfig_oauthClientCredentials: a Go SDK server behind the SDK's
// bearer-token middleware, whose tokens come from a token endpoint the
// test runs. The token is fetched once and reused by every request,
// fetched again once it nears its expiry; a revoked client is an error
// that says the token endpoint refused it and where its secret comes
// from.
func TestConfig_oauthClientCredentials(t *testing.T) {
	const clientSecret = "cs-8d1e-very-secret"
	iss := &issuer{clientID: "ptc", secret: clientSecret, ttl: 15 * time.Second, issued: map[string]time.Time{}}
	tokenSrv := httptest.NewServer(iss)
	t.Cleanup(tokenSrv.Close) // after the mounts close

	var seen sync.Map // tokens the server was sent
	s := sdk.NewServer(&sdk.Implementation{Name: "crm", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "whoami", Description: "Says hello."}, func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		seen.Store(req.Extra.Header.Get("Authorization"), true)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello"}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true})
	mcpSrv := httptest.NewServer(auth.RequireBearerToken(iss.verify, nil)(h))
	t.Cleanup(mcpSrv.Close)

	file := `{"mcpServers": {"crm": {"url": "` + mcpSrv.URL + `",
  "oauth": {"tokenURL": "` + tokenSrv.URL + `/token", "clientId": "ptc", "clientSecret": "${CRM_SECRET}", "scopes": ["tools"]}}}}`
	env := map[string]string{"CRM_SECRET": clientSecret}
	reg := registry.New()
	cs, err := mountConfig(t, reg, file, env)
	require.NoError(t, err)
	require.Equal(t, []string{"crm__whoami"}, cs[0].Tools())
	require.Equal(t, 1, iss.count(), "one token for the whole connection")
	for range 3 {
		o := call(t, reg, "crm__whoami", `{}`)
		require.NoError(t, o.Err(), registry.PlainText(o.Content()))
	}
	if time.Until(iss.renewal()) > time.Second { // the token has 5s of use
		require.Equal(t, 1, iss.count(), "the token is reused")
	}
	n := 0
	seen.Range(func(any, any) bool { n++; return true })
	require.Equal(t, 1, n, "every call sent the one token")

	time.Sleep(time.Until(iss.renewal()))
	o := call(t, reg, "crm__whoami", `{}`)
	require.NoError(t, o.Err(), registry.PlainText(o.Content()))
	require.Equal(t, 2, iss.count(), "a token near its expiry is replaced")

	iss.mu.Lock()
	iss.revoked = true
	iss.mu.Unlock()
	time.Sleep(time.Until(iss.renewal()))
	o = call(t, reg, "crm__whoami", `{}`)
	require.Error(t, o.Err())
	want := `could not get an OAuth access token: the token endpoint ` + tokenSrv.URL + `/token refused client "ptc" (invalid_client: client authentication failed, 401 Unauthorized): check oauth.clientId and oauth.clientSecret (from CRM_SECRET)`
	require.Contains(t, registry.PlainText(o.Content()), want)

	_, err = mountConfig(t, registry.New(), file, env)
	require.ErrorIs(t, err, mcp.ErrUnavailable)
	require.Contains(t, err.Error(), want)
	require.NotContains(t, err.Error(), clientSecret)
}
