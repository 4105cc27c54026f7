// Package gojaengine runs the benchmark's programs in goja, a JavaScript
// interpreter written in Go: no sandbox boundary (the program runs in the
// host's address space and heap) and no memory limit; a run is stopped
// with Runtime.Interrupt.
package gojaengine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"

	"github.com/ptchost/ptc/bench"
)

// Sandbox creates a fresh goja.Runtime for every run.
type Sandbox struct {
	gate    *bench.Gate
	timeout time.Duration
}

// New returns the engine. gate serves tools.wait; it may be nil.
func New(gate *bench.Gate) *Sandbox {
	return &Sandbox{gate: gate, timeout: bench.Timeout}
}

// Run runs src as the body of an async function in a new Runtime, with an
// event loop that settles the tools' promises on the run's goroutine.
func (s *Sandbox) Run(ctx context.Context, src string) (string, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(10000)
	stop := context.AfterFunc(ctx, func() { vm.Interrupt(ctx.Err()) })
	defer stop()
	timer := time.AfterFunc(s.timeout, func() { vm.Interrupt("timeout") })
	defer timer.Stop()

	jobs := make(chan func(), 64) // settlements of asynchronous tool calls
	pending := 0
	async := func(work func(context.Context) (any, error)) goja.Value {
		p, resolve, reject := vm.NewPromise()
		pending++
		go func() {
			v, err := work(ctx)
			jobs <- func() {
				pending--
				if err != nil {
					_ = reject(vm.NewGoError(err))
					return
				}
				_ = resolve(v)
			}
		}()
		return vm.ToValue(p)
	}
	tools := vm.NewObject()
	// echo is a synchronous host function (the program awaits its value):
	// the argument crosses as a Go value (Export) and back (ToValue).
	_ = tools.Set("echo", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(c.Argument(0).Export())
	})
	_ = tools.Set("sleep", func(c goja.FunctionCall) goja.Value {
		ms := c.Argument(0).ToObject(vm).Get("ms").ToInteger()
		return async(func(ctx context.Context) (any, error) {
			b, _ := json.Marshal(bench.SleepArgs{MS: int(ms)})
			return "ok", bench.Sleep(ctx, b)
		})
	})
	_ = tools.Set("wait", func(goja.FunctionCall) goja.Value {
		return async(func(ctx context.Context) (any, error) {
			return bench.Released, s.gate.Wait(ctx)
		})
	})
	if err := vm.Set("tools", tools); err != nil {
		return "", err
	}
	v, err := vm.RunString("(async function () {\n" + src + "\n})()")
	if err != nil {
		return "", fmt.Errorf("goja: %w", err)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return "", errors.New("goja: the program did not give a promise")
	}
	for p.State() == goja.PromiseStatePending {
		if pending == 0 {
			return "", errors.New("goja: deadlock: the program waits for nothing")
		}
		select {
		case job := <-jobs:
			job()
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if p.State() == goja.PromiseStateRejected {
		return "", fmt.Errorf("goja: %v", p.Result())
	}
	b, err := json.Marshal(p.Result().Export())
	if err != nil {
		return "", fmt.Errorf("goja: %w", err)
	}
	return string(b), nil
}

// Close does nothing: goja holds no resources between runs.
func (s *Sandbox) Close(context.Context) error { return nil }

// SetTimeout replaces the runs' time limit (the scale workload holds runs
// for minutes).
func (s *Sandbox) SetTimeout(d time.Duration) { s.timeout = d }
