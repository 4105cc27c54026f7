package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestServe_listenNeedsAuth(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in stderr; "" means the flags pass the check
	}{
		{[]string{"--listen", "0.0.0.0:0"}, "--auth"},
		{[]string{"--listen", ":0"}, "--no-auth"},
		{[]string{"--listen", "[::]:0"}, "not a loopback address"},
		{[]string{"--listen", "example.com:80"}, "--auth FILE"},
		{[]string{"--listen", "10.0.0.1:80"}, "--auth FILE"},
		{[]string{"--auth", "x.json", "--no-auth"}, "--auth or --no-auth, not both"},
		{[]string{"--stdio", "--no-auth"}, "--auth and --no-auth are for HTTP"},
		{[]string{"--stdio", "--sessions"}, "--sessions is for HTTP"},
		{[]string{"--allow-origin", "evil.example.com"}, "want scheme://host[:port]"},
		{[]string{"--allow-origin", "https://a.example/path"}, "want scheme://host[:port]"},
	} {
		code, out, errs := runCLI(t, "", append([]string{"serve"}, tc.args...)...)
		require.Equal(t, 2, code, "%v: %s", tc.args, errs)
		require.Empty(t, out)
		require.Contains(t, errs, tc.want, tc.args)
	}
	for _, ok := range []string{"127.0.0.1:0", "localhost:8080", "[::1]:0", "127.1.2.3:9"} {
		var s serveSecurity
		require.NoError(t, s.check(ok, false), ok)
	}
	s := serveSecurity{noAuth: true}
	require.NoError(t, s.check("0.0.0.0:80", false), "--no-auth accepts the risk")
}

func TestServe_authFileErrors(t *testing.T) {
	dir := t.TempDir()
	key := strings.Repeat("ab", 32)
	for _, tc := range []struct{ file, want string }{
		{`{`, "--auth"},
		{`{"principals": []}`, "principals: want at least one principal"},
		{`{"principals": [{"name": "a b", "keySha256": "` + key + `"}]}`, "principals[0].name"},
		{`{"principals": [{"name": "a", "keySha256": "zz"}]}`, "principals[0].keySha256"},
		{`{"principals": [{"name": "a"}]}`, "principals[0].keySha256: required without jwt"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `"}, {"name": "a", "keySha256": "` + strings.Repeat("cd", 32) + `"}]}`, "principals[1].name"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `"}, {"name": "b", "keySha256": "` + key + `"}]}`, "principals[1].keySha256: the key of another principal"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "tools": ["["]}]}`, "principals[0].tools[0]"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "ask": [""]}]}`, "principals[0].ask[0]"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "limits": {"timeout": "10"}}]}`, "principals[0].limits.timeout"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "limits": {"memory": "lots"}}]}`, "principals[0].limits.memory"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "limits": {"concurrentRuns": 0}}]}`, "principals[0].limits.concurrentRuns"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "limits": {"runsPerMinute": -1}}]}`, "principals[0].limits.runsPerMinute"},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `", "tool": ["x"]}]}`, `principals[0]: unknown field "tool"`},
		{`{"principals": [{"name": "a", "keySha256": "` + key + `"}, {"name": "b", "keySha256": "` + strings.Repeat("cd", 32) + `", "limits": {"memroy": "1MiB"}}]}`, `principals[1].limits: unknown field "memroy"`},
		{`{"principals": [{"name": "a"}], "jwt": {"issuer": "https://idp.example/", "audiense": "x"}}`, `jwt: unknown field "audiense"`},
		{`{"principal": []}`, `unknown field "principal"`},
		{`{"principals": [{"name": 5}]}`, "principals[0].name: want string"},
		{`{"principals": [{"name": "a"}], "jwt": {"issuer": "idp", "audience": "x", "principalClaim": "sub"}}`, "jwt.issuer"},
		{`{"principals": [{"name": "a"}], "jwt": {"issuer": "https://idp.example/", "principalClaim": "sub"}}`, "jwt.audience"},
		{`{"principals": [{"name": "a"}], "jwt": {"issuer": "https://idp.example/", "audience": "x"}}`, "jwt.principalClaim"},
	} {
		path := filepath.Join(dir, "auth.json")
		require.NoError(t, os.WriteFile(path, []byte(tc.file), 0o600))
		code, _, errs := runCLI(t, "", "serve", "--auth", path, "--listen", "127.0.0.1:0")
		require.Equal(t, 2, code, tc.file)
		require.Contains(t, errs, tc.want, tc.file)
		require.NotContains(t, errs, key, "the file's keys are not repeated")
	}
	code, _, errs := runCLI(t, "", "serve", "--auth", filepath.Join(dir, "missing.json"))
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--auth")
}

// TestServe_stdioEndOfInput: requests piped in before stdin ends are all
// answered before serve --stdio exits.
func TestServe_stdioEndOfInput(t *testing.T) {
	skipUnbuilt(t)
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"await new Promise(r => setTimeout(r, 300)); return 1"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return 2"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return await tools.get_weather({city: 'Oslo'})"}}}
`
	code, out, errs := runCLI(t, in, "serve", "--stdio", "--tools", "../../testdata/tools/weather.json")
	require.Equal(t, 0, code, errs)
	for id, want := range map[int]string{2: `"text":"1"`, 3: `"text":"2"`, 4: `\"tempC\": -3`} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result"`, id)) {
				require.Contains(t, line, want)
				found = true
			}
		}
		require.True(t, found, "no answer to %d:\n%s", id, out)
	}
}
