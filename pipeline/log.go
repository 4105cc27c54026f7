package pipeline

import (
	"context"
	"log/slog"
)

// SlogResult returns a [ResultListener] that writes the "tool result"
// record a batch's Logger gets ([Batch].Logger) for every call the
// pipeline runs, logged or not.
func SlogResult(l *slog.Logger) ResultListener {
	return func(ctx context.Context, o *Outcome) { slogResult(ctx, l, o) }
}

// slogCall writes the "tool call" record of a call that starts running.
func slogCall(ctx context.Context, l *slog.Logger, inv *Invocation) {
	l.LogAttrs(ctx, slog.LevelInfo, "tool call",
		slog.String("tool", inv.name),
		slog.String("token", inv.token),
		slog.String("parent", inv.env.Parent),
		slog.Bool("nested", inv.env.Parent != ""))
}

// slogResult writes the "tool result" record of a call's outcome.
func slogResult(ctx context.Context, l *slog.Logger, o *Outcome) {
	level := slog.LevelInfo
	if o.err != nil {
		level = slog.LevelWarn
	}
	if !l.Enabled(ctx, level) {
		return
	}
	inv := o.inv
	attrs := []slog.Attr{
		slog.String("tool", inv.name),
		slog.String("token", inv.token),
		slog.String("parent", inv.env.Parent),
		slog.Bool("nested", inv.env.Parent != ""),
		// Milliseconds, as every record of ptc's gives a duration.
		slog.Float64("duration_ms", float64(o.duration.Microseconds())/1000),
	}
	if o.err != nil {
		attrs = append(attrs, slog.String("code", o.err.Code), slog.String("reason", o.err.Reason))
		if info := o.err.Info; info != nil {
			attrs = append(attrs, slog.Group("info",
				slog.String("name", info.Name),
				slog.String("code", info.Code),
				slog.String("userReason", info.UserReason)))
		}
	}
	l.LogAttrs(ctx, level, "tool result", attrs...)
}
