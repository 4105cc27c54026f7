package pipeline

import (
	"context"
	"log/slog"
)

// EventKind says which event of a call a [Log] receives.
type EventKind int

const (
	// EventCall is recorded when a call starts running.
	EventCall EventKind = iota + 1
	// EventResult is recorded with the call's final outcome.
	EventResult
)

// String returns "call" or "result".
func (k EventKind) String() string {
	if k == EventResult {
		return "result"
	}
	return "call"
}

// Event is one log event of a call. A root call's events have no parent; a
// nested call's ([Env.Parent] set) carry the parent's correlation token
// ([Invocation.Nested], [Invocation.Parent]).
type Event struct {
	// Kind is the event kind.
	Kind EventKind
	// Invocation is the call.
	Invocation *Invocation
	// Outcome is the final outcome, for EventResult; nil otherwise.
	Outcome *Outcome
}

// Log records the call and result events of the calls of a batch (or of a
// single call) that was given one. The pipeline calls it synchronously, from
// the goroutine running the call, so it must be safe for concurrent use; a
// panic is recovered and ignored.
type Log interface {
	// Record records one event; ctx is the call's context.
	Record(ctx context.Context, e Event)
}

// LogFunc adapts a function to [Log].
type LogFunc func(ctx context.Context, e Event)

// Record calls f.
func (f LogFunc) Record(ctx context.Context, e Event) { f(ctx, e) }

// SlogLog returns a [Log] that writes one slog record per event: "tool call"
// and "tool result", at level Info (a failed result at Warn), with the
// tool, token, parent, nested and, for results, duration and, for a
// failure, code, reason and the structured [ErrorInfo] a denial attached
// (group "info": name, code, userReason). Arguments, values and
// presentation descriptors are not logged.
func SlogLog(l *slog.Logger) Log {
	return LogFunc(func(ctx context.Context, e Event) {
		if e.Kind == EventResult && e.Outcome != nil {
			slogResult(ctx, l, e.Outcome)
			return
		}
		inv := e.Invocation
		l.LogAttrs(ctx, slog.LevelInfo, "tool call",
			slog.String("tool", inv.Name()),
			slog.String("token", inv.Token()),
			slog.String("parent", inv.Parent()),
			slog.Bool("nested", inv.Nested()))
	})
}

// SlogResult returns a [ResultListener] that writes the "tool result"
// record of [SlogLog] for every call the pipeline runs, logged or not.
func SlogResult(l *slog.Logger) ResultListener {
	return func(ctx context.Context, o *Outcome) { slogResult(ctx, l, o) }
}

func slogResult(ctx context.Context, l *slog.Logger, o *Outcome) {
	level := slog.LevelInfo
	if !o.OK() {
		level = slog.LevelWarn
	}
	if !l.Enabled(ctx, level) {
		return
	}
	inv := o.Invocation()
	attrs := []slog.Attr{
		slog.String("tool", inv.Name()),
		slog.String("token", inv.Token()),
		slog.String("parent", inv.Parent()),
		slog.Bool("nested", inv.Nested()),
		slog.Duration("duration", o.Duration()),
	}
	if !o.OK() {
		attrs = append(attrs, slog.String("code", string(o.Code())), slog.String("reason", o.Reason()))
		if info := o.err.Info; info != nil {
			attrs = append(attrs, slog.Group("info",
				slog.String("name", info.Name),
				slog.String("code", info.Code),
				slog.String("userReason", info.UserReason)))
		}
	}
	l.LogAttrs(ctx, level, "tool result", attrs...)
}
