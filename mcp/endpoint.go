package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
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
	// Dir is a stdio server's working directory; empty means ours.
	Dir string
	// URL is a streamable HTTP endpoint (http or https), used when Command
	// is empty.
	URL string
	// HTTPClient makes the HTTP requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Headers are set on every HTTP request to URL: credentials such as
	// Authorization or an API key. Their values are never logged nor put
	// in an error.
	Headers map[string]string
	// OAuth, when not nil, gets the access token sent as "Authorization:
	// Bearer" on every HTTP request to URL.
	OAuth *OAuth
	// Tools, when not empty, chooses the server's tools to register: those
	// whose names (the server's own, without the NAME__ prefix) match one
	// of these [path.Match] patterns. The others are not registered at all.
	Tools []string
	// DeferLoading marks the server's tools DeferLoading, as
	// [MountOptions.DeferLoading] does.
	DeferLoading bool

	// From [ReadConfig]: the values that came from environment variables,
	// and where each variable was used.
	secrets []secret
	vars    []varUse
	// fromConfig: the endpoint is a config file's entry (ReadConfig).
	fromConfig bool
}

// OAuth configures the OAuth 2.0 client-credentials grant (RFC 6749,
// section 4.4) for a remote server: the token endpoint gives an access
// token for the client's id and secret, which is cached and fetched again
// shortly before it expires.
type OAuth struct {
	// TokenURL is the authorization server's token endpoint.
	TokenURL string
	// ClientID and ClientSecret are the client's credentials.
	ClientID     string
	ClientSecret string
	// Scopes are the scopes asked for; none means the server's default.
	Scopes []string
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
	for _, p := range ep.Tools {
		if _, err := path.Match(p, ""); err != nil || p == "" {
			return fmt.Errorf("%w: server %s: tools: %q is not a glob pattern", ErrEndpoint, ep.Name, p)
		}
	}
	switch {
	case ep.Command != "":
		if len(ep.Headers) > 0 || ep.OAuth != nil {
			return fmt.Errorf("%w: server %s: headers and oauth are for a server reached by URL", ErrEndpoint, ep.Name)
		}
		return nil
	case ep.URL == "":
		return fmt.Errorf("%w: server %s: no command and no URL", ErrEndpoint, ep.Name)
	}
	u, err := url.Parse(ep.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: server %s: %s is not an http(s) URL", ErrEndpoint, ep.Name, ep.redactor().apply(strconv.Quote(ep.URL)))
	}
	for k, v := range ep.Headers {
		if !validHeaderName(k) {
			return fmt.Errorf("%w: server %s: %q is not a header name", ErrEndpoint, ep.Name, k)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("%w: server %s: header %s: the value holds a line break or NUL", ErrEndpoint, ep.Name, k)
		}
	}
	if o := ep.OAuth; o != nil {
		u, err := url.Parse(o.TokenURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: server %s: oauth: the token URL %s is not an http(s) URL", ErrEndpoint, ep.Name, ep.redactor().apply(strconv.Quote(o.TokenURL)))
		}
		if o.ClientID == "" {
			return fmt.Errorf("%w: server %s: oauth: no client id", ErrEndpoint, ep.Name)
		}
	}
	return nil
}

// validHeaderName reports whether s is an HTTP header name (a token, RFC
// 9110 section 5.1).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// String returns NAME=COMMAND ARGS... or NAME=URL, with the values that
// came from environment variables shown as ${VAR}.
func (ep Endpoint) String() string {
	if ep.Command == "" {
		return ep.redactor().apply(ep.Name + "=" + ep.URL)
	}
	return ep.redactor().apply(ep.Name + "=" + strings.Join(append([]string{ep.Command}, ep.Args...), " "))
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
