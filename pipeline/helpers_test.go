package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type toolOpt func(*registry.RawSpec)

func parallel(s *registry.RawSpec) {
	s.ExecutionMode = func(json.RawMessage) registry.Mode { return registry.Parallel }
}

func timeout(ms int) toolOpt { return func(s *registry.RawSpec) { s.TimeoutMs = ms } }

// rawTool defines a tool with raw arguments and body fn.
func rawTool(name string, fn func(ctx context.Context, args json.RawMessage, exec *registry.Exec) (any, error), opts ...toolOpt) *registry.Tool {
	s := registry.RawSpec{Name: name, Description: name, Execute: fn}
	for _, o := range opts {
		o(&s)
	}
	return registry.MustDefine(s)
}

func echo(name string, opts ...toolOpt) *registry.Tool {
	return rawTool(name, func(_ context.Context, args json.RawMessage, _ *registry.Exec) (any, error) {
		return string(args), nil
	}, opts...)
}

// newPipeline registers tools in a fresh registry and returns a pipeline
// over it.
func newPipeline(t testing.TB, cfg pipeline.Config, tools ...*registry.Tool) *pipeline.Pipeline {
	t.Helper()
	if cfg.Registry == nil {
		cfg.Registry = registry.New()
	}
	for _, tool := range tools {
		if _, err := cfg.Registry.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	p, err := pipeline.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func call(name, args string) pipeline.RawCall {
	return pipeline.RawCall{Name: name, Arguments: json.RawMessage(args)}
}

// text joins the text parts of the outcome's content.
func text(o *pipeline.Outcome) string {
	var sb strings.Builder
	for _, p := range o.Content() {
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// reason returns the model-facing reason of o's failure, "" on success.
func reason(o *pipeline.Outcome) string {
	var e *pipeline.Error
	if errors.As(o.Err(), &e) {
		return e.Reason
	}
	return ""
}

// info returns the structured detail of o's failure, or nil.
func info(o *pipeline.Outcome) *pipeline.ErrorInfo {
	var e *pipeline.Error
	if errors.As(o.Err(), &e) {
		return e.Info
	}
	return nil
}
