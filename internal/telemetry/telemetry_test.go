package telemetry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/internal/telemetry"
)

const (
	tid = "4bf92f3577b34da6a3ce929d0e0e4736"
	sid = "00f067aa0ba902b7"
	tp  = "00-" + tid + "-" + sid + "-01"
)

func TestExtract(t *testing.T) {
	h := http.Header{}
	h.Set("Traceparent", "00-"+tid+"-00f067aa0ba902b8-01")
	for _, c := range []struct {
		name   string
		header http.Header
		meta   map[string]any
		want   string // span ID, "" for none
	}{
		{"meta", nil, map[string]any{"traceparent": tp, "tracestate": "a=b"}, sid},
		{"meta before header", h, map[string]any{"traceparent": tp}, sid},
		{"header", h, nil, "00f067aa0ba902b8"},
		{"malformed meta falls back to header", h, map[string]any{"traceparent": "00-zz"}, "00f067aa0ba902b8"},
		{"meta not a string", nil, map[string]any{"traceparent": 42}, ""},
		{"all zero", nil, map[string]any{"traceparent": "00-00000000000000000000000000000000-0000000000000000-01"}, ""},
		{"none", nil, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := trace.SpanContextFromContext(telemetry.Extract(context.Background(), c.header, c.meta))
			if c.want == "" {
				assert.False(t, sc.IsValid())
				return
			}
			require.True(t, sc.IsValid())
			assert.True(t, sc.IsRemote())
			assert.Equal(t, tid, sc.TraceID().String())
			assert.Equal(t, c.want, sc.SpanID().String())
		})
	}
	ctx := telemetry.Extract(context.Background(), nil, map[string]any{"traceparent": tp, "tracestate": "a=b"})
	assert.Equal(t, "a=b", trace.SpanContextFromContext(ctx).TraceState().String())
}

func TestMeta(t *testing.T) {
	assert.Nil(t, telemetry.Meta(context.Background()))
	ctx := telemetry.Extract(context.Background(), nil, map[string]any{"traceparent": tp, "tracestate": "a=b"})
	assert.Equal(t, map[string]any{"traceparent": tp, "tracestate": "a=b"}, telemetry.Meta(ctx))
}

func TestLogHandler(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(telemetry.LogHandler(slog.NewJSONHandler(&buf, nil))).With("k", "v")
	l.InfoContext(context.Background(), "untraced")
	ctx := telemetry.Extract(context.Background(), nil, map[string]any{"traceparent": tp})
	l.InfoContext(ctx, "traced")
	dec := json.NewDecoder(&buf)
	var a, b map[string]any
	require.NoError(t, dec.Decode(&a))
	require.NoError(t, dec.Decode(&b))
	assert.NotContains(t, a, "trace_id")
	assert.Equal(t, "v", a["k"])
	assert.Equal(t, tid, b["trace_id"])
	assert.Equal(t, sid, b["span_id"])
	assert.Equal(t, "v", b["k"])
}

func TestSetErrorType(t *testing.T) {
	telemetry.SetErrorType(context.Background(), "x") // outside a call: nothing
	c := &telemetry.Call{}
	telemetry.SetErrorType(telemetry.WithCall(context.Background(), c), "timeout")
	assert.Equal(t, "timeout", c.ErrorType())
}
