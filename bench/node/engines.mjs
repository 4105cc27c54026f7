// The npm peers, behind one interface: setup() once, then run(src, gate)
// runs one program (the body of an async function) in a fresh sandbox
// with tools.echo, tools.sleep({ms}) and tools.wait({}) and returns the
// JSON text of its return value. ptc's limits are given where the engine
// has the means (timeout 30 s, heap 64 MiB, stack 768 KiB); an engine's
// factory takes {timeoutMs} to lengthen the timeout where the engine
// enforces it from outside the run (run: the idle-RSS workload waits for
// 200 worker threads to start).

const TIMEOUT_MS = 30_000;
const MEMORY_BYTES = 64 << 20;
const STACK_BYTES = 768 << 10;

const sleep = (ms) => new Promise((resolve) => setTimeout(() => resolve("ok"), ms));

// A gate for tools.wait: arrivals are counted, all are released at once.
export class Gate {
  constructor() {
    this.arrived = 0;
    this.waiters = [];
    this.released = false;
    let release;
    this.done = new Promise((r) => (release = r));
    this.release = () => {
      this.released = true;
      release("released");
    };
  }
  wait() {
    this.arrived++;
    for (const w of this.waiters.splice(0)) w();
    return this.done;
  }
  // Resolves once n sandboxes are waiting.
  async until(n) {
    while (this.arrived < n) await new Promise((r) => this.waiters.push(r));
  }
}

const wrap = (src) => "(async function () {\n" + src + "\n})()";

// run (vercel-labs/run): QuickJS in a worker thread per run; host
// functions are called over the worker's message channel.
async function runEngine({ timeoutMs = TIMEOUT_MS } = {}) {
  const { createRunner, setMaxWorkers } = await import("run");
  const runner = createRunner({
    limits: {
      timeoutMs,
      memoryLimitBytes: MEMORY_BYTES,
      maxStackSizeBytes: STACK_BYTES,
      maxBridgeRequests: 1000, // ptc's subcall limit; the default of 256 refuses the 1000-call workload
      maxInFlightBridgeRequests: 64, // 50 parallel subcalls at once, as everywhere
    },
  });
  return {
    setMaxWorkers,
    async run(src, gate) {
      const r = await runner.run({
        source: src,
        hostFunctions: {
          tools: {
            echo: (a) => a,
            sleep: (a) => sleep(a.ms),
            wait: () => gate.wait(),
          },
        },
      });
      if (r.status !== "completed") throw new Error("run: " + r.status);
      return JSON.stringify(r.value);
    },
  };
}

// quickjs-emscripten: QuickJS compiled to WebAssembly by Emscripten,
// a new runtime and context per run, driven from the Node thread.
async function quickjsEmscriptenEngine() {
  const { getQuickJS, shouldInterruptAfterDeadline } = await import("quickjs-emscripten");
  const QuickJS = await getQuickJS();
  // toHandle builds a guest value from a host one (what echo returns).
  const toHandle = (vm, v) => {
    if (v === null) return vm.null;
    switch (typeof v) {
      case "number":
        return vm.newNumber(v);
      case "string":
        return vm.newString(v);
      case "boolean":
        return v ? vm.true : vm.false;
      case "object": {
        const o = Array.isArray(v) ? vm.newArray() : vm.newObject();
        for (const [k, x] of Object.entries(v)) {
          const h = toHandle(vm, x);
          vm.setProp(o, Array.isArray(v) ? Number(k) : k, h);
          h.dispose();
        }
        return o;
      }
    }
    return vm.undefined;
  };
  return {
    async run(src, gate) {
      const runtime = QuickJS.newRuntime();
      runtime.setMemoryLimit(MEMORY_BYTES);
      runtime.setMaxStackSize(STACK_BYTES);
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + TIMEOUT_MS));
      const vm = runtime.newContext();
      try {
        const later = (work) => {
          const p = vm.newPromise();
          work().then((v) => {
            if (!vm.alive) return;
            const h = vm.newString(v);
            p.resolve(h);
            h.dispose();
            p.dispose();
            runtime.executePendingJobs();
          });
          return p.handle;
        };
        const tools = vm.newObject();
        // echo: the argument crosses as a host value (dump) and back.
        const fns = {
          echo: (h) => toHandle(vm, vm.dump(h)),
          sleep: (h) => later(() => sleep(vm.dump(h).ms)),
          wait: () => later(() => gate.wait()),
        };
        for (const [name, f] of Object.entries(fns)) {
          const fh = vm.newFunction(name, f);
          vm.setProp(tools, name, fh);
          fh.dispose();
        }
        vm.setProp(vm.global, "tools", tools);
        tools.dispose();
        const p = vm.unwrapResult(vm.evalCode(wrap(src)));
        const settled = vm.resolvePromise(p);
        p.dispose();
        runtime.executePendingJobs();
        const v = vm.unwrapResult(await settled);
        const out = JSON.stringify(vm.dump(v));
        v.dispose();
        return out;
      } finally {
        vm.dispose();
        runtime.dispose();
      }
    },
  };
}

// isolated-vm: V8 isolates; a fresh context per run in one isolate (one
// isolate per run would cost far more); echo is a synchronous
// ivm.Callback, sleep and wait are ivm.References applied for a promise.
async function isolatedVMEngine() {
  const ivm = (await import("isolated-vm")).default;
  const isolate = new ivm.Isolate({ memoryLimit: MEMORY_BYTES >> 20 });
  const newIsolate = () => new ivm.Isolate({ memoryLimit: MEMORY_BYTES >> 20 });
  const runIn = async (iso, src, gate) => {
    const context = await iso.createContext();
    try {
      const g = context.global;
      await g.set("__echo", new ivm.Callback((a) => a));
      await g.set("__sleep", new ivm.Reference((a) => sleep(a.ms)));
      await g.set("__wait", new ivm.Reference(() => gate.wait()));
      await context.eval(`{
        const opts = { arguments: { copy: true }, result: { promise: true, copy: true } };
        const sleep = __sleep, wait = __wait;
        globalThis.tools = Object.freeze({
          echo: __echo,
          sleep: (a) => sleep.apply(undefined, [a], opts),
          wait: (a) => wait.apply(undefined, [a], opts),
        });
      }`);
      const v = await context.eval(wrap(src), { promise: true, copy: true, timeout: TIMEOUT_MS });
      return JSON.stringify(v);
    } finally {
      context.release();
    }
  };
  return {
    run: (src, gate) => runIn(isolate, src, gate),
    // The idle-RSS workload gives every sandbox an isolate of its own:
    // contexts of one isolate share its heap and its thread.
    runIsolated: (src, gate) => {
      const iso = newIsolate();
      return runIn(iso, src, gate).finally(() => iso.dispose());
    },
  };
}

export const engines = {
  run: runEngine,
  "quickjs-emscripten": quickjsEmscriptenEngine,
  "isolated-vm": isolatedVMEngine,
};
