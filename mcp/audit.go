package mcp

import (
	"context"
	"log/slog"
)

// caller is who a run_code call came from: its principal ("" without
// auth) and its MCP session ("" when stateless).
type caller struct {
	principal, session string
}

type callerKey struct{}

func withCaller(ctx context.Context, c caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerOf(ctx context.Context) (caller, bool) {
	c, ok := ctx.Value(callerKey{}).(caller)
	return c, ok
}

// AuditHandler wraps h so that every record written with the context of
// a run the server runs (the run's record, the pipeline's records of its
// subcalls) names the caller: "principal" (with ServerOptions.Auth) and
// "session" (with ServerOptions.Sessions or over stdio).
func AuditHandler(h slog.Handler) slog.Handler { return auditHandler{h} }

type auditHandler struct{ slog.Handler }

func (a auditHandler) Handle(ctx context.Context, r slog.Record) error {
	if c, ok := callerOf(ctx); ok {
		// A record that names them already (the server's own run record,
		// under a handler that wraps this one) names them once.
		var hasPrincipal, hasSession bool
		r.Attrs(func(at slog.Attr) bool {
			hasPrincipal = hasPrincipal || at.Key == "principal"
			hasSession = hasSession || at.Key == "session"
			return true
		})
		r = r.Clone()
		if c.principal != "" && !hasPrincipal {
			r.AddAttrs(slog.String("principal", c.principal))
		}
		if c.session != "" && !hasSession {
			r.AddAttrs(slog.String("session", c.session))
		}
	}
	return a.Handler.Handle(ctx, r)
}

func (a auditHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return auditHandler{a.Handler.WithAttrs(attrs)}
}

func (a auditHandler) WithGroup(name string) slog.Handler {
	return auditHandler{a.Handler.WithGroup(name)}
}

// audit writes a record about a run's caller-facing decision (an
// approval asked, a request refused).
func (s *Server) audit(ctx context.Context, msg string, attrs ...slog.Attr) {
	s.log.LogAttrs(ctx, slog.LevelInfo, msg, attrs...)
}
