package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// httpClient returns the client that reaches ep's URL: ep.HTTPClient (or
// http.DefaultClient) with ep.Headers set on every request, the OAuth
// access token when ep.OAuth is set, and watch seeing every answer.
func (ep Endpoint) httpClient(watch *authWatch) *http.Client {
	base := http.DefaultClient
	if ep.HTTPClient != nil {
		base = ep.HTTPClient
	}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	if ep.OAuth != nil {
		cc := clientcredentials.Config{
			ClientID:     ep.OAuth.ClientID,
			ClientSecret: ep.OAuth.ClientSecret,
			TokenURL:     ep.OAuth.TokenURL,
			Scopes:       ep.OAuth.Scopes,
		}
		// The token requests go through the same client, without the
		// headers and the token.
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, base)
		// clientcredentials' source caches the token (oauth2's
		// ReuseTokenSource) and fetches a new one shortly before it
		// expires.
		rt = &oauth2.Transport{Source: tokenSource{cc.TokenSource(ctx)}, Base: rt}
	}
	if len(ep.Headers) > 0 {
		rt = &headerTransport{headers: ep.Headers, next: rt}
	}
	watch.next = rt
	c := *base
	c.Transport = watch
	return &c
}

// headerTransport sets headers on every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context()) // a RoundTripper must not change the request
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.next.RoundTrip(req)
}

// tokenSource marks the errors of getting a token, so that the watch
// tells them from the errors of reaching the server.
type tokenSource struct{ oauth2.TokenSource }

func (s tokenSource) Token() (*oauth2.Token, error) {
	t, err := s.TokenSource.Token()
	if err != nil {
		return nil, &tokenError{err}
	}
	return t, nil
}

type tokenError struct{ err error }

func (e *tokenError) Error() string { return e.err.Error() }
func (e *tokenError) Unwrap() error { return e.err }

// authWatch sees every HTTP exchange with a remote server and keeps the
// last refusal of its credentials (401, 403, or no token to send), until
// an exchange succeeds: the mount's errors then say which credential to
// set instead of only "Unauthorized".
type authWatch struct {
	next http.RoundTripper

	mu   sync.Mutex
	last *authFailure
}

// authFailure is a refusal of the credentials.
type authFailure struct {
	status    int    // 401 or 403; 0 when there was no token to send
	challenge string // the server's WWW-Authenticate
	token     error  // why no token could be had
}

func (w *authWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(req)
	var te *tokenError
	switch {
	case errors.As(err, &te):
		w.set(&authFailure{token: te.err})
	case err != nil:
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		w.set(&authFailure{status: resp.StatusCode, challenge: resp.Header.Get("WWW-Authenticate")})
	case resp.StatusCode < 300:
		w.set(nil)
	}
	return resp, err
}

func (w *authWatch) set(f *authFailure) {
	w.mu.Lock()
	w.last = f
	w.mu.Unlock()
}

// failure returns the last refusal, if the last answer was one; nil for
// a watch of nothing (a stdio server).
func (w *authWatch) failure() *authFailure {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// explain says what was refused and what to set, for the server ep: the
// header and the variable it came from, the OAuth client, or, with no
// credentials configured, that it needs some.
func (f *authFailure) explain(ep Endpoint) string {
	if f.token != nil {
		return tokenProblem(ep, f.token)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "answered %d %s", f.status, http.StatusText(f.status))
	if f.status == http.StatusForbidden {
		b.WriteString(": the credentials sent were refused (not allowed)")
	} else {
		b.WriteString(": it needs credentials")
	}
	var sent []string
	for k := range ep.Headers {
		sent = append(sent, k)
	}
	switch {
	case ep.OAuth != nil:
		fmt.Fprintf(&b, "; the OAuth access token from %s was refused: check oauth.scopes and that the server accepts that authorization server's tokens", ep.OAuth.TokenURL)
	case len(sent) > 0:
		var from []string
		for _, v := range ep.vars {
			if strings.HasPrefix(v.key, "headers.") {
				from = append(from, v.name)
			}
		}
		fmt.Fprintf(&b, "; the header %s it was sent was refused", strings.Join(sortedSet(sent), ", "))
		if len(from) > 0 {
			fmt.Fprintf(&b, ": set %s to a valid credential", strings.Join(sortedSet(from), ", "))
		} else {
			b.WriteString(": check its value")
		}
	case ep.fromConfig:
		b.WriteString(`; none was sent: set one in its mcpServers entry, e.g. "headers": {"Authorization": "Bearer ${TOKEN}"} with TOKEN in the environment, or "oauth"`)
	default:
		// --mcp NAME=URL has no way to send a header.
		b.WriteString(`; none was sent: give the server as an entry of an --mcp-config file, with "headers": {"Authorization": "Bearer ${TOKEN}"} and TOKEN in the environment, or "oauth" (Endpoint.Headers or OAuth in Go)`)
	}
	if c := f.challenge; c != "" {
		if len(c) > 200 {
			c = c[:200] + "…"
		}
		fmt.Fprintf(&b, " (WWW-Authenticate: %s)", c)
	}
	return b.String()
}

// tokenProblem explains why no OAuth access token could be had.
func tokenProblem(ep Endpoint, err error) string {
	o := ep.OAuth
	if o == nil { // a token source of the caller's own
		return "could not get an access token: " + err.Error()
	}
	secretFrom := ""
	for _, v := range ep.vars {
		if v.key == "oauth.clientSecret" {
			secretFrom = " (from " + v.name + ")"
		}
	}
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.Response == nil {
		return fmt.Sprintf("could not get an OAuth access token from %s: %v", o.TokenURL, err)
	}
	what := re.ErrorCode
	if re.ErrorDescription != "" {
		what += ": " + re.ErrorDescription
	}
	if what != "" {
		what += ", "
	}
	return fmt.Sprintf("could not get an OAuth access token: the token endpoint %s refused client %q (%s%s): check oauth.clientId and oauth.clientSecret%s",
		o.TokenURL, o.ClientID, what, re.Response.Status, secretFrom)
}

// sortedSet returns the strings of s sorted, each once.
func sortedSet(s []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(s)))
}
