package mcp_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
)

// FuzzParseAuthConfig: any principals file is a config or an error naming
// what is wrong, never a panic; an accepted one is consistent.
func FuzzParseAuthConfig(f *testing.F) {
	key := strings.Repeat("ab", 32)
	for _, s := range []string{
		`{"principals": [{"name": "a", "keySha256": "` + key + `", "tools": ["*"], "ask": ["x"], "limits": {"concurrentRuns": 1, "runsPerMinute": 2, "timeout": "1s", "memory": "1MiB"}}]}`,
		`{"principals": [{"name": "a"}], "jwt": {"issuer": "https://idp.example/", "audience": "ptc", "principalClaim": "sub"}}`,
		`{"principals": []}`, `{`, `[]`, `null`, `{"principals": [{"name": "a", "tools": ["[a-"]}]}`,
		`{"principals": [{"name": "a", "keySha256": "` + key + `", "limits": {"memory": "99999999999GiB"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := mcp.ParseAuthConfig(data)
		if err != nil {
			if c != nil {
				t.Fatal("a config with an error")
			}
			if !strings.HasPrefix(err.Error(), "auth: ") {
				t.Fatalf("error without its prefix: %v", err)
			}
			return
		}
		names := map[string]bool{}
		for _, p := range c.Principals {
			if p.Name == "" || names[p.Name] {
				t.Fatalf("accepted principal name %q", p.Name)
			}
			names[p.Name] = true
			if p.KeySHA256 == "" && c.JWT == nil {
				t.Fatal("accepted a principal that cannot authenticate")
			}
		}
	})
}

// FuzzAuthorization: any Authorization header gets 401 with the
// challenge (or, for the one key, is served); never a panic.
func FuzzAuthorization(f *testing.F) {
	for _, s := range []string{"", "Bearer", "Bearer x", "bearer  x ", "Basic Zm9vOmJhcg==", "Bearer a.b.c", "Bearer " + strings.Repeat("x", 20000), "Bearer\tx", "Bearer =?utf-8?"} {
		f.Add(s)
	}
	c, err := mcp.ParseAuthConfig([]byte(`{"principals": [{"name": "a", "keySha256": "` + keyHash("fuzz-key-not-guessed-7f3a") + `"}]}`))
	if err != nil {
		f.Fatal(err)
	}
	ex, _ := plainExecutor(f, host.Limits{})
	h := mcp.NewServer(ex, mcp.ServerOptions{Auth: c}).Handler()
	f.Fuzz(func(t *testing.T, hdr string) {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(initBody))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header["Authorization"] = []string{hdr}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusUnauthorized {
			t.Fatalf("%q: status %d", hdr, w.Code)
		}
		if !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), `Bearer resource_metadata="http://`) {
			t.Fatalf("%q: challenge %q", hdr, w.Header().Get("WWW-Authenticate"))
		}
	})
}
