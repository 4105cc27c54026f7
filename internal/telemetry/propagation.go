package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The W3C trace context fields, as HTTP headers and as keys of MCP's
// _meta.
const (
	fieldTraceparent = "traceparent"
	fieldTracestate  = "tracestate"
)

var traceContext propagation.TraceContext

// Extract returns ctx continuing the remote trace the request names: its
// traceparent (and tracestate) in params._meta, else in the HTTP
// headers. A missing or malformed traceparent leaves ctx as it is.
func Extract(ctx context.Context, header http.Header, meta map[string]any) context.Context {
	if s, ok := meta[fieldTraceparent].(string); ok && s != "" {
		c := propagation.MapCarrier{fieldTraceparent: s}
		if st, ok := meta[fieldTracestate].(string); ok {
			c[fieldTracestate] = st
		}
		if out := traceContext.Extract(ctx, c); trace.SpanContextFromContext(out).IsValid() {
			return out
		}
	}
	if header != nil {
		return traceContext.Extract(ctx, propagation.HeaderCarrier(header))
	}
	return ctx
}

// Meta returns the _meta fields that carry ctx's span context to a server
// (traceparent and, when set, tracestate), or nil when ctx has no valid
// span context.
func Meta(ctx context.Context) map[string]any {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	c := propagation.MapCarrier{}
	traceContext.Inject(ctx, c)
	if len(c) == 0 {
		return nil
	}
	m := make(map[string]any, len(c))
	for k, v := range c {
		m[k] = v
	}
	return m
}
