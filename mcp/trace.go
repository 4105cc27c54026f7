package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptchost/ptc/internal/telemetry"
)

// remoteTrace returns ctx continuing the trace a run_code request names:
// the W3C traceparent (and tracestate) in params._meta, else in the HTTP
// request's headers; ctx as it is without one. The run's span is then a
// child of the caller's.
func remoteTrace(ctx context.Context, req *sdk.CallToolRequest) context.Context {
	var (
		meta   map[string]any
		header map[string][]string
	)
	if req.Params != nil {
		meta = req.Params.Meta
	}
	if req.Extra != nil {
		header = req.Extra.Header
	}
	return telemetry.Extract(ctx, header, meta)
}

// traceMeta is the _meta of a call to a mounted server: the W3C trace
// context of ctx's span (the subcall's), so that the server's spans join
// the trace; nil when ctx has none.
func traceMeta(ctx context.Context) sdk.Meta {
	m := telemetry.Meta(ctx)
	if m == nil {
		return nil
	}
	return sdk.Meta(m)
}
