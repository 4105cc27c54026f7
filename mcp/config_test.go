package mcp

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// env is a fixed environment for ReadConfig.
func env(kv ...string) ConfigOptions {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return ConfigOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := m[k]; return v, ok },
		Environ:   func() []string { return []string{"PATH=/bin", "HOME=/home/me"} },
	}
}

func TestReadConfig(t *testing.T) {
	const file = `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
           "env": {"LOG_LEVEL": "warn", "HOME": "/srv", "KEY": "${env:FS_KEY}"}, "cwd": "work",
           "tools": ["read_*", "list_*"], "disabled": false, "autoApprove": ["read_file"]},
    "docs": {"type": "http", "url": "https://mcp.example/mcp?team=${TEAM}",
             "headers": {"Authorization": "Bearer ${DOCS_TOKEN}", "X-Mode": "${MODE:-plain}"}, "deferLoading": true},
    "crm": {"url": "https://crm.example/mcp",
            "oauth": {"tokenURL": "https://auth.example/token", "clientId": "ptc",
                      "clientSecret": "${CRM_SECRET}", "scopes": ["tools"], "audience": "x"}}
  }
}`
	var logs bytes.Buffer
	opts := env("FS_KEY", "fs-key-123", "TEAM", "blue", "DOCS_TOKEN", "docs-token-456", "CRM_SECRET", "crm-secret-789")
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	opts.Dir = "/etc/ptc"
	eps, err := ReadConfig([]byte(file), opts)
	require.NoError(t, err)
	require.Len(t, eps, 3)

	fs, docs, crm := eps[0], eps[1], eps[2]
	require.Equal(t, "fs", fs.Name)
	require.Equal(t, "npx", fs.Command)
	require.Equal(t, []string{"-y", "@modelcontextprotocol/server-filesystem", "/data"}, fs.Args)
	require.Equal(t, []string{"PATH=/bin", "HOME=/srv", "KEY=fs-key-123", "LOG_LEVEL=warn"}, fs.Env)
	require.Equal(t, "/etc/ptc/work", fs.Dir)
	require.Equal(t, []string{"read_*", "list_*"}, fs.Tools)
	require.False(t, fs.DeferLoading)

	require.Equal(t, "https://mcp.example/mcp?team=blue", docs.URL)
	require.Equal(t, map[string]string{"Authorization": "Bearer docs-token-456", "X-Mode": "plain"}, docs.Headers)
	require.True(t, docs.DeferLoading)
	require.Equal(t, "docs=https://mcp.example/mcp?team=${TEAM}", docs.String())

	require.Equal(t, &OAuth{TokenURL: "https://auth.example/token", ClientID: "ptc", ClientSecret: "crm-secret-789", Scopes: []string{"tools"}}, crm.OAuth)

	// One warning per key ignored, naming it (and its server).
	w := logs.String()
	require.Equal(t, 3, strings.Count(w, "key ignored"), w)
	for _, k := range []string{"key=globalShortcut", "server=fs key=autoApprove", "server=crm key=oauth.audience"} {
		require.Contains(t, w, k)
	}
	for _, s := range []string{"fs-key-123", "docs-token-456", "crm-secret-789"} {
		require.NotContains(t, w, s)
	}
}

// TestReadConfig_errors: each malformed file is an ErrConfig error naming
// the server and the key, or the variable.
func TestReadConfig_errors(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{`[]`, "want a JSON object"},
		{`{"mcpServers": {"a": {"command": "x"}}`, "malformed JSON"},
		{`{"mcpServers": {"a": {"command": "x"}}} {}`, "malformed JSON: line 1, column 41"},
		{"{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",,}\n}}", "malformed JSON: line 2, column 24"},
		{`{"other": {}}`, `no "mcpServers" or "servers" object`},
		{`{"mcpServers": []}`, `"mcpServers": want a JSON object`},
		{`{"mcpServers": {"a": 1}}`, `server "a": want a JSON object`},
		{`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, `"mcpServers": key "a" given twice`},
		{`{"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}`, `two servers named "a"`},
		{`{"mcpServers": {"": {"command": "x"}}}`, `a server's name is empty`},
		{`{"mcpServers": {"a.b": {"command": "x"}, "a b": {"command": "y"}, "a_b_2e7336": {"command": "z"}}}`, `servers "a.b" and "a_b_2e7336" both become the tool prefix "a_b_2e7336"`},
		{`{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}`, `server "a": key "disabled": want true or false`},
		{`{"mcpServers": {"a": {"command": 1}}}`, `server "a": key "command": want a string`},
		{`{"mcpServers": {"a": {"command": "x", "args": "-v"}}}`, `server "a": key "args": want an array of strings`},
		{`{"mcpServers": {"a": {"command": "x", "env": {"N": 1}}}}`, `server "a": key "env": want an object of strings`},
		{`{"mcpServers": {"a": {"command": "x", "env": {"T": "${NOPE}"}}}}`, `server "a": key "env.T": the environment variable NOPE is not set`},
		{`{"mcpServers": {"a": {"url": "https://h/${NOPE}"}}}`, `server "a": key "url": the environment variable NOPE is not set`},
		{`{"mcpServers": {"a": {"url": "https://h/", "headers": {"Authorization": "Bearer ${EMPTY}"}}}}`, `server "a": key "headers.Authorization": the environment variable EMPTY is not set`},
		{`{"mcpServers": {"a": {"url": "https://h/", "headers": {"X": "${input:key}"}}}}`, `server "a": key "headers.X": ${input:key}: want ${VAR}`},
		{`{"mcpServers": {"a": {"url": "https://h/", "headers": {"X": "${OPEN"}}}}`, `server "a": key "headers.X": unterminated ${`},
		{`{"mcpServers": {"a": {"url": "https://h/", "headers": {"X Y": "v"}}}}`, `"X Y" is not a header name`},
		{`{"mcpServers": {"a": {"url": "https://h/", "headers": {"X": "a\nb"}}}}`, `header X: the value holds a line break`},
		{`{"mcpServers": {"a": {"command": "x", "tools": ["[a"]}}}`, `server "a": key "tools": "[a" is not a glob pattern`},
		{`{"mcpServers": {"a": {"command": "x", "deferLoading": "yes"}}}`, `server "a": key "deferLoading": want true or false`},
		{`{"mcpServers": {"a": {"type": "sse", "url": "https://h/sse"}}}`, `server "a": key "type": "sse"`},
		{`{"mcpServers": {"a": {"type": "ws", "url": "https://h/"}}}`, `server "a": key "type": "ws": want "stdio" or "http"`},
		{`{"mcpServers": {"a": {"type": "stdio", "url": "https://h/"}}}`, `server "a": key "command": a stdio server needs a command`},
		{`{"mcpServers": {"a": {"type": "http", "command": "x"}}}`, `server "a": key "url": an http server needs a url`},
		{`{"mcpServers": {"a": {"command": "x", "url": "https://h/"}}}`, `server "a": key "url": a server has a command or a url, not both`},
		{`{"mcpServers": {"a": {}}}`, `server "a": want a "command" (stdio) or a "url" (http)`},
		{`{"mcpServers": {"a": {"url": "https://h/", "env": {}}}}`, `server "a": key "env": only a stdio server`},
		{`{"mcpServers": {"a": {"command": "x", "headers": {}}}}`, `server "a": key "headers": only an http server`},
		{`{"mcpServers": {"a": {"url": "ftp://h/"}}}`, `server "a": mcp: bad endpoint: server a: "ftp://h/" is not an http(s) URL`},
		{`{"mcpServers": {"a": {"url": "https://h/", "oauth": {"clientId": "c"}}}}`, `server "a": key "oauth.tokenURL": oauth needs the token endpoint's URL`},
		{`{"mcpServers": {"a": {"url": "https://h/", "oauth": {"tokenURL": "https://a/t"}}}}`, `server "a": key "oauth.clientId": oauth needs a client id`},
		{`{"mcpServers": {"a": {"url": "https://h/", "oauth": {"tokenURL": "https://a/t", "clientId": "c", "scopes": "x"}}}}`, `server "a": key "oauth.scopes": want an array of strings`},
		{`{"mcpServers": {"a": {"url": "https://h/", "oauth": {"tokenURL": "https://a/t", "clientId": "c", "clientSecret": "${NOPE}"}}}}`, `server "a": key "oauth.clientSecret": the environment variable NOPE is not set`},
		{`{"mcpServers": {"a": {"url": "https://h/", "oauth": {"tokenURL": "https://a/t", "clientId": "c"}, "headers": {"Authorization": "x"}}}}`, `server "a": key "oauth": oauth sends its own Authorization header`},
	} {
		_, err := ReadConfig([]byte(c.file), env("EMPTY", ""))
		require.Error(t, err, c.file)
		require.True(t, errors.Is(err, ErrConfig), "%s: %v", c.file, err)
		require.Contains(t, err.Error(), c.want, c.file)
	}
}

// TestReadConfig_secretInURL: a URL that is wrong only once its variable
// is expanded is refused without showing the variable's value.
func TestReadConfig_secretInURL(t *testing.T) {
	_, err := ReadConfig([]byte(`{"servers": {"a": {"url": "${BASE}/mcp"}}}`), env("BASE", "not-a-url-s3cret"))
	require.ErrorIs(t, err, ErrConfig)
	require.Contains(t, err.Error(), `"${BASE}/mcp" is not an http(s) URL`)
	require.NotContains(t, err.Error(), "s3cret")
}

func TestReadConfig_nullAndDefaults(t *testing.T) {
	eps, err := ReadConfig([]byte(`{"servers": {"a": {"command": "x", "args": null, "env": {"A": "${A:-}", "B": "${B:-b}"}}}}`), env())
	require.NoError(t, err)
	require.Nil(t, eps[0].Args)
	require.Equal(t, []string{"PATH=/bin", "HOME=/home/me", "A=", "B=b"}, eps[0].Env)
	require.Empty(t, eps[0].secrets, "defaults are not secrets")
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": "x", "cwd": "sub", "args": 3}}}`), 0o644))
	_, err := LoadConfig(path, env())
	require.ErrorIs(t, err, ErrConfig)
	require.Equal(t, path+`: mcp: bad config: server "a": key "args": want an array of strings`, err.Error())

	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": "x", "cwd": "sub"}}}`), 0o644))
	eps, err := LoadConfig(path, env())
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "sub"), eps[0].Dir)

	_, err = LoadConfig(filepath.Join(dir, "missing.json"), env())
	require.ErrorIs(t, err, ErrConfig)
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestRedactor(t *testing.T) {
	ep := Endpoint{Name: "a", URL: "https://h/mcp",
		Headers: map[string]string{"Authorization": "Bearer literal-token", "X-Short": "on"},
		OAuth:   &OAuth{TokenURL: "https://a/t", ClientID: "c", ClientSecret: "client-secret"},
		secrets: []secret{{value: "literal-token", shown: "${TOKEN}"}}}
	r := ep.redactor()
	require.Equal(t, "sent ${TOKEN} and [redacted], on", r.apply("sent literal-token and client-secret, on"))
	require.Equal(t, "[redacted]", r.apply("Bearer literal-token"), "a header value is hidden whole")

	var logs bytes.Buffer
	l := r.logger(slog.New(slog.NewJSONHandler(&logs, nil))).With(slog.String("pre", "client-secret"))
	l.Warn("got literal-token", slog.Any("error", errors.New("no client-secret")), slog.Group("g", slog.String("v", "literal-token")), slog.Int("n", 1))
	require.NotContains(t, logs.String(), "literal-token")
	require.NotContains(t, logs.String(), "client-secret")
	require.Contains(t, logs.String(), `"n":1`)

	err := r.err(errors.Join(ErrUnavailable, errors.New("x literal-token")))
	require.ErrorIs(t, err, ErrUnavailable)
	require.NotContains(t, err.Error(), "literal-token")
}

// VS Code's mcp.json as people write it: comments, trailing commas, a
// server turned off, names with a dot or a space.
func TestReadConfig_asPeopleWriteIt(t *testing.T) {
	const file = `{
  // the servers this workspace uses
  "servers": {
    "github.com": {"url": "https://api.example/mcp", /* read only */ "tools": ["get_*"],},
    "my files": {"command": "npx", "args": ["-y", "server-filesystem", "/data",],},
    "old": {"command": "old-server", "env": {"TOKEN": "${NOT_SET}"}, "disabled": true},
  },
}`
	var logs bytes.Buffer
	opts := env()
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	eps, err := ReadConfig([]byte(file), opts)
	require.NoError(t, err)
	require.Len(t, eps, 2, "the disabled server is not there, and its unset variable is no error")
	require.Equal(t, "https://api.example/mcp", eps[0].URL)
	require.Equal(t, []string{"-y", "server-filesystem", "/data"}, eps[1].Args)
	// Mapped as tool names are: what a tool name cannot hold becomes _,
	// and a short hash keeps different names apart.
	require.Equal(t, serverName("github.com"), eps[0].Name)
	require.Regexp(t, `^github_com_[0-9a-f]{6}$`, eps[0].Name)
	require.Regexp(t, `^my_files_[0-9a-f]{6}$`, eps[1].Name)
	require.Equal(t, "my_files_"+eps[1].Name[len("my_files_"):]+"__read", ToolName(eps[1].Name, "read"))
	require.Contains(t, logs.String(), "server disabled")
	require.NotContains(t, logs.String(), "key ignored")
}
