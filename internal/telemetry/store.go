package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// StoreStats is what a run store holds, as RegisterStore observes it.
type StoreStats struct {
	Runs, Running, Bytes int64
}

// RegisterStore registers the run store's gauges on mp — ptc_store_runs
// (by state: running or finished) and ptc_store_bytes — observed by
// calling stats at each collection; unregister removes them. Without mp
// it registers nothing.
func RegisterStore(mp metric.MeterProvider, stats func(context.Context) (StoreStats, error)) (unregister func(), err error) {
	if mp == nil {
		return func() {}, nil
	}
	m := mp.Meter(ScopeName)
	runs, err := m.Int64ObservableGauge("ptc_store_runs",
		metric.WithDescription("Runs the run store holds, by state (running: not finished, driven or waiting to be resumed)."))
	if err != nil {
		return nil, err
	}
	bytes, err := m.Int64ObservableGauge("ptc_store_bytes", metric.WithUnit("By"),
		metric.WithDescription("Bytes written for the runs the run store holds."))
	if err != nil {
		return nil, err
	}
	running := metric.WithAttributes(attribute.String("state", "running"))
	finished := metric.WithAttributes(attribute.String("state", "finished"))
	reg, err := m.RegisterCallback(func(ctx context.Context, o metric.Observer) error {
		st, err := stats(ctx)
		if err != nil {
			return err
		}
		o.ObserveInt64(runs, st.Running, running)
		o.ObserveInt64(runs, st.Runs-st.Running, finished)
		o.ObserveInt64(bytes, st.Bytes)
		return nil
	}, runs, bytes)
	if err != nil {
		return nil, err
	}
	return func() { _ = reg.Unregister() }, nil
}
