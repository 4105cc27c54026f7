package mcp

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strings"
)

// secret is a value that must not be shown, and what is shown instead.
type secret struct {
	value string
	shown string // ${VAR} or [redacted]
}

// varUse says that the environment variable name was read for key.
type varUse struct {
	name string
	key  string // "headers.Authorization", "oauth.clientSecret", "env.X", "url"
}

// minSecret is the length below which a value is not hidden: replacing
// every "1" or "on" in a message would garble it and hide nothing.
const minSecret = 4

// redactor replaces an endpoint's secrets in text.
type redactor struct {
	secrets []secret // longest first
}

// redactor returns what hides ep's secrets: the values that came from
// environment variables, the headers' values (and their last words: the
// token of "Bearer TOKEN") and the OAuth client secret.
func (ep Endpoint) redactor() *redactor {
	r := &redactor{secrets: slices.Clone(ep.secrets)}
	hide := func(v string) {
		r.secrets = append(r.secrets, secret{value: v, shown: "[redacted]"})
	}
	for _, v := range ep.Headers {
		hide(v)
		if f := strings.Fields(v); len(f) > 1 {
			hide(f[len(f)-1])
		}
	}
	if ep.OAuth != nil {
		hide(ep.OAuth.ClientSecret)
	}
	r.secrets = slices.DeleteFunc(r.secrets, func(s secret) bool { return len(s.value) < minSecret })
	// Longest first, so that a secret holding another is hidden whole; a
	// ${VAR} before a [redacted] of the same value.
	slices.SortStableFunc(r.secrets, func(a, b secret) int { return cmp.Compare(len(b.value), len(a.value)) })
	return r
}

// apply returns s with the secrets replaced.
func (r *redactor) apply(s string) string {
	if r == nil {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec.value) {
			s = strings.ReplaceAll(s, sec.value, sec.shown)
		}
	}
	return s
}

// redactedError is an error whose message has the secrets replaced; it
// still matches what it wraps.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// err returns err with the secrets replaced in its message.
func (r *redactor) err(err error) error {
	if err == nil || len(r.secrets) == 0 {
		return err
	}
	msg := err.Error()
	if safe := r.apply(msg); safe != msg {
		return &redactedError{msg: safe, err: err}
	}
	return err
}

// redactHandler is a slog.Handler that replaces the secrets in a record's
// message and string values before passing it on.
type redactHandler struct {
	next slog.Handler
	r    *redactor
}

func (h redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.apply(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.apply(v.String()))
	case slog.KindGroup:
		attrs := v.Group()
		out := make([]any, len(attrs))
		for i, g := range attrs {
			out[i] = h.attr(g)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.r.apply(err.Error()))
		}
		return slog.String(a.Key, h.r.apply(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func (h redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	safe := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		safe[i] = h.attr(a)
	}
	return redactHandler{next: h.next.WithAttrs(safe), r: h.r}
}

func (h redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{next: h.next.WithGroup(name), r: h.r}
}

// logger returns l with the secrets replaced in what it logs.
func (r *redactor) logger(l *slog.Logger) *slog.Logger {
	if len(r.secrets) == 0 {
		return l
	}
	return slog.New(redactHandler{next: l.Handler(), r: r})
}
