// peer.mjs ENGINE serve | cold | rss N | scale N | throughput-worker
//
// serve: read one JSON request a line on stdin, answer one JSON line on
//   stdout: {"op":"measure","src","n"} -> {"perRunNs","result"};
//   {"op":"throughput","src","workers","ms"} -> {"runsPerSec","p99Ns","runs","result"}.
// cold: run `return 1` once and print its result (a fresh process each
//   time: the Go side times it).
// rss N: keep N sandboxes blocked in tools.wait and print
//   {"kibPerSandbox","n"} from VmRSS before and after.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { engines, Gate } from "./engines.mjs";

const vmRSSKiB = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return Number(m[1]);
};

const now = () => process.hrtime.bigint();

async function measure(engine, src, n) {
  const gate = new Gate();
  let result;
  const t = now();
  for (let i = 0; i < n; i++) result = await engine.run(src, gate);
  return { perRunNs: Number(now() - t) / n, result };
}

// Lanes run one program after another for ms milliseconds; latencies
// in nanoseconds.
async function lanes(engine, src, count, ms) {
  const gate = new Gate();
  const lat = [];
  let result;
  const end = Date.now() + ms;
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (Date.now() < end) {
        const t = now();
        result = await engine.run(src, gate);
        lat.push(Number(now() - t));
      }
    }),
  );
  return { lat, result };
}

function p99(lat) {
  const s = [...lat].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * 0.99) - 1))];
}

// Throughput: quickjs-emscripten runs on the thread that calls it, so its
// lanes are worker threads, one engine each; run and isolated-vm run
// programs off the Node thread already, so their lanes are concurrent
// async loops in this thread.
async function throughput(name, engine, src, workers, ms) {
  const t = now();
  let lat = [];
  let result;
  if (name === "quickjs-emscripten") {
    const outs = await Promise.all(
      Array.from(
        { length: workers },
        () =>
          new Promise((resolve, reject) => {
            const w = new Worker(new URL(import.meta.url), {
              workerData: { name, src, ms },
              argv: [name, "throughput-worker"],
            });
            w.once("message", resolve);
            w.once("error", reject);
          }),
      ),
    );
    for (const o of outs) lat = lat.concat(o.lat);
    result = outs[0].result;
  } else {
    ({ lat, result } = await lanes(engine, src, workers, ms));
  }
  const secs = Number(now() - t) / 1e9;
  return { runsPerSec: lat.length / secs, p99Ns: p99(lat), runs: lat.length, result };
}

async function rss(name, engine, n) {
  if (engine.setMaxWorkers) engine.setMaxWorkers(n + 8); // run caps workers at 32 by default
  const run = engine.runIsolated ?? engine.run;
  // One sandbox first, so that what every sandbox shares (the engine's
  // code, its compiled module) is in the baseline.
  const warm = new Gate();
  const first = run(bench_idle, warm);
  await warm.until(1);
  warm.release();
  await first;
  global.gc?.();
  const before = vmRSSKiB();
  const gate = new Gate();
  const runs = Array.from({ length: n }, () => run(bench_idle, gate));
  await gate.until(n);
  const after = vmRSSKiB();
  gate.release();
  const results = await Promise.all(runs);
  if (results.some((r) => r !== '"released"')) throw new Error("rss: bad result " + results[0]);
  return { kibPerSandbox: (after - before) / n, n };
}

// scale N: the scale workload (bench/scale.go): N sandboxes blocked in
// tools.wait at once in this fresh process; the RSS, V8's used heap and
// address space then, and the time until all N were waiting.
async function scale(name, engine, n, settleMs) {
  if (engine.setMaxWorkers) engine.setMaxWorkers(n + 8);
  const run = engine.runIsolated ?? engine.run;
  const warm = new Gate();
  const first = run(bench_idle, warm);
  await warm.until(1);
  warm.release();
  await first;
  global.gc?.();
  const gate = new Gate();
  const t = now();
  const runs = Array.from({ length: n }, () => run(bench_idle, gate));
  await gate.until(n);
  const startNs = Number(now() - t);
  await new Promise((res) => setTimeout(res, settleMs));
  global.gc?.();
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (f) => Number(new RegExp(f + ":\\s+(\\d+) kB").exec(status)[1]);
  const heapKiB = Math.round(process.memoryUsage().heapUsed / 1024);
  gate.release();
  const results = await Promise.all(runs);
  if (results.length !== n || results.some((r) => r !== '"released"')) throw new Error("scale: bad result " + results[0]);
  return { n, rssKiB: kib("VmRSS"), heapKiB, vmSizeKiB: kib("VmSize"), startNs };
}

const bench_idle = "return await tools.wait({})";

async function main() {
  const [name, mode, arg] = process.argv.slice(2);
  if (!isMainThread) {
    const engine = await engines[workerData.name]();
    const { lat, result } = await lanes(engine, workerData.src, 1, workerData.ms);
    parentPort.postMessage({ lat, result });
    return;
  }
  const make = engines[name];
  if (!make) throw new Error("unknown engine " + name);
  // The idle-RSS sandboxes must outlive the start of all of them.
  const engine = await make(mode === "rss" || mode === "scale" ? { timeoutMs: 600_000 } : {});
  switch (mode) {
    case "cold":
      process.stdout.write((await engine.run("return 1", new Gate())) + "\n");
      process.exit(0);
    case "rss":
      process.stdout.write(JSON.stringify(await rss(name, engine, Number(arg))) + "\n");
      process.exit(0);
    case "scale":
      process.stdout.write(JSON.stringify(await scale(name, engine, Number(arg), Number(process.argv[5] ?? 0))) + "\n");
      process.exit(0);
    case "serve": {
      const rl = createInterface({ input: process.stdin });
      for await (const line of rl) {
        const req = JSON.parse(line);
        let res;
        try {
          if (req.op === "measure") res = await measure(engine, req.src, req.n);
          else if (req.op === "throughput") res = await throughput(name, engine, req.src, req.workers, req.ms);
          else throw new Error("unknown op " + req.op);
        } catch (e) {
          res = { error: String(e && e.stack ? e.stack : e) };
        }
        process.stdout.write(JSON.stringify(res) + "\n");
      }
      process.exit(0);
    }
    default:
      throw new Error("usage: peer.mjs ENGINE serve|cold|rss N|scale N");
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + "\n");
  process.exit(1);
});
