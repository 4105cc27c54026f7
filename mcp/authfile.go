package mcp

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// AuthConfig says who may call a server and what each caller may do: the
// principals and, optionally, the issuer whose JWT access tokens name
// them. It is the JSON of ptc-run serve --auth:
//
//	{"principals": [
//	   {"name": "team-a", "keySha256": "<hex sha256 of the bearer key>",
//	    "tools": ["get_weather", "fs__read_*"], "ask": ["fs__write_file"],
//	    "limits": {"concurrentRuns": 4, "runsPerMinute": 120, "timeout": "10s", "memory": "32MiB"}}],
//	 "jwt": {"issuer": "https://idp.example/", "audience": "ptc", "principalClaim": "sub"}}
type AuthConfig struct {
	// Principals are the callers; each is an agent of the registry.
	Principals []Principal `json:"principals"`
	// JWT, when set, accepts access tokens the issuer signed.
	JWT *JWTConfig `json:"jwt,omitempty"`
}

// Principal is one caller: how it proves who it is, the tools it sees,
// the calls a person must approve and its limits.
type Principal struct {
	// Name names the principal: its agent scope, its log records and, with
	// JWT, the value of the principal claim. [A-Za-z0-9_.-]{1,64}.
	Name string `json:"name"`
	// KeySHA256 is the hex sha256 of its bearer key; empty when it
	// authenticates only with JWTs.
	KeySHA256 string `json:"keySha256,omitempty"`
	// Tools are glob patterns (path.Match syntax) over registry names: the
	// tools it sees and may call. None: it sees no tool.
	Tools []string `json:"tools"`
	// Ask are glob patterns of the tools whose calls a person must approve.
	Ask []string `json:"ask,omitempty"`
	// Limits cap its runs.
	Limits PrincipalLimits `json:"limits"`
}

// PrincipalLimits cap a principal's runs; zero fields leave the server's.
type PrincipalLimits struct {
	// ConcurrentRuns bounds its runs in flight; past it a call gets HTTP 429.
	ConcurrentRuns int `json:"concurrentRuns,omitempty"`
	// RunsPerMinute bounds the rate of its runs; past it a call gets HTTP
	// 429 with Retry-After.
	RunsPerMinute int `json:"runsPerMinute,omitempty"`
	// Timeout caps each run's wall time (the lower of it and the server's).
	Timeout time.Duration `json:"-"`
	// MemoryBytes caps each run's memory (the lower of it and the server's).
	MemoryBytes uint64 `json:"-"`
}

// JWTConfig names the issuer whose JWT access tokens the server accepts.
type JWTConfig struct {
	// Issuer is the issuer URL: its OIDC discovery document is at
	// Issuer/.well-known/openid-configuration, and a token's iss must be it.
	Issuer string `json:"issuer"`
	// Audience must be among a token's aud.
	Audience string `json:"audience"`
	// PrincipalClaim is the claim whose value is the principal's name.
	PrincipalClaim string `json:"principalClaim"`
}

// principalName is the syntax of a principal's name.
var principalName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// ParseAuthConfig reads an AuthConfig's JSON and checks it. An error names
// the field at fault ("principals[1].keySha256: ...") and never holds a
// key.
func ParseAuthConfig(data []byte) (*AuthConfig, error) {
	// Each level is read on its own, so that an unknown or mistyped field
	// is named with its path (principals[1].limits.memroy).
	var raw struct {
		Principals []json.RawMessage `json:"principals"`
		JWT        json.RawMessage   `json:"jwt"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("auth: %w", jsonFieldError("", err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("auth: data after the JSON object")
	}
	if len(raw.Principals) == 0 {
		return nil, errors.New("auth: principals: want at least one principal")
	}
	c := &AuthConfig{}
	if len(raw.JWT) > 0 && string(raw.JWT) != "null" {
		c.JWT = &JWTConfig{}
		if err := strictDecode(raw.JWT, c.JWT); err != nil {
			return nil, fmt.Errorf("auth: %w", jsonFieldError("jwt", err))
		}
	}
	if j := c.JWT; j != nil {
		u, err := url.Parse(j.Issuer)
		switch {
		case j.Issuer == "":
			return nil, errors.New("auth: jwt.issuer: required")
		case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
			return nil, fmt.Errorf("auth: jwt.issuer %q: want an http(s) URL", j.Issuer)
		case j.Audience == "":
			return nil, errors.New("auth: jwt.audience: required")
		case j.PrincipalClaim == "":
			return nil, errors.New("auth: jwt.principalClaim: required")
		}
	}
	names := map[string]bool{}
	keys := map[string]bool{}
	for i, data := range raw.Principals {
		at := fmt.Sprintf("auth: principals[%d]", i)
		var rp principalJSON
		if err := strictDecode(data, &rp); err != nil {
			return nil, fmt.Errorf("auth: %w", jsonFieldError(fmt.Sprintf("principals[%d]", i), err))
		}
		var l limitsJSON
		if len(rp.Limits) > 0 && string(rp.Limits) != "null" {
			if err := strictDecode(rp.Limits, &l); err != nil {
				return nil, fmt.Errorf("auth: %w", jsonFieldError(fmt.Sprintf("principals[%d].limits", i), err))
			}
		}
		p := Principal{Name: rp.Name, KeySHA256: strings.ToLower(rp.KeySHA256), Tools: rp.Tools, Ask: rp.Ask}
		switch {
		case !principalName.MatchString(p.Name):
			return nil, fmt.Errorf("%s.name %q: want 1 to 64 of A-Z a-z 0-9 _ . -", at, p.Name)
		case names[p.Name]:
			return nil, fmt.Errorf("%s.name %q: a second principal of that name", at, p.Name)
		}
		names[p.Name] = true
		if p.KeySHA256 != "" {
			if b, err := hex.DecodeString(p.KeySHA256); err != nil || len(b) != 32 {
				return nil, fmt.Errorf("%s.keySha256: want the 64 hex digits of a sha256", at)
			}
			if keys[p.KeySHA256] {
				return nil, fmt.Errorf("%s.keySha256: the key of another principal", at)
			}
			keys[p.KeySHA256] = true
		} else if c.JWT == nil {
			return nil, fmt.Errorf("%s.keySha256: required without jwt (the principal could not authenticate)", at)
		}
		for j, pat := range p.Tools {
			if err := checkPattern(pat); err != nil {
				return nil, fmt.Errorf("%s.tools[%d]: %w", at, j, err)
			}
		}
		for j, pat := range p.Ask {
			if err := checkPattern(pat); err != nil {
				return nil, fmt.Errorf("%s.ask[%d]: %w", at, j, err)
			}
		}
		if l.ConcurrentRuns != nil {
			if *l.ConcurrentRuns <= 0 {
				return nil, fmt.Errorf("%s.limits.concurrentRuns: want a positive number", at)
			}
			p.Limits.ConcurrentRuns = *l.ConcurrentRuns
		}
		if l.RunsPerMinute != nil {
			if *l.RunsPerMinute <= 0 {
				return nil, fmt.Errorf("%s.limits.runsPerMinute: want a positive number", at)
			}
			p.Limits.RunsPerMinute = *l.RunsPerMinute
		}
		if l.Timeout != nil {
			d, err := time.ParseDuration(*l.Timeout)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("%s.limits.timeout %q: want a positive duration with a unit, e.g. 10s", at, *l.Timeout)
			}
			p.Limits.Timeout = d
		}
		if l.Memory != nil {
			n, err := parseBytes(*l.Memory)
			if err != nil {
				return nil, fmt.Errorf("%s.limits.memory %q: %w", at, *l.Memory, err)
			}
			p.Limits.MemoryBytes = uint64(n)
		}
		c.Principals = append(c.Principals, p)
	}
	return c, nil
}

// principalJSON and limitsJSON are a principal and its limits as the file
// has them.
type principalJSON struct {
	Name      string          `json:"name"`
	KeySHA256 string          `json:"keySha256"`
	Tools     []string        `json:"tools"`
	Ask       []string        `json:"ask"`
	Limits    json.RawMessage `json:"limits"`
}

type limitsJSON struct {
	ConcurrentRuns *int    `json:"concurrentRuns"`
	RunsPerMinute  *int    `json:"runsPerMinute"`
	Timeout        *string `json:"timeout"`
	Memory         *string `json:"memory"`
}

// strictDecode decodes data into v, refusing fields v does not have.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// jsonFieldError words a decoding error at path (a field's path in the
// file, "" for the top) with the field it concerns.
func jsonFieldError(path string, err error) error {
	join := func(field string) string {
		switch {
		case path == "":
			return field
		case field == "":
			return path
		}
		return path + "." + field
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: want %s, got JSON %s", join(te.Field), te.Type, te.Value)
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if path == "" {
			return fmt.Errorf("unknown field %s", field)
		}
		return fmt.Errorf("%s: unknown field %s", path, field)
	}
	if path != "" {
		return fmt.Errorf("%s: %w", path, err)
	}
	return err
}

// checkPattern refuses a glob path.Match cannot read, and one that can
// match no registry name.
func checkPattern(p string) error {
	if p == "" {
		return errors.New("an empty pattern")
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("pattern %q: %w", p, err)
	}
	return nil
}

// parseBytes reads a size: bytes, or a number with a unit (KiB, MiB, GiB,
// KB, MB, GB).
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	num, mult := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, errors.New("want a positive size, e.g. 32MiB")
	}
	return n * mult, nil
}

// matchAny reports whether name matches one of the glob patterns.
func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}
