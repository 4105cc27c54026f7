package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A record that names the caller already, under a handler that wraps the
// audit handler (so the server cannot tell it is audited), names it once.
func TestAuditHandler_namesOnce(t *testing.T) {
	var buf bytes.Buffer
	wrapped := wrapHandler{AuditHandler(slog.NewJSONHandler(&buf, nil))}
	ctx := withCaller(context.Background(), caller{principal: "team-a", session: "s1"})
	slog.New(wrapped).InfoContext(ctx, "run", slog.String("principal", "team-a"))
	slog.New(wrapped).InfoContext(ctx, "tool result")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 2)
	for _, l := range lines {
		require.Equal(t, 1, strings.Count(l, `"principal"`), l)
		require.Equal(t, 1, strings.Count(l, `"session"`), l)
	}
}

// wrapHandler is a handler that wraps another, as a tracing handler does.
type wrapHandler struct{ slog.Handler }
