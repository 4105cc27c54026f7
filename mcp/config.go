package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// ErrConfig is matched by the errors of [ReadConfig] and [LoadConfig]: a
// malformed file, a key of the wrong type, a ${VAR} that is not set.
var ErrConfig = errors.New("mcp: bad config")

// ConfigOptions configure [ReadConfig] and [LoadConfig]. The zero value is
// usable.
type ConfigOptions struct {
	// LookupEnv reads the variables ${VAR} names; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Environ is the environment a stdio server with an "env" entry
	// inherits (the entry's variables override it); nil means os.Environ.
	Environ func() []string
	// Logger receives one warning per key ignored; nil discards them.
	Logger *slog.Logger
	// Dir is the directory a relative "cwd" is relative to; empty means
	// ours. LoadConfig sets it to the file's directory.
	Dir string
}

// LoadConfig reads the MCP servers of the JSON file at path, as
// [ReadConfig] does; a relative "cwd" is relative to the file's directory.
func LoadConfig(path string, opts ConfigOptions) ([]Endpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if opts.Dir == "" {
		opts.Dir = filepath.Dir(path)
	}
	if opts.Logger != nil {
		opts.Logger = opts.Logger.With(slog.String("file", path))
	}
	eps, err := ReadConfig(data, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return eps, nil
}

// ReadConfig reads MCP servers from the JSON configuration most MCP hosts
// share: an object whose "mcpServers" (Claude Desktop, Cursor) or
// "servers" (VS Code) member maps each server's name to how to reach it.
// The name becomes the NAME__ prefix of the server's tools. An entry's
// keys:
//
//   - "command", "args", "env", "cwd": a stdio server (env's variables are
//     added to ours);
//   - "url", "headers": a streamable HTTP server and the headers sent with
//     every request;
//   - "type": "stdio", or "http" (also "streamable-http",
//     "streamableHttp"); inferred when left out;
//   - ptc's own: "tools", a list of glob patterns ([path.Match]) choosing
//     the server's tools to register (the others are not registered at
//     all); "deferLoading", true to list the tools by name only; "oauth",
//     {"tokenURL", "clientId", "clientSecret", "scopes"}, to get access
//     tokens by the OAuth 2.0 client-credentials grant.
//
// Other keys, kept by other hosts, are ignored with a warning each (to
// opts.Logger). In "env", "headers", "url" and "oauth", ${VAR} (also
// written ${env:VAR}, VS Code's form) is replaced by the environment
// variable VAR, and ${VAR:-default} by default when VAR is not set; a
// variable that is not set (or empty) without a default is an error that
// names it, never an empty value sent. The values that came from a
// variable, the headers' values and the OAuth secret are secrets: the
// mount's errors and logs show them as ${VAR} or [redacted].
//
// The servers are returned in the file's order. Errors match [ErrConfig]
// and name the server and the key.
func ReadConfig(data []byte, opts ConfigOptions) ([]Endpoint, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// VS Code's mcp.json has comments and trailing commas (JSONC):
	// standardized, they become spaces, so every offset stays where it was.
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: malformed JSON: %s", ErrConfig, strings.TrimPrefix(err.Error(), "hujson: "))
	}
	v.Standardize()
	top, err := members(v.Pack())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	var eps []Endpoint
	seen := make(map[string]bool)
	prefixes := make(map[string]string) // tool prefix -> server name
	found := false
	for _, m := range top {
		if m.key != "mcpServers" && m.key != "servers" {
			opts.Logger.Warn("mcp config: key ignored", slog.String("key", m.key))
			continue
		}
		found = true
		servers, err := members(m.value)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %w", ErrConfig, m.key, err)
		}
		for _, s := range servers {
			if seen[s.key] {
				return nil, fmt.Errorf("%w: two servers named %q", ErrConfig, s.key)
			}
			seen[s.key] = true
			if off, err := disabled(s.key, s.value); err != nil {
				return nil, err
			} else if off {
				opts.Logger.Info("mcp config: server disabled: not started", slog.String("server", s.key))
				continue
			}
			ep, err := readServer(s.key, s.value, opts)
			if err != nil {
				return nil, err
			}
			if other, taken := prefixes[ep.Name]; taken {
				return nil, fmt.Errorf("%w: servers %q and %q both become the tool prefix %q: rename one", ErrConfig, other, s.key, ep.Name)
			}
			prefixes[ep.Name] = s.key
			eps = append(eps, ep)
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: no \"mcpServers\" or \"servers\" object", ErrConfig)
	}
	return eps, nil
}

// serverReader reads one server's entry.
type serverReader struct {
	name string
	opts ConfigOptions
	ep   Endpoint
}

// errorf returns an ErrConfig error naming the server and key.
func (r *serverReader) errorf(key, format string, args ...any) error {
	return fmt.Errorf("%w: server %q: key %q: %s", ErrConfig, r.name, key, fmt.Sprintf(format, args...))
}

// disabled reports whether a server's entry says "disabled": true: such a
// server is not started and its tools do not exist, whatever else its
// entry says.
func disabled(name string, raw json.RawMessage) (bool, error) {
	ms, err := members(raw)
	if err != nil {
		return false, fmt.Errorf("%w: server %q: %w", ErrConfig, name, err)
	}
	for _, m := range ms {
		if m.key != "disabled" || string(m.value) == "null" {
			continue
		}
		var off bool
		if err := json.Unmarshal(m.value, &off); err != nil {
			return false, fmt.Errorf("%w: server %q: key \"disabled\": want true or false", ErrConfig, name)
		}
		return off, nil
	}
	return false, nil
}

func readServer(name string, raw json.RawMessage, opts ConfigOptions) (Endpoint, error) {
	if name == "" {
		return Endpoint{}, fmt.Errorf("%w: a server's name is empty: it becomes its tools' prefix", ErrConfig)
	}
	// A name other hosts accept but a tool name cannot hold (a dot, a
	// space) is mapped as tool names are.
	r := &serverReader{name: name, opts: opts, ep: Endpoint{Name: serverName(name), fromConfig: true}}
	ms, err := members(raw)
	if err != nil {
		return Endpoint{}, fmt.Errorf("%w: server %q: %w", ErrConfig, name, err)
	}
	var typ string
	var env map[string]string
	for _, m := range ms {
		if string(m.value) == "null" {
			continue // as if left out
		}
		key := m.key
		var err error
		switch key {
		case "command":
			err = r.decode(key, m.value, &r.ep.Command, "a string")
		case "args":
			err = r.decode(key, m.value, &r.ep.Args, "an array of strings")
		case "cwd":
			err = r.decode(key, m.value, &r.ep.Dir, "a string")
		case "env":
			if err = r.decode(key, m.value, &env, "an object of strings"); err == nil {
				env, err = r.expandMap(m.key, env)
			}
		case "url":
			if err = r.decode(key, m.value, &r.ep.URL, "a string"); err == nil {
				r.ep.URL, err = r.expand(m.key, r.ep.URL)
			}
		case "headers":
			if err = r.decode(key, m.value, &r.ep.Headers, "an object of strings"); err == nil {
				r.ep.Headers, err = r.expandMap(m.key, r.ep.Headers)
			}
		case "type":
			err = r.decode(key, m.value, &typ, "a string")
		case "tools":
			err = r.decode(key, m.value, &r.ep.Tools, "an array of glob patterns")
			for i := 0; err == nil && i < len(r.ep.Tools); i++ {
				if _, perr := path.Match(r.ep.Tools[i], ""); perr != nil || r.ep.Tools[i] == "" {
					err = r.errorf(key, "%q is not a glob pattern", r.ep.Tools[i])
				}
			}
		case "deferLoading":
			err = r.decode(key, m.value, &r.ep.DeferLoading, "true or false")
		case "oauth":
			err = r.readOAuth(m.value)
		case "disabled":
			// false (a disabled server was skipped: see disabled)
		default:
			opts.Logger.Warn("mcp config: key ignored", slog.String("server", name), slog.String("key", m.key))
		}
		if err != nil {
			return Endpoint{}, err
		}
	}
	if err := r.settle(typ, env); err != nil {
		return Endpoint{}, err
	}
	return r.ep, nil
}

// settle checks the entry's keys against its type and finishes the
// endpoint.
func (r *serverReader) settle(typ string, env map[string]string) error {
	remote := r.ep.URL != ""
	switch typ {
	case "":
	case "stdio":
		if r.ep.Command == "" {
			return r.errorf("command", "a stdio server needs a command")
		}
		remote = false
	case "http", "streamable-http", "streamableHttp":
		if r.ep.URL == "" {
			return r.errorf("url", "an %s server needs a url", typ)
		}
		remote = true
	case "sse":
		return r.errorf("type", `"sse" (the older HTTP+SSE transport) is not supported: ptc speaks streamable HTTP ("http")`)
	default:
		return r.errorf("type", `%q: want "stdio" or "http"`, typ)
	}
	switch {
	case r.ep.Command != "" && r.ep.URL != "":
		return r.errorf("url", "a server has a command or a url, not both")
	case r.ep.Command == "" && r.ep.URL == "":
		return fmt.Errorf("%w: server %q: want a \"command\" (stdio) or a \"url\" (http)", ErrConfig, r.name)
	case remote:
		for _, k := range []string{"args", "env", "cwd"} {
			if (k == "args" && r.ep.Args != nil) || (k == "env" && env != nil) || (k == "cwd" && r.ep.Dir != "") {
				return r.errorf(k, "only a stdio server (command) has %s", k)
			}
		}
		if r.ep.OAuth != nil && r.ep.Headers["Authorization"] != "" {
			return r.errorf("oauth", "oauth sends its own Authorization header: leave it out of headers")
		}
	default:
		if r.ep.Headers != nil || r.ep.OAuth != nil {
			k := "headers"
			if r.ep.OAuth != nil {
				k = "oauth"
			}
			return r.errorf(k, "only an http server (url) has %s", k)
		}
	}
	if r.ep.Dir != "" && !filepath.IsAbs(r.ep.Dir) && r.opts.Dir != "" {
		r.ep.Dir = filepath.Join(r.opts.Dir, r.ep.Dir)
	}
	if env != nil {
		r.ep.Env = withEnv(r.opts.Environ(), env)
	}
	if err := r.ep.check(); err != nil {
		return fmt.Errorf("%w: server %q: %w", ErrConfig, r.name, err)
	}
	return nil
}

// withEnv returns base with the variables of env set, in env's keys'
// sorted order at the end.
func withEnv(base []string, env map[string]string) []string {
	out := make([]string, 0, len(base)+len(env))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := env[k]; !over {
			out = append(out, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// readOAuth reads the "oauth" entry.
func (r *serverReader) readOAuth(raw json.RawMessage) error {
	ms, err := members(raw)
	if err != nil {
		return r.errorf("oauth", "%v", err)
	}
	o := &OAuth{}
	for _, m := range ms {
		key := "oauth." + m.key
		var err error
		switch m.key {
		case "tokenURL", "tokenUrl":
			if err = r.decode(key, m.value, &o.TokenURL, "a string"); err == nil {
				o.TokenURL, err = r.expand(key, o.TokenURL)
			}
		case "clientId":
			if err = r.decode(key, m.value, &o.ClientID, "a string"); err == nil {
				o.ClientID, err = r.expand(key, o.ClientID)
			}
		case "clientSecret":
			if err = r.decode(key, m.value, &o.ClientSecret, "a string"); err == nil {
				o.ClientSecret, err = r.expand(key, o.ClientSecret)
			}
		case "scopes":
			err = r.decode(key, m.value, &o.Scopes, "an array of strings")
			for i := 0; err == nil && i < len(o.Scopes); i++ {
				o.Scopes[i], err = r.expand(key, o.Scopes[i])
			}
		default:
			r.opts.Logger.Warn("mcp config: key ignored", slog.String("server", r.name), slog.String("key", key))
		}
		if err != nil {
			return err
		}
	}
	if o.TokenURL == "" {
		return r.errorf("oauth.tokenURL", "oauth needs the token endpoint's URL")
	}
	if o.ClientID == "" {
		return r.errorf("oauth.clientId", "oauth needs a client id")
	}
	r.ep.OAuth = o
	return nil
}

// decode decodes the value of key into v, which it must fit.
func (r *serverReader) decode(key string, value json.RawMessage, v any, want string) error {
	if err := json.Unmarshal(value, v); err != nil {
		return r.errorf(key, "want %s", want)
	}
	return nil
}

// expandMap expands the values of a map; key names the map.
func (r *serverReader) expandMap(key string, m map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v, err := r.expand(key+"."+k, m[k])
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// expand replaces the ${VAR}s of s (at key) and records the values as the
// endpoint's secrets.
func (r *serverReader) expand(key, s string) (string, error) {
	var out strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			out.WriteString(s)
			return out.String(), nil
		}
		out.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", r.errorf(key, "unterminated ${")
		}
		ref := s[i+2 : i+end]
		s = s[i+end+1:]
		name, def, hasDef := strings.Cut(ref, ":-")
		if n, ok := strings.CutPrefix(name, "env:"); ok {
			name = n
		}
		if !validVarName(name) {
			return "", r.errorf(key, "${%s}: want ${VAR}, ${env:VAR} or ${VAR:-default} with VAR of A-Z a-z 0-9 _", ref)
		}
		v, ok := r.opts.LookupEnv(name)
		switch {
		case ok && v != "":
			r.ep.secrets = append(r.ep.secrets, secret{value: v, shown: "${" + name + "}"})
			r.ep.vars = append(r.ep.vars, varUse{name: name, key: key})
		case hasDef:
			v = def
		default:
			return "", r.errorf(key, "the environment variable %s is not set", name)
		}
		out.WriteString(v)
	}
}

func validVarName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// member is one member of a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// members returns the members of the JSON object data, in order. A key
// given twice is an error: which value counts would be a guess.
func members(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("want a JSON object")
	}
	var ms []member
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("malformed JSON: %w", err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("malformed JSON: an object key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("key %q: malformed JSON: %w", key, err)
		}
		if seen[key] {
			return nil, fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		ms = append(ms, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("malformed JSON: more after the object")
	}
	return ms, nil
}
