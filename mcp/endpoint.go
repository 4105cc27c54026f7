package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"
)

// Endpoint says how to reach an MCP server: a command speaking MCP on its
// stdin and stdout, or the URL of a streamable HTTP endpoint.
type Endpoint struct {
	// Name prefixes the server's tools in the registry (NAME__TOOL): 1 to
	// 32 of [A-Za-z0-9_-].
	Name string
	// Command and Args start a stdio server. Env, when not nil, is the
	// server's whole environment (os/exec's Cmd.Env); nil inherits ours.
	Command string
	Args    []string
	Env     []string
	// URL is a streamable HTTP endpoint (http or https), used when Command
	// is empty.
	URL string
	// HTTPClient makes the HTTP requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// ErrEndpoint is matched by the errors of [ParseEndpoint] and of a
// malformed [Endpoint] given to [Mount].
var ErrEndpoint = errors.New("mcp: bad endpoint")

// ParseEndpoint reads the command line's NAME=COMMAND or NAME=URL: COMMAND
// is split into words at spaces, with '…' and "…" quoting and \ escaping as
// a POSIX shell does (no expansions); a value starting with http:// or
// https:// is a streamable HTTP URL.
func ParseEndpoint(s string) (Endpoint, error) {
	name, rest, ok := strings.Cut(s, "=")
	if !ok {
		return Endpoint{}, fmt.Errorf("%w: %q: want NAME=COMMAND or NAME=URL", ErrEndpoint, s)
	}
	ep := Endpoint{Name: name}
	if strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://") {
		ep.URL = rest
	} else {
		words, err := splitWords(rest)
		if err != nil {
			return Endpoint{}, fmt.Errorf("%w: %q: %w", ErrEndpoint, s, err)
		}
		if len(words) > 0 {
			ep.Command, ep.Args = words[0], words[1:]
		}
	}
	if err := ep.check(); err != nil {
		return Endpoint{}, err
	}
	return ep, nil
}

// check reports what is wrong with ep, if anything.
func (ep Endpoint) check() error {
	if !validServerName(ep.Name) {
		return fmt.Errorf("%w: server name %q: want 1 to 32 of A-Z a-z 0-9 _ -", ErrEndpoint, ep.Name)
	}
	switch {
	case ep.Command != "":
		return nil
	case ep.URL == "":
		return fmt.Errorf("%w: server %s: no command and no URL", ErrEndpoint, ep.Name)
	}
	u, err := url.Parse(ep.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: server %s: %q is not an http(s) URL", ErrEndpoint, ep.Name, ep.URL)
	}
	return nil
}

// String returns NAME=COMMAND ARGS... or NAME=URL.
func (ep Endpoint) String() string {
	if ep.Command == "" {
		return ep.Name + "=" + ep.URL
	}
	return ep.Name + "=" + strings.Join(append([]string{ep.Command}, ep.Args...), " ")
}

// splitWords splits a command line into words as a POSIX shell would,
// without expansions.
func splitWords(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
		quote rune
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i+1 < len(rs) && strings.ContainsRune(`"\$`+"`", rs[i+1]):
				i++
				cur.WriteRune(rs[i])
			default:
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\':
			if i+1 == len(rs) {
				return nil, errors.New("trailing backslash")
			}
			i++
			cur.WriteRune(rs[i])
			in = true
		case unicode.IsSpace(r):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}
