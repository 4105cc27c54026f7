package telemetry

import (
	"context"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// RunMetrics are an executor's run instruments (docs/observability.md);
// nil when its pipeline has no MeterProvider.
type RunMetrics struct {
	runs     metric.Int64Counter
	duration metric.Float64Histogram
	inFlight metric.Int64UpDownCounter
	cancel   metric.Float64Histogram
	idle     metric.Registration
}

// NewRunMetrics makes the instruments from mp and registers the idle
// sandboxes gauge, which calls idle; nil without mp.
func NewRunMetrics(mp metric.MeterProvider, idle func() int) (*RunMetrics, error) {
	if mp == nil {
		return nil, nil
	}
	m := mp.Meter(ScopeName)
	var (
		rm  RunMetrics
		err error
	)
	if rm.runs, err = m.Int64Counter("ptc_runs",
		metric.WithDescription("Programs run, by how they ended (kind: ok, exception, timeout, aborted, ... or suspended).")); err != nil {
		return nil, err
	}
	if rm.duration, err = m.Float64Histogram("ptc_run_duration", metric.WithUnit("s"),
		metric.WithDescription("Wall time of a program's run, instantiation included."),
		metric.WithExplicitBucketBoundaries(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)); err != nil {
		return nil, err
	}
	if rm.inFlight, err = m.Int64UpDownCounter("ptc_runs_in_flight",
		metric.WithDescription("Programs running now.")); err != nil {
		return nil, err
	}
	if rm.cancel, err = m.Float64Histogram("ptc_cancel_latency", metric.WithUnit("s"),
		metric.WithDescription("From a run's context being done (cancelled, deadline, shutdown) to its run returning."),
		metric.WithExplicitBucketBoundaries(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)); err != nil {
		return nil, err
	}
	idleGauge, err := m.Int64ObservableGauge("ptc_sandboxes_idle",
		metric.WithDescription("Sandboxes kept idle, reset and ready for the next run."))
	if err != nil {
		return nil, err
	}
	if rm.idle, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		o.ObserveInt64(idleGauge, int64(idle()))
		return nil
	}, idleGauge); err != nil {
		return nil, err
	}
	return &rm, nil
}

// Close unregisters the gauge's callback.
func (m *RunMetrics) Close() {
	if m != nil {
		_ = m.idle.Unregister()
	}
}

// RunObservation is one run being traced and metered.
type RunObservation struct {
	m        *RunMetrics
	span     trace.Span // the run_code call's span, when it records
	start    time.Time
	doneAt   atomic.Int64  // unix nanoseconds when ctx was done
	fired    chan struct{} // closed once doneAt is set
	stopDone func() bool
	replay   bool
}

// Start starts observing the run of the run_code call ctx belongs to (a
// replay when replay is set), with m's instruments (m may be nil); traced
// says whether the executor traces its runs, so that a caller's own span
// in ctx is never written to by an executor that traces nothing. It
// returns nil when there is nothing to trace or meter (its End is then a
// no-op).
func (m *RunMetrics) Start(ctx context.Context, replay, traced bool) *RunObservation {
	span := trace.SpanFromContext(ctx)
	if !traced || !span.IsRecording() {
		span = nil
	}
	if span == nil && m == nil {
		return nil
	}
	o := &RunObservation{m: m, span: span, start: time.Now(), replay: replay}
	if o.m != nil {
		if p := Principal(ctx); p != "" {
			o.m.inFlight.Add(ctx, 1, metric.WithAttributes(attribute.String("principal", p)))
		} else {
			o.m.inFlight.Add(ctx, 1)
		}
		if ctx.Done() != nil {
			o.fired = make(chan struct{})
			o.stopDone = context.AfterFunc(ctx, func() {
				o.doneAt.Store(time.Now().UnixNano())
				close(o.fired)
			})
		}
	}
	return o
}

// RunEnd is how a run ended, as End records it.
type RunEnd struct {
	// Ran reports whether the program ran; the rest is then its outcome.
	Ran bool
	// Kind is host.Kind's value ("ok", "timeout", "aborted", ...).
	Kind        string
	Subcalls    int
	MemoryBytes uint64
	OutputBytes int // printed, a newline per line included
}

// The kinds End tells apart (host.KindOK and host.KindAborted).
const (
	kindOK      = "ok"
	kindAborted = "aborted"
)

// End records the run: its span's attributes and error.type, and the
// run metrics.
func (o *RunObservation) End(ctx context.Context, end RunEnd) {
	if o == nil {
		return
	}
	kind := "internal"
	if end.Ran {
		kind = end.Kind
	}
	if o.span != nil {
		attrs := []attribute.KeyValue{KeyRunKind.String(kind)}
		if end.Ran {
			attrs = append(attrs,
				KeyRunSubcalls.Int(end.Subcalls),
				KeyRunMemory.Int64(int64(end.MemoryBytes)),
				KeyRunOutput.Int(end.OutputBytes))
		}
		if o.replay {
			attrs = append(attrs, KeyReplay.Bool(true))
		}
		o.span.SetAttributes(attrs...)
		if kind != kindOK {
			SetErrorType(ctx, kind)
		}
	}
	if o.m == nil {
		return
	}
	now := time.Now()
	// The run is over: metric records must not be dropped because the
	// run's context is done.
	mctx := context.WithoutCancel(ctx)
	who := metric.WithAttributeSet(attribute.NewSet())
	if p := Principal(ctx); p != "" {
		who = metric.WithAttributes(attribute.String("principal", p))
	}
	o.m.inFlight.Add(mctx, -1, who)
	if p := Principal(ctx); p != "" {
		o.m.runs.Add(mctx, 1, metric.WithAttributes(attribute.String("kind", kind), attribute.String("principal", p)))
	} else {
		o.m.runs.Add(mctx, 1, metric.WithAttributes(attribute.String("kind", kind)))
	}
	o.m.duration.Record(mctx, now.Sub(o.start).Seconds(), who)
	if o.stopDone != nil {
		if !o.stopDone() {
			// ctx was done: its time is being stored, on a goroutine of
			// its own.
			<-o.fired
		}
		if at := o.doneAt.Load(); at != 0 && kind == kindAborted {
			o.m.cancel.Record(mctx, now.Sub(time.Unix(0, at)).Seconds(), who)
		}
	}
}
