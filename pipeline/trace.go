package pipeline

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/internal/telemetry"
)

// UnknownToolLabel is the tool label ptc_subcalls_total counts a subcall
// under when its name is no tool the call's tool set admits: the label
// names registered tools only, so a program cannot make series at will.
const UnknownToolLabel = "(unknown)"

// tracing is a pipeline's tracer and instruments; nil when neither
// provider was configured, so an untraced call costs one nil check.
type tracing struct {
	tracer   trace.Tracer        // nil without a TracerProvider
	subcalls metric.Int64Counter // nil without a MeterProvider
}

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

// start starts the call's span, a child of ctx's: "execute_tool <tool>",
// with the GenAI attributes. It returns ctx unchanged and a nil state
// when the pipeline does not trace.
func (t *tracing) start(ctx context.Context, inv *Invocation) (context.Context, *telemetry.Call, trace.Span) {
	if t.tracer == nil {
		return ctx, nil, nil
	}
	attrs := make([]attribute.KeyValue, 0, 5)
	attrs = append(attrs,
		telemetry.KeyOperationName.String(telemetry.OperationExecuteTool),
		telemetry.KeyToolName.String(inv.name),
		telemetry.KeyToken.String(inv.token))
	if inv.id != "" {
		attrs = append(attrs, telemetry.KeyToolCallID.String(inv.id))
	}
	if inv.env.Parent != "" {
		attrs = append(attrs, telemetry.KeyParent.String(inv.env.Parent))
	}
	ctx, span := t.tracer.Start(ctx, telemetry.OperationExecuteTool+" "+spanTool(inv.name),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	c := &telemetry.Call{}
	return telemetry.WithCall(ctx, c), c, span
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
func (t *tracing) end(ctx context.Context, inv *Invocation, c *telemetry.Call, span trace.Span, o *Outcome) {
	if span != nil {
		if o.err != nil {
			et := c.ErrorType()
			if et == "" {
				et = string(o.err.Code)
			}
			if o.err.Code == CodeToolTimeout {
				span.AddEvent(telemetry.EventTimedOut)
			}
			span.SetAttributes(telemetry.KeyErrorType.String(et))
			span.SetStatus(codes.Error, o.err.Reason)
		}
		span.End()
	}
	if t.subcalls != nil && inv.env.Parent != "" {
		tool, code := inv.name, "OK"
		if inv.tool == nil {
			tool = UnknownToolLabel
		}
		if o.err != nil {
			code = string(o.err.Code)
		}
		if p := telemetry.Principal(ctx); p != "" {
			t.subcalls.Add(ctx, 1, metric.WithAttributes(attribute.String("tool", tool), attribute.String("code", code), attribute.String("principal", p)))
		} else {
			t.subcalls.Add(ctx, 1, metric.WithAttributes(attribute.String("tool", tool), attribute.String("code", code)))
		}
	}
}

// note adds a decision event to the span of the call ctx belongs to.
func (p *Pipeline) note(ctx context.Context, event, policy, reason string) {
	if p.tel == nil || p.tel.tracer == nil {
		return
	}
	attrs := []attribute.KeyValue{telemetry.KeyPolicy.String(policy)}
	if reason != "" {
		attrs = append(attrs, telemetry.KeyReason.String(reason))
	}
	trace.SpanFromContext(ctx).AddEvent(event, trace.WithAttributes(attrs...))
}

// TracerProvider returns the provider the pipeline traces its calls with
// (Config.TracerProvider), nil when it traces nothing.
func (p *Pipeline) TracerProvider() trace.TracerProvider { return p.tp }

// MeterProvider returns the provider the pipeline meters with
// (Config.MeterProvider), nil when it meters nothing.
func (p *Pipeline) MeterProvider() metric.MeterProvider { return p.mp }
