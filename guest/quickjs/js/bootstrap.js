// The guest's bootstrap: console, timers, the call bridge, web globals and
// the lazy Intl. The glue (glue.c) evaluates it once, before the host's
// snapshot, and calls the function it evaluates to with the native
// functions. inspect.js (Node's util.format and util.inspect), web.js (the
// web-standard globals) and the Intl bundle are loaded on first use: most
// programs print only strings and numbers, return plain data and use no
// web global, and every byte of the snapshot is copied into every run. Everything a global
// relies on is captured here, before any program runs: a program that
// replaces JSON, String or Array methods cannot reach the SDK's own
// serialisation, the host protocol or how values are printed.
(function (native) {
  'use strict';
  const { parse } = JSON;
  const Str = String, Err = Error, Num = Number;
  const call = Function.prototype.call, apply = Reflect.apply;
  const uncurry = (f) => call.bind(f);
  const getTime = uncurry(Date.prototype.getTime), toISO = uncurry(Date.prototype.toISOString);
  const defineProperty = Object.defineProperty, freeze = Object.freeze, create = Object.create;
  const setPrototypeOf = Object.setPrototypeOf, ObjectPrototype = Object.prototype;
  const strIndexOf = uncurry(String.prototype.indexOf), strSlice = uncurry(String.prototype.slice);
  const strSplit = uncurry(String.prototype.split), exec = uncurry(RegExp.prototype.exec);
  const MathMax = Math.max;
  const global = globalThis;

  const hidden = (obj, name, value) =>
    defineProperty(obj, name, { value, writable: true, enumerable: false, configurable: true });
  const fixed = (name, value) =>
    defineProperty(global, name, { value, writable: false, enumerable: false, configurable: false });

  // --- stack frames: the program's only, at the positions it was written ---

  // A frame of the program is "    at f (program.js:3:5)"; the guest's own
  // (<ptc>, <prelude>, <intl>, native code) are left out, and positions in
  // a stripped TypeScript program are mapped back (native.mapLine).
  const frameRe = /program\.js:(\d+):(\d+)/;
  const frames = (e) => {
    let stack;
    try { stack = e.stack; } catch (x) { return ''; }
    if (typeof stack !== 'string') return '';
    const lines = strSplit(stack, '\n');
    let out = '';
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      const m = exec(frameRe, l);
      if (m === null) continue;
      let line = Num(m[1]), col = Num(m[2]);
      const mapped = native.mapLine(line, col);
      if (mapped !== undefined) { line = mapped[0]; col = mapped[1]; }
      out += (out === '' ? '' : '\n') + strSlice(l, 0, m.index) + 'program.js:' + line + ':' + col + strSlice(l, m.index + m[0].length);
    }
    return out;
  };

  // --- printing ---

  // Node's console (inspect.js), loaded on the first call that needs more
  // than the fast path: every argument a string, number, boolean, bigint,
  // null or undefined, and no format specifier in the first. That path
  // prints exactly what Node's util.format would.
  let printing;
  const loadPrinting = () => {
    if (printing === undefined) {
      printing = native.loadInspect()({ write: native.write, now: native.now, frames, promiseState: native.promiseState });
    }
    return printing;
  };
  const simple = (v) => {
    switch (typeof v) {
      case 'string': case 'boolean': case 'undefined': return true;
      case 'number': return !(v === 0 && 1 / v < 0);
      case 'bigint': return true;
      case 'object': return v === null;
    }
    return false;
  };
  const fast = (args) => {
    if (printing !== undefined) return false;
    for (let i = 0; i < args.length; i++) if (!simple(args[i])) return false;
    return !(args.length > 0 && typeof args[0] === 'string' && strIndexOf(args[0], '%') >= 0);
  };
  const printFast = (args) => {
    let line = '';
    for (let i = 0; i < args.length; i++) {
      const v = args[i];
      line += (i ? ' ' : '') + (typeof v === 'bigint' ? Str(v) + 'n' : Str(v));
    }
    native.write(line);
  };
  const consoleMethods = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'assert',
    'count', 'countReset', 'time', 'timeEnd', 'timeLog', 'group', 'groupCollapsed', 'groupEnd'];
  const console = {};
  for (let i = 0; i < consoleMethods.length; i++) {
    const name = consoleMethods[i];
    const plain = name === 'log' || name === 'info' || name === 'warn' || name === 'error' || name === 'debug';
    console[name] = {
      [name](...args) {
        if (plain && fast(args)) return printFast(args);
        return apply(loadPrinting().console[name], undefined, args);
      },
    }[name];
  }
  fixed('console', freeze(console));
  const inspect = (v) => loadPrinting().inspect(v);
  // returnValue renders a return value that is not plain data (finish_ok
  // in glue.c writes plain data itself): a Map, a BigInt, a cycle, ...
  // If even that throws (a hostile Proxy), the value is shown as console.log
  // would show it, with no JSON form: the return value never fails the run.
  const returnValue = (v) => {
    const p = loadPrinting();
    try {
      return p.returnValue(v);
    } catch (e) {
      let text;
      try { text = p.inspect(v); } catch (e2) { text = '<Inspection threw>'; }
      return ['text', text, 'null'];
    }
  };

  // --- tool calls ---

  class ToolError extends Err {
    constructor(tool, code, message) {
      super(message);
      // Defined, not assigned: setters or read-only properties a program
      // put on the prototype must not break a subcall's rejection.
      hidden(this, 'name', 'ToolError');
      defineProperty(this, 'code', { value: code, writable: true, enumerable: true, configurable: true });
      defineProperty(this, 'tool', { value: tool, writable: true, enumerable: true, configurable: true });
    }
  }
  hidden(ToolError.prototype, 'name', 'ToolError');
  fixed('__ptc_call', native.call);
  fixed('ToolError', ToolError);
  const settle = (name, envelope) => {
    let r;
    try { r = parse(envelope); } catch (e) { return [false, new ToolError(name, 'INTERNAL', 'malformed result from host')]; }
    if (r.ok) return [true, r.value];
    return [false, new ToolError(name, Str(r.code), Str(r.message))];
  };
  const describe = (e) => {
    if (e instanceof Err) {
      let name = 'Error', message = '';
      try { name = Str(e.name); message = Str(e.message); } catch (x) {}
      return [message === '' ? name : name + ': ' + message, frames(e)];
    }
    // Node prints an uncaught string as it is, anything else inspected.
    return [typeof e === 'string' ? e : inspect(e), ''];
  };
  const toolError = (tool, code, message) => new ToolError(tool, code, message);
  // A Date in tool arguments: its ISO string, or null when invalid, as
  // JSON.stringify gives through Date.prototype.toJSON.
  const dateJSON = (d) => { const t = getTime(d); return t === t ? toISO(d) : null; };

  // --- the tools object: the SDK prelude's methods behind a Proxy ---

  // __ptc_tools(methods, docsJSON) is called once by the SDK prelude
  // (sdkgen.JS). tools.NAME for a name that is not a method is a function
  // that makes the subcall anyway, so the executor answers UNKNOWN_TOOL
  // with the nearest names; tools.$search and tools.$describe answer from
  // docsJSON ([method, description, declaration] per tool), parsed on
  // first use.
  const lower = uncurry(String.prototype.toLowerCase), strMatch = uncurry(String.prototype.match);
  const arrSort = uncurry(Array.prototype.sort), PromiseResolve = Promise.resolve.bind(Promise);
  const PromiseReject = Promise.reject.bind(Promise), reflectGet = Reflect.get, ProxyCtor = Proxy;
  const wordRe = /[a-z0-9]+/g;
  let toolsDefined = false;
  fixed('__ptc_tools', (methods, docsJSON) => {
    if (toolsDefined) throw new Err('tools is already defined');
    toolsDefined = true;
    let docs;
    const load = () => (docs === undefined ? (docs = parse(docsJSON)) : docs);
    const words = (s) => strMatch(lower(Str(s)), wordRe) || [];
    const firstLine = (s) => { const i = strIndexOf(s, '\n'); return i < 0 ? s : strSlice(s, 0, i); };
    const search = function $search(query, limit) {
      const d = load(), q = words(query === undefined ? '' : query), scored = [];
      const n = limit === undefined ? 10 : Num(limit);
      for (let i = 0; i < d.length; i++) {
        const name = lower(d[i][0]), desc = lower(d[i][1]);
        let score = q.length === 0 ? 1 : 0;
        for (let j = 0; j < q.length; j++) score += strIndexOf(name, q[j]) >= 0 ? 3 : strIndexOf(desc, q[j]) >= 0 ? 1 : 0;
        if (score > 0) scored[scored.length] = [score, i];
      }
      arrSort(scored, (a, b) => b[0] - a[0] || a[1] - b[1]);
      const out = [];
      for (let k = 0; k < scored.length && k < n; k++) {
        const t = d[scored[k][1]];
        out[k] = { name: t[0], description: firstLine(t[1]) };
      }
      return PromiseResolve(out);
    };
    const describe = function $describe(name) {
      const d = load();
      for (let i = 0; i < d.length; i++) if (d[i][0] === Str(name)) return PromiseResolve(d[i][2]);
      return PromiseReject(new ToolError('$describe', 'UNKNOWN_TOOL', 'tools.' + Str(name) +
        ' is not a tool; tools.$search(query) finds tools by the words of their names and descriptions'));
    };
    const unknown = (name) => ({ [name](args) { return native.call(name, args); } })[name];
    // The methods are tools' own properties, found without a trap; only a
    // name tools lacks reaches its prototype, a proxy over an empty object
    // (which has Object.prototype's names).
    const proxy = new ProxyCtor(freeze(create(ObjectPrototype)), {
      get(t, k, r) {
        if (typeof k !== 'string' || k in t) return reflectGet(t, k, r);
        if (k === '$search') return search;
        if (k === '$describe') return describe;
        if (k === 'then') return undefined;
        return unknown(k);
      },
    });
    setPrototypeOf(methods, proxy);
    fixed('tools', freeze(methods));
  });

  // --- timers, as Node's: a timer is host-side work like a pending call ---

  // A binary heap of timers by (due, seq); cleared timers stay in it until
  // they reach the top. live counts the timers not cleared, keep those of
  // them that keep a settled run alive (ref'd timeouts; never an interval).
  const heap = [];
  // refd counts the live timers that are ref'd (intervals too): they keep a
  // run whose body is still pending alive. dead counts cleared timers still
  // in the heap; once they are most of it, it is rebuilt without them.
  let size = 0, seq = 0, live = 0, keep = 0, refd = 0, dead = 0, nextId = 1;
  const byId = new Map();
  const mapGet = uncurry(Map.prototype.get), mapSet = uncurry(Map.prototype.set), mapDelete = uncurry(Map.prototype.delete);
  const before = (a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq);
  const push = (t) => {
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(t, heap[p])) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = t;
  };
  const pop = () => {
    const top = heap[0], last = heap[--size];
    heap[size] = undefined;
    if (size > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && before(heap[c + 1], heap[c])) c++;
        if (!before(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };
  const report = () => native.timers(live, keep, refd);
  const bury = () => {
    if (++dead <= 64 || dead * 2 <= size) return;
    const all = [];
    for (let i = 0; i < size; i++) if (!heap[i].cancelled) all[all.length] = heap[i];
    for (let i = 0; i < size; i++) heap[i] = undefined;
    size = 0;
    dead = 0;
    for (let i = 0; i < all.length; i++) push(all[i]);
  };
  const keeps = (t) => t.ref && !t.repeat;
  const TIMEOUT_MAX = 2147483647;
  const timerLimit = () => native.timerLimit();

  class Timeout {
    constructor(id) { hidden(this, '_id', id); }
    ref() { const t = mapGet(byId, this._id); if (t && !t.ref) { t.ref = true; refd++; if (keeps(t)) keep++; report(); } return this; }
    unref() { const t = mapGet(byId, this._id); if (t && t.ref) { if (keeps(t)) keep--; refd--; t.ref = false; report(); } return this; }
    hasRef() { const t = mapGet(byId, this._id); return t ? t.ref : false; }
    refresh() {
      const t = mapGet(byId, this._id);
      if (t) { t.cancelled = true; const n = { ...t, cancelled: false, due: native.now() + t.delay, seq: seq++ }; mapSet(byId, this._id, n); push(n); bury(); }
      return this;
    }
    close() { clear(this); return this; }
    [Symbol.toPrimitive]() { return this._id; }
  }
  hidden(Timeout.prototype, Symbol.toStringTag, 'Timeout');

  const schedule = (fn, delay, args, repeat, immediate) => {
    if (typeof fn !== 'function') {
      const e = new TypeError('The "callback" argument must be of type function. Received ' + (fn === null ? 'null' : typeof fn === 'object' ? 'an instance of ' + (fn.constructor && fn.constructor.name || 'Object') : 'type ' + typeof fn + ' (' + inspect(fn) + ')'));
      hidden(e, 'code', 'ERR_INVALID_ARG_TYPE');
      throw e;
    }
    if (live >= timerLimit()) {
      throw new RangeError('too many timers: a program may have at most ' + timerLimit() + ' timers pending at once');
    }
    let d = immediate ? 0 : Num(delay);
    if (!immediate && !(d >= 1 && d <= TIMEOUT_MAX)) d = 1;
    const id = nextId++;
    const t = { id, fn, args, delay: d, repeat, due: native.now() + d, seq: seq++, ref: true, cancelled: false };
    mapSet(byId, id, t);
    push(t);
    live++;
    refd++;
    if (keeps(t)) keep++;
    report();
    return new Timeout(id);
  };
  const clear = (h) => {
    let id = h;
    if (h instanceof Timeout) id = h._id;
    else if (typeof h === 'string') id = Num(h);
    if (typeof id !== 'number') return;
    const t = mapGet(byId, id);
    if (t === undefined) return;
    mapDelete(byId, id);
    t.cancelled = true;
    live--;
    if (t.ref) refd--;
    if (keeps(t)) keep--;
    report();
    bury();
  };
  const rest = (a, from) => { const r = []; for (let i = from; i < a.length; i++) r[i - from] = a[i]; return r; };
  const timerGlobals = {
    setTimeout: function setTimeout(fn, delay) { return schedule(fn, delay, rest(arguments, 2), false, false); },
    setInterval: function setInterval(fn, delay) { return schedule(fn, delay, rest(arguments, 2), true, false); },
    setImmediate: function setImmediate(fn) { return schedule(fn, 0, rest(arguments, 1), false, true); },
    clearTimeout: function clearTimeout(h) { clear(h); },
    clearInterval: function clearInterval(h) { clear(h); },
    clearImmediate: function clearImmediate(h) { clear(h); },
  };
  for (const k in timerGlobals) hidden(global, k, timerGlobals[k]);

  // timerNext is the time (native.now's scale) the next timer is due, or
  // -1 when none is pending; the glue waits until then.
  const timerNext = () => {
    while (size > 0 && heap[0].cancelled) { pop(); dead--; }
    return size > 0 ? heap[0].due : -1;
  };
  // timerFire runs the first timer if it is due at now; the glue runs the
  // jobs it queued before the next one, as Node does.
  const timerFire = (now) => {
    if (timerNext() < 0 || heap[0].due > now) return false;
    const t = pop();
    if (t.repeat) {
      const n = { ...t, due: MathMax(now, t.due) + t.delay, seq: seq++ };
      mapSet(byId, t.id, n);
      push(n);
    } else {
      mapDelete(byId, t.id);
      live--;
      if (t.ref) refd--;
      if (keeps(t)) keep--;
    }
    report();
    apply(t.fn, undefined, t.args);
    return true;
  };

  // --- Date strings as Node's: the zone's name after its offset ---

  // The run's time zone is UTC; V8 names it, QuickJS does not.
  for (const name of ['toString', 'toTimeString']) {
    const orig = uncurry(Date.prototype[name]);
    hidden(Date.prototype, name, {
      [name]() {
        const s = orig(this);
        return s === 'Invalid Date' ? s : s + ' (Coordinated Universal Time)';
      },
    }[name]);
  }

  // --- modules: there are none ---

  const noModules = 'there are no modules here: tools is a global (call tools.NAME(args) directly), and no import, export or require is needed';
  hidden(global, 'require', function require() { throw new Err(noModules); });

  // --- lazy globals: web.js and the Intl bundle ---

  // lazyGlobals defines each name as an accessor that loads the script
  // (load defines them all as data properties) and then reads the name
  // again; assigning one replaces it, as for any global.
  const lazyGlobals = (names, load) => {
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      defineProperty(global, name, {
        configurable: true, enumerable: false,
        get() { load(); return global[name]; },
        set(v) { hidden(global, name, v); },
      });
    }
  };
  const webNames = ['structuredClone', 'TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'atob', 'btoa',
    'crypto', 'performance', 'DOMException'];
  let webLoaded = false;
  lazyGlobals(webNames, () => {
    if (webLoaded) return;
    webLoaded = true;
    const web = native.loadWeb()({
      randomBytes: native.randomBytes,
      now: native.now,
      get timeOrigin() { return native.timeOrigin(); },
      domainToASCII: native.domainToASCII,
    });
    for (let i = 0; i < webNames.length; i++) hidden(global, webNames[i], web[webNames[i]]);
  });

  // The locale data is large, so Intl and the locale-sensitive methods are
  // stand-ins until first used: then the bundle is evaluated, installs the
  // real ones, and the call goes on with them.
  let intlLoaded = false;
  const loadIntl = () => {
    if (intlLoaded) return;
    intlLoaded = true;
    hidden(global, 'Intl', undefined);
    native.loadIntl()({ collate: native.collate, intlData: native.intlData });
  };
  lazyGlobals(['Intl'], loadIntl);
  const lazy = (proto, name) => {
    const stub = {
      [name](...args) {
        loadIntl();
        const real = proto[name];
        if (real === stub) throw new TypeError(name + ' is not available');
        return apply(real, this, args);
      },
    }[name];
    hidden(proto, name, stub);
  };
  lazy(Number.prototype, 'toLocaleString');
  lazy(BigInt.prototype, 'toLocaleString');
  lazy(Date.prototype, 'toLocaleString');
  lazy(Date.prototype, 'toLocaleDateString');
  lazy(Date.prototype, 'toLocaleTimeString');
  lazy(String.prototype, 'localeCompare');
  // Case mapping depends on a locale only when one is given: without one
  // it is the default locale's (en-US), which maps as toUpperCase does,
  // and Intl stays unloaded.
  const lazyCase = (name, plain) => {
    const stub = {
      [name](...args) {
        if (args.length === 0 || args[0] === undefined) {
          if (this === undefined || this === null) throw new TypeError('String.prototype.' + name + ' called on null or undefined');
          return apply(plain, this, []);
        }
        loadIntl();
        const real = String.prototype[name];
        if (real === stub) throw new TypeError(name + ' is not available');
        return apply(real, this, args);
      },
    }[name];
    hidden(String.prototype, name, stub);
  };
  lazyCase('toLocaleUpperCase', String.prototype.toUpperCase);
  lazyCase('toLocaleLowerCase', String.prototype.toLowerCase);


  // Objects whose shapes QuickJS would otherwise build and free on every
  // subcall (promise reaction functions).
  const keepShapes = [{}, { '': 0 }, create(Function.prototype)];
  return [settle, describe, Str, keepShapes, toolError, dateJSON, timerNext, timerFire, returnValue, loadIntl];
})
