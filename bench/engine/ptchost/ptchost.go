// Package ptchost runs the benchmark's programs on ptc's bare host
// (host.New / host.Run with a Dispatcher).
package ptchost

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/host"
)

// Sandbox is the bare host with the benchmark's tools as its dispatcher.
type Sandbox struct {
	h    *host.Host
	gate *bench.Gate
	lim  host.Limits
}

// New compiles the guest (with the compilation cache in cacheDir when not
// empty). gate serves tools.wait; it may be nil.
func New(ctx context.Context, cacheDir string, gate *bench.Gate) (*Sandbox, error) {
	h, err := host.New(ctx, host.Config{CompilationCacheDir: cacheDir})
	if err != nil {
		return nil, fmt.Errorf("ptchost: %w", err)
	}
	// 50 parallel subcalls run at once, as they do in every other engine
	// (the default in-flight limit is 32).
	return &Sandbox{h: h, gate: gate, lim: host.Limits{InFlight: 64}}, nil
}

// Dispatch serves the benchmark's tools: echo, sleep and wait.
func (s *Sandbox) Dispatch(ctx context.Context, c host.Call) host.Reply {
	switch c.Name {
	case "echo":
		return host.Reply{Value: c.Args}
	case "sleep":
		if err := bench.Sleep(ctx, c.Args); err != nil {
			return host.Reply{Err: &host.CallError{Code: "TOOL_FAILED", Message: err.Error()}}
		}
		return host.Reply{Value: json.RawMessage(`"ok"`)}
	case "wait":
		if err := s.gate.Wait(ctx); err != nil {
			return host.Reply{Err: &host.CallError{Code: "TOOL_FAILED", Message: err.Error()}}
		}
		return host.Reply{Value: json.RawMessage(strconv.Quote(bench.Released))}
	}
	return host.Reply{Err: &host.CallError{Code: "UNKNOWN_TOOL", Message: c.Name}}
}

// Run runs src in a fresh instance, with the tools prelude (whose image the
// host caches).
func (s *Sandbox) Run(ctx context.Context, src string) (string, error) {
	out := s.h.Run(ctx, host.Program{Source: src, Prelude: bench.Prelude, Dispatcher: s, Limits: s.lim})
	if out.Kind != host.KindOK {
		return "", fmt.Errorf("ptchost: %s: %s", out.Kind, out.Message)
	}
	return string(out.ReturnValue), nil
}

// Close closes the host.
func (s *Sandbox) Close(ctx context.Context) error { return s.h.Close(ctx) }

// SetTimeout replaces the runs' time limit (the scale workload holds runs
// for minutes).
func (s *Sandbox) SetTimeout(d time.Duration) { s.lim.Timeout = d }
