package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// metadataPath is where the RFC 9728 protected-resource metadata is served.
const metadataPath = "/.well-known/oauth-protected-resource"

// maxTokenBytes bounds a bearer credential: a key or a JWT longer than
// this is refused without being hashed or parsed.
const maxTokenBytes = 16 << 10

// errBadCredentials is the one answer an unauthenticated client gets,
// whatever was wrong: the details go to the log only.
var errBadCredentials = fmt.Errorf("%w: the bearer credential was not accepted", auth.ErrInvalidToken)

// authenticator maps a bearer credential to a principal: a key by its
// sha256, compared in constant time with every principal's; a JWT by
// go-oidc (discovery, JWKS cached and refetched when a token names a key
// it does not hold; signature, iss, aud, exp and nbf checked).
type authenticator struct {
	keys   [][sha256.Size]byte
	owners []string // the principal of keys[i]
	known  map[string]bool
	jwt    *jwtVerifier // nil without AuthConfig.JWT
	log    *slog.Logger
}

func newAuthenticator(life context.Context, c *AuthConfig, log *slog.Logger) *authenticator {
	a := &authenticator{known: map[string]bool{}, log: log}
	for _, p := range c.Principals {
		a.known[p.Name] = true
		if p.KeySHA256 == "" {
			continue
		}
		var k [sha256.Size]byte
		if b, err := hex.DecodeString(p.KeySHA256); err == nil && len(b) == len(k) {
			copy(k[:], b)
			a.keys = append(a.keys, k)
			a.owners = append(a.owners, p.Name)
		}
	}
	if c.JWT != nil {
		a.jwt = &jwtVerifier{cfg: *c.JWT, life: life}
	}
	return a
}

// principal returns the principal the credential names, or a reason to
// log (never holding the credential).
func (a *authenticator) principal(ctx context.Context, token string) (string, string, error) {
	if len(token) > maxTokenBytes {
		return "", "credential longer than 16 KiB", errBadCredentials
	}
	sum := sha256.Sum256([]byte(token))
	match := -1
	for i := range a.keys {
		// Every key is compared, so the time does not say which matched.
		if subtle.ConstantTimeCompare(sum[:], a.keys[i][:]) == 1 {
			match = i
		}
	}
	if match >= 0 {
		return a.owners[match], "key", nil
	}
	if a.jwt == nil || strings.Count(token, ".") != 2 {
		return "", "unknown key", errBadCredentials
	}
	name, err := a.jwt.principal(ctx, token)
	if err != nil {
		return "", "jwt: " + redact(err.Error(), token), errBadCredentials
	}
	if !a.known[name] {
		return "", fmt.Sprintf("jwt: claim %s names no principal", a.jwt.cfg.PrincipalClaim), errBadCredentials
	}
	return name, "jwt", nil
}

// verify is the SDK's auth.TokenVerifier: it accepts a credential that
// names a principal, and logs every refusal.
func (a *authenticator) verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	name, how, err := a.principal(ctx, token)
	if err != nil {
		a.refused(r, how)
		return nil, err
	}
	// UserID lets the SDK refuse a session's requests from another
	// principal (session hijacking).
	return &auth.TokenInfo{UserID: name, Extra: map[string]any{"method": how}}, nil
}

// refused logs an unauthenticated request, with the reason and the
// remote address, never the credential.
func (a *authenticator) refused(r *http.Request, reason string) {
	a.log.LogAttrs(r.Context(), slog.LevelWarn, "request refused",
		slog.String("reason", "unauthenticated: "+reason),
		slog.String("remote", r.RemoteAddr))
}

// bearer reports whether the request carries an Authorization header the
// SDK's middleware reads as a bearer credential.
func bearer(r *http.Request) bool {
	f := strings.Fields(r.Header.Get("Authorization"))
	return len(r.Header.Values("Authorization")) == 1 && len(f) == 2 && strings.EqualFold(f[0], "bearer")
}

// middleware requires a principal on every request to next: the SDK's
// RequireBearerToken with the verifier above, answering 401 with
// WWW-Authenticate: Bearer resource_metadata="<base>/.well-known/oauth-protected-resource".
func (a *authenticator) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !bearer(r) {
			reason := "no bearer credential"
			if len(r.Header.Values("Authorization")) > 0 {
				reason = "malformed Authorization header"
			}
			a.refused(r, reason)
			// The SDK's middleware answers it (401 and the challenge).
		}
		auth.RequireBearerToken(a.verify, &auth.RequireBearerTokenOptions{
			ResourceMetadataURL:    baseURL(r) + metadataPath,
			AllowMissingExpiration: true, // keys have none; go-oidc checks a JWT's
		})(next).ServeHTTP(w, r)
	})
}

// metadata serves the RFC 9728 document: the resource (<base>/mcp) and,
// with JWT, its authorization server.
func (a *authenticator) metadata() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := &oauthex.ProtectedResourceMetadata{
			Resource:               baseURL(r) + "/mcp",
			BearerMethodsSupported: []string{"header"},
			ResourceName:           "ptc run_code",
		}
		if a.jwt != nil {
			m.AuthorizationServers = []string{a.jwt.cfg.Issuer}
		}
		auth.ProtectedResourceMetadataHandler(m).ServeHTTP(w, r)
	})
}

// baseURL is the scheme and host the client reached: https when the
// connection is TLS or a proxy says it terminated TLS.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// jwtVerifier verifies JWT access tokens with go-oidc. The issuer's
// discovery document is fetched at the first token (and again, at most
// every retryAfter, while it cannot be); its key set is cached by go-oidc,
// which fetches it again when a token is signed with a key it does not
// hold (key rotation).
type jwtVerifier struct {
	cfg  JWTConfig
	life context.Context // bounds the key set's background fetches

	mu       sync.Mutex
	verifier *oidc.IDTokenVerifier
	failedAt time.Time
	lastErr  error

	// verified caches tokens already verified, by their sha256, so that a
	// client sending its token with every request pays the signature check
	// once a minute, not per request.
	cacheMu  sync.Mutex
	verified map[[sha256.Size]byte]verifiedToken
}

// verifiedToken is a cached verification: the principal, until when.
type verifiedToken struct {
	principal string
	until     time.Time
}

const (
	// verifiedFor bounds how long a verification is reused: a token whose
	// signing key the issuer withdrew is refused within this time.
	verifiedFor = time.Minute
	// verifiedMax bounds the cache; when full it is emptied.
	verifiedMax = 10000
)

// discoveryRetry is how long a failed discovery is remembered.
const discoveryRetry = 5 * time.Second

func (v *jwtVerifier) get(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.verifier != nil {
		return v.verifier, nil
	}
	if !v.failedAt.IsZero() && time.Since(v.failedAt) < discoveryRetry {
		return nil, v.lastErr
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	dctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, hc), 10*time.Second)
	defer cancel()
	p, err := oidc.NewProvider(dctx, v.cfg.Issuer)
	if err != nil {
		v.failedAt, v.lastErr = time.Now(), fmt.Errorf("discovery: %w", err)
		return nil, v.lastErr
	}
	// The key set keeps the context it was made with for its fetches.
	var cl struct {
		JWKS string `json:"jwks_uri"`
	}
	if err := p.Claims(&cl); err != nil || cl.JWKS == "" {
		v.failedAt, v.lastErr = time.Now(), errors.New("discovery: no jwks_uri")
		return nil, v.lastErr
	}
	keys := oidc.NewRemoteKeySet(oidc.ClientContext(v.life, hc), cl.JWKS)
	v.verifier = oidc.NewVerifier(v.cfg.Issuer, keys, &oidc.Config{ClientID: v.cfg.Audience, SupportedSigningAlgs: algorithms(p)})
	return v.verifier, nil
}

// algorithms are the signing algorithms the issuer says it uses, among the
// asymmetric ones go-oidc verifies (never "none", never HMAC); RS256 when
// the issuer does not say.
func algorithms(p *oidc.Provider) []string {
	var d struct {
		Algs []string `json:"id_token_signing_alg_values_supported"`
	}
	_ = p.Claims(&d)
	ok := map[string]bool{oidc.RS256: true, oidc.RS384: true, oidc.RS512: true, oidc.ES256: true, oidc.ES384: true,
		oidc.ES512: true, oidc.PS256: true, oidc.PS384: true, oidc.PS512: true, oidc.EdDSA: true}
	var out []string
	for _, a := range d.Algs {
		if ok[a] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = []string{oidc.RS256}
	}
	return out
}

// principal verifies a JWT (or finds it verified less than verifiedFor
// ago and not expired since) and returns its principal claim.
func (v *jwtVerifier) principal(ctx context.Context, token string) (string, error) {
	sum := sha256.Sum256([]byte(token))
	now := time.Now()
	v.cacheMu.Lock()
	c, ok := v.verified[sum]
	v.cacheMu.Unlock()
	if ok && now.Before(c.until) {
		return c.principal, nil
	}
	name, exp, err := v.verify(ctx, token)
	if err != nil {
		return "", err
	}
	until := now.Add(verifiedFor)
	if exp.Before(until) {
		until = exp
	}
	v.cacheMu.Lock()
	if v.verified == nil || len(v.verified) >= verifiedMax {
		v.verified = make(map[[sha256.Size]byte]verifiedToken)
	}
	v.verified[sum] = verifiedToken{principal: name, until: until}
	v.cacheMu.Unlock()
	return name, nil
}

// verify checks a JWT with go-oidc and returns its principal claim and
// expiry.
func (v *jwtVerifier) verify(ctx context.Context, token string) (string, time.Time, error) {
	ver, err := v.get(ctx)
	if err != nil {
		return "", time.Time{}, err
	}
	t, err := ver.Verify(ctx, token)
	if err != nil {
		return "", time.Time{}, err
	}
	var claims map[string]any
	if err := t.Claims(&claims); err != nil {
		return "", time.Time{}, err
	}
	name, ok := claims[v.cfg.PrincipalClaim].(string)
	if !ok || name == "" {
		return "", time.Time{}, fmt.Errorf("no string claim %s", v.cfg.PrincipalClaim)
	}
	return name, t.Expiry, nil
}

// redact removes the token and each of its dot-separated parts from a
// message, so that no library's error puts a credential in the log.
func redact(msg, token string) string {
	msg = strings.ReplaceAll(msg, token, "[credential]")
	for _, part := range strings.Split(token, ".") {
		if len(part) >= 8 {
			msg = strings.ReplaceAll(msg, part, "[credential]")
		}
	}
	return msg
}
