package pipeline

import (
	"context"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/internal/telemetry"
)

// unknownToolLabel is the tool label ptc_subcalls_total counts a subcall
// under when its name is no tool the call's tool set admits: the label
// names registered tools only, so a program cannot make series at will.
const unknownToolLabel = "(unknown)"

// tracing is a pipeline's tracer and instruments; nil when neither
// provider was configured, so an untraced call costs one nil check.
//
// What a call's span and count need that depends on the tool alone is
// made once per tool name and kept (the span's name and start options,
// the count's attribute set), so a traced call allocates little beyond
// what the SDK allocates for its span. The caches hold registered tools'
// names only (a program can call any name: those are made per call) and
// at most maxCached entries each.
type tracing struct {
	tracer   trace.Tracer        // nil without a TracerProvider
	subcalls metric.Int64Counter // nil without a MeterProvider

	spans   sync.Map // tool name → *toolSpan
	nspans  atomic.Int32
	counts  sync.Map // countKey → []metric.AddOption
	ncounts atomic.Int32
}

// maxCached bounds each cache of a pipeline's tracing.
const maxCached = 4096

// toolSpan is what every span of one tool's calls starts with.
type toolSpan struct {
	name string                  // "execute_tool <tool>"
	opts []trace.SpanStartOption // kind and the tool's attributes
}

// countKey names one series of ptc_subcalls_total.
type countKey struct{ tool, code, principal string }

// newTracing returns the pipeline's tracing from cfg's providers, or nil.
func newTracing(cfg Config) (*tracing, error) {
	if cfg.TracerProvider == nil && cfg.MeterProvider == nil {
		return nil, nil
	}
	t := &tracing{}
	if cfg.TracerProvider != nil {
		t.tracer = cfg.TracerProvider.Tracer(telemetry.ScopeName)
	}
	if cfg.MeterProvider != nil {
		c, err := cfg.MeterProvider.Meter(telemetry.ScopeName).Int64Counter("ptc_subcalls",
			metric.WithDescription("Subcalls programs made, by tool (registered tools only) and pipeline code (OK on success)."))
		if err != nil {
			return nil, err
		}
		t.subcalls = c
	}
	return t, nil
}

// newToolSpan returns the start of a span of calls to name. The
// attributes a sampler may decide on are given at the start, as the
// GenAI conventions ask.
func newToolSpan(name string) *toolSpan {
	return &toolSpan{
		name: telemetry.OperationExecuteTool + " " + spanTool(name),
		opts: []trace.SpanStartOption{
			trace.WithSpanKind(trace.SpanKindInternal),
			trace.WithAttributes(
				telemetry.KeyOperationName.String(telemetry.OperationExecuteTool),
				telemetry.KeyToolName.String(name)),
		},
	}
}

// toolSpan returns the start of inv's span, kept for a registered tool.
func (t *tracing) toolSpan(inv *Invocation) *toolSpan {
	if inv.tool == nil {
		return newToolSpan(inv.name)
	}
	if ts, ok := t.spans.Load(inv.name); ok {
		return ts.(*toolSpan)
	}
	ts := newToolSpan(inv.name)
	if t.nspans.Load() < maxCached {
		if prev, loaded := t.spans.LoadOrStore(inv.name, ts); loaded {
			return prev.(*toolSpan)
		}
		t.nspans.Add(1)
	}
	return ts
}

// start starts the call's span, a child of ctx's: "execute_tool <tool>",
// with the GenAI attributes. It returns ctx unchanged and a nil span
// when the pipeline does not trace. A recording span's call state lives
// in inv, its context carries it for SetErrorType.
func (t *tracing) start(ctx context.Context, inv *Invocation) (context.Context, trace.Span) {
	if t.tracer == nil {
		return ctx, nil
	}
	ts := t.toolSpan(inv)
	ctx, span := t.tracer.Start(ctx, ts.name, ts.opts...)
	if !span.IsRecording() {
		return ctx, span
	}
	var kv [3]attribute.KeyValue
	attrs := append(kv[:0], telemetry.KeyToken.String(inv.token))
	if inv.id != "" {
		attrs = append(attrs, telemetry.KeyToolCallID.String(inv.id))
	}
	if inv.env.Parent != "" {
		attrs = append(attrs, telemetry.KeyParent.String(inv.env.Parent))
	}
	span.SetAttributes(attrs...)
	return telemetry.WithCall(ctx, &inv.tcall), span
}

// spanTool bounds the tool name in a span's name: a program may call any
// name, and the attribute keeps it whole.
func spanTool(name string) string {
	const max = 64
	if len(name) > max {
		return name[:max] + "…"
	}
	return name
}

// end ends the call's span (when traced) with error.type and an error
// status on failure, and counts a nested call in ptc_subcalls_total.
func (t *tracing) end(ctx context.Context, inv *Invocation, span trace.Span, o *Outcome) {
	if span != nil {
		if o.err != nil && span.IsRecording() {
			et := inv.tcall.ErrorType()
			if et == "" {
				et = o.err.Code
			}
			if o.err.Code == codeToolTimeout {
				span.AddEvent(telemetry.EventTimedOut)
			}
			span.SetAttributes(telemetry.KeyErrorType.String(et))
			span.SetStatus(codes.Error, o.err.Reason)
		}
		span.End()
	}
	if t.subcalls != nil && inv.env.Parent != "" {
		k := countKey{tool: inv.name, code: "OK", principal: telemetry.Principal(ctx)}
		if inv.tool == nil {
			k.tool = unknownToolLabel
		}
		if o.err != nil {
			k.code = o.err.Code
		}
		t.subcalls.Add(ctx, 1, t.countOpts(k)...)
	}
}

// countOpts returns the options of an add to k's series, kept.
func (t *tracing) countOpts(k countKey) []metric.AddOption {
	if opts, ok := t.counts.Load(k); ok {
		return opts.([]metric.AddOption)
	}
	attrs := []attribute.KeyValue{attribute.String("tool", k.tool), attribute.String("code", k.code)}
	if k.principal != "" {
		attrs = append(attrs, attribute.String("principal", k.principal))
	}
	opts := []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(attrs...))}
	if t.ncounts.Load() < maxCached {
		if prev, loaded := t.counts.LoadOrStore(k, opts); loaded {
			return prev.([]metric.AddOption)
		}
		t.ncounts.Add(1)
	}
	return opts
}

// note adds a decision event to the span of the call ctx belongs to.
func (p *Pipeline) note(ctx context.Context, event, policy, reason string) {
	if p.tel == nil || p.tel.tracer == nil {
		return
	}
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	attrs := []attribute.KeyValue{telemetry.KeyPolicy.String(policy)}
	if reason != "" {
		attrs = append(attrs, telemetry.KeyReason.String(reason))
	}
	span.AddEvent(event, trace.WithAttributes(attrs...))
}
