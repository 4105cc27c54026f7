package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxToolName is the registry's limit on a tool name's length.
const maxToolName = 64

// ToolName returns the registry name of the tool named tool on the server
// mounted as server: "server__tool", with every character outside
// [A-Za-z0-9_-] replaced by '_' and, when that is longer than 64 bytes or
// had to be changed, shortened so that a short hash of the original keeps
// different names apart. The server still receives its own name.
func ToolName(server, tool string) string {
	name := server + "__" + tool
	clean, changed := sanitize(name)
	if !changed && len(clean) <= maxToolName {
		return clean
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:4])
	if len(clean)+len(suffix) > maxToolName {
		clean = clean[:maxToolName-len(suffix)]
	}
	return clean + suffix
}

// sanitize replaces the characters a registry name may not hold by '_'.
func sanitize(s string) (string, bool) {
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('_')
		changed = true
	}
	return b.String(), changed
}

// maxServerName bounds the tool prefix a server's name becomes.
const maxServerName = 32

// serverName is the tool prefix of a server named name: name itself when
// it is 1 to 32 of [A-Za-z0-9_-]; else, as ToolName maps a tool's name,
// every other character replaced by '_', cut to leave room for a short
// hash of the name, which keeps different names apart.
func serverName(name string) string {
	if validServerName(name) {
		return name
	}
	clean, _ := sanitize(name)
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:3])
	if len(clean)+len(suffix) > maxServerName {
		clean = clean[:maxServerName-len(suffix)]
	}
	return clean + suffix
}

// validServerName reports whether name can prefix tool names: 1 to 32 of
// [A-Za-z0-9_-].
func validServerName(name string) bool {
	if name == "" || len(name) > maxServerName {
		return false
	}
	_, changed := sanitize(name)
	return !changed
}
