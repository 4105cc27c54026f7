#!/usr/bin/env node
// gen.js writes the printing conformance table the guest's console,
// util.format and util.inspect (guest/quickjs/js/inspect.js) are held to:
// Node 20's own output.
//
//	node testdata/inspect/gen.js
//
// It writes cases.json beside itself: [{name, code, expected}]. code is the
// body of an async function (console, util, h); expected is everything it
// printed, each console call's text followed by "\n". host/inspect_test.go
// runs every body in the guest with inspect.js's console and compares.
//
// The helpers h make what differs between the engines deterministic:
//   h.err(e, frames)   the error's stack frames: here its stack becomes V8's
//                      first line and frames (or none); in the guest
//                      native.frames(e) returns frames.
//   h.traceFrames(f)   the frames console.trace prints.
//   h.clock(ms)        the clock console.time reads (process.hrtime here).
//   h.track(p)         a promise whose state inspect may show.
//   h.tick()           lets settled promises' reactions run.
//   h.rv(v)            the run's return value rendering (docs/ARCHITECTURE.md, "What
//                      the model sees"), implemented here with util.inspect.
//   h.sabotage()       in the guest, replaces the built-ins a printer might
//                      use with ones that throw; here it does nothing.
// Warnings (console.time's "No such label") are printed as
// "Warning: <message>" lines, where the guest prints them.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const { Console } = require('node:console');

if (!process.versions.node.startsWith('20.')) {
  console.error(`gen.js: Node ${process.versions.node}; the table is Node 20's`);
  process.exit(1);
}

const cases = [];
// t adds a case: code is a string, or an async arrow function whose body is
// the code.
function t(name, code) {
  if (typeof code === 'function') {
    const src = code.toString();
    const start = src.indexOf('=> {');
    if (start === -1) throw new Error(`case ${name}: not an arrow function with a body`);
    code = src.slice(start + 4, src.lastIndexOf('}'));
    // Drop the common indentation.
    const lines = code.split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.match(/^ */)[0].length));
    code = lines.map((l) => l.slice(indent)).join('\n').trim();
  }
  if (cases.some((c) => c.name === name)) throw new Error(`duplicate case ${name}`);
  cases.push({ name, code });
}

// ---- primitives ----

t('number integers', async (console, util, h) => {
  console.log(util.inspect(1), util.inspect(-1), util.inspect(0), util.inspect(-0), util.inspect(2 ** 53));
});
t('number specials', async (console, util, h) => {
  console.log(NaN, Infinity, -Infinity, -0, 0);
});
t('number fractions', async (console, util, h) => {
  console.log(0.1 + 0.2, 1.5e-7, 1e21, 123456789.125, -0.5, 5e-324, Number.MAX_VALUE);
});
t('bigint', async (console, util, h) => {
  console.log(10n, -5n, 0n, 2n ** 70n);
});
t('booleans null undefined', async (console, util, h) => {
  console.log(true, false, null, undefined);
  console.log([true, false, null, undefined]);
});
t('symbols', async (console, util, h) => {
  console.log(Symbol(), Symbol('a'), Symbol.iterator, Symbol.for('x y'), Symbol("it's"));
  console.log([Symbol('in array')], { s: Symbol('v') });
});
t('string top level bare', async (console, util, h) => {
  console.log('plain');
  console.log('two', 'strings');
  console.log('a', 1, 'b');
});
t('string quoted in inspect', async (console, util, h) => {
  console.log(util.inspect('plain'));
  console.log(util.inspect("it's"));
  console.log(util.inspect('say "hi" it\'s'));
  console.log(util.inspect('all \' " ` three'));
  console.log(util.inspect('dollar ${x} \' "'));
  console.log(util.inspect(''));
});
t('string escapes', async (console, util, h) => {
  console.log(util.inspect('a\nb\tc\rd\be\ff\vg'));
  console.log(util.inspect('\x00\x01\x1b\x1f\x7f\x80\x9f\xa0'));
  console.log(util.inspect('back\\slash'));
  console.log(['tab\there', 'nl\n']);
});
t('string unicode', async (console, util, h) => {
  console.log(util.inspect('héllo wörld'), util.inspect('日本語'), util.inspect('emoji 😀 👍🏽'));
  console.log(['ü', 'ß', 'ç'], { 'ключ': 'значение' });
});
t('string lone surrogates', async (console, util, h) => {
  console.log(util.inspect('a\ud800b'), util.inspect('\udc00'), util.inspect('\ud83d\ude00'), util.inspect('x\ud83d'));
});
t('string long split', async (console, util, h) => {
  console.log(util.inspect('line one\nline two\nline three and some more text to make it long enough to split up'));
  console.log({ text: 'first line of text\nsecond line of text\nthird line of text that goes on and on' });
});
t('string long no newline', async (console, util, h) => {
  console.log(util.inspect('x'.repeat(100)));
  console.log({ a: 'y'.repeat(90) });
  console.log(['z'.repeat(85)]);
});
t('string trailing newline', async (console, util, h) => {
  console.log(util.inspect('this string is long enough to be split at each\n'));
  console.log(util.inspect('many\n\n\nblank lines in a string that is longer than eighty characters in total'));
});
t('string maxStringLength', async (console, util, h) => {
  console.log(util.inspect('abcdefghij', { maxStringLength: 4 }));
  console.log(util.inspect('abcdefghij', { maxStringLength: 9 }));
  console.log(util.inspect(['abcdef'], { maxStringLength: 0 }));
  console.log(util.inspect('a'.repeat(10005)).length);
});

// ---- arrays ----

t('array basic', async (console, util, h) => {
  console.log([], [1, 2, 3], ['a', 'b'], [[1, [2, [3, [4]]]]]);
});
t('array holes', async (console, util, h) => {
  console.log([, 1], [1, , 2], [1, , , , 2], new Array(5), [, , 'x', , ]);
});
t('array sparse long', async (console, util, h) => {
  const a = [];
  a[2] = 'two';
  a[50] = 'fifty';
  a[1000] = 'thousand';
  console.log(a);
  const b = new Array(200);
  b[150] = 1;
  console.log(b);
});
t('array extra properties', async (console, util, h) => {
  const a = [1, 2];
  a.extra = 'x';
  a[Symbol('s')] = 3;
  a['-1'] = 'neg';
  console.log(a);
  console.log(Object.assign([], { only: 'prop' }));
});
t('array grouping numbers', async (console, util, h) => {
  console.log([1, 2, 3, 4, 5, 6, 7]);
  console.log(Array.from({ length: 26 }, (_, i) => i));
  console.log(Array.from({ length: 30 }, (_, i) => i * i * i));
  console.log(Array.from({ length: 12 }, (_, i) => (i % 2 ? -i : i * 1000)));
});
t('array grouping strings', async (console, util, h) => {
  console.log('abcdefghijklmnopqrstuvwxyz'.split(''));
  console.log(['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape', 'honeydew', 'kiwi', 'lemon']);
  console.log(Array.from({ length: 40 }, (_, i) => 'item' + i));
});
t('array grouping mixed', async (console, util, h) => {
  console.log([1, 'two', 3, 'four', 5, 'six', 7, 'eight']);
  console.log([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 'a much longer string in the middle', 21]);
  console.log([1n, 2n, 3n, 4n, 5n, 6n, 7n, 100n]);
});
t('array over 100', async (console, util, h) => {
  console.log(Array.from({ length: 101 }, (_, i) => i));
  console.log(Array.from({ length: 250 }, (_, i) => i % 7));
});
t('array maxArrayLength', async (console, util, h) => {
  console.log(util.inspect([1, 2, 3, 4], { maxArrayLength: 2 }));
  console.log(util.inspect([1, 2, 3], { maxArrayLength: 0 }));
  console.log(util.inspect(new Set([1, 2, 3]), { maxArrayLength: 1 }));
  console.log(util.inspect(new Map([[1, 2], [3, 4]]), { maxArrayLength: 1 }));
});
t('array of objects', async (console, util, h) => {
  console.log([{ a: 1 }, { b: 2 }, { c: { d: { e: 1 } } }]);
  console.log(Array.from({ length: 8 }, (_, i) => ({ id: i })));
});
t('array nested depth', async (console, util, h) => {
  console.log([[[[[1]]]]]);
  console.log({ a: [[[1, 2]]] });
});
t('array subclass', async (console, util, h) => {
  class MyArray extends Array {}
  const m = MyArray.from([1, 2, 3]);
  console.log(m, new MyArray());
});
t('array null prototype', async (console, util, h) => {
  const a = [1, 2];
  Object.setPrototypeOf(a, null);
  console.log(a);
});
t('array with toStringTag', async (console, util, h) => {
  const a = [1];
  Object.defineProperty(a, Symbol.toStringTag, { value: 'Tagged' });
  console.log(a);
});
t('arguments object', async (console, util, h) => {
  (function () { console.log(arguments); })(1, 'a');
  (function () { console.log(arguments); })();
});

// ---- objects ----

t('object basic', async (console, util, h) => {
  console.log({}, { a: 1 }, { a: 1, b: 'two', c: [3] });
});
t('object keys quoting', async (console, util, h) => {
  console.log({ 'a-b': 1, '1a': 2, '': 3, a1: 4, _x: 5, $y: 6, 'ü': 7, "it's": 8, 'sp ace': 9 });
});
t('object numeric keys order', async (console, util, h) => {
  console.log({ b: 1, 2: 'two', a: 2, 1: 'one', '01': 'zero-one' });
});
t('object symbol keys', async (console, util, h) => {
  const o = { a: 1, [Symbol('s')]: 2, [Symbol()]: 3, [Symbol.iterator]: 4 };
  Object.defineProperty(o, Symbol('hidden'), { value: 5, enumerable: false });
  console.log(o);
});
t('object getters setters', async (console, util, h) => {
  const o = {
    get g() { return 1; },
    set s(v) {},
    get gs() { return 2; },
    set gs(v) {},
  };
  console.log(o);
});
t('object getters option', async (console, util, h) => {
  const o = {
    get g() { return 1; },
    get obj() { return { x: 1 }; },
    get nul() { return null; },
    get gs() { return 'v'; },
    set gs(v) {},
    get bad() { throw new Error('no'); },
  };
  console.log(util.inspect(o, { getters: true }));
  console.log(util.inspect(o, { getters: 'get' }));
  console.log(util.inspect(o, { getters: 'set' }));
});
t('object non-enumerable hidden', async (console, util, h) => {
  const o = { a: 1 };
  Object.defineProperty(o, 'hidden', { value: 2, enumerable: false });
  console.log(o);
  console.log(util.inspect(o, { showHidden: true }));
});
t('object depth elision', async (console, util, h) => {
  console.log({ a: { b: { c: { d: 1 } } } });
  console.log({ a: { b: { c: [1] } } });
  console.log({ a: { b: { c: new Map([[1, 2]]) } } });
  console.log({ a: { b: { c: new Set([1]) } } });
  console.log({ a: { b: { c: {} } } });
  console.log({ a: { b: { c: [] } } });
});
t('object depth option', async (console, util, h) => {
  const o = { a: { b: { c: { d: { e: { f: 1 } } } } } };
  console.log(util.inspect(o, { depth: 0 }));
  console.log(util.inspect(o, { depth: 1 }));
  console.log(util.inspect(o, { depth: Infinity }));
  console.log(util.inspect(o, { depth: null }));
  console.log(util.inspect(o, false, 3));
});
t('object circular', async (console, util, h) => {
  const o = { name: 'o' };
  o.self = o;
  console.log(o);
  const a = [1];
  a.push(a);
  console.log(a);
});
t('object circular multiple', async (console, util, h) => {
  const a = { name: 'a' };
  const b = { name: 'b', a };
  a.b = b;
  const root = { a, b, list: [a, b] };
  root.root = root;
  console.log(root);
});
t('object shared not circular', async (console, util, h) => {
  const shared = { x: 1 };
  console.log({ one: shared, two: shared, arr: [shared, shared] });
});
t('object null prototype', async (console, util, h) => {
  const o = Object.create(null);
  console.log(o);
  o.a = 1;
  console.log(o, { nested: o });
});
t('object class instances', async (console, util, h) => {
  class Foo { constructor() { this.a = 1; } }
  class Bar extends Foo { constructor() { super(); this.b = [1, 2]; } }
  class Empty {}
  console.log(new Foo(), new Bar(), new Empty());
  console.log([new Foo()], { foo: new Foo() });
});
t('object anonymous class instance', async (console, util, h) => {
  const C = (() => class {})();
  const o = new C();
  o.x = 1;
  console.log(o);
});
t('object toStringTag', async (console, util, h) => {
  class Tagged { get [Symbol.toStringTag]() { return 'Custom'; } }
  console.log(new Tagged());
  const own = { a: 1, [Symbol.toStringTag]: 'Own' };
  console.log(own);
  const hidden = { a: 1 };
  Object.defineProperty(hidden, Symbol.toStringTag, { value: 'Hidden' });
  console.log(hidden, Object.defineProperty({}, Symbol.toStringTag, { value: 'T' }));
  class Same { get [Symbol.toStringTag]() { return 'Same'; } }
  console.log(new Same());
});
t('object constructor tampering', async (console, util, h) => {
  class Foo {}
  const f = new Foo();
  f.constructor = 'nope';
  console.log(f);
  const o = Object.create({ constructor: { name: 'Fake' } });
  console.log(o);
  function Legacy() { this.v = 1; }
  console.log(new Legacy());
});
t('object proto chain without constructor', async (console, util, h) => {
  const o = Object.create(Object.create(null));
  o.a = 1;
  console.log(o);
  const p = Object.create(Object.create(Object.create(null)));
  console.log(p);
});
t('object __proto__ key', async (console, util, h) => {
  const o = JSON.parse('{"__proto__": 1, "a": 2}');
  console.log(o);
});
t('object long breaks', async (console, util, h) => {
  console.log({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddddd', e: 1 });
  console.log({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'ddddddddd' });
  console.log({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddd' });
});
t('object nested breaks', async (console, util, h) => {
  console.log({ user: { name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'editor'] }, active: true });
  console.log({ a: { b: { c: 1 } }, d: { e: { f: 2 } }, g: [1, 2, { h: 3 }] });
});
t('object compact 3 levels', async (console, util, h) => {
  console.log({ a: { b: { c: {} } } });
  console.log({ x: [{ y: [{ z: 1 }] }] });
  console.log([[[[]]]]);
});
t('object many keys', async (console, util, h) => {
  const o = {};
  for (let i = 0; i < 30; i++) o['key' + i] = i;
  console.log(o);
});
t('object with functions', async (console, util, h) => {
  console.log({ f() {}, g: function () {}, h: () => 1, k: class {}, l: async () => {} });
});
t('object with undefined and null', async (console, util, h) => {
  console.log({ u: undefined, n: null, nested: { u: undefined } });
});
t('object proxy', async (console, util, h) => {
  const p = new Proxy({ a: 1, b: [2] }, {});
  console.log(p);
  console.log(new Proxy([1, 2, 3], {}));
});
t('object frozen', async (console, util, h) => {
  console.log(Object.freeze({ a: 1 }), Object.seal([1]));
});
t('object throwing getter plain print', async (console, util, h) => {
  const o = { get boom() { throw new Error('boom'); }, ok: 1 };
  console.log(o);
});

// ---- Map, Set, weak collections ----

t('map basic', async (console, util, h) => {
  console.log(new Map(), new Map([['a', 1]]), new Map([['a', 1], ['b', { c: 2 }]]));
});
t('map object keys', async (console, util, h) => {
  console.log(new Map([[{ k: 1 }, 'v'], [[1, 2], new Set([3])], [null, undefined], [NaN, -0]]));
});
t('map nested', async (console, util, h) => {
  console.log({ m: new Map([['inner', new Map([['deep', new Map([['deeper', 1]])]])]]) });
});
t('map large', async (console, util, h) => {
  console.log(new Map(Array.from({ length: 105 }, (_, i) => [i, 'v' + i])));
});
t('map with properties', async (console, util, h) => {
  const m = new Map([[1, 2]]);
  m.extra = true;
  console.log(m);
  const e = new Map();
  e.only = 1;
  console.log(e);
});
t('map subclass', async (console, util, h) => {
  class Registry extends Map {}
  console.log(new Registry([['x', 1]]), new Registry());
});
t('map null prototype', async (console, util, h) => {
  const m = new Map([['a', 1]]);
  Object.setPrototypeOf(m, null);
  console.log(m);
});
t('map long entries', async (console, util, h) => {
  console.log(new Map([['a long key number one', 'a long value number one'], ['a long key number two', 'a long value number two']]));
});
t('set basic', async (console, util, h) => {
  console.log(new Set(), new Set([1]), new Set(['a', { b: 1 }, [2]]));
});
t('set large and grouped', async (console, util, h) => {
  console.log(new Set(Array.from({ length: 30 }, (_, i) => i)));
  console.log(new Set(Array.from({ length: 120 }, (_, i) => i)));
});
t('set with properties and subclass', async (console, util, h) => {
  const s = new Set([1]);
  s.tag = 'x';
  class Tags extends Set {}
  console.log(s, new Tags(['a']));
});
t('set circular', async (console, util, h) => {
  const s = new Set();
  s.add(s);
  console.log(s);
  const m = new Map();
  m.set('self', m);
  console.log(m);
});
t('weak collections', async (console, util, h) => {
  const k = {};
  console.log(new WeakMap([[k, 1]]), new WeakSet([k]));
  console.log({ w: new WeakMap() });
  console.log(util.inspect(new WeakSet(), { showHidden: false }));
});

// ---- Date, RegExp ----

t('date', async (console, util, h) => {
  console.log(new Date(0), new Date(1700000000123), new Date(NaN));
  console.log({ when: new Date(Date.UTC(2024, 1, 29, 12, 30)) });
  console.log(new Date(8.64e15), new Date(-1e12));
});
t('date with properties', async (console, util, h) => {
  const d = new Date(0);
  d.note = 'epoch';
  console.log(d);
  class MyDate extends Date {}
  console.log(new MyDate(0));
});
t('regexp', async (console, util, h) => {
  console.log(/a/, /a\/b[c]/gimsuy, new RegExp(''), new RegExp('/'), /x/d);
  const r = /r/g;
  r.extra = 1;
  console.log(r, { r: /in object/ });
  class MyRe extends RegExp {}
  console.log(new MyRe('x', 'g'));
});

// ---- functions ----

t('functions named and anonymous', async (console, util, h) => {
  function named() {}
  const arrow = () => {};
  console.log(named, arrow, function () {}, () => {}, [function () {}]);
});
t('functions kinds', async (console, util, h) => {
  async function af() {}
  function* gf() {}
  async function* agf() {}
  console.log(af, gf, agf, async () => {}, { m() {} }.m);
});
t('functions classes', async (console, util, h) => {
  class A {}
  class B extends A {}
  const C = class {};
  console.log(A, B, C, class {}, class extends A {});
  console.log([A], { B });
});
t('functions with properties', async (console, util, h) => {
  function f() {}
  f.version = 2;
  f.nested = { a: 1 };
  console.log(f);
  class K { static count = 3; }
  console.log(K);
});
t('functions bound and builtin', async (console, util, h) => {
  function orig() {}
  console.log(orig.bind(null), Math.max, Array.prototype.push, parseInt);
});
t('functions name overrides', async (console, util, h) => {
  const f = function () {};
  Object.defineProperty(f, 'name', { value: 'renamed' });
  const g = () => {};
  Object.defineProperty(g, 'name', { value: '' });
  console.log(f, g);
});
t('functions null prototype', async (console, util, h) => {
  const f = function nop() {};
  Object.setPrototypeOf(f, null);
  console.log(f);
});
t('function toStringTag', async (console, util, h) => {
  const f = function tagged() {};
  f[Symbol.toStringTag] = 'T';
  Object.defineProperty(f, Symbol.toStringTag, { enumerable: false });
  console.log(f);
});

// ---- boxed primitives ----

t('boxed primitives', async (console, util, h) => {
  console.log(new Number(3), new String('str'), new Boolean(false), Object(10n), Object(Symbol('s')));
  console.log(new Number(-0), new String(''));
});
t('boxed with properties', async (console, util, h) => {
  const s = new String('ab');
  s.extra = 1;
  const n = new Number(5);
  n.x = 'y';
  console.log(s, n);
});
t('boxed subclass', async (console, util, h) => {
  class MyNum extends Number {}
  console.log(new MyNum(7));
});

// ---- typed arrays, buffers ----

t('typed arrays', async (console, util, h) => {
  console.log(new Uint8Array([1, 2, 3]), new Float64Array([1.5, -0, NaN]), new Int16Array(0));
  console.log(new BigInt64Array([1n, -2n]), new Uint8ClampedArray(2), new Float32Array([0.1]));
});
t('typed array long', async (console, util, h) => {
  console.log(new Uint8Array(120));
  console.log(new Uint16Array(Array.from({ length: 20 }, (_, i) => i * 300)));
});
t('typed array properties', async (console, util, h) => {
  const u = new Uint8Array(2);
  u.label = 'x';
  console.log(u);
});
t('array buffer', async (console, util, h) => {
  console.log(new ArrayBuffer(0), new Uint8Array([1, 2, 255, 16]).buffer);
  console.log(new ArrayBuffer(120));
  console.log({ buf: new ArrayBuffer(3) });
});
t('data view', async (console, util, h) => {
  const b = new ArrayBuffer(4);
  console.log(new DataView(b, 1, 2));
});
t('typed array showHidden', async (console, util, h) => {
  console.log(util.inspect(new Uint8Array([1, 2]), { showHidden: true }));
});

// ---- promises ----

t('promise states', async (console, util, h) => {
  const ok = h.track(Promise.resolve(42));
  const pending = h.track(new Promise(() => {}));
  const bad = h.track(Promise.reject(h.err(new Error('nope'))));
  await h.tick();
  console.log(ok, pending, bad);
  console.log({ p: ok });
});
t('promise nested values', async (console, util, h) => {
  const p = h.track(Promise.resolve({ a: [1, 2], b: 'x' }));
  const u = h.track(Promise.resolve(undefined));
  await h.tick();
  console.log(p, u);
  console.log([p]);
});

// ---- errors ----

t('error with frames', async (console, util, h) => {
  const e = h.err(new Error('something failed'), '    at main (program.js:3:11)\n    at program.js:10:1');
  console.log(e);
});
t('error without frames', async (console, util, h) => {
  console.log(h.err(new Error('bare')));
  console.log(h.err(new TypeError('type')), h.err(new RangeError('')));
});
t('error in objects', async (console, util, h) => {
  const e = h.err(new Error('inner'), '    at f (program.js:1:1)');
  console.log({ error: e });
  console.log([e]);
  console.log({ deep: { e } });
  console.log({ bare: h.err(new Error('x')) });
});
t('error own properties', async (console, util, h) => {
  const e = new Error('tool failed');
  e.code = 'TOOL_FAILED';
  e.tool = 'read_file';
  h.err(e, '    at run (program.js:2:7)');
  console.log(e);
  const bare = new Error('no frames');
  bare.code = 'E_BARE';
  h.err(bare);
  console.log(bare);
});
t('error name changed', async (console, util, h) => {
  const e = new Error('x');
  e.name = 'Custom';
  h.err(e, '    at f (program.js:1:1)');
  console.log(e);
  const t2 = new TypeError('y');
  t2.name = 'MyTypeError';
  console.log(h.err(t2));
});
t('error subclasses', async (console, util, h) => {
  class ValidationError extends Error {
    constructor(m) { super(m); this.name = 'ValidationError'; }
  }
  class HttpError extends Error {}
  class NotFound extends HttpError {
    constructor() { super('not found'); this.status = 404; }
  }
  console.log(h.err(new ValidationError('bad input'), '    at check (program.js:5:9)'));
  console.log(h.err(new HttpError('http')));
  console.log(h.err(new NotFound()));
});
t('error prototype name', async (console, util, h) => {
  class ToolError extends Error {}
  ToolError.prototype.name = 'ToolError';
  const e = new ToolError('boom');
  Object.defineProperty(e, 'code', { value: 'X', enumerable: true });
  console.log(h.err(e, '    at program.js:1:1'));
});
t('error hidden name property', async (console, util, h) => {
  class ToolError extends Error {
    constructor(m) {
      super(m);
      Object.defineProperty(this, 'name', { value: 'ToolError', enumerable: false, writable: true, configurable: true });
      this.code = 'TOOL_FAILED';
      this.tool = 'search';
    }
  }
  console.log(h.err(new ToolError('the tool failed'), '    at main (program.js:4:3)'));
  console.log({ err: h.err(new ToolError('nested')) });
});
t('error cause', async (console, util, h) => {
  const cause = h.err(new Error('root cause'));
  const e = h.err(new Error('wrapper', { cause }));
  console.log(e);
  const c2 = h.err(new Error('with frames', { cause: 'a string cause' }), '    at f (program.js:1:1)');
  console.log(c2);
});
t('error cause frames', async (console, util, h) => {
  const frames = '    at a (program.js:1:1)\n    at b (program.js:2:1)\n    at c (program.js:3:1)\n    at d (program.js:4:1)\n    at e (program.js:5:1)';
  const cause = h.err(new Error('cause'), '    at inner (program.js:9:1)\n' + frames);
  const e = h.err(new Error('outer', { cause }), '    at outer (program.js:8:1)\n' + frames);
  console.log(e);
});
t('error empty message', async (console, util, h) => {
  console.log(h.err(new Error()), h.err(new Error(''), '    at x (program.js:1:1)'));
});
t('error multiline message', async (console, util, h) => {
  console.log(h.err(new Error('line one\nline two'), '    at f (program.js:1:1)'));
  console.log(h.err(new Error('line one\nline two')));
});
t('error stack set by program', async (console, util, h) => {
  const e = new Error('msg');
  e.stack = 'Error: msg\n    at custom (somewhere.js:1:1)';
  console.log(e);
  const f = new Error('other');
  f.stack = 'just a string';
  console.log(f);
  const g = new Error('g');
  g.stack = '';
  console.log(g);
});
t('error aggregate', async (console, util, h) => {
  const agg = h.err(new AggregateError([h.err(new Error('one')), h.err(new TypeError('two'))], 'many'));
  console.log(agg);
});
t('error indentation in nested', async (console, util, h) => {
  const e = h.err(new Error('nested error'), '    at f (program.js:1:1)\n    at g (program.js:2:2)');
  console.log({ level1: { level2: e } });
  console.log(new Map([['k', e]]));
});
t('error not instance of Error', async (console, util, h) => {
  const fake = { name: 'Error', message: 'fake', stack: 'Error: fake\n    at x (y.js:1:1)' };
  console.log(fake);
  const e = Object.create(Error.prototype);
  console.log(e);
});
t('error non-error thrown values', async (console, util, h) => {
  console.log(util.inspect({ name: 'MyError', message: 'm' }));
});
t('error with symbol and nested props', async (console, util, h) => {
  const e = new Error('props');
  e.details = { retry: true, attempts: [1, 2] };
  e[Symbol('meta')] = 1;
  console.log(h.err(e));
});
t('error null prototype', async (console, util, h) => {
  const e = h.err(new Error('np'));
  Object.setPrototypeOf(e, null);
  console.log(e);
});

// ---- custom inspect ----

t('custom inspect string', async (console, util, h) => {
  const o = { [Symbol.for('nodejs.util.inspect.custom')]() { return 'CUSTOM'; } };
  console.log(o, [o], { o });
});
t('custom inspect object return', async (console, util, h) => {
  const o = { [Symbol.for('nodejs.util.inspect.custom')]() { return { replaced: true }; } };
  console.log(o);
});
t('custom inspect multiline indent', async (console, util, h) => {
  const o = { [Symbol.for('nodejs.util.inspect.custom')]() { return 'line1\nline2'; } };
  console.log({ a: { b: o } });
});
t('custom inspect depth and options', async (console, util, h) => {
  const o = {
    [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
      return `depth=${depth} breakLength=${options.breakLength} ${inspect({ x: [1, 2] }, options)} ${typeof options.stylize}`;
    },
  };
  console.log(o);
  console.log({ nested: { o } });
  console.log(util.inspect(o, { depth: 5 }));
});
t('custom inspect class', async (console, util, h) => {
  class Money {
    constructor(v) { this.v = v; }
    [Symbol.for('nodejs.util.inspect.custom')]() { return `Money(${this.v})`; }
  }
  console.log(new Money(5), [new Money(1), new Money(2)]);
  console.log(Money.prototype);
});
t('custom inspect returns this', async (console, util, h) => {
  const o = { a: 1, [Symbol.for('nodejs.util.inspect.custom')]() { return this; } };
  console.log(o);
});
t('custom inspect disabled', async (console, util, h) => {
  const o = { a: 1, [Symbol.for('nodejs.util.inspect.custom')]() { return 'X'; } };
  console.log(util.inspect(o, { customInspect: false }));
  console.dir(o);
});

// ---- util.format ----

t('format %s', async (console, util, h) => {
  console.log(util.format('%s|%s|%s|%s', 'str', 42, -0, 10n));
  console.log(util.format('%s %s %s', null, undefined, Symbol('s')));
  console.log(util.format('%s', { a: { b: 1 } }), util.format('%s', [1, [2, [3]]]));
});
t('format %s objects', async (console, util, h) => {
  class WithToString { toString() { return 'custom toString'; } }
  const own = { toString() { return 'own'; } };
  console.log(util.format('%s / %s / %s', new WithToString(), own, new Date(0)));
  console.log(util.format('%s', h.err(new Error('as string'))));
  console.log(util.format('%s', function named() {}), util.format('%s', class K {}));
  console.log(util.format('%s', Object.create(null)));
  const prim = { [Symbol.toPrimitive]() { return 'prim'; } };
  console.log(util.format('%s', prim));
});
t('format %d %i %f', async (console, util, h) => {
  console.log(util.format('%d %d %d %d %d', 42, '42', 1.5, -0, 5n));
  console.log(util.format('%d %d %d', {}, Symbol('s'), ''));
  console.log(util.format('%i %i %i %i', 42.9, '-3.7', 7n, 'x'));
  console.log(util.format('%f %f %f', '1.5e3', 2, Symbol('f')));
});
t('format %j', async (console, util, h) => {
  const c = { a: 1 };
  c.self = c;
  console.log(util.format('%j %j %j', { a: [1, 'x'] }, 'str', undefined));
  console.log(util.format('%j', c));
  console.log(util.format('%j', { toJSON() { return 'tj'; } }));
});
t('format %o %O', async (console, util, h) => {
  console.log(util.format('%O', { a: { b: { c: { d: 1 } } } }));
  console.log(util.format('%o', { a: [1, 2], s: 'x' }));
  console.log(util.format('%o', [1, [2]]));
});
t('format %c %% and unknown', async (console, util, h) => {
  console.log(util.format('%c styled %c', 'color: red', 'x'));
  console.log(util.format('100%% %s', 'sure'), util.format('%%'), util.format('%% %s'), util.format('%x %s', 1));
  console.log(util.format('trailing %'), util.format('%s'), util.format('%'));
});
t('format extra and missing args', async (console, util, h) => {
  console.log(util.format('%s and %s', 'one'));
  console.log(util.format('%s', 'a', 'b', { c: 1 }, 2));
  console.log(util.format(1, 2, '3'), util.format({ a: 1 }, 'x'));
  console.log(util.format());
  console.log(util.format('no specifiers', 'extra'));
});
t('format via console', async (console, util, h) => {
  console.log('%s is %d years', 'Ada', 36);
  console.log('%o', 'just a string');
  console.log('%s', 'x', 'y');
  console.log('pct %', 5);
});

// ---- options ----

t('option compact false', async (console, util, h) => {
  console.log(util.inspect({ a: 1, b: [1, 2], c: { d: 'e' } }, { compact: false }));
  console.log(util.inspect([], { compact: false }), util.inspect({}, { compact: false }));
});
t('option compact true', async (console, util, h) => {
  console.log(util.inspect({ a: 1, b: [1, 2], c: { d: 'e' } }, { compact: true }));
  console.log(util.inspect({ long: 'x'.repeat(70), other: 'y'.repeat(20) }, { compact: true }));
  console.log(util.inspect(new Set([1, 2]), { compact: true }));
  console.log(util.inspect([1, 2, 3, 4, 5, 6, 7, 8], { compact: true }));
});
t('option compact 1', async (console, util, h) => {
  console.log(util.inspect({ a: { b: 1 }, c: 2 }, { compact: 1 }));
  console.log(util.inspect(Array.from({ length: 20 }, (_, i) => i), { compact: 1 }));
});
t('option breakLength', async (console, util, h) => {
  const o = { alpha: 1, beta: 2, gamma: 3, delta: 4, epsilon: 5 };
  console.log(util.inspect(o, { breakLength: 20 }));
  console.log(util.inspect(o, { breakLength: Infinity }));
  console.log(util.inspect(Array.from({ length: 30 }, (_, i) => i), { breakLength: 40 }));
});
t('option sorted', async (console, util, h) => {
  console.log(util.inspect({ c: 1, a: 2, b: 3 }, { sorted: true }));
  console.log(util.inspect(new Set(['c', 'a', 'b']), { sorted: true }));
  console.log(util.inspect(new Map([['c', 1], ['a', 2]]), { sorted: true }));
  console.log(util.inspect({ b: 1, a: 2 }, { sorted: (x, y) => (x < y ? 1 : -1) }));
});
t('option numericSeparator', async (console, util, h) => {
  console.log(util.inspect(1234567.891, { numericSeparator: true }));
  console.log(util.inspect([1000, -123456, 12345678901234567890n, 0.0001234], { numericSeparator: true }));
});
t('option showHidden object', async (console, util, h) => {
  console.log(util.inspect([1, 2], { showHidden: true }));
  const o = {};
  Object.defineProperty(o, 'secret', { value: 's' });
  console.log(util.inspect(o, { showHidden: true }));
});
t('option colors', async (console, util, h) => {
  console.log(JSON.stringify(util.inspect({ n: 1, s: 'x', b: true, u: undefined, z: null, d: new Date(0), r: /x/, sym: Symbol('q') }, { colors: true })));
});
t('inspect legacy arguments', async (console, util, h) => {
  console.log(util.inspect({ a: { b: { c: { d: 1 } } } }, false, 0));
  console.log(util.inspect({ a: { b: { c: { d: 1 } } } }, false, null));
});

// ---- console methods ----

t('console log variants', async (console, util, h) => {
  console.log();
  console.info('info', 1);
  console.debug('debug', { a: 1 });
  console.warn('warn', [1]);
  console.error('error', new Map());
  console.dirxml('dirxml', 2);
});
t('console dir', async (console, util, h) => {
  console.dir({ a: { b: { c: { d: 1 } } } });
  console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
  console.dir({ a: { b: { c: { d: 1 } } } }, { depth: null });
  console.dir('a string');
  console.dir([1, 2], { showHidden: true });
});
t('console assert', async (console, util, h) => {
  console.assert(true, 'never printed');
  console.assert(false);
  console.assert(0, 'zero is falsy');
  console.assert('', 'with %s and %d', 'format', 5);
  console.assert(null, { an: 'object' });
  console.assert(false, 'obj', { a: 1 });
});
t('console count', async (console, util, h) => {
  console.count();
  console.count();
  console.count('x');
  console.count('default');
  console.countReset();
  console.count();
  console.countReset('missing');
  console.count(1);
  console.countReset(1);
  console.count(1);
});
t('console time', async (console, util, h) => {
  h.clock(0);
  console.time();
  h.clock(1.5);
  console.timeLog();
  console.timeLog('default', 'extra', { a: 1 });
  h.clock(12.3456);
  console.timeEnd();
  console.timeEnd();
});
t('console time units', async (console, util, h) => {
  h.clock(0);
  console.time('s');
  console.time('m');
  console.time('h');
  h.clock(2500);
  console.timeEnd('s');
  h.clock(125500);
  console.timeEnd('m');
  h.clock(3725250);
  console.timeEnd('h');
});
t('console time duplicate', async (console, util, h) => {
  h.clock(0);
  console.time('dup');
  console.time('dup');
  h.clock(5);
  console.timeLog('nope');
  console.timeEnd('dup');
});
t('console group', async (console, util, h) => {
  console.log('level 0');
  console.group('Group A');
  console.log('level 1');
  console.group();
  console.log({ multi: 'line', object: { with: ['many', 'entries', 'that', 'wrap'], and: 'more text here to break' } });
  console.groupEnd();
  console.groupCollapsed('collapsed', 2);
  console.log('in collapsed');
  console.groupEnd();
  console.groupEnd();
  console.groupEnd();
  console.log('back');
});
t('console group errors and tables', async (console, util, h) => {
  console.group('errs');
  console.error(h.err(new Error('in group'), '    at f (program.js:1:1)'));
  console.table([{ a: 1 }]);
  console.groupEnd();
});
t('console trace', async (console, util, h) => {
  h.traceFrames('    at main (program.js:2:9)\n    at program.js:5:1');
  console.trace();
  console.trace('here %s', 'now', { a: 1 });
  console.group('g');
  console.trace('grouped');
  console.groupEnd();
});
t('console trace no frames', async (console, util, h) => {
  h.traceFrames('');
  console.trace('lonely');
});

// ---- console.table ----

t('table array of objects', async (console, util, h) => {
  console.table([{ a: 1, b: 'Y' }, { a: 'Z', b: 2 }]);
});
t('table array of primitives', async (console, util, h) => {
  console.table([1, 'two', null, undefined, 3n]);
});
t('table mixed', async (console, util, h) => {
  console.table([{ a: 1 }, 'str', { b: [1, 2, 3, 4] }, { a: { nested: { deep: 1 } }, c: { x: 1, y: 2, z: 3 } }]);
});
t('table object of objects', async (console, util, h) => {
  console.table({ alice: { age: 30, city: 'Paris' }, bob: { age: 25 } });
});
t('table properties', async (console, util, h) => {
  console.table([{ a: 1, b: 2, c: 3 }, { a: 4, b: 5, c: 6 }], ['a', 'c']);
  console.table([{ a: 1 }, 5], ['a']);
});
t('table map and set', async (console, util, h) => {
  console.table(new Map([['k1', { v: 1 }], ['k2', 'two']]));
  console.table(new Set(['x', { y: 1 }]));
});
t('table primitives and empty', async (console, util, h) => {
  console.table('not tabular');
  console.table(5);
  console.table(null);
  console.table([]);
  console.table({});
});
t('table unicode widths', async (console, util, h) => {
  console.table([{ name: '日本', v: 'é' }, { name: 'abc', v: '😀' }]);
});
t('table numeric and symbol keys', async (console, util, h) => {
  console.table([{ 2: 'two', 1: 'one', b: 'b' }]);
  console.table([[1, 2], [3, 4, 5]]);
});
t('table typed array rows', async (console, util, h) => {
  console.table([new Uint8Array([1, 2]), { 0: 'x' }]);
});

// ---- unicode widths in grouping ----

t('grouping cjk strings', async (console, util, h) => {
  console.log(['日本', '中文字', '한국어', 'abc', 'de', 'fghij', '漢字かな', 'x']);
});
t('grouping emoji strings', async (console, util, h) => {
  console.log(['😀', '👍🏽', 'ab', '🎉🎉', 'c', 'é', 'e\u0301', 'ﬁ']);
});

// ---- hostile values ----

t('hostile throwing toString in format', async (console, util, h) => {
  const o = { toString() { throw new Error('nope'); } };
  console.log(util.inspect(o));
  console.log('%d', 5);
});
t('hostile proxy traps passthrough', async (console, util, h) => {
  const p = new Proxy({ a: 1 }, { get(t, k) { return k === 'a' ? 2 : Reflect.get(t, k); } });
  console.log(p);
});

// ---- sabotaged built-ins (the guest replaces them; Node is untouched) ----

t('sabotage basic values', async (console, util, h) => {
  const values = [
    { a: 1, b: 'two', c: [1, 2, 3], d: { e: null } },
    new Map([['k', 1], [{ o: 1 }, [2]]]),
    new Set([1, 'x']),
    Array.from({ length: 30 }, (_, i) => i * 3),
    ['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape'],
    new Date(0),
    /re/g,
    [1, , 3],
    Symbol('s'),
    10n,
    -0,
    "it's",
    'tab\t',
    new Uint8Array([1, 2]),
    function named() {},
    class Cls {},
    Object.create(null),
  ];
  const e = h.err(new Error('sabotaged'), '    at f (program.js:1:1)');
  e.code = 'E';
  values.push(e);
  const circ = { name: 'c' };
  circ.self = circ;
  values.push(circ);
  const table = [{ a: 1, b: 'x' }, { a: 2 }];
  const tagged = { [Symbol.toStringTag]: 'T', a: 1 };
  h.sabotage();
  for (let i = 0; i < values.length; i++) console.log(values[i]);
  console.log('%s %d %i %f %j %o %O %%', 'a', 1, 2, 3, { j: 1 }, [1], { O: 1 });
  console.table(table);
  console.log(tagged);
  console.group('g');
  console.log('x\ny');
  console.groupEnd();
  console.count();
  console.assert(false, 'assert %s', 'fmt');
});
t('sabotage return value', async (console, util, h) => {
  const plain = { a: [1, 2], b: { c: 'd' } };
  const m = new Map([['a', 1]]);
  const s = new Set([1n]);
  h.sabotage();
  console.log(h.rvText(plain));
  console.log(h.rvText(m));
  console.log(h.rvText(s));
});

// ---- line breaking, systematically ----

for (let n = 50; n <= 72; n += 2) {
  t(`width object string ${n}`, `console.log({ key: 'x'.repeat(${n}), b: 1 });`);
}
for (let n = 60; n <= 80; n += 4) {
  t(`width nested object ${n}`, `console.log({ outer: { key: 'y'.repeat(${n - 20}), n: 1 }, z: [1, 2] });`);
}
for (let n = 6; n <= 9; n++) {
  t(`width array length ${n}`, `console.log(Array.from({ length: ${n} }, (_, i) => 'w' + i));`);
}
for (const len of [16, 24, 40, 64, 99, 100, 101, 150]) {
  t(`width numbers ${len}`, `console.log(Array.from({ length: ${len} }, (_, i) => i * 37 % 1000));`);
}
for (const w of [3, 5, 8, 12, 17, 25]) {
  t(`width words ${w}`, `console.log(Array.from({ length: 20 }, (_, i) => String.fromCharCode(97 + i % 26).repeat(1 + (i * 7) % ${w})));`);
}
for (const n of [70, 74, 76, 78, 80, 82]) {
  t(`width string top ${n}`, `console.log(util.inspect('s'.repeat(${n})));`);
  t(`width string nested ${n}`, `console.log([{ s: 'n'.repeat(${n - 10}) }]);`);
}
for (const n of [3, 4, 5, 6, 7]) {
  t(`width keys ${n}`, `const o = {}; for (let i = 0; i < ${n}; i++) o['property' + i] = 'value' + i; console.log(o);`);
}
for (const n of [10, 14, 18]) {
  t(`width array of arrays ${n}`, `console.log(Array.from({ length: ${n} }, (_, i) => [i, i * 2]));`);
}
for (const n of [10, 20]) {
  t(`width array of objects ${n}`, `console.log(Array.from({ length: ${n} }, (_, i) => ({ id: i, name: 'n' + i })));`);
}
for (const n of [2, 3, 4]) {
  t(`depth chain ${n}`, `let o = { leaf: true }; for (let i = 0; i < ${n}; i++) o = { ['k' + i]: o, arr: [o] }; console.log(o);`);
}
for (const n of [7, 12, 27]) {
  t(`width negative numbers ${n}`, `console.log(Array.from({ length: ${n} }, (_, i) => (i % 3 ? -i * 11 : i * 101)));`);
}
for (const n of [7, 15]) {
  t(`width floats ${n}`, `console.log(Array.from({ length: ${n} }, (_, i) => i / 7));`);
}
for (const n of [100, 101, 102]) {
  t(`width strings over max ${n}`, `console.log(Array.from({ length: ${n} }, (_, i) => 's' + i));`);
}
for (const n of [1, 2, 3, 4, 5, 6]) {
  t(`width map entries ${n}`, `console.log(new Map(Array.from({ length: ${n} }, (_, i) => ['key' + i, { value: i, label: 'label' + i }])));`);
}
for (const n of [5, 8, 11]) {
  t(`width set of strings ${n}`, `console.log(new Set(Array.from({ length: ${n} }, (_, i) => 'member-' + i)));`);
}

// ---- more primitives and edge values ----

t('inspect top level primitives', async (console, util, h) => {
  console.log(util.inspect(undefined), util.inspect(null), util.inspect(true), util.inspect(Symbol('x')), util.inspect(5n));
});
t('inspect string in array quoting', async (console, util, h) => {
  console.log(["it's", 'say "x"', 'both \' "', 'all \' " `']);
});
t('object keys needing escapes', async (console, util, h) => {
  console.log({ 'new\nline': 1, 'tab\t': 2, "quote'": 3, 'back\\': 4, '\u0000': 5 });
});
t('object with symbol escape', async (console, util, h) => {
  console.log({ [Symbol('new\nline')]: 1, [Symbol("q'")]: 2 });
});
t('nested empty containers', async (console, util, h) => {
  console.log({ a: {}, b: [], c: new Map(), d: new Set(), e: '' });
});
t('array of empty objects grouping', async (console, util, h) => {
  console.log([{}, {}, {}, {}, {}, {}, {}, {}]);
  console.log([[], [], [], [], [], [], [], []]);
});
t('object with array values long', async (console, util, h) => {
  console.log({ ids: Array.from({ length: 40 }, (_, i) => i + 1000), names: ['a', 'b'] });
});
t('deep array of numbers nested', async (console, util, h) => {
  console.log({ matrix: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] });
  console.log(Array.from({ length: 3 }, (_, i) => Array.from({ length: 10 }, (_, j) => i * 10 + j)));
});
t('global like objects', async (console, util, h) => {
  console.log(Math.PI, typeof Math, util.inspect(JSON[Symbol.toStringTag]));
});
t('mixed console args', async (console, util, h) => {
  console.log('count:', 3, 'items:', ['a', 'b'], 'map:', new Map([[1, 1]]));
  console.log({ a: 1 }, 'then string', 5);
});
t('object getter on class prototype', async (console, util, h) => {
  class P { constructor() { this.x = 1; } get y() { return 2; } }
  console.log(new P());
  console.log(util.inspect(new P(), { showHidden: true }));
});
t('object with many nested arrays of strings', async (console, util, h) => {
  console.log({ tags: ['javascript', 'typescript', 'go', 'rust', 'python', 'ruby', 'java', 'kotlin', 'swift'] });
});
t('very long single-line candidates', async (console, util, h) => {
  console.log([{ name: 'alpha', value: 1 }, { name: 'beta', value: 2 }, { name: 'gamma', value: 3 }]);
  console.log([{ name: 'alpha', value: 1 }, { name: 'beta', value: 2 }, { name: 'gamma', value: 3 }, { name: 'delta', value: 4 }]);
});
t('inspect returns for custom nested options', async (console, util, h) => {
  console.log(util.inspect({ a: [1, 2, 3] }, { compact: false, breakLength: 200 }));
});

// ---- more built-in shapes ----

t('builtin prototypes', async (console, util, h) => {
  console.log(Object.prototype, Array.prototype, Function.prototype);
  console.log(Map.prototype, Set.prototype, Date.prototype, RegExp.prototype);
  console.log(Number.prototype, String.prototype, Boolean.prototype);
});
t('generator and array iterators', async (console, util, h) => {
  function* gen() { yield 1; }
  console.log(gen(), [1, 2][Symbol.iterator](), 'ab'[Symbol.iterator]());
});
t('weakref and finalization', async (console, util, h) => {
  console.log(new WeakRef({}));
});
t('fake builtins by prototype', async (console, util, h) => {
  console.log(Object.create(Map.prototype), Object.create(Array.prototype), Object.create(Date.prototype));
  console.log(Object.create(Error.prototype, { message: { value: 'm' } }));
});
t('null prototype builtins', async (console, util, h) => {
  const s = new Set([1]);
  Object.setPrototypeOf(s, null);
  const d = new Date(0);
  Object.setPrototypeOf(d, null);
  const r = /x/g;
  Object.setPrototypeOf(r, null);
  const n = new Number(3);
  Object.setPrototypeOf(n, null);
  const u = new Uint8Array(2);
  Object.setPrototypeOf(u, null);
  console.log(s, d, r, n, u);
});
t('objects with numeric-like keys', async (console, util, h) => {
  console.log({ 4294967295: 'max', 4294967294: 'idx', '-0': 'negzero', '1.5': 'frac', 1e21: 'big' });
});
t('map special keys', async (console, util, h) => {
  console.log(new Map([['__proto__', 1], ["it's", 2], [Symbol('k'), 3], [undefined, 4]]));
});
t('long keys', async (console, util, h) => {
  console.log({ aVeryLongPropertyNameThatGoesOnAndOnForeverAndEverAndThenSomeMoreCharacters: 1, b: 2 });
});
t('strings split by breakLength', async (console, util, h) => {
  console.log(util.inspect('abc\ndefghijklmnopqrstuvwxyz\nend', { breakLength: 10 }));
  console.log(util.inspect({ a: 'one\ntwo\nthree four five six seven eight nine ten eleven twelve' }));
});
t('array of long strings', async (console, util, h) => {
  console.log(['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)]);
  console.log(['short', 'x'.repeat(75)]);
});
t('array containing multiline entries', async (console, util, h) => {
  console.log([1, 2, 3, 4, 5, 6, { a: 'x'.repeat(50), b: 'y'.repeat(50) }]);
  console.log([{ a: 1, b: 2 }, [1, 2, 3], 'str', 4, 5, 6, 7]);
});
t('deep mixed structure', async (console, util, h) => {
  console.log({
    id: 'run-1',
    results: [
      { tool: 'search', hits: [{ url: 'https://a.example/x', score: 0.93 }, { url: 'https://b.example/y', score: 0.71 }] },
      { tool: 'fetch', status: 200, headers: new Map([['content-type', 'text/html']]) },
    ],
    elapsedMs: 123.456,
  });
});
t('symbol descriptions', async (console, util, h) => {
  console.log(Symbol('with space'), Symbol(''), Symbol('a\nb'), [Symbol('x\ty')]);
  console.log(util.inspect(Symbol("q'")), { [Symbol('')]: 1 });
});
t('object prototype properties showHidden', async (console, util, h) => {
  class Base { get base() { return 1; } }
  class Derived extends Base { constructor() { super(); this.own = 1; } get derived() { return 2; } }
  Derived.prototype.protoValue = 'pv';
  console.log(util.inspect(new Derived(), { showHidden: true }));
});
t('format %o classes and arrow', async (console, util, h) => {
  console.log(util.format('%o', class A { static s = 1; }));
  console.log(util.format('%o', () => {}));
});
t('format %o nested depth', async (console, util, h) => {
  console.log(util.format('%o', { a: { b: { c: { d: { e: { f: 1 } } } } } }));
});
t('console dir options', async (console, util, h) => {
  console.dir({ a: [1, 2, 3, 4, 5] }, { maxArrayLength: 2, breakLength: 20 });
  console.dir(new Map([['a', { b: { c: { d: 1 } } }]]), { depth: 1 });
  console.dir({ s: 'str' }, { colors: false, compact: false });
});
t('error in array grouping', async (console, util, h) => {
  const errs = Array.from({ length: 7 }, (_, i) => h.err(new Error('e' + i)));
  console.log(errs);
});
t('error with stack not string', async (console, util, h) => {
  const e = new Error('m');
  e.stack = { not: 'a string' };
  console.log(e);
  const f = new Error('n');
  f.stack = undefined;
  console.log(f);
});
t('error name not string', async (console, util, h) => {
  const e = new Error('m');
  e.name = 42;
  console.log(h.err(e));
  const f = new Error('n');
  f.name = undefined;
  console.log(h.err(f));
});
t('error message in custom stack', async (console, util, h) => {
  const e = new Error('abc');
  e.stack = 'Error: xyz\n    at f (program.js:1:1)';
  console.log(e);
  const g = new Error('at');
  e.stack = 'prefix at\n    at f (program.js:1:1)';
  console.log(g.message, e);
});
t('error showHidden', async (console, util, h) => {
  const e = h.err(new Error('hidden', { cause: 'c' }), '    at f (program.js:1:1)');
  console.log(util.inspect(e, { showHidden: true }));
  console.log(util.format('%o', h.err(new TypeError('t'))));
  const s = new Error('own');
  s.stack = 'Error: own\n    at g (program.js:2:2)';
  console.log(util.inspect(s, { showHidden: true }));
});
t('errors deep nesting', async (console, util, h) => {
  const e = h.err(new Error('deep'), '    at f (program.js:1:1)');
  console.log({ a: { b: { c: e } } });
  console.log([[[[e]]]]);
});
t('error aggregate with frames', async (console, util, h) => {
  const a = h.err(new AggregateError([h.err(new Error('x'), '    at x (program.js:1:1)')], 'agg'), '    at y (program.js:2:2)');
  console.log(a);
});
t('object with error values grouping', async (console, util, h) => {
  console.log({ errors: [h.err(new Error('a')), h.err(new TypeError('b'))], count: 2 });
});
t('class instance with accessor and symbol tag', async (console, util, h) => {
  class Temperature {
    constructor() { this._c = 20; }
    get f() { return this._c * 9 / 5 + 32; }
    get [Symbol.toStringTag]() { return 'Temp'; }
  }
  console.log(new Temperature(), [new Temperature()]);
});
t('inspect nested custom returning objects', async (console, util, h) => {
  const inner = { [Symbol.for('nodejs.util.inspect.custom')]() { return [1, 2, 3]; } };
  console.log({ inner, list: [inner] });
  const withDepth = { [Symbol.for('nodejs.util.inspect.custom')](depth) { return { depth }; } };
  console.log({ a: { b: withDepth } });
});
t('custom inspect on prototype object itself', async (console, util, h) => {
  class Widget { [Symbol.for('nodejs.util.inspect.custom')]() { return 'Widget!'; } }
  console.log(Widget.prototype, new Widget());
});
t('array with getter element', async (console, util, h) => {
  const a = [1, 2];
  Object.defineProperty(a, 1, { get() { return 5; }, enumerable: true });
  Object.defineProperty(a, 2, { set(v) {}, enumerable: true });
  console.log(a);
});
t('numbers formatting edge', async (console, util, h) => {
  console.log([1e-7, 1e+100, 123e-20, 0.000001, 1234567890123456789, -1e-7, 2 ** 31, -(2 ** 31)]);
  console.log(util.format('%d %i %f', '0x10', '0x10', '0x10'));
  console.log(util.format('%d', '1e3'), util.format('%i', 1e21), util.format('%f', '  42  '));
});
t('typed array kinds', async (console, util, h) => {
  console.log(new Int8Array([-1, 127]), new Uint32Array([4294967295]), new Int32Array([-5]), new Float32Array([1 / 3]));
  console.log(new BigUint64Array([18446744073709551615n]), new Float64Array(8).fill(1.25));
});
t('arraybuffer views of same buffer', async (console, util, h) => {
  const b = new ArrayBuffer(8);
  const v = new Uint8Array(b, 2, 3);
  v.set([7, 8, 9]);
  console.log(v, new DataView(b), { b });
});
t('set of mixed and nested sets', async (console, util, h) => {
  console.log(new Set([new Set([1]), new Map([[1, new Set()]]), [new Set()]]));
});
t('map keys objects long', async (console, util, h) => {
  console.log(new Map([[{ id: 1, name: 'first element key' }, { value: 'first element value', n: 1 }], [{ id: 2 }, 'v']]));
});
t('format %s with boxed and special objects', async (console, util, h) => {
  console.log(util.format('%s %s %s', new Number(5), new String('boxed'), Object(1n)));
  console.log(util.format('%s %s', new Map([[1, 2]]), new Set([1])));
  console.log(util.format('%s', { a: 1, toString: undefined }));
  console.log(util.format('%s', [1, 'two', [3]]));
});
t('format %j edge values', async (console, util, h) => {
  console.log(util.format('%j %j %j %j', null, 1, 'q"uote', [undefined, () => {}]));
  console.log(util.format('%j', new Map([[1, 2]])), util.format('%j', new Date(0)));
});
t('format with percent at end and many args', async (console, util, h) => {
  console.log(util.format('%s%s%s', 1, 2, 3), util.format('%s%%%s', 'a', 'b'), util.format('%%s', 'x'));
  console.log(util.format('a%', 'b'), util.format('%d%%', 50), util.format('%-s', 1));
});
t('console log symbols first arg', async (console, util, h) => {
  console.log(Symbol('first'), 'then');
  console.log(5, '%s', 'not a format');
  console.log(null, undefined);
});
t('console table nested columns and index keys', async (console, util, h) => {
  console.table({ a: [1, 2], b: [3] });
  console.table([[1, { x: 1 }], ['s', null]]);
  console.table([{ name: 'a'.repeat(12) }, { name: '' }]);
});
t('console table properties not present', async (console, util, h) => {
  console.table([{ a: 1 }, { b: 2 }], ['a', 'z']);
  console.table(new Map([[{ k: 1 }, [1, 2, 3, 4]]]));
});
t('console group nesting deep', async (console, util, h) => {
  for (let i = 0; i < 4; i++) console.group('level ' + i);
  console.log([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]);
  console.table([{ a: 1 }]);
  for (let i = 0; i < 5; i++) console.groupEnd();
  console.log('out');
});
t('console count labels', async (console, util, h) => {
  console.count('a');
  console.count({ toString() { return 'obj'; } });
  console.count(null);
  console.count(undefined);
  console.countReset('a');
  console.count('a');
});
t('console assert non-string message', async (console, util, h) => {
  console.assert(false, 42, 'x');
  console.assert(false, { a: 1 }, 'second');
  console.assert(false, '%o', [1]);
  console.assert(undefined, null);
});
t('console time labels', async (console, util, h) => {
  h.clock(100);
  console.time('a');
  console.time(123);
  h.clock(100.0005);
  console.timeEnd('a');
  h.clock(1100);
  console.timeLog(123, 'data');
  console.timeEnd('123');
  h.clock(61100);
  console.time();
  h.clock(61100 + 59999.9999);
  console.timeEnd();
});
t('inspect depth negative and zero', async (console, util, h) => {
  console.log(util.inspect({ a: 1 }, { depth: -1 }), util.inspect([1], { depth: -1 }), util.inspect(new Map([[1, 2]]), { depth: -1 }));
  console.log(util.inspect({ a: { b: 1 }, c: [1] }, { depth: 0 }));
  console.log(util.inspect(h.err(new Error('d')), { depth: -1 }));
});
t('inspect maxArrayLength on typed and buffer', async (console, util, h) => {
  console.log(util.inspect(new Uint8Array(10), { maxArrayLength: 3 }), util.inspect(new ArrayBuffer(10), { maxArrayLength: 3 }));
  console.log(util.inspect('x'.repeat(30), { maxStringLength: 5, breakLength: 10 }));
});
t('inspect compact true nesting', async (console, util, h) => {
  console.log(util.inspect({ a: { b: { c: 1 } }, d: [1, 2, { e: 'x'.repeat(80) }] }, { compact: true }));
  console.log(util.inspect(new Map([['k', { v: [1, 2] }]]), { compact: true, breakLength: 10 }));
});
t('inspect compact false nesting', async (console, util, h) => {
  console.log(util.inspect({ a: [], b: {}, c: [1], d: new Map([[1, { x: 1 }]]) }, { compact: false }));
  console.log(util.inspect(h.err(new Error('cf'), '    at f (program.js:1:1)'), { compact: false }));
});
t('circular inside map set and custom', async (console, util, h) => {
  const o = { list: [] };
  o.list.push(o, new Map([['o', o]]), new Set([o]));
  console.log(o);
  const a = { name: 'a' };
  const b = { name: 'b' };
  a.b = b;
  b.a = a;
  console.log([a, b]);
});
t('circular error cause', async (console, util, h) => {
  const e = h.err(new Error('loop'));
  e.cause = e;
  console.log(e);
});
// ---- what programs print most: tool results ----

t('tool result search hits', async (console, util, h) => {
  const hits = Array.from({ length: 5 }, (_, i) => ({
    title: 'Result number ' + i + ' about something interesting',
    url: 'https://example.com/articles/' + i + '/a-long-slug-for-the-article',
    snippet: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore.',
    score: Math.round((1 - i / 10) * 1000) / 1000,
  }));
  console.log(hits);
  console.log('found %d hits:', hits.length, hits.map((x) => x.title));
});
t('tool result nested config', async (console, util, h) => {
  console.log({
    service: { name: 'api', replicas: 3, env: { NODE_ENV: 'production', LOG_LEVEL: 'info' }, ports: [80, 443] },
    database: { host: 'db.internal', pool: { min: 2, max: 10, idle: { timeoutMs: 30000 } } },
    features: ['a', 'b'],
  });
});
t('tool result file listing', async (console, util, h) => {
  const files = Array.from({ length: 150 }, (_, i) => 'src/module' + i + '/index.' + (i % 3 ? 'ts' : 'js'));
  console.log(files);
  console.log(files.length, 'files');
});
t('tool result table of records', async (console, util, h) => {
  const rows = [
    { id: 1, name: 'Alice', email: 'alice@example.com', active: true, tags: ['admin'] },
    { id: 2, name: 'Bob', email: 'bob@example.com', active: false, tags: [] },
    { id: 3, name: 'Carol', email: 'carol@example.com', active: true, tags: ['dev', 'ops', 'qa', 'sec'] },
  ];
  console.table(rows);
  console.table(rows, ['name', 'active']);
  console.log(rows);
});
t('tool result numbers and stats', async (console, util, h) => {
  const values = [3.14159, 2.71828, 1.41421, 1.73205, 0.57721, 1.61803, 2.50290, 4.66920];
  console.log({ mean: values.reduce((a, b) => a + b) / values.length, values, sorted: [...values].sort((a, b) => a - b) });
  console.log(Object.fromEntries(values.map((v, i) => ['v' + i, v])));
});
t('tool result long text', async (console, util, h) => {
  const text = 'First paragraph of a document.\nIt has several lines.\n\nSecond paragraph after a blank line, with a fairly long sentence that goes past eighty columns.';
  console.log({ path: 'README.md', content: text, bytes: text.length });
  console.log(text);
  console.log([text]);
});
t('tool error caught and printed', async (console, util, h) => {
  class ToolError extends Error {
    constructor(tool, code, message) {
      super(message);
      Object.defineProperty(this, 'name', { value: 'ToolError', writable: true, configurable: true });
      this.code = code;
      this.tool = tool;
    }
  }
  const e = h.err(new ToolError('read_file', 'TOOL_FAILED', 'ENOENT: no such file or directory'), '    at main (program.js:4:17)');
  console.log(e);
  console.error('failed:', e);
  console.log('%s', e);
  console.log(`${e}`);
  console.log({ ok: false, error: e });
  console.log(e.message, e.code);
});
t('map of results', async (console, util, h) => {
  const byTool = new Map();
  byTool.set('search', { calls: 3, ms: [120, 98, 143] });
  byTool.set('fetch', { calls: 1, ms: [523] });
  console.log(byTool);
  console.log([...byTool.keys()], Object.fromEntries(byTool));
});
t('dates in records', async (console, util, h) => {
  console.log([{ at: new Date(Date.UTC(2024, 0, 15, 9, 30)), event: 'start' }, { at: new Date(Date.UTC(2024, 0, 15, 17, 5, 30, 250)), event: 'stop' }]);
});
// ---- the run's return value ----

const rvValues = [
  ['plain object', '({ a: 1, b: "two", c: [true, null] })'],
  ['array', '[1, 2, 3]'],
  ['string', '"hello"'],
  ['number', '42'],
  ['negative zero', '-0'],
  ['null', 'null'],
  ['boolean', 'false'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['bigint', '12345678901234567890n'],
  ['nested undefined member', '({ a: 1, b: undefined })'],
  ['array undefined member', '[1, undefined, 3]'],
  ['map string keys', 'new Map([["a", 1], ["b", { c: 2 }]])'],
  ['map mixed keys', 'new Map([[1, "one"], ["two", 2], [{ k: 1 }, [3]]])'],
  ['set', 'new Set([1, "x", { y: 2 }])'],
  ['date', 'new Date(0)'],
  ['date in object', '({ at: new Date(86400000) })'],
  ['invalid date', 'new Date(NaN)'],
  ['class instance', '(() => { class Point { constructor() { this.x = 1; this.y = 2; } } return new Point(); })()'],
  ['class with toJSON', '(() => { class P { toJSON() { return { p: true }; } } return new P(); })()'],
  ['toJSON returning map', '({ toJSON() { return new Map([["m", 1]]); } })'],
  ['cycle', '(() => { const o = { name: "o" }; o.self = o; return o; })()'],
  ['shared not cycle', '(() => { const s = { v: 1 }; return { a: s, b: s }; })()'],
  ['sparse array', '[1, , 3]'],
  ['symbol member', '({ s: Symbol("x"), a: 1 })'],
  ['function member', '({ f() {}, a: 1 })'],
  ['function', '(function named() {})'],
  ['symbol', 'Symbol("top")'],
  ['typed array', 'new Uint8Array([1, 2, 3])'],
  ['error', '(() => { const e = new Error("bad"); e.code = "E_BAD"; e.stack = "Error: bad"; return e; })()'],
  ['regexp', '/ab+c/gi'],
  ['boxed number', 'new Number(5)'],
  ['null prototype object', '(() => { const o = Object.create(null); o.a = 1; return o; })()'],
  ['getter object', '({ get g() { return 1; } })'],
  ['array extra property', '(() => { const a = [1]; a.x = 2; return a; })()'],
  ['nested big', '({ users: Array.from({ length: 3 }, (_, i) => ({ id: i, tags: ["a", "b"], meta: { score: i * 1.5 } })) })'],
  ['deep no elision', '({ a: { b: { c: { d: { e: { f: new Map([["g", 1]]) } } } } } })'],
  ['long array no elision', 'new Set(Array.from({ length: 150 }, (_, i) => i))'],
  ['long string no elision', '({ s: "x".repeat(12000), m: new Map() })'],
  ['bigint nested', '({ big: 1n, list: [2n] })'],
  ['NaN nested', '({ n: NaN, i: -Infinity, ok: 1 })'],
  ['map with undefined value', 'new Map([["a", undefined], ["b", null]])'],
  ['map nested in array', '[new Map([[1, new Set([2])]])]'],
  ['promise', 'Promise.resolve(1)'],
  ['weakmap', 'new WeakMap()'],
  ['string with unicode', '"日本語 \\u2028 é"'],
  ['empty object', '({})'],
  ['empty array', '[]'],
  ['float', '0.1 + 0.2'],
  ['array of mixed plain', '[1, "a", null, true, { b: [] }]'],
  ['object with date toJSON and map', '({ d: new Date(0), m: new Map([["k", "v"]]) })'],
  ['boxed string', 'new String("boxed")'],
  ['error in object', '(() => { const e = new TypeError("t"); e.stack = "TypeError: t"; return { e }; })()'],
  ['map circular', '(() => { const m = new Map(); m.set("self", m); return m; })()'],
  ['symbol keyed object', '({ [Symbol("k")]: 1, a: 2 })'],
];
for (const [name, expr] of rvValues) {
  t(`returnValue ${name}`, `const v = ${expr};\nif (v instanceof Promise) h.track(v);\nawait h.tick();\nconsole.log(JSON.stringify(h.rv(v)));`);
}

// ---- the Node side of the helpers ----

const isPlainProto = (p) => p === null || p === Object.prototype;

// strictJSON: JSON.stringify(v) when v is plain data, else undefined.
function strictJSON(v, seen = new Set()) {
  const walk = (x, key) => {
    if (x !== null && (typeof x === 'object' || typeof x === 'bigint') && typeof x.toJSON === 'function') x = x.toJSON(key);
    if (x === null || typeof x === 'string' || typeof x === 'boolean') return true;
    if (typeof x === 'number') return Number.isFinite(x);
    if (typeof x !== 'object') return false;
    if (seen.has(x)) return false;
    seen.add(x);
    let ok;
    if (Array.isArray(x)) {
      ok = Object.getPrototypeOf(x) === Array.prototype && Reflect.ownKeys(x).length === x.length + 1;
      for (let i = 0; ok && i < x.length; i++) ok = Object.hasOwn(x, i) && walk(x[i], String(i));
    } else {
      ok = isPlainProto(Object.getPrototypeOf(x)) && !util.types.isBoxedPrimitive(x) && !(x instanceof Error) &&
        Object.getOwnPropertySymbols(x).every((s) => !Object.prototype.propertyIsEnumerable.call(x, s));
      for (const k of Object.keys(x)) if (ok) ok = walk(x[k], k);
    }
    seen.delete(x);
    return ok;
  };
  return walk(v, '') ? JSON.stringify(v) : undefined;
}

// convertJSON: the JSON of v with what JSON cannot hold converted.
function convertJSON(v) {
  const stack = [];
  const conv = (x, key) => {
    try {
      if (x !== null && (typeof x === 'object' || typeof x === 'bigint') && typeof x.toJSON === 'function') x = x.toJSON(key);
    } catch { /* as is */ }
    if (x === null) return null;
    switch (typeof x) {
      case 'string': case 'boolean': return x;
      case 'number': return Number.isFinite(x) ? x : null;
      case 'bigint': return String(x);
      case 'object': break;
      default: return undefined;
    }
    if (stack.includes(x)) return '[Circular]';
    stack.push(x);
    let out;
    const items = (list) => list.map((y, i) => { const c = conv(y, String(i)); return c === undefined ? null : c; });
    const props = (obj, keys, into = {}) => {
      for (const k of keys) { const c = conv(obj[k], k); if (c !== undefined) into[k] = c; }
      return into;
    };
    if (Array.isArray(x)) out = items(Array.from({ length: x.length }, (_, i) => x[i]));
    else if (util.types.isTypedArray(x)) out = items(Array.from(x));
    else if (util.types.isMap(x)) {
      const entries = [...x.entries()];
      if (entries.every(([k]) => typeof k === 'string')) {
        out = {};
        for (const [k, val] of entries) { const c = conv(val, k); if (c !== undefined) out[k] = c; }
      } else {
        out = entries.map(([k, val]) => [conv(k, '0') ?? null, conv(val, '1') ?? null]);
      }
    } else if (util.types.isSet(x)) out = items([...x]);
    else if (util.types.isNumberObject(x)) out = conv(x.valueOf(), '');
    else if (util.types.isStringObject(x)) out = x.valueOf();
    else if (util.types.isBooleanObject(x)) out = x.valueOf();
    else if (util.types.isBigIntObject(x)) out = String(x.valueOf());
    else if (util.types.isRegExp(x)) out = String(x);
    else if (util.types.isDate(x)) out = Number.isNaN(x.getTime()) ? null : x.toISOString();
    else if (x instanceof Error) {
      out = {};
      const keys = Object.keys(x);
      for (const f of ['name', 'message']) {
        if (keys.includes(f) || x[f] === undefined) continue;
        const c = conv(x[f], f);
        if (c !== undefined) out[f] = c;
      }
      props(x, keys, out);
    } else out = props(x, Object.keys(x));
    stack.pop();
    return out;
  };
  const r = conv(v, '');
  return r === undefined ? 'null' : JSON.stringify(r);
}

function rv(v) {
  const json = strictJSON(v);
  if (json !== undefined) return ['json', json];
  return ['text', util.inspect(v, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }), convertJSON(v)];
}

const AsyncFunction = (async () => {}).constructor;

async function run(c) {
  let out = '';
  const stream = { write(s) { out += s; return true; } };
  const con = new Console({ stdout: stream, stderr: stream, ignoreErrors: false, colorMode: false });
  let now = 0;
  const savedHrtime = process.hrtime;
  const savedEmitWarning = process.emitWarning;
  const savedPrepare = Error.prepareStackTrace;
  process.hrtime = (prev) => {
    const ns = BigInt(Math.round(now * 1e6));
    const cur = [Number(ns / 1000000000n), Number(ns % 1000000000n)];
    if (!prev) return cur;
    let s = cur[0] - prev[0];
    let n = cur[1] - prev[1];
    if (n < 0) { s--; n += 1e9; }
    return [s, n];
  };
  process.emitWarning = (msg) => { out += `Warning: ${msg}\n`; };
  const h = {
    err(e, frames = '') {
      const header = e.stack.slice(0, e.stack.indexOf('\n    at '));
      e.stack = frames === '' ? header : `${header}\n${frames}`;
      return e;
    },
    traceFrames(frames) {
      Error.prepareStackTrace = (err) => {
        const header = Error.prototype.toString.call(err);
        return frames === '' ? header : `${header}\n${frames}`;
      };
    },
    clock(ms) { now = ms; },
    track(p) { p.catch(() => {}); return p; },
    async tick() { for (let i = 0; i < 10; i++) await null; },
    rv,
    rvText(v) { return JSON.stringify(rv(v)); },
    sabotage() {},
  };
  try {
    await new AsyncFunction('console', 'util', 'h', c.code)(con, { format: util.format, inspect: util.inspect }, h);
  } finally {
    process.hrtime = savedHrtime;
    process.emitWarning = savedEmitWarning;
    Error.prepareStackTrace = savedPrepare;
  }
  return out;
}

(async () => {
  const out = [];
  for (const c of cases) {
    let expected;
    try {
      expected = await run(c);
    } catch (e) {
      console.error(`gen.js: case ${c.name}: ${e.stack}`);
      process.exit(1);
    }
    out.push({ name: c.name, code: c.code, expected });
  }
  const file = path.join(__dirname, 'cases.json');
  fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
  console.log(`gen.js: ${out.length} cases written to ${path.relative(process.cwd(), file)}`);
})();
