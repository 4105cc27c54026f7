package telemetry_test

import (
	"context"
	"net/http"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/internal/telemetry"
)

// FuzzExtract: a request's traceparent and tracestate, in _meta or in a
// header, never crash serve, and whatever is accepted is a valid remote
// span context that goes out again (Meta) as W3C trace context.
func FuzzExtract(f *testing.F) {
	f.Add(tp, "a=b", true)
	f.Add("00-zz", "", false)
	f.Add("ff-"+tid+"-"+sid+"-01", ",,,=", true)
	f.Fuzz(func(t *testing.T, parent, state string, inMeta bool) {
		var (
			h    http.Header
			meta map[string]any
		)
		if inMeta {
			meta = map[string]any{"traceparent": parent, "tracestate": state}
		} else {
			h = http.Header{"Traceparent": {parent}, "Tracestate": {state}}
		}
		ctx := telemetry.Extract(context.Background(), h, meta)
		sc := trace.SpanContextFromContext(ctx)
		if !sc.IsValid() {
			if telemetry.Meta(ctx) != nil {
				t.Fatal("meta without a valid span context")
			}
			return
		}
		if !sc.IsRemote() {
			t.Fatal("an extracted span context is remote")
		}
		if _, ok := telemetry.Meta(ctx)["traceparent"].(string); !ok {
			t.Fatal("no traceparent out")
		}
	})
}
