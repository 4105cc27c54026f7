// harness.mjs runs one corpus program under Node 20 the way ptc runs it
// and prints the model-facing content exactly as `ptc-run run` prints it,
// so that Node is the reference the guest is compared with.
//
//   TZ=UTC LANG=en_US.UTF-8 node harness.mjs PROGRAM.js|PROGRAM.ts
//
// Exit status: 0 the program succeeded, 1 it failed (the content is still
// printed), 3 the corpus itself is wrong (arguments its fixture does not
// accept, no response matching, a delay past the tool's timeout): fix the
// program or the fixture, not the harness.
//
// What it mirrors (docs/ARCHITECTURE.md, "The guest" and "What the model sees"):
//   - the source is the body of an async function (top-level await and
//     return; sloppy mode, as ptc compiles it); TypeScript is stripped
//     first with esbuild;
//   - a global `tools` Proxy over the fixture tools: the first response
//     whose `match` is a subset of the arguments answers after `delayMs`;
//     an `error` response rejects with a ToolError (name "ToolError", own
//     enumerable `code` "TOOL_FAILED" and `tool`, message the error text);
//     an unknown name rejects with code UNKNOWN_TOOL; calls are admitted
//     in issue order, parallel-safe ones together (up to 32 in flight), a
//     serial one alone;
//   - the run ends when the body has settled and no subcall or timeout is
//     pending (a lone setInterval does not keep it alive);
//   - every console method writes to one captured stream in call order,
//     formatted by Node's own Console;
//   - the return value is rendered by docs/ARCHITECTURE.md's rule (see render).
// Images, limits and $search/$describe are out of scope.

import { Console } from "node:console";
import { readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { Writable } from "node:stream";
import { inspect } from "node:util";

const require = createRequire(import.meta.url);

// Saved before the program can replace or wrap them.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;
const realSetImmediate = globalThis.setImmediate;
const stdout = process.stdout;
const stderr = process.stderr;
const exit = process.exit.bind(process);

class CorpusError extends Error {}

function corpusBug(msg) {
  writeSync(2, `harness: corpus error: ${programPath}: ${msg}\n`);
  exit(3);
  throw new CorpusError(msg); // not reached
}

if (Intl.DateTimeFormat().resolvedOptions().timeZone !== "UTC" ||
    Intl.DateTimeFormat().resolvedOptions().locale !== "en-US") {
  stderr.write("harness: run with TZ=UTC LANG=en_US.UTF-8 (gen.sh does)\n");
  exit(2);
}

const programPath = process.argv[2];
if (!programPath) {
  stderr.write("usage: node harness.mjs PROGRAM.js|PROGRAM.ts\n");
  exit(2);
}
const source = readFileSync(programPath, "utf8");

// --- the directive: // ptc: tools=FILE [timeout=D] ---

let toolsFile = null;
const directive = /^\/\/ ptc: (.*)$/m.exec(source);
if (directive) {
  for (const kv of directive[1].trim().split(/\s+/)) {
    const [k, v] = kv.split("=");
    if (k === "tools") toolsFile = resolve(dirname(programPath), v);
    else if (k !== "timeout" && k !== "memory") corpusBug(`unknown directive ${k}`);
  }
}

// --- TypeScript ---

// The body is stripped inside a function so that esbuild accepts both
// top-level await and return; the wrapper shares the first line with the
// source, so lines keep their numbers, and is taken off again.
let code = source;
let lineMap = null; // generated body line (1-based) → source line
if (programPath.endsWith(".ts")) {
  const esbuild = require("esbuild");
  const open = "async function __ptc_body() {";
  let out;
  try {
    out = esbuild.transformSync(open + source + "\n}", {
      loader: "ts",
      target: "es2023",
      sourcemap: "external",
      sourcefile: "program.ts",
    });
  } catch (e) {
    corpusBug(`esbuild: ${e.message}`);
  }
  const lines = out.code.split("\n");
  // lines[0] is the wrapper's opening, then the body, then "}" and "".
  const last = lines.lastIndexOf("}");
  if (!lines[0].startsWith("async function __ptc_body()") || last < 1) corpusBug("unexpected esbuild output");
  code = lines.slice(1, last).join("\n");
  lineMap = sourceLines(JSON.parse(out.map).mappings);
}

// sourceLines decodes a source map's mappings into, for each generated line
// of the body, the source line of its first mapped segment.
function sourceLines(mappings) {
  const map = new Map();
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let srcLine = 0;
  mappings.split(";").forEach((group, genLine) => {
    let first = true;
    for (const seg of group.split(",")) {
      if (!seg) continue;
      const vals = [];
      let shift = 0;
      let acc = 0;
      for (const ch of seg) {
        const d = digits.indexOf(ch);
        acc += (d & 31) << shift;
        if (d & 32) {
          shift += 5;
        } else {
          vals.push(acc & 1 ? -(acc >> 1) : acc >> 1);
          acc = 0;
          shift = 0;
        }
      }
      if (vals.length >= 4) {
        srcLine += vals[2];
        // Generated line 0 is the wrapper; body line n is generated line n.
        if (first && genLine > 0) map.set(genLine, srcLine + 1);
        first = false;
      }
    }
  });
  return map;
}

// --- tools ---

class ToolError extends Error {
  constructor(tool, code, message) {
    super(message);
    Object.defineProperty(this, "name", { value: "ToolError", writable: true, enumerable: false, configurable: true });
    Object.defineProperty(this, "code", { value: code, writable: true, enumerable: true, configurable: true });
    Object.defineProperty(this, "tool", { value: tool, writable: true, enumerable: true, configurable: true });
  }
}
Object.defineProperty(ToolError.prototype, "name", { value: "ToolError", writable: true, enumerable: false, configurable: true });

const fixtures = new Map();
if (toolsFile) {
  for (const t of JSON.parse(readFileSync(toolsFile, "utf8")).tools) fixtures.set(t.name, t);
}

// matches reports whether pattern is a subset of v: an object pattern
// matches an object holding each of its keys with a matching value; any
// other pattern must equal v.
function matches(pattern, v) {
  if (pattern === null || typeof pattern !== "object" || Array.isArray(pattern)) {
    return JSON.stringify(pattern) === JSON.stringify(v);
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  return Object.keys(pattern).every((k) => Object.hasOwn(v, k) && matches(pattern[k], v[k]));
}

// check validates args against the parts of JSON Schema the corpus's
// fixtures use. The corpus does not exercise INVALID_ARGUMENTS: a failure
// here is a mistake in a program.
function check(schema, v, path) {
  if (!schema) return;
  const types = schema.type === undefined ? [] : [].concat(schema.type);
  const kind = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
  if (types.length && !types.some((t) => t === kind || (t === "integer" && kind === "number" && Number.isInteger(v)) || (t === "number" && kind === "number"))) {
    corpusBug(`${path}: ${JSON.stringify(v)} is not of type ${types.join("|")}`);
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    corpusBug(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (kind === "object") {
    for (const r of schema.required ?? []) if (!Object.hasOwn(v, r)) corpusBug(`${path}: missing ${r}`);
    for (const [k, x] of Object.entries(v)) {
      if (schema.properties && Object.hasOwn(schema.properties, k)) check(schema.properties[k], x, `${path}.${k}`);
      else if (schema.additionalProperties === false) corpusBug(`${path}: unexpected property ${k}`);
    }
  }
  if (kind === "array" && schema.items) v.forEach((x, i) => check(schema.items, x, `${path}[${i}]`));
}

// Admission in issue order: consecutive parallel-safe calls run together
// (up to 32), a serial call runs alone after every earlier call finished.
const queue = [];
let running = 0;
let runningSerial = false;
function pump() {
  while (queue.length) {
    const c = queue[0];
    if (c.serial ? running > 0 : runningSerial || running >= 32) return;
    queue.shift();
    running++;
    runningSerial = c.serial;
    c.start();
  }
}

let pendingCalls = 0;

function levenshtein(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

// unknownToolMessage follows docs/ARCHITECTURE.md; the corpus prints only the code of
// an UNKNOWN_TOOL error, as the wording of its tail is not fixed there.
function unknownToolMessage(name) {
  const names = [...fixtures.keys()];
  const near = names
    .map((n) => [levenshtein(name, n), n])
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1))
    .slice(0, 3)
    .map(([, n]) => n);
  let msg = `tools.${name} is not a tool`;
  if (near.length) {
    const list = near.length === 1 ? near[0] : `${near.slice(0, -1).join(", ")} or ${near.at(-1)}`;
    msg += `; did you mean ${list}?`;
  }
  msg += names.length <= 20 ? ` Tools: ${names.join(", ")}.` : " Use tools.$search(query).";
  return msg;
}

function call(name, args) {
  const json = JSON.stringify(args);
  const parsed = json === undefined ? undefined : JSON.parse(json);
  const tool = fixtures.get(name);
  let answer;
  if (tool) {
    check(tool.parameters, parsed, `tools.${name}(args)`);
    answer = tool.responses.find((r) => r.match === undefined || matches(r.match, parsed));
    if (!answer) corpusBug(`tools.${name}(${json}): no response matches`);
    if (answer.delayMs && answer.delayMs >= (tool.timeoutMs ?? 30000)) corpusBug(`tools.${name}: delay past its timeout`);
  }
  pendingCalls++;
  return new Promise((resolveCall, rejectCall) => {
    queue.push({
      serial: !!tool && !tool.parallelSafe,
      start() {
        realSetTimeout(() => {
          running--;
          if (running === 0) runningSerial = false;
          pendingCalls--;
          if (!tool) rejectCall(new ToolError(name, "UNKNOWN_TOOL", unknownToolMessage(name)));
          else if (answer.error !== undefined) rejectCall(new ToolError(name, "TOOL_FAILED", answer.error));
          else resolveCall(JSON.parse(JSON.stringify(answer.value)));
          pump();
          afterTask();
        }, answer?.delayMs ?? 0);
      },
    });
    pump();
  });
}

const tools = new Proxy(Object.create(null), {
  get(_, name) {
    if (typeof name !== "string" || name === "then") return undefined;
    return (args) => call(name, args);
  },
});

// --- timers: a pending timeout keeps the run alive, an interval does not ---

let pendingTimeouts = 0;
const timers = new Map(); // handle → { interval, real }
let nextTimer = 1;

function setTimeoutShim(fn, ms, ...args) {
  const id = nextTimer++;
  pendingTimeouts++;
  const real = realSetTimeout(() => {
    timers.delete(id);
    pendingTimeouts--;
    try {
      fn(...args);
    } finally {
      afterTask();
    }
  }, ms);
  timers.set(id, { interval: false, real });
  return id;
}

function setIntervalShim(fn, ms, ...args) {
  const id = nextTimer++;
  const real = realSetInterval(() => {
    try {
      fn(...args);
    } finally {
      afterTask();
    }
  }, ms);
  timers.set(id, { interval: true, real });
  return id;
}

function clearTimer(id) {
  const t = timers.get(id);
  if (!t) return;
  timers.delete(id);
  if (t.interval) {
    realClearInterval(t.real);
  } else {
    realClearTimeout(t.real);
    pendingTimeouts--;
  }
}

// --- console: every method to one stream, in call order ---

let captured = "";
const sink = new Writable({
  decodeStrings: false,
  write(chunk, _enc, cb) {
    captured += String(chunk);
    cb();
  },
});
const captureConsole = new Console({ stdout: sink, stderr: sink, colorMode: false });

// --- the return value ---

// plain returns the JSON form of v (toJSON applied), or fails when v is not
// JSON-representable: plain objects and arrays of strings, finite numbers,
// booleans and null only.
const NOT_JSON = Symbol("not JSON");
function plain(v, key, seen) {
  if (v !== null && (typeof v === "object" || typeof v === "function") && typeof v.toJSON === "function") {
    v = v.toJSON(key);
  }
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : NOT_JSON;
  if (typeof v !== "object") return NOT_JSON;
  if (seen.has(v)) return NOT_JSON;
  seen.add(v);
  try {
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) return NOT_JSON;
      const out = [];
      for (let i = 0; i < v.length; i++) {
        if (!Object.hasOwn(v, i)) return NOT_JSON;
        const x = plain(v[i], String(i), seen);
        if (x === NOT_JSON) return NOT_JSON;
        out.push(x);
      }
      return out;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return NOT_JSON;
    if (Object.getOwnPropertySymbols(v).length) return NOT_JSON;
    const out = {};
    for (const k of Object.keys(v)) {
      const x = plain(v[k], k, seen);
      if (x === NOT_JSON) return NOT_JSON;
      out[k] = x;
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

function oneLine(v) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(oneLine).join(", ")}]`;
  return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}: ${oneLine(v[k])}`).join(", ")}}`;
}

function nonEmptyContainer(v) {
  return v !== null && typeof v === "object" && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

// layout writes JSON value v starting at column col of a line indented by
// indent: on one line when it holds no non-empty container or when the
// line up to its closing bracket fits in 80 columns, else one member per
// line, two spaces deeper.
function layout(v, col, indent) {
  const one = oneLine(v);
  if (v === null || typeof v !== "object") return one;
  const members = Array.isArray(v) ? v.map((x) => [null, x]) : Object.keys(v).map((k) => [k, v[k]]);
  if (!members.some(([, x]) => nonEmptyContainer(x)) || col + one.length <= 80) return one;
  const inner = indent + "  ";
  const lines = members.map(([k, x]) => {
    const prefix = inner + (k === null ? "" : `${JSON.stringify(k)}: `);
    return prefix + layout(x, prefix.length, inner);
  });
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${lines.join(",\n")}\n${indent}${close}`;
}

function render(v) {
  if (typeof v === "string") return v;
  let p = NOT_JSON;
  try {
    p = plain(v, "", new Set());
  } catch {
    p = NOT_JSON;
  }
  if (p !== NOT_JSON) return layout(p, 0, "");
  return inspect(v, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
}

// --- failures ---

// where locates an error in the program from the first frame of its stack
// that is in the program's function: " (line N)" in the source as written.
function where(e) {
  let stack = "";
  try {
    stack = String(e.stack);
  } catch {
    return "";
  }
  const m = /<anonymous>:(\d+):\d+\)/.exec(stack);
  if (!m) return "";
  // Node's function header takes two lines before the body.
  let n = Number(m[1]) - 2;
  if (lineMap) n = lineMap.get(n) ?? 0;
  return n > 0 ? ` (line ${n})` : "";
}

function describe(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}${where(e)}`;
  return typeof e === "string" ? e : inspect(e);
}

// --- the run ---

let settled = false;
let finished = false;
let outcome = null; // { ok: true, value } or { ok: false, error }

function output() {
  return captured.endsWith("\n") ? captured.slice(0, -1) : captured;
}

function finish() {
  if (finished) return;
  finished = true;
  for (const id of [...timers.keys()]) clearTimer(id);
  const printed = output();
  let content;
  let code = 0;
  if (outcome.ok) {
    const parts = [];
    if (captured !== "") parts.push(printed);
    if (outcome.value !== undefined) parts.push(render(outcome.value));
    content = parts.length ? parts.join("\n") : "(run_code completed with no output)";
  } else {
    code = 1;
    content = `Error: code run failed (exception): ${describe(outcome.error)}`;
    if (captured !== "") content += `\n\nCaptured output:\n${printed}`;
  }
  stdout.write(content + "\n", () => exit(code));
}

// afterTask ends the run once the body has settled and nothing that keeps
// it alive is pending; the check waits for the microtasks of the task that
// just ran.
function afterTask() {
  if (!settled || finished) return;
  realSetImmediate(() => {
    if (pendingTimeouts === 0 && pendingCalls === 0) finish();
  });
}

process.on("unhandledRejection", (e) => {
  if (e instanceof CorpusError) return;
  // A rejection nobody handled ends a Node process; the corpus avoids it.
  if (!finished) {
    outcome = { ok: false, error: e };
    settled = true;
    finish();
  }
});
process.on("uncaughtException", (e) => {
  if (e instanceof CorpusError) return;
  if (!finished) {
    outcome = { ok: false, error: e };
    settled = true;
    finish();
  }
});

for (const [name, value] of Object.entries({
  tools,
  ToolError,
  console: captureConsole,
  setTimeout: setTimeoutShim,
  setInterval: setIntervalShim,
  clearTimeout: clearTimer,
  clearInterval: clearTimer,
})) {
  Object.defineProperty(globalThis, name, { value, writable: true, enumerable: false, configurable: true });
}

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
let body;
try {
  body = new AsyncFunction(code);
} catch (e) {
  corpusBug(`the program does not compile: ${e.message}`);
}
body().then(
  (value) => {
    outcome = { ok: true, value };
    settled = true;
    afterTask();
  },
  (error) => {
    if (error instanceof CorpusError) return;
    outcome = { ok: false, error };
    settled = true;
    afterTask();
  },
);
