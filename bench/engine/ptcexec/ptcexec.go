// Package ptcexec runs the benchmark's programs through ptc's executor
// (ptc.New / Executor.Run), with the tools in a registry behind the
// pipeline.
package ptcexec

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Sandbox is an executor whose registry holds echo, sleep and wait.
type Sandbox struct {
	ex   *ptc.Executor
	opts ptc.RunOptions
}

// New builds the registry and pipeline and compiles the guest (with the
// compilation cache in cacheDir when not empty). gate serves tools.wait;
// it may be nil.
func New(ctx context.Context, cacheDir string, gate *bench.Gate) (*Sandbox, error) {
	reg := registry.New()
	tool := func(name string, fn func(ctx context.Context, a json.RawMessage) (any, error)) *registry.Tool {
		return registry.MustDefine(registry.RawSpec{
			Name:          name,
			Description:   "The benchmark's " + name + " tool.",
			ExecutionMode: func(json.RawMessage) registry.Mode { return registry.Parallel },
			Execute: func(ctx context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
				return fn(ctx, a)
			},
		})
	}
	for _, t := range []*registry.Tool{
		tool("echo", func(_ context.Context, a json.RawMessage) (any, error) { return a, nil }),
		tool("sleep", func(ctx context.Context, a json.RawMessage) (any, error) {
			if err := bench.Sleep(ctx, a); err != nil {
				return nil, err
			}
			return "ok", nil
		}),
		tool("wait", func(ctx context.Context, _ json.RawMessage) (any, error) {
			if err := gate.Wait(ctx); err != nil {
				return nil, err
			}
			return bench.Released, nil
		}),
	} {
		if _, err := reg.Register(t); err != nil {
			return nil, fmt.Errorf("ptcexec: %w", err)
		}
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	if err != nil {
		return nil, fmt.Errorf("ptcexec: %w", err)
	}
	// No cap on runs in flight: the idle and scale workloads hold thousands.
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe, HostConfig: host.Config{CompilationCacheDir: cacheDir}, MaxRuns: -1})
	if err != nil {
		return nil, fmt.Errorf("ptcexec: %w", err)
	}
	// 50 parallel subcalls run at once, as in every other engine.
	return &Sandbox{ex: ex, opts: ptc.RunOptions{Limits: ptc.Limits{InFlight: 64}}}, nil
}

// Run runs src as one run_code call.
func (s *Sandbox) Run(ctx context.Context, src string) (string, error) {
	r, err := s.ex.Run(ctx, src, s.opts)
	if err != nil {
		return "", fmt.Errorf("ptcexec: %w", err)
	}
	if err := r.Err(); err != nil {
		return "", fmt.Errorf("ptcexec: %w", err)
	}
	if r.Run == nil {
		return "", fmt.Errorf("ptcexec: the program did not run: %s", registry.PlainText(r.Content))
	}
	return string(r.Run.ReturnValue), nil
}

// Close closes the executor and its host.
func (s *Sandbox) Close(ctx context.Context) error { return s.ex.Close(ctx) }

// SetTimeout replaces the runs' time limit (the scale workload holds runs
// for minutes).
func (s *Sandbox) SetTimeout(d time.Duration) { s.opts.Limits.Timeout = d }
