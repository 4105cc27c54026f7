package main

import (
	"context"
	"os/exec"
	"path/filepath"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/engine/gojaengine"
	"github.com/ptchost/ptc/bench/engine/ptcexec"
	"github.com/ptchost/ptc/bench/engine/ptchost"
	"github.com/ptchost/ptc/bench/engine/quickjsgo"
	"github.com/ptchost/ptc/bench/engine/wasmtimeguest"
)

// engineSpec is one engine of the table: how to build it in process (or
// which Node peer it is), how to start it cold, and what it is.
type engineSpec struct {
	name string
	// inproc builds an in-process engine; nil for a Node peer.
	inproc func(ctx context.Context, cacheDir string, gate *bench.Gate) (bench.Sandbox, error)
	// node is the engine's name for peer.mjs.
	node string
	// cold is the command of one cold start with $PTC_CACHE_DIR in env.
	cold func(c config, prog string) *exec.Cmd
	// cached says whether the engine has a compilation cache that
	// PTC_CACHE_DIR holds; without one, both cold rows measure the same.
	cached bool
	// idle, when not zero, replaces the number of sandboxes alive at once
	// in the idle-RSS workload.
	idle int
	// run is what one run gets; lacks is what the engine does not provide.
	run, lacks string
}

// refName is the engine the ratios are to.
const refName = "ptc host"

func engines() []engineSpec {
	binCmd := func(name string) func(config, string) *exec.Cmd {
		return func(c config, _ string) *exec.Cmd { return exec.Command(filepath.Join(c.bin, "cold-"+name)) }
	}
	nodeCold := func(name string) func(config, string) *exec.Cmd {
		return func(c config, _ string) *exec.Cmd {
			return nodeOf(c).Command(context.Background(), name, "cold")
		}
	}
	return []engineSpec{
		{
			name: "ptc host",
			inproc: func(ctx context.Context, dir string, g *bench.Gate) (bench.Sandbox, error) {
				return ptchost.New(ctx, filepath.Join(dir, "wazero"), g)
			},
			cold: binCmd("ptchost"), cached: true,
			run:   "fresh wazero instance of the guest from the prelude's snapshot",
			lacks: "— (wasm sandbox, memory limit, fuel-checked cancellation of JS and C built-ins)",
		},
		{
			name: "ptc executor",
			inproc: func(ctx context.Context, dir string, g *bench.Gate) (bench.Sandbox, error) {
				return ptcexec.New(ctx, filepath.Join(dir, "wazero"), g)
			},
			cold: func(c config, prog string) *exec.Cmd {
				return exec.Command(filepath.Join(c.bin, "ptc-run"), "run", prog)
			},
			cached: true,
			run:    "as ptc host, plus the generated SDK, the pipeline (lookup, validation, policies) per subcall and the model-facing content",
			lacks:  "— (cold start: `ptc-run run`, the CLI)",
		},
		{
			name: "wasmtime guest",
			inproc: func(ctx context.Context, dir string, g *bench.Gate) (bench.Sandbox, error) {
				return wasmtimeguest.New(ctx, filepath.Join(dir, "wasmtime.cwasm"), g)
			},
			cold: binCmd("wasmtimeguest"), cached: true,
			run:   "fresh wasmtime instance of our guest with the snapshot copied in",
			lacks: "not a full host: no fuel instrumentation (epoch interruption instead), output discarded, no Intl, no subcall/result limits; cache = serialised module",
		},
		{
			name: "quickjs-go",
			inproc: func(_ context.Context, _ string, g *bench.Gate) (bench.Sandbox, error) {
				return quickjsgo.New(g), nil
			},
			cold: binCmd("quickjsgo"),
			run:  "new native QuickJS-ng v0.15.1 runtime and context (cgo)",
			lacks: "no sandbox (native C in the host process); no stopping a long C built-in " +
				"(the interrupt handler is polled by the bytecode interpreter only)",
		},
		{
			name: "goja",
			inproc: func(_ context.Context, _ string, g *bench.Gate) (bench.Sandbox, error) {
				return gojaengine.New(g), nil
			},
			cold:  binCmd("goja"),
			run:   "new goja.Runtime",
			lacks: "no sandbox boundary (host heap), no memory limit; Interrupt is polled by the interpreter only",
		},
		{
			name: "run", node: "run", cold: nodeCold("run"),
			// Each live run is a worker thread: 200 of them took 3.5 minutes
			// to start on the 2-core machine, per sample. 32 is run's own
			// default worker cap.
			idle:  32,
			run:   "`runner.run`: a fresh QuickJS (wasm) context in a pooled worker thread; host calls over the worker's message channel",
			lacks: "ES modules and continuations aside, comparable limits; every host call crosses threads",
		},
		{
			name: "quickjs-emscripten", node: "quickjs-emscripten", cold: nodeCold("quickjs-emscripten"),
			run:   "new runtime and context in the shared Emscripten module, on the Node thread",
			lacks: "no stopping a long C built-in (interrupt handler only); runs block the Node thread",
		},
		{
			name: "isolated-vm", node: "isolated-vm", cold: nodeCold("isolated-vm"),
			run:   "new context in one shared V8 isolate (idle RSS: an isolate each)",
			lacks: "contexts of an isolate share its heap and memory limit; native V8 in the host process (no wasm boundary)",
		},
	}
}
