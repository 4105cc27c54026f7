package mcp_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
)

func keyHash(key string) string {
	s := sha256.Sum256([]byte(key))
	return hex.EncodeToString(s[:])
}

// headerClient is an HTTP client that sets one header on every request.
func headerClient(name, value string) *http.Client {
	return &http.Client{Transport: headerRT{name, value}}
}

type headerRT struct{ name, value string }

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// connectAs connects an SDK client to url with a bearer credential.
func connectAs(t *testing.T, url, credential string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: url, DisableStandaloneSSE: true, HTTPClient: headerClient("Authorization", "Bearer "+credential),
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// jwtIssuer is a JWT issuer the test starts: OIDC discovery and JWKS over
// HTTP (go-oidc's oidctest server) with keys the test generates, which it
// can rotate.
type jwtIssuer struct {
	url string
	mu  sync.Mutex
	srv *oidctest.Server
	key *rsa.PrivateKey
	kid string
	// jwksFetches counts the key set's fetches.
	jwksFetches int
}

func newIssuer(t testing.TB) *jwtIssuer {
	t.Helper()
	is := &jwtIssuer{srv: &oidctest.Server{}}
	is.rotate(t, "k1")
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		is.mu.Lock()
		defer is.mu.Unlock()
		if r.URL.Path == "/keys" {
			is.jwksFetches++
		}
		is.srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	is.url = hs.URL
	is.srv.SetIssuer(hs.URL)
	return is
}

// rotate replaces the issuer's signing key with a new one named kid.
func (is *jwtIssuer) rotate(t testing.TB, kid string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	is.mu.Lock()
	defer is.mu.Unlock()
	is.key, is.kid = k, kid
	is.srv.PublicKeys = []oidctest.PublicKey{{PublicKey: k.Public(), KeyID: kid, Algorithm: oidc.RS256}}
}

// token signs claims (merged over valid defaults) with the current key.
func (is *jwtIssuer) token(t testing.TB, claims map[string]any) string {
	t.Helper()
	is.mu.Lock()
	key, kid := is.key, is.kid
	is.mu.Unlock()
	return oidctest.SignIDToken(key, kid, oidc.RS256, is.claims(t, claims))
}

func (is *jwtIssuer) claims(t testing.TB, over map[string]any) string {
	t.Helper()
	now := time.Now()
	c := map[string]any{"iss": is.url, "aud": "ptc", "sub": "team-jwt", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix(), "nbf": now.Add(-time.Minute).Unix()}
	for k, v := range over {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return string(b)
}

// authServer starts a server over the "double" executor with principals
// key-a (a key), key-b (a key) and team-jwt (JWTs of is, when given).
func authServer(t *testing.T, is *jwtIssuer, logs *syncBuffer) (url string, s *mcp.Server) {
	t.Helper()
	ex, _ := plainExecutor(t, host.Limits{})
	file := fmt.Sprintf(`{"principals": [
	  {"name": "key-a", "keySha256": %q, "tools": ["*"]},
	  {"name": "key-b", "keySha256": %q, "tools": ["double"]},
	  {"name": "team-jwt", "tools": ["*"]}]`, keyHash("secret-key-a"), keyHash("secret-key-b"))
	if is != nil {
		file += fmt.Sprintf(`, "jwt": {"issuer": %q, "audience": "ptc", "principalClaim": "sub"}}`, is.url)
	} else {
		file = strings.Replace(file, `{"name": "team-jwt", "tools": ["*"]}`, `{"name": "team-jwt", "keySha256": "`+keyHash("jwt-less")+`"}`, 1) + "}"
	}
	c, err := mcp.ParseAuthConfig([]byte(file))
	require.NoError(t, err)
	s = mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Logger: slog.New(mcp.AuditHandler(slog.NewJSONHandler(logs, nil)))})
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return hs.URL, s
}

func TestServer_authKey(t *testing.T) {
	var logs syncBuffer
	base, _ := authServer(t, nil, &logs)
	url := base + "/mcp"
	challenge := `Bearer resource_metadata="` + base + `/.well-known/oauth-protected-resource"`

	for name, hdr := range map[string][]string{
		"no header":         nil,
		"unknown key":       {"Authorization", "Bearer not-a-key"},
		"basic":             {"Authorization", "Basic c2VjcmV0LWtleS1hOg=="},
		"no credential":     {"Authorization", "Bearer"},
		"two words":         {"Authorization", "Bearer secret-key-a extra"},
		"the hash":          {"Authorization", "Bearer " + keyHash("secret-key-a")},
		"long credential":   {"Authorization", "Bearer " + strings.Repeat("k", 100<<10)},
		"lower-case scheme": {"Authorization", "bearer secret-key-x"},
	} {
		t.Run(name, func(t *testing.T) {
			status, h, body := post(t, url, initBody, hdr...)
			require.Equal(t, http.StatusUnauthorized, status, body)
			require.Equal(t, challenge, h.Get("WWW-Authenticate"))
			require.NotContains(t, body, "secret-key")
		})
	}
	// A header past the server's bound is refused by net/http (431).
	status, _, _ := post(t, url, initBody, "Authorization", "Bearer "+strings.Repeat("k", 2<<20))
	require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, status)

	// RFC 9728: the resource; no authorization server without jwt.
	resp, err := http.Get(base + "/.well-known/oauth-protected-resource")
	require.NoError(t, err)
	var meta map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&meta))
	resp.Body.Close()
	require.Equal(t, base+"/mcp", meta["resource"])
	require.Nil(t, meta["authorization_servers"])

	// The keys: each principal sees its tools.
	a := connectAs(t, url, "secret-key-a", nil)
	res := runCode(t, a, `return await tools.double({n: 4})`)
	require.Equal(t, "8", text(res))

	logText := logs.String()
	require.Contains(t, logText, `"reason":"unauthenticated: unknown key"`)
	require.Contains(t, logText, `"reason":"unauthenticated: no bearer credential"`)
	require.Contains(t, logText, `"reason":"unauthenticated: malformed Authorization header"`)
	require.Contains(t, logText, `"principal":"key-a"`)
	require.NotContains(t, logText, "secret-key", "no key in the log")
}

func TestServer_authJWT(t *testing.T) {
	is := newIssuer(t)
	var logs syncBuffer
	base, _ := authServer(t, is, &logs)
	url := base + "/mcp"

	other, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	now := time.Now()
	b64 := base64.RawURLEncoding.EncodeToString
	cases := []struct {
		name  string
		token func() string
		ok    bool
	}{
		{"valid", func() string { return is.token(t, nil) }, true},
		{"expired", func() string { return is.token(t, map[string]any{"exp": now.Add(-time.Minute).Unix()}) }, false},
		{"no exp", func() string { return is.token(t, map[string]any{"exp": nil}) }, false},
		{"not yet valid", func() string { return is.token(t, map[string]any{"nbf": now.Add(time.Hour).Unix()}) }, false},
		{"wrong audience", func() string { return is.token(t, map[string]any{"aud": "other"}) }, false},
		{"audience among others", func() string { return is.token(t, map[string]any{"aud": []string{"other", "ptc"}}) }, true},
		{"wrong issuer", func() string { return is.token(t, map[string]any{"iss": "https://evil.example/"}) }, false},
		{"wrong key", func() string {
			return oidctest.SignIDToken(other, is.kid, oidc.RS256, is.claims(t, nil))
		}, false},
		{"wrong algorithm", func() string {
			return oidctest.SignIDToken(ec, is.kid, oidc.ES256, is.claims(t, nil))
		}, false},
		{"alg none", func() string {
			return b64([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + b64([]byte(is.claims(t, nil))) + "."
		}, false},
		{"alg none with the signature of a valid token", func() string {
			valid := strings.Split(is.token(t, nil), ".")
			return b64([]byte(`{"alg":"none","kid":"`+is.kid+`"}`)) + "." + valid[1] + "." + valid[2]
		}, false},
		{"unknown principal", func() string { return is.token(t, map[string]any{"sub": "nobody"}) }, false},
		{"a key principal's name", func() string { return is.token(t, map[string]any{"sub": "key-a"}) }, true},
		{"no principal claim", func() string { return is.token(t, map[string]any{"sub": nil}) }, false},
		{"garbage", func() string { return "a.b.c" }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tok := tc.token()
			status, _, body := post(t, url, initBody, "Authorization", "Bearer "+tok)
			if tc.ok {
				require.Equal(t, http.StatusOK, status, body)
			} else {
				require.Equal(t, http.StatusUnauthorized, status, body)
			}
			require.NotContains(t, logs.String(), tok)
		})
	}

	// Rotation: a token signed with a new key is accepted (the key set is
	// fetched again), one signed with the retired key no longer is.
	old := is.token(t, map[string]any{"jti": "never sent before the rotation"})
	fetches := is.jwksFetches
	is.rotate(t, "k2")
	status, _, body := post(t, url, initBody, "Authorization", "Bearer "+is.token(t, nil))
	require.Equal(t, http.StatusOK, status, body)
	require.Greater(t, is.jwksFetches, fetches, "the key set was fetched again")
	status, _, _ = post(t, url, initBody, "Authorization", "Bearer "+old)
	require.Equal(t, http.StatusUnauthorized, status)

	// A token verified before is not verified again for a minute: its
	// key's withdrawal takes up to that long to reach it (verifiedFor).
	status, _, _ = post(t, url, initBody, "Authorization", "Bearer "+is.token(t, map[string]any{"jti": "cached"}))
	require.Equal(t, http.StatusOK, status)

	// Cached: valid tokens with a known key do not fetch the key set.
	fetches = is.jwksFetches
	for range 5 {
		status, _, _ := post(t, url, initBody, "Authorization", "Bearer "+is.token(t, nil))
		require.Equal(t, http.StatusOK, status)
	}
	require.Equal(t, fetches, is.jwksFetches, "keys are cached")

	// A session as team-jwt runs code.
	cs := connectAs(t, url, is.token(t, nil), nil)
	require.Equal(t, "2", text(runCode(t, cs, `return 1 + 1`)))

	// RFC 9728 names the issuer as the authorization server.
	resp, err := http.Get(base + "/.well-known/oauth-protected-resource")
	require.NoError(t, err)
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&meta))
	resp.Body.Close()
	require.Equal(t, base+"/mcp", meta.Resource)
	require.Equal(t, []string{is.url}, meta.AuthorizationServers)
	require.Contains(t, logs.String(), `"principal":"team-jwt"`)
	require.Contains(t, logs.String(), "unauthenticated: jwt: ")
}

// TestServer_authIssuerDown: while the issuer cannot be reached a JWT is
// refused (never accepted unchecked), and keys still work.
func TestServer_authIssuerDown(t *testing.T) {
	is := newIssuer(t)
	tok := is.token(t, nil)
	dead := &jwtIssuer{url: "http://127.0.0.1:1"}
	var logs syncBuffer
	base, _ := authServer(t, dead, &logs)
	status, _, _ := post(t, base+"/mcp", initBody, "Authorization", "Bearer "+tok)
	require.Equal(t, http.StatusUnauthorized, status)
	status, _, _ = post(t, base+"/mcp", initBody, "Authorization", "Bearer secret-key-a")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, logs.String(), "discovery")
}

// TestServer_sessionOwner: a session's requests with another principal's
// credential are refused.
func TestServer_sessionOwner(t *testing.T) {
	ex, _ := plainExecutor(t, host.Limits{})
	c, err := mcp.ParseAuthConfig([]byte(fmt.Sprintf(`{"principals": [{"name": "a", "keySha256": %q, "tools": ["*"]}, {"name": "b", "keySha256": %q, "tools": ["*"]}]}`, keyHash("key-a"), keyHash("key-b"))))
	require.NoError(t, err)
	hs := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Sessions: true}).Handler())
	defer hs.Close()
	cs := connectAs(t, hs.URL+"/mcp", "key-a", nil)
	defer cs.Close()
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`
	status, _, _ := post(t, hs.URL+"/mcp", body, "Authorization", "Bearer key-b", "Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18")
	require.Equal(t, http.StatusForbidden, status)
	status, _, _ = post(t, hs.URL+"/mcp", body, "Authorization", "Bearer key-a", "Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18")
	require.Equal(t, http.StatusOK, status)
}
