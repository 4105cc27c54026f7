package mcp

import (
	"errors"
	"strings"
	"testing"
)

// FuzzReadConfig: whatever the file holds, reading it never panics; an
// error is an ErrConfig, and every server it accepts is an endpoint Mount
// takes (a command or an http(s) URL, its name a valid prefix), its
// variables expanded (no ${ of a variable left) and its secrets hidden in
// String.
func FuzzReadConfig(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "x"], "env": {"A": "${TOKEN}"}, "tools": ["read_*"]}}}`,
		`{"servers": {"docs": {"type": "http", "url": "https://h/mcp?k=${TOKEN}", "headers": {"Authorization": "Bearer ${env:TOKEN}"}, "deferLoading": true}}, "inputs": []}`,
		`{"mcpServers": {"crm": {"url": "https://crm/mcp", "oauth": {"tokenURL": "https://a/t", "clientId": "c", "clientSecret": "${TOKEN}", "scopes": ["s"]}}}}`,
		`{"mcpServers": {"a": {"command": "x", "env": {"B": "${NOPE:-d}"}}}}`,
		`{"mcpServers": {"a": {"url": "${TOKEN}"}}}`,
		`{"mcpServers": {"a": {"type": "sse", "url": "https://h/"}}}`,
		`{"mcpServers": {"a": {}}, "mcpServers": {}}`,
		`{"mcpServers": {"a": {"command": "x", "tools": ["["]}}}`,
		`{"mcpServers": null}`, `{}`, `[]`, `{"mcpServers": {"a": {"command": "x"}}} x`, `{"a`,
	} {
		f.Add(s)
	}
	const token = "fuzz-secret-value"
	opts := ConfigOptions{
		LookupEnv: func(k string) (string, bool) {
			if k == "TOKEN" {
				return token, true
			}
			return "", false
		},
		Environ: func() []string { return nil },
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, token) {
			return // the file's own text may be shown
		}
		eps, err := ReadConfig([]byte(s), opts)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("ReadConfig(%q): %v is not an ErrConfig", s, err)
			}
			if strings.Contains(err.Error(), token) {
				t.Fatalf("ReadConfig(%q): the error shows the secret: %v", s, err)
			}
			return
		}
		for _, ep := range eps {
			if err := ep.check(); err != nil {
				t.Fatalf("ReadConfig(%q) accepted %+v, which Mount refuses: %v", s, ep, err)
			}
			if strings.Contains(ep.String(), token) {
				t.Fatalf("ReadConfig(%q): %s shows the secret", s, ep)
			}
		}
	})
}
