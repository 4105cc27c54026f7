package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/ptchost/ptc/mcp"
)

// serveSecurity are serve's flags about who may reach it: --auth,
// --no-auth, --allow-origin and --sessions.
type serveSecurity struct {
	authFile string
	noAuth   bool
	origins  stringList
	sessions bool
}

func (s *serveSecurity) add(fs *flag.FlagSet) {
	fs.StringVar(&s.authFile, "auth", "", "principals file: who may call, with which tools and limits")
	fs.BoolVar(&s.noAuth, "no-auth", false, "serve beyond loopback without authentication")
	fs.Var(&s.origins, "allow-origin", "an Origin allowed over HTTP (repeatable)")
	fs.BoolVar(&s.sessions, "sessions", false, "keep MCP sessions over HTTP (needed to ask for approvals)")
}

// check refuses a combination that would expose serve: without --auth, it
// listens only on loopback, unless --no-auth says so out loud.
func (s *serveSecurity) check(listen string, stdio bool) error {
	for _, o := range s.origins {
		if u, err := url.Parse(o); err != nil || u.Scheme == "" || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			return &usageError{fmt.Sprintf("--allow-origin %q: want scheme://host[:port], as browsers send Origin", o)}
		}
	}
	switch {
	case s.authFile != "" && s.noAuth:
		return &usageError{"serve takes --auth or --no-auth, not both"}
	case stdio && (s.authFile != "" || s.noAuth):
		return &usageError{"--auth and --no-auth are for HTTP: over --stdio the caller is the process that started serve"}
	case stdio && s.sessions:
		return &usageError{"--sessions is for HTTP: --stdio is one session"}
	case stdio || s.authFile != "" || s.noAuth:
		return nil
	}
	if !loopback(listen) {
		return &usageError{fmt.Sprintf("--listen %s is not a loopback address: serving beyond this machine needs --auth FILE (or --no-auth to accept that anyone who reaches the port runs code and calls every tool)", listen)}
	}
	return nil
}

// loopback reports whether addr (host:port) names only loopback addresses.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// load reads the --auth file; nil without --auth.
func (s *serveSecurity) load() (*mcp.AuthConfig, error) {
	if s.authFile == "" {
		return nil, nil
	}
	data, err := os.ReadFile(s.authFile)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--auth: %v", err)}
	}
	c, err := mcp.ParseAuthConfig(data)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--auth %s: %v", s.authFile, err)}
	}
	return c, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// options completes serve's server options with the security flags.
func (s *serveSecurity) options(o mcp.ServerOptions, c *mcp.AuthConfig) mcp.ServerOptions {
	o.AllowOrigins = s.origins
	o.Sessions = s.sessions
	o.Auth = c
	return o
}
