// Package quickjsgo runs the benchmark's programs in QuickJS-ng compiled
// natively and called through cgo (github.com/buke/quickjs-go, which
// bundles QuickJS-ng v0.15.1, the version our guest is built from): the
// same interpreter as ptc's guest, without the WebAssembly sandbox. A
// runaway C built-in cannot be stopped (the interrupt handler is only
// polled by the bytecode interpreter), and the program shares the host
// process's address space.
package quickjsgo

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/buke/quickjs-go"

	"github.com/ptchost/ptc/bench"
)

// Sandbox creates a fresh QuickJS runtime and context for every run.
type Sandbox struct {
	gate    *bench.Gate
	timeout time.Duration
}

// New returns the engine. gate serves tools.wait; it may be nil.
func New(gate *bench.Gate) *Sandbox { return &Sandbox{gate: gate, timeout: bench.Timeout} }

// Run runs src as the body of an async function in a new runtime with
// ptc's limits (memory, stack, time).
func (s *Sandbox) Run(ctx context.Context, src string) (string, error) {
	// QuickJS checks its stack limit against the C stack of the thread
	// that created the runtime: the run must stay on that thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rt := quickjs.NewRuntime(
		quickjs.WithMemoryLimit(bench.MemoryBytes),
		quickjs.WithMaxStackSize(bench.StackBytes),
		quickjs.WithExecuteTimeout(uint64(s.timeout.Seconds())),
	)
	defer rt.Close()
	qc := rt.NewBareContext()
	if qc == nil {
		return "", errors.New("quickjsgo: no context")
	}
	defer qc.Close()

	async := func(work func(context.Context) error, value string) *quickjs.Value {
		return qc.NewPromise(func(resolve, reject func(*quickjs.Value)) {
			go func() {
				err := work(ctx)
				qc.Schedule(func(inner *quickjs.Context) {
					if err != nil {
						e := inner.NewError(err)
						defer e.Free()
						reject(e)
						return
					}
					v := inner.NewString(value)
					defer v.Free()
					resolve(v)
				})
			}()
		})
	}
	tools := qc.NewObject()
	// echo is a synchronous host function (the program awaits its value);
	// the argument crosses as JSON, as quickjs-go has no cheaper general
	// conversion.
	tools.Set("echo", qc.NewFunction(func(c *quickjs.Context, _ *quickjs.Value, args []*quickjs.Value) *quickjs.Value {
		return c.ParseJSON(args[0].JSONStringify())
	}))
	tools.Set("sleep", qc.NewFunction(func(c *quickjs.Context, _ *quickjs.Value, args []*quickjs.Value) *quickjs.Value {
		ms := args[0].Get("ms")
		b := []byte(`{"ms":` + ms.JSONStringify() + `}`)
		ms.Free()
		return async(func(ctx context.Context) error { return bench.Sleep(ctx, b) }, "ok")
	}))
	tools.Set("wait", qc.NewFunction(func(c *quickjs.Context, _ *quickjs.Value, args []*quickjs.Value) *quickjs.Value {
		return async(s.gate.Wait, bench.Released)
	}))
	qc.Globals().Set("tools", tools)

	v := qc.Eval("(async function () {\n" + src + "\n})()")
	if v.IsException() {
		v.Free()
		return "", fmt.Errorf("quickjsgo: %w", qc.Exception())
	}
	r := qc.Await(v)
	defer r.Free()
	if r.IsException() {
		return "", fmt.Errorf("quickjsgo: %w", qc.Exception())
	}
	return r.JSONStringify(), nil
}

// Close does nothing: every run has its own runtime.
func (s *Sandbox) Close(context.Context) error { return nil }

// SetTimeout replaces the runs' time limit (the scale workload holds runs
// for minutes).
func (s *Sandbox) SetTimeout(d time.Duration) { s.timeout = d }
