package mcp_test

import (
	"regexp"
	"testing"

	"github.com/ptchost/ptc/mcp"
)

var registryName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// FuzzToolName: whatever names a server sends, the mapped name is one the
// registry takes, and the plain ones are kept as they are.
func FuzzToolName(f *testing.F) {
	for _, s := range []string{"echo", "get-sum", "issues.create", "", "ünïcode", "a b", string(make([]byte, 100))} {
		f.Add("ev", s)
	}
	f.Fuzz(func(t *testing.T, server, tool string) {
		if _, err := mcp.ParseEndpoint(server + "=cmd"); err != nil {
			return // not a server name the mount accepts
		}
		name := mcp.ToolName(server, tool)
		if !registryName.MatchString(name) {
			t.Fatalf("ToolName(%q, %q) = %q", server, tool, name)
		}
		if plain := server + "__" + tool; registryName.MatchString(plain) && name != plain {
			t.Fatalf("ToolName(%q, %q) = %q, want it unchanged", server, tool, name)
		}
	})
}

// FuzzParseEndpoint: the command line's --mcp value never panics, and a
// value it accepts names a command or an http(s) URL.
func FuzzParseEndpoint(f *testing.F) {
	for _, s := range []string{"ev=node x.js stdio", `fs=npx -y "a b" 'c d' e\ f`, "x=https://h/mcp", "x=", "=y", `x="unterminated`, `x=a\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ep, err := mcp.ParseEndpoint(s)
		if err != nil {
			return
		}
		if ep.Command == "" && ep.URL == "" {
			t.Fatalf("ParseEndpoint(%q) = %+v: neither command nor URL", s, ep)
		}
		if _, err := mcp.ParseEndpoint(ep.Name + "=" + ep.URL); ep.URL != "" && err != nil {
			t.Fatalf("ParseEndpoint(%q) accepted, its URL refused: %v", s, err)
		}
	})
}
