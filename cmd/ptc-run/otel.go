package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// observability is what ptc-run traces and meters with: a tracer provider
// configured from the OTEL_* environment variables (nil when they ask for
// no export), and with serve --metrics a meter provider read by the
// Prometheus handler.
type observability struct {
	tp      *sdktrace.TracerProvider // nil: nothing traced
	mp      *sdkmetric.MeterProvider // nil: nothing metered
	metrics http.Handler             // /metrics, with mp
}

// tracerProvider returns the configured provider as the interface the
// library takes: a nil interface when nothing is traced.
func (o *observability) tracerProvider() trace.TracerProvider {
	if o == nil || o.tp == nil {
		return nil
	}
	return o.tp
}

func (o *observability) meterProvider() metric.MeterProvider {
	if o == nil || o.mp == nil {
		return nil
	}
	return o.mp
}

// shutdown flushes the spans not yet exported (a run's process ends
// right after its run) and stops the providers.
func (o *observability) shutdown(ctx context.Context) error {
	if o == nil {
		return nil
	}
	var errs []error
	if o.tp != nil {
		errs = append(errs, o.tp.Shutdown(ctx))
	}
	if o.mp != nil {
		errs = append(errs, o.mp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// tracesWanted reports whether the environment asks for traces to be
// exported: an OTLP endpoint is set, or OTEL_TRACES_EXPORTER (a comma-
// separated list, as the specification has it) names "otlp"; never when
// OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is "none". With
// nothing set, nothing is exported and no SDK is made. An exporter
// ptc-run does not build in ("console": its standard output is the
// program's content; "zipkin") is a warning, never a failed command: a
// variable set for other programs must not stop this one.
func tracesWanted(getenv func(string) string) (want bool, warnings []string) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	named := false
	for _, e := range strings.Split(getenv("OTEL_TRACES_EXPORTER"), ",") {
		switch e = strings.TrimSpace(e); e {
		case "":
		case "none":
			return false, warnings
		case "otlp":
			want, named = true, true
		default:
			named = true
			warnings = append(warnings, fmt.Sprintf("OTEL_TRACES_EXPORTER=%s: ptc-run exports otlp only (its standard output is the program's content); no %s traces", e, e))
		}
	}
	if named {
		return want, warnings
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "", nil
}

// otlpProtocol is the OTLP protocol the environment asks for, http/protobuf
// by default or grpc; another (http/json) is a warning and http/protobuf.
func otlpProtocol(getenv func(string) string) (proto, warning string) {
	p := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if p == "" {
		p = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch p {
	case "", "http/protobuf":
		return "http/protobuf", ""
	case "grpc":
		return "grpc", ""
	}
	return "http/protobuf", fmt.Sprintf("OTLP protocol %q: ptc-run exports http/protobuf or grpc; sending http/protobuf", p)
}

// newObservability sets up what the environment and --metrics ask for.
// The OTLP exporters read their own variables (endpoint, headers,
// timeout, TLS); the protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
// OTEL_EXPORTER_OTLP_PROTOCOL, http/protobuf by default or grpc; the
// sampler is OTEL_TRACES_SAMPLER (and _ARG), the resource
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (service.name ptc-run
// by default). A setting ptc-run does not support is a warning to warn,
// never a failed command; an unusable one is an error (exit 2).
func newObservability(ctx context.Context, metrics bool, warn func(string)) (*observability, error) {
	o := &observability{}
	want, warnings := tracesWanted(os.Getenv)
	for _, w := range warnings {
		warn(w)
	}
	if !want && !metrics {
		return nil, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "ptc-run")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && res == nil {
		return nil, fmt.Errorf("OpenTelemetry resource: %w", err)
	}
	if want {
		var exp sdktrace.SpanExporter
		proto, w := otlpProtocol(os.Getenv)
		if w != "" {
			warn(w)
		}
		if proto == "grpc" {
			exp, err = otlptracegrpc.New(ctx)
		} else {
			exp, err = otlptracehttp.New(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("OpenTelemetry traces: %w", err)
		}
		o.tp = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	}
	if metrics {
		reg := prometheus.NewRegistry()
		exp, err := otelprom.New(otelprom.WithRegisterer(reg))
		if err != nil {
			_ = o.shutdown(ctx)
			return nil, fmt.Errorf("prometheus exporter: %w", err)
		}
		o.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithResource(res))
		o.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	}
	return o, nil
}

// withMetrics serves /metrics beside h when o has a handler for it.
func (o *observability) withMetrics(h http.Handler) http.Handler {
	if o == nil || o.metrics == nil {
		return h
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", o.metrics)
	mux.Handle("/", h)
	return mux
}

// warnTo writes a warning to w as ptc-run's other warnings are written:
// a JSON log record at level WARN.
func warnTo(w io.Writer) func(string) {
	l := slog.New(slog.NewJSONHandler(w, nil))
	return func(msg string) { l.Warn(msg) }
}
