// inspect.js: Node 20's util.format, util.inspect and console for the ptc
// guest (docs/ARCHITECTURE.md, "What the model sees"). Written for QuickJS-ng from
// what Node's lib/internal/util/inspect.js and lib/internal/console do; no
// code of Node's is copied. testdata/inspect/cases.json (Node 20's output)
// holds it to Node; host/inspect_test.go runs the table.
//
// The script evaluates to a factory, called with the natives:
//   write(text)      one call per console call; text has no trailing
//                    newline and may hold several lines.
//   now()            milliseconds since the run started (console.time).
//   frames(err)      err's stack frames as Node prints them, the program's
//                    only ("    at f (program.js:3:5)" lines joined by
//                    "\n"), or ''.
//   promiseState(p)  optional: ['pending'], ['fulfilled', value] or
//                    ['rejected', reason]; undefined when p is no promise.
// It returns { console, format, inspect, returnValue }: console (frozen),
// util.format, util.inspect, and returnValue(v[, limitBytes]) for the run's
// return value.
//
// Every built-in it relies on is captured when the factory runs, before any
// program: a program that replaces JSON, Object.keys, Array or String
// methods, Map iterators, RegExp.prototype.exec or a built-in's
// Symbol.toStringTag changes nothing here. Only the program's own data
// (getters, proxies, Symbol.toStringTag, constructor names,
// [Symbol.for('nodejs.util.inspect.custom')]) shows, as in Node; no value
// makes console.* throw. There are no template literals: QuickJS compiles
// them to String.prototype.concat calls, which a program can replace;
// strings are joined with +.
(function (native) {
  'use strict';

  // ---- primordials ----

  const FunctionPrototype = Function.prototype;
  const uncurryThis = FunctionPrototype.bind.bind(FunctionPrototype.call);
  const ReflectApply = Reflect.apply;
  const ReflectOwnKeys = Reflect.ownKeys;
  const ObjectPrototype = Object.prototype;
  const ObjectKeys = Object.keys;
  const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
  const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
  const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectFreeze = Object.freeze;
  const ObjectPrototypeHasOwnProperty = uncurryThis(ObjectPrototype.hasOwnProperty);
  const ObjectPrototypePropertyIsEnumerable = uncurryThis(ObjectPrototype.propertyIsEnumerable);
  const ObjectPrototypeToString = uncurryThis(ObjectPrototype.toString);
  const ObjectCtor = Object;
  const FunctionCtor = Function;
  const ArrayPrototype = Array.prototype;
  const ErrorPrototype = Error.prototype;
  const RegExpPrototype = RegExp.prototype;
  const ArrayIsArray = Array.isArray;
  const ArrayPrototypeSort = uncurryThis(Array.prototype.sort);
  const StringCtor = String;
  const NumberCtor = Number;
  const StringFromCharCode = String.fromCharCode;
  const StringPrototypeSlice = uncurryThis(String.prototype.slice);
  const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
  const StringPrototypeCodePointAt = uncurryThis(String.prototype.codePointAt);
  const StringPrototypeIndexOf = uncurryThis(String.prototype.indexOf);
  const StringPrototypeIncludes = uncurryThis(String.prototype.includes);
  const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith);
  const StringPrototypeEndsWith = uncurryThis(String.prototype.endsWith);
  const StringPrototypeRepeat = uncurryThis(String.prototype.repeat);
  const StringPrototypeNormalize = uncurryThis(String.prototype.normalize);
  const StringPrototypeToLowerCase = uncurryThis(String.prototype.toLowerCase);
  const StringPrototypeValueOf = uncurryThis(String.prototype.valueOf);
  const NumberPrototypeValueOf = uncurryThis(Number.prototype.valueOf);
  const NumberPrototypeToString = uncurryThis(Number.prototype.toString);
  const NumberPrototypeToFixed = uncurryThis(Number.prototype.toFixed);
  const BooleanPrototypeValueOf = uncurryThis(Boolean.prototype.valueOf);
  const BigIntPrototypeValueOf = uncurryThis(BigInt.prototype.valueOf);
  const SymbolPrototypeValueOf = uncurryThis(Symbol.prototype.valueOf);
  const SymbolPrototypeToString = uncurryThis(Symbol.prototype.toString);
  const NumberIsNaN = Number.isNaN;
  const NumberIsFinite = Number.isFinite;
  const NumberParseInt = Number.parseInt;
  const NumberParseFloat = Number.parseFloat;
  const MathFloor = Math.floor;
  const MathMax = Math.max;
  const MathMin = Math.min;
  const MathRound = Math.round;
  const MathSqrt = Math.sqrt;
  const MathTrunc = Math.trunc;
  const MathCeil = Math.ceil;
  const JSONStringify = JSON.stringify;
  const DatePrototypeGetTime = uncurryThis(Date.prototype.getTime);
  const DatePrototypeToISOString = uncurryThis(Date.prototype.toISOString);
  const ErrorCtor = Error;
  const ErrorPrototypeToString = uncurryThis(Error.prototype.toString);
  const ErrorIsError = typeof Error.isError === 'function' ? Error.isError : null;
  const ErrorCaptureStackTrace = typeof Error.captureStackTrace === 'function' ? Error.captureStackTrace : null;
  const FunctionPrototypeToString = uncurryThis(FunctionPrototype.toString);
  const RegExpPrototypeExec = uncurryThis(RegExp.prototype.exec);
  const getter = (proto, key) => uncurryThis(ObjectGetOwnPropertyDescriptor(proto, key).get);
  const RegExpPrototypeGetSource = getter(RegExp.prototype, 'source');
  const regExpFlagGetters = [];
  {
    // The flags in the order RegExp.prototype.flags writes them.
    const flags = [['hasIndices', 'd'], ['global', 'g'], ['ignoreCase', 'i'], ['multiline', 'm'],
      ['dotAll', 's'], ['unicode', 'u'], ['unicodeSets', 'v'], ['sticky', 'y']];
    for (let i = 0; i < flags.length; i++) {
      const d = ObjectGetOwnPropertyDescriptor(RegExp.prototype, flags[i][0]);
      if (d !== undefined && typeof d.get === 'function') {
        regExpFlagGetters[regExpFlagGetters.length] = [uncurryThis(d.get), flags[i][1]];
      }
    }
  }
  const MapCtor = Map;
  const SetCtor = Set;
  const WeakMapCtor = WeakMap;
  const MapPrototypeGetSize = getter(Map.prototype, 'size');
  const MapPrototypeGet = uncurryThis(Map.prototype.get);
  const MapPrototypeSet = uncurryThis(Map.prototype.set);
  const MapPrototypeHas = uncurryThis(Map.prototype.has);
  const MapPrototypeDelete = uncurryThis(Map.prototype.delete);
  const MapPrototypeClear = uncurryThis(Map.prototype.clear);
  const MapPrototypeEntries = uncurryThis(Map.prototype.entries);
  const SetPrototypeGetSize = getter(Set.prototype, 'size');
  const SetPrototypeValues = uncurryThis(Set.prototype.values);
  const SetPrototypeHas = uncurryThis(Set.prototype.has);
  const SetPrototypeAdd = uncurryThis(Set.prototype.add);
  const MapIteratorPrototype = ObjectGetPrototypeOf(new Map().entries());
  const SetIteratorPrototype = ObjectGetPrototypeOf(new Set().values());
  const MapIteratorNext = uncurryThis(MapIteratorPrototype.next);
  const SetIteratorNext = uncurryThis(SetIteratorPrototype.next);
  const WeakMapPrototypeHas = uncurryThis(WeakMap.prototype.has);
  const WeakMapPrototypeGet = uncurryThis(WeakMap.prototype.get);
  const WeakMapPrototypeSet = uncurryThis(WeakMap.prototype.set);
  const WeakSetPrototypeHas = uncurryThis(WeakSet.prototype.has);
  const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
  const TypedArrayPrototypeGetSymbolToStringTag = getter(TypedArrayPrototype, Symbol.toStringTag);
  const TypedArrayPrototypeGetLength = getter(TypedArrayPrototype, 'length');
  const TypedArrayPrototypeGetByteLength = getter(TypedArrayPrototype, 'byteLength');
  const TypedArrayPrototypeGetByteOffset = getter(TypedArrayPrototype, 'byteOffset');
  const TypedArrayPrototypeGetBuffer = getter(TypedArrayPrototype, 'buffer');
  const Uint8ArrayCtor = Uint8Array;
  const ArrayBufferPrototypeGetByteLength = getter(ArrayBuffer.prototype, 'byteLength');
  const SharedArrayBufferPrototypeGetByteLength = typeof SharedArrayBuffer === 'function' ?
    getter(SharedArrayBuffer.prototype, 'byteLength') : null;
  const DataViewPrototypeGetBuffer = getter(DataView.prototype, 'buffer');
  const SymbolIterator = Symbol.iterator;
  const SymbolToStringTag = Symbol.toStringTag;
  const SymbolToPrimitive = Symbol.toPrimitive;
  const customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');
  const AsyncFunctionPrototype = ObjectGetPrototypeOf(async function () {});
  const GeneratorFunctionPrototype = ObjectGetPrototypeOf(function* () {});
  const AsyncGeneratorFunctionPrototype = ObjectGetPrototypeOf(async function* () {});
  // The Symbol.toStringTag of the built-in objects as they were when the
  // factory ran (null: %TypedArray%.prototype's, the array's type name), and
  // which built-ins had none: a program that redefines one changes nothing.
  const builtinTags = new Map();
  const kNoTag = {};
  {
    const noteTag = (o) => {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function')) return;
      if (builtinTags.has(o)) return;
      const d = ObjectGetOwnPropertyDescriptor(o, Symbol.toStringTag);
      if (d === undefined) {
        builtinTags.set(o, kNoTag);
      } else if (o === TypedArrayPrototype) {
        builtinTags.set(o, null);
      } else if ('value' in d) {
        builtinTags.set(o, d.value);
      } else if (typeof d.get === 'function') {
        try {
          builtinTags.set(o, ReflectApply(d.get, o, []));
        } catch {
          builtinTags.set(o, kNoTag);
        }
      }
    };
    const noteWithPrototype = (o) => {
      noteTag(o);
      if (typeof o === 'function') {
        const d = ObjectGetOwnPropertyDescriptor(o, 'prototype');
        if (d !== undefined) noteTag(d.value);
      }
    };
    const names = ObjectGetOwnPropertyNames(globalThis);
    for (let i = 0; i < names.length; i++) {
      const d = ObjectGetOwnPropertyDescriptor(globalThis, names[i]);
      if (d !== undefined && 'value' in d) noteWithPrototype(d.value);
    }
    const generator = ObjectGetPrototypeOf(function* () {});
    const asyncGenerator = ObjectGetPrototypeOf(async function* () {});
    const extra = [TypedArrayPrototype, ObjectGetPrototypeOf(TypedArrayPrototype), MapIteratorPrototype,
      SetIteratorPrototype, ObjectGetPrototypeOf([][Symbol.iterator]()), ObjectGetPrototypeOf(''[Symbol.iterator]()),
      ObjectGetPrototypeOf(/x/[Symbol.matchAll]('')), ObjectGetPrototypeOf(ObjectGetPrototypeOf([][Symbol.iterator]())),
      generator, generator.prototype, asyncGenerator, asyncGenerator.prototype, AsyncFunctionPrototype,
      ObjectGetPrototypeOf(TypedArrayPrototype.constructor)];
    for (let i = 0; i < extra.length; i++) noteWithPrototype(extra[i]);
  }
  
  const nativeWrite = native.write;
  const nativeNow = native.now;
  const nativeFrames = native.frames;
  const nativePromiseState = typeof native.promiseState === 'function' ? native.promiseState : null;

  // ---- small helpers over our own arrays and strings ----

  const push = (arr, v) => { arr[arr.length] = v; };
  const newMap = () => new MapCtor();
  const includesValue = (arr, v) => {
    for (let i = 0; i < arr.length; i++) if (arr[i] === v) return true;
    return false;
  };
  const indexOfValue = (arr, v) => {
    for (let i = 0; i < arr.length; i++) if (arr[i] === v) return i;
    return -1;
  };
  const spliceOne = (arr, index) => {
    for (let i = index; i < arr.length - 1; i++) arr[i] = arr[i + 1];
    arr.length--;
  };
  const join = (arr, sep) => {
    let s = '';
    if (arr.length !== 0) {
      const last = arr.length - 1;
      for (let i = 0; i < last; i++) { s += arr[i]; s += sep; }
      s += arr[last];
    }
    return s;
  };
  const replaceAll = (str, from, to) => {
    let out = '';
    let last = 0;
    for (;;) {
      const i = StringPrototypeIndexOf(str, from, last);
      if (i === -1) break;
      out += StringPrototypeSlice(str, last, i) + to;
      last = i + from.length;
    }
    return last === 0 ? str : out + StringPrototypeSlice(str, last);
  };
  const split = (str, sep) => {
    const out = [];
    let last = 0;
    for (;;) {
      const i = StringPrototypeIndexOf(str, sep, last);
      if (i === -1) break;
      push(out, StringPrototypeSlice(str, last, i));
      last = i + sep.length;
    }
    push(out, StringPrototypeSlice(str, last));
    return out;
  };
  const spaces = (n) => StringPrototypeRepeat(' ', n);
  const padStart = (s, n) => (s.length >= n ? s : spaces(n - s.length) + s);
  const padEnd = (s, n) => (s.length >= n ? s : s + spaces(n - s.length));
  const isStackOverflow = (err) => {
    try {
      return err !== null && typeof err === 'object' && err.name === 'RangeError' &&
        err.message === 'Maximum call stack size exceeded';
    } catch {
      return false;
    }
  };
  // errorMessage describes an exception from the program's data without
  // ever throwing itself.
  const errorMessage = (err) => {
    try {
      if (err !== null && (typeof err === 'object' || typeof err === 'function')) {
        const m = err.message;
        if (typeof m === 'string') return m;
      }
      return StringCtor(err);
    } catch {
      return 'unknown error';
    }
  };
  const inspectThrew = (err) => ('<Inspection threw (' + (errorMessage(err)) + ')>');
  // toStr is String(v) that cannot throw: a throwing toString falls back to
  // how inspect shows the value.
  const toStr = (v) => {
    if (typeof v === 'string') return v;
    try {
      return StringCtor(v);
    } catch {
      return inspect(v);
    }
  };

  // ---- options ----

  const inspectDefaultOptions = {
    __proto__: null,
    showHidden: false,
    depth: 2,
    colors: false,
    customInspect: true,
    showProxy: false,
    maxArrayLength: 100,
    maxStringLength: 10000,
    breakLength: 80,
    compact: 3,
    sorted: false,
    getters: false,
    numericSeparator: false,
  };

  const kObjectType = 0;
  const kArrayType = 1;
  const kArrayExtrasType = 2;
  const kMinLineLength = 16;

  // The names of the globals Node 20 treats as built-in (its globalThis's
  // capitalised names): a prototype whose constructor has one of them is
  // not the program's own.
  const builtInObjects = new SetCtor();
  {
    const names = ['AbortController', 'AbortSignal', 'AggregateError', 'Array', 'ArrayBuffer',
      'Atomics', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Blob', 'Boolean',
      'BroadcastChannel', 'Buffer', 'ByteLengthQueuingStrategy', 'CompressionStream',
      'CountQueuingStrategy', 'Crypto', 'CryptoKey', 'CustomEvent', 'DOMException', 'DataView',
      'Date', 'DecompressionStream', 'Error', 'EvalError', 'Event', 'EventTarget', 'File',
      'FinalizationRegistry', 'Float32Array', 'Float64Array', 'FormData', 'Function', 'Headers',
      'Infinity', 'Int16Array', 'Int32Array', 'Int8Array', 'Intl', 'JSON', 'Map', 'Math',
      'MessageChannel', 'MessageEvent', 'MessagePort', 'NaN', 'Number', 'Object', 'Performance',
      'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure', 'PerformanceObserver',
      'PerformanceObserverEntryList', 'PerformanceResourceTiming', 'Promise', 'Proxy',
      'RangeError', 'ReadableByteStreamController', 'ReadableStream', 'ReadableStreamBYOBReader',
      'ReadableStreamBYOBRequest', 'ReadableStreamDefaultController',
      'ReadableStreamDefaultReader', 'ReferenceError', 'Reflect', 'RegExp', 'Request', 'Response',
      'Set', 'SharedArrayBuffer', 'String', 'SubtleCrypto', 'Symbol', 'SyntaxError', 'TextDecoder',
      'TextDecoderStream', 'TextEncoder', 'TextEncoderStream', 'TransformStream',
      'TransformStreamDefaultController', 'TypeError', 'URIError', 'URL', 'URLSearchParams',
      'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef',
      'WeakSet', 'WebAssembly', 'WritableStream', 'WritableStreamDefaultController',
      'WritableStreamDefaultWriter'];
    for (let i = 0; i < names.length; i++) SetPrototypeAdd(builtInObjects, names[i]);
  }
  const isBuiltInName = (name) => typeof name === 'string' && SetPrototypeHas(builtInObjects, name);

  // ---- colours (only when asked for: colors: true) ----

  const colorCodes = {
    __proto__: null,
    bold: [1, 22], underline: [4, 24], red: [31, 39], green: [32, 39], yellow: [33, 39],
    magenta: [35, 39], cyan: [36, 39], grey: [90, 39],
  };
  const styles = {
    __proto__: null,
    special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow', undefined: 'grey',
    null: 'bold', string: 'green', symbol: 'green', date: 'magenta', regexp: 'red', module: 'underline',
  };
  function stylizeWithColor(str, styleType) {
    const style = styles[styleType];
    if (style !== undefined) {
      const color = colorCodes[style];
      if (color !== undefined) return ('\u001b[' + color[0] + 'm' + str + '\u001b[' + color[1] + 'm');
    }
    return str;
  }
  function stylizeNoColor(str) {
    return str;
  }

  // ---- string width (Node's getStringWidth with ICU) ----

  // Code points from U+007F up that take no column (zero) or two (wide), as
  // Node 20's ICU counts them, as base-36 deltas: start - previous end, end - start.
  const zeroWidthData = '3j,w,gx,33,7o,6,7c,18,2,0,2,1,2,1,2,0,1l,5,b,a,2,0,1b,k,h,0,2u,7,2,5,3,1,2,3,y,0,2,0,v,q,2k,a,1n,8,a,0,p,3,2,8,2,2,2,4,18,2,1h,1,6,8,17,1k,1k,0,2,0,5,7,5,0,4,6,b,1,u,0,1n,0,5,3,9,0,l,1,r,0,3,1,1m,0,5,1,5,1,3,2,4,0,v,1,4,0,c,1,1m,0,5,4,2,1,5,0,l,1,n,5,2,0,1n,0,3,0,2,3,9,0,8,1,c,1,v,0,1q,0,d,0,1f,0,4,0,1k,0,2,2,6,2,2,3,8,1,c,1,u,0,1n,0,3,0,7,0,6,1,l,1,t,1,1m,1,5,3,9,0,l,1,u,0,21,0,8,2,2,0,2j,0,3,6,d,7,2r,0,3,8,c,6,22,1,s,0,2,0,2,0,1k,d,2,4,2,1,6,a,2,z,a,0,2v,3,2,5,2,1,3,1,q,1,5,2,h,3,e,0,3,1,7,0,g,0,jk,2,qb,2,u,1,v,1,v,1,1t,1,2,6,9,0,3,a,a,0,1a,4,3a,1,z,0,3b,2,5,1,a,0,7,2,64,1,3,0,1n,0,2,6,2,0,2,0,3,7,7,9,3,0,1d,19,3,b,l,3,1d,0,2,4,2,0,6,0,15,8,d,1,x,3,3,1,2,2,1l,0,2,1,4,0,2,2,1n,7,3,1,49,2,2,c,2,6,5,0,7,0,4,1,5j,1r,ek,4,r,4,1e,4,2,9,2p,w,2db,2,3y,0,2p,v,nsg,3,2,9,x,1,29,1,7l,0,4,0,5,0,q,1,6,0,48,1,r,h,e,0,13,7,q,a,1b,2,1d,0,3,3,3,1,14,0,1w,5,3,1,3,1,d,0,9,0,1c,0,1g,0,2,2,3,1,6,1,2,0,17,1,9,0,6n,0,3,0,5,0,fn5,0,ki,f,h,f,5s,0,6y,2,ea,0,6b,0,46,4,1af,2,2,1,6,3,15,2,5,0,4m,1,fy,3,1u,4,8u,1,26,5,1z,a,1e,3,3g,0,1j,e,16,0,3,1,b,2,1e,3,3,1,3,0,5,0,b,0,1f,2,11,4,2,7,1r,0,d,1,1h,8,b,3,3,0,2o,2,3,0,2,1,7,0,3,0,4e,0,4,7,m,1,1m,1,4,0,12,6,4,4,1z,5,e,0,2,0,2,0,f,1,2e,7,3,2,2,0,o,0,2d,5,2,0,5,1,2,1,6n,3,7,1,2,1,s,1,2e,7,3,0,2,1,2z,0,2,0,3,5,2,0,2u,0,2,0,3,3,2,4,78,8,2,1,75,1,2,0,5,0,41,3,3,1,5,0,x,9,15,5,3,3,9,0,a,5,3,2,1b,c,2,1,5j,0,2,2,2,0,5m,6,2,5,2,0,2b,l,3,6,2,1,2,1,3f,5,4,0,2,1,2,6,2,0,21,1,4,0,2,0,9o,1,c,1,1h,4,6,0,2,0,o,0,446,g,7,e,8uh,b,4,2,1xd,4,1o,6,t5,0,1s,3,f7v,1,2,3,3ml,19,3,m,f5,2,a,f,3,6,v,3,45,2,1j0,1i,5,1d,9,0,f,0,n,4,2,e,11t,6,2,g,3,6,2,1,2,4,2t,0,4h,6,ag,0,1q,3,e5,3,73,1,6s,0,3,0,8,1,6,0,d7,6,32,6,gzav,0,v,2n,3l,6n';
  const wideData = '3cw,2n,3i3,1,e,1,5b,3,4,0,3,0,ei,1,m,1,r,7,h,b,18,0,b,5,4,0,e,0,9,1,i,1,6,1,9,0,6,0,m,0,8,1,2,0,5,0,3,0,8,0,5,1,t,0,10,0,2,0,5,2,2,0,1q,2,p,0,f,0,nw,1,1g,0,5,0,mj,p,2,2g,d,5x,r,26,3,2d,3,2u,6,16,2,2l,2,2d,a,1b,2,13,9,mkc,4,1i,wq,s,hw,8mb,6l9,e7,lt,9,n,y,2,i,2,3,46,2n,3k,6,m4a,4,c,6,a,5p1,16,v,2q,36,6pq,3,2,6,2,1,2,82,g,0,u,2,3,0,f,3,9,az,6bp,2e,a,m,5n2,0,5n,0,5b,0,3,9,24,s,e,17,5,8,8,1,f,5,4b,w,d,8,2,1x,2,l,d,16,5,4,d,g,4,0,4,1y,2,0,2,56,3,1q,e,3,2,n,j,0,r,1,e,0,2f,2c,1d,1x,7,0,4,2,3,3,4,3,c,1,8,8,6c,b,5,0,7w,1a,2,9,2,54,35,c,4,a,4,1k,2,0,5,f,3,b,5,9,zs,1ekd,3,1ekd';
  let zeroWidthRanges = null;
  let wideRanges = null;
  const decodeRanges = (data) => {
    const parts = split(data, ',');
    const out = [];
    let prev = 0;
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const start = prev + NumberParseInt(parts[i], 36);
      const end = start + NumberParseInt(parts[i + 1], 36);
      push(out, start);
      push(out, end);
      prev = end;
    }
    return out;
  };
  const inRanges = (ranges, cp) => {
    let lo = 0;
    let hi = (ranges.length >> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < ranges[2 * mid]) hi = mid - 1;
      else if (cp > ranges[2 * mid + 1]) lo = mid + 1;
      else return true;
    }
    return false;
  };
  const codePointWidth = (cp) => {
    if (zeroWidthRanges === null) {
      zeroWidthRanges = decodeRanges(zeroWidthData);
      wideRanges = decodeRanges(wideData);
    }
    if (inRanges(zeroWidthRanges, cp)) return 0;
    if (inRanges(wideRanges, cp)) return 2;
    return 1;
  };
  // stripVTControlCharacters removes ANSI escape sequences (CSI and OSC).
  function stripVTControlCharacters(str) {
    if (StringPrototypeIndexOf(str, '\u001b') === -1 && StringPrototypeIndexOf(str, '\u009b') === -1) return str;
    let out = '';
    let i = 0;
    while (i < str.length) {
      const c = StringPrototypeCharCodeAt(str, i);
      if (c === 0x1b || c === 0x9b) {
        let j = i + 1;
        if (c === 0x1b && StringPrototypeCharCodeAt(str, j) === 0x5d) { // OSC: ESC ] ... BEL or ESC \
          let k = j + 1;
          while (k < str.length) {
            const d = StringPrototypeCharCodeAt(str, k);
            if (d === 0x07) { k++; break; }
            if (d === 0x1b && StringPrototypeCharCodeAt(str, k + 1) === 0x5c) { k += 2; break; }
            if (d === 0x9c) { k++; break; }
            k++;
          }
          i = k;
          continue;
        }
        if (c === 0x1b && StringPrototypeCharCodeAt(str, j) === 0x5b) j++;
        // parameters and intermediates, then one final byte
        while (j < str.length) {
          const d = StringPrototypeCharCodeAt(str, j);
          if ((d >= 0x30 && d <= 0x3f) || (d >= 0x20 && d <= 0x2f)) { j++; continue; }
          break;
        }
        if (j < str.length) {
          const d = StringPrototypeCharCodeAt(str, j);
          if (d >= 0x40 && d <= 0x7e) { i = j + 1; continue; }
        }
        out += StringFromCharCode(c);
        i++;
        continue;
      }
      out += StringFromCharCode(c);
      i++;
    }
    return out;
  }
  const printableAsciiRe = /^[\x20-\x7e]*$/;
  function getStringWidth(str, removeControlChars = true) {
    if (RegExpPrototypeExec(printableAsciiRe, str) !== null) return str.length;
    let width = 0;
    if (removeControlChars) str = stripVTControlCharacters(str);
    for (let i = 0; i < str.length; i++) {
      const code = StringPrototypeCharCodeAt(str, i);
      if (code >= 127) {
        const rest = StringPrototypeNormalize(StringPrototypeSlice(str, i), 'NFC');
        for (let j = 0; j < rest.length; j++) {
          const cp = StringPrototypeCodePointAt(rest, j);
          if (cp > 0xffff) j++;
          width += cp < 127 ? (cp >= 32 ? 1 : 0) : codePointWidth(cp);
        }
        break;
      }
      width += code >= 32 ? 1 : 0;
    }
    return width;
  }
  const removeColors = (str) => stripVTControlCharacters(str);

  // ---- strings ----

  const meta = [];
  for (let i = 0; i < 0xa0; i++) {
    let m = '';
    if (i < 0x20 || (i >= 0x7f && i <= 0x9f)) {
      m = ('\\x' + (i < 16 ? '0' : '') + (StringPrototypeToUpperHex(i)));
    }
    push(meta, m);
  }
  meta[8] = '\\b';
  meta[9] = '\\t';
  meta[10] = '\\n';
  meta[12] = '\\f';
  meta[13] = '\\r';
  meta[39] = "\\'";
  meta[92] = '\\\\';
  function StringPrototypeToUpperHex(n) {
    const s = NumberPrototypeToString(n, 16);
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = StringPrototypeCharCodeAt(s, i);
      out += c >= 97 ? StringFromCharCode(c - 32) : StringFromCharCode(c);
    }
    return out;
  }

  // escapeString escapes control characters, lone surrogates, the
  // backslash and (when quote is 39) the single quote.
  function escapeString(str, quote) {
    let result = '';
    let last = 0;
    for (let i = 0; i < str.length; i++) {
      const point = StringPrototypeCharCodeAt(str, i);
      if (point === quote || point === 92 || point < 32 || (point > 126 && point < 160)) {
        result += StringPrototypeSlice(str, last, i) + meta[point];
        last = i + 1;
      } else if (point >= 0xd800 && point <= 0xdfff) {
        if (point <= 0xdbff && i + 1 < str.length) {
          const next = StringPrototypeCharCodeAt(str, i + 1);
          if (next >= 0xdc00 && next <= 0xdfff) {
            i++;
            continue;
          }
        }
        result += ((StringPrototypeSlice(str, last, i)) + '\\u' + (NumberPrototypeToString(point, 16)));
        last = i + 1;
      }
    }
    if (last === 0) return str;
    if (last !== str.length) result += StringPrototypeSlice(str, last);
    return result;
  }

  // strEscape quotes str as Node does: single quotes, or double quotes when
  // it holds a single quote and no double quote, or backticks when it holds
  // both and no backtick or "${".
  function strEscape(str) {
    let quote = 39;
    if (StringPrototypeIncludes(str, "'")) {
      if (!StringPrototypeIncludes(str, '"')) {
        quote = -1;
      } else if (!StringPrototypeIncludes(str, '`') && !StringPrototypeIncludes(str, '${')) {
        quote = -2;
      }
    }
    const escaped = RegExpPrototypeExec(quote === 39 ? escapeTestQuote : escapeTest, str) === null ?
      str : escapeString(str, quote);
    if (quote === -1) return '"' + escaped + '"';
    if (quote === -2) return '`' + escaped + '`';
    return "'" + escaped + "'";
  }
  // What escapeString changes, with and without the single quote.
  const escapeTestQuote = /[\x00-\x1f\x27\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const escapeTest = /[\x00-\x1f\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

  const identifierRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
  const numberRe = /^(0|[1-9][0-9]*)$/;
  const isIdentifierKey = (key) => RegExpPrototypeExec(identifierRe, key) !== null;
  // isNumberKey reports whether key is "0" or a decimal without leading zeros.
  const isNumberKey = (key) => RegExpPrototypeExec(numberRe, key) !== null;
  const isArrayIndexKey = (key) => typeof key === 'string' && isNumberKey(key) && +key < 4294967295;

  // ---- numbers ----

  function addNumericSeparator(integerString) {
    let result = '';
    let i = integerString.length;
    const start = StringPrototypeStartsWith(integerString, '-') ? 1 : 0;
    for (; i >= start + 4; i -= 3) {
      result = ('_' + (StringPrototypeSlice(integerString, i - 3, i)) + result);
    }
    return i === integerString.length ? integerString : ('' + (StringPrototypeSlice(integerString, 0, i)) + result);
  }
  function addNumericSeparatorEnd(integerString) {
    let result = '';
    let i = 0;
    for (; i < integerString.length - 3; i += 3) {
      result += ((StringPrototypeSlice(integerString, i, i + 3)) + '_');
    }
    return i === 0 ? integerString : (result + (StringPrototypeSlice(integerString, i)));
  }
  function formatNumber(fn, number, numericSeparator) {
    if (!numericSeparator) {
      if (number === 0 && 1 / number < 0) return fn('-0', 'number');
      return fn(('' + number), 'number');
    }
    const numberString = ('' + number);
    const integer = MathTrunc(number);
    if (integer === number) {
      if (!NumberIsFinite(number) || StringPrototypeIncludes(numberString, 'e')) return fn(numberString, 'number');
      return fn(addNumericSeparator(numberString), 'number');
    }
    if (NumberIsNaN(number)) return fn(numberString, 'number');
    const decimalIndex = StringPrototypeIndexOf(numberString, '.');
    const integerPart = StringPrototypeSlice(numberString, 0, decimalIndex);
    const fractionalPart = StringPrototypeSlice(numberString, decimalIndex + 1);
    return fn(((addNumericSeparator(integerPart)) + '.' + (addNumericSeparatorEnd(fractionalPart))), 'number');
  }
  function formatBigInt(fn, bigint, numericSeparator) {
    const string = ('' + bigint);
    if (!numericSeparator) return fn((string + 'n'), 'bigint');
    return fn(((addNumericSeparator(string)) + 'n'), 'bigint');
  }

  // splitLines cuts str after every "\n".
  function splitLines(str) {
    const out = [];
    let last = 0;
    for (;;) {
      const i = StringPrototypeIndexOf(str, '\n', last);
      if (i === -1 || i === str.length - 1) break;
      push(out, StringPrototypeSlice(str, last, i + 1));
      last = i + 1;
    }
    push(out, StringPrototypeSlice(str, last));
    return out;
  }

  function formatPrimitive(fn, value, ctx) {
    if (typeof value === 'string') {
      let trailer = '';
      if (value.length > ctx.maxStringLength) {
        const remaining = value.length - ctx.maxStringLength;
        value = StringPrototypeSlice(value, 0, ctx.maxStringLength);
        trailer = ('... ' + remaining + ' more character' + (remaining > 1 ? 's' : ''));
      }
      if (ctx.compact !== true && value.length > kMinLineLength &&
          value.length > ctx.breakLength - ctx.indentationLvl - 4) {
        const lines = splitLines(value);
        const out = [];
        for (let i = 0; i < lines.length; i++) push(out, fn(strEscape(lines[i]), 'string'));
        return join(out, (' +\n' + (spaces(ctx.indentationLvl + 2)))) + trailer;
      }
      return fn(strEscape(value), 'string') + trailer;
    }
    if (typeof value === 'number') return formatNumber(fn, value, ctx.numericSeparator);
    if (typeof value === 'bigint') return formatBigInt(fn, value, ctx.numericSeparator);
    if (typeof value === 'boolean') return fn(('' + value), 'boolean');
    if (typeof value === 'undefined') return fn('undefined', 'undefined');
    return fn(SymbolPrototypeToString(value), 'symbol');
  }

  // ---- what a value is ----

  // The built-in prototypes, to find an object's kind from its prototype
  // chain; the kind is then confirmed by a brand check that reads an
  // internal slot, so neither a fake prototype nor a replaced method fools it.
  const protoKinds = newMap();
  {
    const kinds = [
      [ObjectPrototype, 'plain'], [FunctionPrototype, 'plain'], [Array.prototype, 'plain'],
      [Error.prototype, 'plain'], [Map.prototype, 'map'], [Set.prototype, 'set'],
      [WeakMap.prototype, 'weakmap'], [WeakSet.prototype, 'weakset'], [Date.prototype, 'date'],
      [RegExp.prototype, 'regexp'], [Promise.prototype, 'promise'], [ArrayBuffer.prototype, 'arraybuffer'],
      [DataView.prototype, 'dataview'], [Number.prototype, 'number'], [String.prototype, 'string'],
      [Boolean.prototype, 'boolean'], [BigInt.prototype, 'bigint'], [Symbol.prototype, 'symbol'],
      [MapIteratorPrototype, 'mapiterator'], [SetIteratorPrototype, 'setiterator'],
    ];
    if (typeof SharedArrayBuffer === 'function') push(kinds, [SharedArrayBuffer.prototype, 'sharedarraybuffer']);
    for (let i = 0; i < kinds.length; i++) MapPrototypeSet(protoKinds, kinds[i][0], kinds[i][1]);
  }
  const brandKinds = ['map', 'set', 'date', 'regexp', 'arraybuffer', 'sharedarraybuffer', 'dataview',
    'promise', 'weakset', 'weakmap', 'number', 'string', 'boolean', 'bigint', 'symbol'];
  const weakKey = {};

  function hasBrand(kind, v) {
    try {
      switch (kind) {
        case 'map': MapPrototypeGetSize(v); return true;
        case 'set': SetPrototypeGetSize(v); return true;
        case 'date': DatePrototypeGetTime(v); return true;
        case 'regexp': RegExpPrototypeGetSource(v); return v !== RegExpPrototype;
        case 'arraybuffer': ArrayBufferPrototypeGetByteLength(v); return true;
        case 'sharedarraybuffer':
          if (SharedArrayBufferPrototypeGetByteLength === null) return false;
          SharedArrayBufferPrototypeGetByteLength(v);
          return true;
        case 'dataview': DataViewPrototypeGetBuffer(v); return true;
        case 'promise': return nativePromiseState === null ? true : nativePromiseState(v) !== undefined;
        case 'weakmap': WeakMapPrototypeHas(v, weakKey); return true;
        case 'weakset': WeakSetPrototypeHas(v, weakKey); return true;
        case 'number': NumberPrototypeValueOf(v); return true;
        case 'string': StringPrototypeValueOf(v); return true;
        case 'boolean': BooleanPrototypeValueOf(v); return true;
        case 'bigint': BigIntPrototypeValueOf(v); return true;
        case 'symbol': SymbolPrototypeValueOf(v); return true;
        case 'mapiterator': case 'setiterator': return true;
        default: return false;
      }
    } catch {
      return false;
    }
  }

  // protoChain lists value's prototypes, the nearest first.
  function protoChain(value) {
    const chain = [];
    let p = value;
    for (let i = 0; i < 10000; i++) {
      p = ObjectGetPrototypeOf(p);
      if (p === null) break;
      push(chain, p);
    }
    return chain;
  }

  // kindOf returns the built-in kind of the object v ('plain' for none);
  // chain is protoChain(v).
  function kindOf(v, chain) {
    let kind;
    for (let i = 0; i < chain.length; i++) {
      kind = MapPrototypeGet(protoKinds, chain[i]);
      if (kind !== undefined) break;
    }
    if (kind === 'plain') return kind;
    if (kind !== undefined && hasBrand(kind, v)) return kind;
    // No built-in prototype, or not what it claims: ask every brand. A
    // failed brand check throws; without a stack trace that is cheaper.
    const limit = ObjectGetOwnPropertyDescriptor(ErrorCtor, 'stackTraceLimit');
    const quiet = limit !== undefined && limit.writable === true && limit.configurable === true;
    if (quiet) ErrorCtor.stackTraceLimit = 0;
    try {
      for (let i = 0; i < brandKinds.length; i++) {
        const k = brandKinds[i];
        if ((k !== 'promise' || nativePromiseState !== null || kind === 'promise') && hasBrand(k, v)) return k;
      }
    } finally {
      if (quiet) ObjectDefineProperty(ErrorCtor, 'stackTraceLimit', limit);
    }
    return 'plain';
  }

  function typedArrayTag(v) {
    try {
      return TypedArrayPrototypeGetSymbolToStringTag(v);
    } catch {
      return undefined;
    }
  }

  // isError is Node's isError: an Error by brand or by prototype chain.
  function isError(v, chain) {
    return (ErrorIsError !== null && ErrorIsError(v)) || includesValue(chain, ErrorPrototype);
  }

  function isInstanceof(object, proto) {
    try {
      return object instanceof proto;
    } catch {
      return false;
    }
  }

  function functionKind(chain) {
    for (let i = 0; i < chain.length; i++) {
      const p = chain[i];
      if (p === FunctionPrototype) return '';
      if (p === AsyncFunctionPrototype) return 'async';
      if (p === GeneratorFunctionPrototype) return 'generator';
      if (p === AsyncGeneratorFunctionPrototype) return 'asyncgenerator';
    }
    return '';
  }

  // ---- constructor names and prefixes ----

  const wellKnownPrototypes = newMap();
  MapPrototypeSet(wellKnownPrototypes, ObjectPrototype, { __proto__: null, name: 'Object', constructor: ObjectCtor });
  MapPrototypeSet(wellKnownPrototypes, FunctionPrototype, { __proto__: null, name: 'Function', constructor: FunctionCtor });

  // internalGetConstructorName stands in for V8's class name of an object
  // whose prototype chain names no constructor.
  function internalGetConstructorName(obj) {
    if (typeof obj === 'function') return 'Function';
    if (ArrayIsArray(obj)) return 'Array';
    return 'Object';
  }

  // getConstructorName names obj's class as Node does: the name of the
  // first constructor up its prototype chain (chain, protoChain(obj)) it is
  // an instance of; null for a null prototype.
  function getConstructorName(obj, ctx, recurseTimes, protoProps, chain) {
    if (chain === undefined) chain = protoChain(obj);
    // The common case: an object of the Object prototype, no constructor of its own.
    if (chain.length === 1 && chain[0] === ObjectPrototype && protoProps === undefined &&
        !ObjectPrototypeHasOwnProperty(obj, 'constructor')) {
      return 'Object';
    }
    const firstProto = chain.length === 0 ? null : chain[0];
    for (let level = -1; level < chain.length; level++) {
      const o = level < 0 ? obj : chain[level];
      const wellKnown = MapPrototypeGet(wellKnownPrototypes, o);
      // A prototype in obj's chain: obj is an instance of its constructor.
      if (wellKnown !== undefined && level >= 0) {
        if (protoProps !== undefined && firstProto !== o) {
          addPrototypeProperties(ctx, obj, firstProto || obj, recurseTimes, protoProps);
        }
        return wellKnown.name;
      }
      if (!ObjectPrototypeHasOwnProperty(o, 'constructor')) continue;
      const descriptor = ObjectGetOwnPropertyDescriptor(o, 'constructor');
      if (descriptor !== undefined && typeof descriptor.value === 'function') {
        const name = descriptor.value.name;
        if (name !== '' && isInstanceof(obj, descriptor.value)) {
          if (protoProps !== undefined && (firstProto !== o || !isBuiltInName(name))) {
            addPrototypeProperties(ctx, obj, firstProto || obj, recurseTimes, protoProps);
          }
          return StringCtor(name);
        }
      }
    }
    if (firstProto === null) return null;
    const res = internalGetConstructorName(obj);
    if (recurseTimes > ctx.depth && ctx.depth !== null) return res + ' <Complex prototype>';
    const protoConstr = getConstructorName(firstProto, ctx, recurseTimes + 1, protoProps);
    if (protoConstr === null) {
      return res + ' <' + inspect(firstProto, {
        __proto__: null,
        ...ctxOptions(ctx),
        customInspect: false,
        depth: -1,
      }) + '>';
    }
    return res + ' <' + protoConstr + '>';
  }

  // addPrototypeProperties lists (showHidden) the non-function properties
  // of up to three of the program's own prototype layers.
  function addPrototypeProperties(ctx, main, obj, recurseTimes, output) {
    let depth = 0;
    let keys;
    let keySet;
    do {
      if (depth !== 0 || main === obj) {
        obj = ObjectGetPrototypeOf(obj);
        if (obj === null) return;
        const descriptor = ObjectGetOwnPropertyDescriptor(obj, 'constructor');
        if (descriptor !== undefined && typeof descriptor.value === 'function' &&
            isBuiltInName(descriptor.value.name)) {
          return;
        }
      }
      if (depth === 0) {
        keySet = new SetCtor();
      } else {
        for (let i = 0; i < keys.length; i++) SetPrototypeAdd(keySet, keys[i]);
      }
      keys = ReflectOwnKeys(obj);
      push(ctx.seen, main);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key === 'constructor' || ObjectPrototypeHasOwnProperty(main, key) ||
            (depth !== 0 && SetPrototypeHas(keySet, key))) {
          continue;
        }
        const desc = ObjectGetOwnPropertyDescriptor(obj, key);
        if (typeof desc.value === 'function') continue;
        const value = formatProperty(ctx, obj, recurseTimes, key, kObjectType, desc, main);
        push(output, ctx.colors ? ('\u001b[2m' + value + '\u001b[22m') : value);
      }
      ctx.seen.length--;
    } while (++depth !== 3);
  }

  function getPrefix(constructor, tag, fallback, size = '') {
    if (constructor === null) {
      if (tag !== '' && fallback !== tag) return ('[' + fallback + size + ': null prototype] [' + tag + '] ');
      return ('[' + fallback + size + ': null prototype] ');
    }
    if (tag !== '' && constructor !== tag) return (constructor + size + ' [' + tag + '] ');
    return (constructor + size + ' ');
  }

  function getKeys(value, showHidden) {
    let keys;
    const symbols = ObjectGetOwnPropertySymbols(value);
    if (showHidden) {
      keys = ObjectGetOwnPropertyNames(value);
      for (let i = 0; i < symbols.length; i++) push(keys, symbols[i]);
    } else {
      keys = ObjectKeys(value);
      for (let i = 0; i < symbols.length; i++) {
        if (ObjectPrototypePropertyIsEnumerable(value, symbols[i])) push(keys, symbols[i]);
      }
    }
    return keys;
  }

  // Listing an array's own keys lists every index: past this length only its
  // symbol keys are looked for, which keeps a huge array or typed array from
  // costing memory in proportion to its length.
  const kMaxKeyScan = 100000;

  // getOwnNonIndexProperties is the own keys of an array-like that are not
  // indices: strings first, then symbols, as V8 lists them.
  function getOwnNonIndexProperties(value, length, showHidden) {
    const all = length <= kMaxKeyScan ? ReflectOwnKeys(value) : ObjectGetOwnPropertySymbols(value);
    const out = [];
    if (length > kMaxKeyScan && showHidden && ArrayIsArray(value)) push(out, 'length');
    for (let i = 0; i < all.length; i++) {
      const key = all[i];
      if (isArrayIndexKey(key)) continue;
      if (!showHidden && !ObjectPrototypePropertyIsEnumerable(value, key)) continue;
      push(out, key);
    }
    return out;
  }

  function getCtxStyle(value, constructor, tag) {
    let fallback = '';
    if (constructor === null) {
      fallback = internalGetConstructorName(value);
      if (fallback === tag) fallback = 'Object';
    }
    return getPrefix(constructor, tag, fallback);
  }

  function ctxOptions(ctx) {
    return {
      __proto__: null,
      showHidden: ctx.showHidden,
      depth: ctx.depth,
      colors: ctx.colors,
      customInspect: ctx.customInspect,
      showProxy: ctx.showProxy,
      maxArrayLength: ctx.maxArrayLength,
      maxStringLength: ctx.maxStringLength,
      breakLength: ctx.breakLength,
      compact: ctx.compact,
      sorted: ctx.sorted,
      getters: ctx.getters,
      numericSeparator: ctx.numericSeparator,
    };
  }

  // getUserOptions is the options object a custom inspect function gets.
  function getUserOptions(ctx, isCrossContext) {
    const ret = {
      stylize: ctx.stylize,
      showHidden: ctx.showHidden,
      depth: ctx.depth,
      colors: ctx.colors,
      customInspect: ctx.customInspect,
      showProxy: ctx.showProxy,
      maxArrayLength: ctx.maxArrayLength,
      maxStringLength: ctx.maxStringLength,
      breakLength: ctx.breakLength,
      compact: ctx.compact,
      sorted: ctx.sorted,
      getters: ctx.getters,
      numericSeparator: ctx.numericSeparator,
      ...ctx.userOptions,
    };
    if (isCrossContext) {
      ObjectSetPrototypeOf(ret, null);
      const keys = ObjectKeys(ret);
      for (let i = 0; i < keys.length; i++) {
        const v = ret[keys[i]];
        if ((typeof v === 'object' || typeof v === 'function') && v !== null) delete ret[keys[i]];
      }
      const stylize = ctx.stylize;
      ret.stylize = ObjectSetPrototypeOf((value, flavour) => {
        let stylized;
        try {
          stylized = ('' + (stylize(value, flavour)));
        } catch {
          // as is
        }
        return typeof stylized === 'string' ? stylized : value;
      }, null);
    }
    return ret;
  }

  // ---- inspect ----

  // Contexts are reused: creating one (twenty properties) costs more than
  // inspecting a small object.
  const ctxPool = [];
  function newCtx() {
    return {
      __proto__: null,
      budget: null,
      indentationLvl: 0,
      seen: null,
      currentDepth: 0,
      stylize: stylizeNoColor,
      showHidden: false,
      depth: 2,
      colors: false,
      customInspect: true,
      showProxy: false,
      maxArrayLength: 100,
      maxStringLength: 10000,
      breakLength: 80,
      compact: 3,
      sorted: false,
      getters: false,
      numericSeparator: false,
      circular: undefined,
      userOptions: undefined,
    };
  }
  function acquireCtx() {
    let ctx;
    if (ctxPool.length === 0) {
      ctx = newCtx();
      ctx.seen = [];
    } else {
      ctx = ctxPool[ctxPool.length - 1];
      ctxPool.length--;
      ctx.seen.length = 0;
    }
    ctx.budget = { __proto__: null };
    ctx.indentationLvl = 0;
    ctx.currentDepth = 0;
    ctx.stylize = stylizeNoColor;
    ctx.showHidden = inspectDefaultOptions.showHidden;
    ctx.depth = inspectDefaultOptions.depth;
    ctx.colors = inspectDefaultOptions.colors;
    ctx.customInspect = inspectDefaultOptions.customInspect;
    ctx.showProxy = inspectDefaultOptions.showProxy;
    ctx.maxArrayLength = inspectDefaultOptions.maxArrayLength;
    ctx.maxStringLength = inspectDefaultOptions.maxStringLength;
    ctx.breakLength = inspectDefaultOptions.breakLength;
    ctx.compact = inspectDefaultOptions.compact;
    ctx.sorted = inspectDefaultOptions.sorted;
    ctx.getters = inspectDefaultOptions.getters;
    ctx.numericSeparator = inspectDefaultOptions.numericSeparator;
    ctx.circular = undefined;
    ctx.userOptions = undefined;
    return ctx;
  }
  function releaseCtx(ctx) {
    ctx.userOptions = undefined;
    ctx.circular = undefined;
    ctx.stylize = stylizeNoColor;
    ctx.seen.length = 0;
    if (ctxPool.length < 16) push(ctxPool, ctx);
  }
  // The context of a primitive inspected with the default options.
  const primitiveCtx = newCtx();

  function inspect(value, opts) {
    if (arguments.length < 3 && (opts === undefined || opts === null) &&
        typeof value !== 'object' && typeof value !== 'function') {
      return formatPrimitive(stylizeNoColor, value, primitiveCtx);
    }
    const ctx = acquireCtx();
    try {
      if (arguments.length > 1) {
        if (arguments.length > 2) {
          if (arguments[2] !== undefined) ctx.depth = arguments[2];
          if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
        }
        if (typeof opts === 'boolean') {
          ctx.showHidden = opts;
        } else if (opts) {
          const optKeys = ObjectKeys(opts);
          for (let i = 0; i < optKeys.length; i++) {
            const key = optKeys[i];
            if (ObjectPrototypeHasOwnProperty(inspectDefaultOptions, key) || key === 'stylize') {
              ctx[key] = opts[key];
            } else if (ctx.userOptions === undefined) {
              ctx.userOptions = opts;
            }
          }
        }
      }
    } catch (err) {
      releaseCtx(ctx);
      return inspectThrew(err);
    }
    if (ctx.colors) ctx.stylize = stylizeWithColor;
    if (typeof ctx.stylize !== 'function') ctx.stylize = stylizeNoColor;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    try {
      return formatValue(ctx, value, 0);
    } catch (err) {
      return inspectThrew(err);
    } finally {
      releaseCtx(ctx);
    }
  }
  inspect.custom = customInspectSymbol;

  function formatValue(ctx, value, recurseTimes, typedArray) {
    if (typeof value !== 'object' && typeof value !== 'function') {
      return formatPrimitive(ctx.stylize, value, ctx);
    }
    if (value === null) return ctx.stylize('null', 'null');
    const seenLength = ctx.seen.length;
    const indentationLvl = ctx.indentationLvl;
    try {
      const context = value;
      if (ctx.customInspect) {
        const maybeCustom = value[customInspectSymbol];
        if (typeof maybeCustom === 'function' && maybeCustom !== inspect &&
            !(value.constructor && value.constructor.prototype === value)) {
          const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
          const isCrossContext = !isInstanceof(context, ObjectCtor);
          const ret = ReflectApply(maybeCustom, context, [depth, getUserOptions(ctx, isCrossContext), inspect]);
          if (ret !== context) {
            if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
            return replaceAll(ret, '\n', ('\n' + (spaces(ctx.indentationLvl))));
          }
        }
      }
      if (includesValue(ctx.seen, value)) {
        let index = 1;
        if (ctx.circular === undefined) {
          ctx.circular = newMap();
          MapPrototypeSet(ctx.circular, value, index);
        } else {
          index = MapPrototypeGet(ctx.circular, value);
          if (index === undefined) {
            index = MapPrototypeGetSize(ctx.circular) + 1;
            MapPrototypeSet(ctx.circular, value, index);
          }
        }
        return ctx.stylize(('[Circular *' + index + ']'), 'special');
      }
      return formatRaw(ctx, value, recurseTimes, typedArray);
    } catch (err) {
      if (isStackOverflow(err)) throw err;
      ctx.seen.length = seenLength;
      ctx.indentationLvl = indentationLvl;
      if (err !== null && typeof err === 'object' && errorMessage(err) === 'revoked proxy') {
        return ctx.stylize('<Revoked Proxy>', 'special');
      }
      return ctx.stylize(inspectThrew(err), 'special');
    }
  }

  // getTag is value[Symbol.toStringTag], with the built-ins' tags as they
  // were when the factory ran; chain is protoChain(value).
  function getTag(value, chain) {
    if (chain.length === 1 && chain[0] === ObjectPrototype && !ObjectPrototypeHasOwnProperty(value, SymbolToStringTag) &&
        MapPrototypeGet(builtinTags, value) === undefined) {
      return undefined;
    }
    for (let level = -1; level < chain.length; level++) {
      const o = level < 0 ? value : chain[level];
      const builtin = MapPrototypeGet(builtinTags, o);
      if (builtin === null) return typedArrayTag(value);
      if (builtin !== undefined) {
        if (builtin !== kNoTag) return builtin;
      } else if (ObjectPrototypeHasOwnProperty(o, SymbolToStringTag)) {
        const d = ObjectGetOwnPropertyDescriptor(o, SymbolToStringTag);
        if (d !== undefined) {
          if ('value' in d) return d.value;
          return d.get === undefined ? undefined : ReflectApply(d.get, value, []);
        }
      }
    }
    return undefined;
  }

  function formatRaw(ctx, value, recurseTimes, typedArray) {
    let keys;
    let protoProps;
    if (ctx.showHidden && (recurseTimes <= ctx.depth || ctx.depth === null)) protoProps = [];
    const chain = protoChain(value);
    const constructor = getConstructorName(value, ctx, recurseTimes, protoProps, chain);
    if (protoProps !== undefined && protoProps.length === 0) protoProps = undefined;

    let tag;
    try {
      tag = getTag(value, chain);
    } catch (err) {
      if (isStackOverflow(err)) throw err;
      tag = '';
    }
    if (typeof tag !== 'string' ||
        (tag !== '' && (ctx.showHidden ? ObjectPrototypeHasOwnProperty : ObjectPrototypePropertyIsEnumerable)(
          value, SymbolToStringTag))) {
      tag = '';
    }
    let base = '';
    let formatter = formatNothing;
    let braces;
    let noIterator = true;
    let extrasType = kObjectType;
    let stackDesc;
    const isFunction = typeof value === 'function';
    const taTag = isFunction ? undefined : typedArrayTag(value);
    const isArray = !isFunction && ArrayIsArray(value);
    const kind = isFunction || isArray || taTag !== undefined ? 'plain' : kindOf(value, chain);

    if (SymbolIterator in value || constructor === null) {
      noIterator = false;
      if (isArray) {
        const prefix = (constructor !== 'Array' || tag !== '') ?
          getPrefix(constructor, tag, 'Array', ('(' + value.length + ')')) : '';
        keys = getOwnNonIndexProperties(value, value.length, ctx.showHidden);
        braces = [(prefix + '['), ']'];
        if (value.length === 0 && keys.length === 0 && protoProps === undefined) return (braces[0] + ']');
        extrasType = kArrayExtrasType;
        formatter = formatArray;
      } else if (kind === 'set') {
        const size = SetPrototypeGetSize(value);
        const prefix = getPrefix(constructor, tag, 'Set', ('(' + size + ')'));
        keys = getKeys(value, ctx.showHidden);
        formatter = formatSet;
        if (size === 0 && keys.length === 0 && protoProps === undefined) return (prefix + '{}');
        braces = [(prefix + '{'), '}'];
      } else if (kind === 'map') {
        const size = MapPrototypeGetSize(value);
        const prefix = getPrefix(constructor, tag, 'Map', ('(' + size + ')'));
        keys = getKeys(value, ctx.showHidden);
        formatter = formatMap;
        if (size === 0 && keys.length === 0 && protoProps === undefined) return (prefix + '{}');
        braces = [(prefix + '{'), '}'];
      } else if (taTag !== undefined) {
        const size = TypedArrayPrototypeGetLength(value);
        keys = getOwnNonIndexProperties(value, size, ctx.showHidden);
        const fallback = constructor === null ? taTag : '';
        const prefix = getPrefix(constructor, tag, fallback, ('(' + size + ')'));
        braces = [(prefix + '['), ']'];
        if (size === 0 && keys.length === 0 && !ctx.showHidden) return (braces[0] + ']');
        formatter = formatTypedArray;
        extrasType = kArrayExtrasType;
      } else if (kind === 'mapiterator') {
        keys = getKeys(value, ctx.showHidden);
        braces = getIteratorBraces('Map', tag);
        formatter = formatIterator;
      } else if (kind === 'setiterator') {
        keys = getKeys(value, ctx.showHidden);
        braces = getIteratorBraces('Set', tag);
        formatter = formatIterator;
      } else {
        noIterator = true;
      }
    }
    if (noIterator) {
      keys = getKeys(value, ctx.showHidden);
      braces = ['{', '}'];
      if (isFunction) {
        base = getFunctionBase(value, constructor, tag, chain);
        if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, 'special');
      } else if (constructor === 'Object') {
        if (isArgumentsObject(value)) {
          braces[0] = '[Arguments] {';
        } else if (tag !== '') {
          braces[0] = ((getPrefix(constructor, tag, 'Object')) + '{');
        }
        if (keys.length === 0 && protoProps === undefined) return (braces[0] + '}');
      } else if (kind === 'regexp') {
        base = regExpToString(value);
        const prefix = getPrefix(constructor, tag, 'RegExp');
        if (prefix !== 'RegExp ') base = (prefix + base);
        if ((keys.length === 0 && protoProps === undefined) || (recurseTimes > ctx.depth && ctx.depth !== null)) {
          return ctx.stylize(base, 'regexp');
        }
      } else if (kind === 'date') {
        const time = DatePrototypeGetTime(value);
        base = NumberIsNaN(time) ? 'Invalid Date' : DatePrototypeToISOString(value);
        const prefix = getPrefix(constructor, tag, 'Date');
        if (prefix !== 'Date ') base = (prefix + base);
        if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, 'date');
      } else if (isError(value, chain)) {
        base = formatError(value, constructor, tag, ctx, keys);
        if (ctx.showHidden) stackDesc = hiddenStack(value, keys);
        if (keys.length === 0 && protoProps === undefined) return base;
      } else if (kind === 'arraybuffer' || kind === 'sharedarraybuffer') {
        const arrayType = kind === 'arraybuffer' ? 'ArrayBuffer' : 'SharedArrayBuffer';
        const prefix = getPrefix(constructor, tag, arrayType);
        if (typedArray === undefined) {
          formatter = formatArrayBuffer;
        } else if (keys.length === 0 && protoProps === undefined) {
          const byteLength = kind === 'arraybuffer' ? ArrayBufferPrototypeGetByteLength(value) :
            SharedArrayBufferPrototypeGetByteLength(value);
          return (prefix + '{ byteLength: ' + (formatNumber(ctx.stylize, byteLength, false)) + ' }');
        }
        braces[0] = (prefix + '{');
        unshift(keys, ['byteLength']);
      } else if (kind === 'dataview') {
        braces[0] = ((getPrefix(constructor, tag, 'DataView')) + '{');
        unshift(keys, ['byteLength', 'byteOffset', 'buffer']);
      } else if (kind === 'promise') {
        braces[0] = ((getPrefix(constructor, tag, 'Promise')) + '{');
        formatter = formatPromise;
      } else if (kind === 'weakset') {
        braces[0] = ((getPrefix(constructor, tag, 'WeakSet')) + '{');
        formatter = formatWeakCollection;
      } else if (kind === 'weakmap') {
        braces[0] = ((getPrefix(constructor, tag, 'WeakMap')) + '{');
        formatter = formatWeakCollection;
      } else if (kind === 'number' || kind === 'string' || kind === 'boolean' || kind === 'bigint' || kind === 'symbol') {
        base = getBoxedBase(value, ctx, keys, constructor, tag, kind);
        if (keys.length === 0 && protoProps === undefined) return base;
      } else {
        if (keys.length === 0 && protoProps === undefined) return ((getCtxStyle(value, constructor, tag)) + '{}');
        braces[0] = ((getCtxStyle(value, constructor, tag)) + '{');
      }
    }

    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      let constructorName = StringPrototypeSlice(getCtxStyle(value, constructor, tag), 0, -1);
      if (constructor !== null) constructorName = ('[' + constructorName + ']');
      return ctx.stylize(constructorName, 'special');
    }
    recurseTimes += 1;

    push(ctx.seen, value);
    ctx.currentDepth = recurseTimes;
    let output;
    const indentationLvl = ctx.indentationLvl;
    try {
      output = formatter(ctx, value, recurseTimes, kind);
      for (let i = 0; i < keys.length; i++) {
        push(output, formatProperty(ctx, value, recurseTimes, keys[i], extrasType,
          keys[i] === 'stack' ? stackDesc : undefined));
      }
      if (protoProps !== undefined) {
        for (let i = 0; i < protoProps.length; i++) push(output, protoProps[i]);
      }
    } catch (err) {
      if (!isStackOverflow(err)) throw err;
      const constructorName = StringPrototypeSlice(getCtxStyle(value, constructor, tag), 0, -1);
      ctx.seen.length--;
      ctx.indentationLvl = indentationLvl;
      return ctx.stylize(('[' + constructorName + ': Inspection interrupted prematurely. Maximum call stack size exceeded.]'),
        'special');
    }
    if (ctx.circular !== undefined) {
      const index = MapPrototypeGet(ctx.circular, value);
      if (index !== undefined) {
        const reference = ctx.stylize(('<ref *' + index + '>'), 'special');
        if (ctx.compact !== true) {
          base = base === '' ? reference : (reference + ' ' + base);
        } else {
          braces[0] = (reference + ' ' + braces[0]);
        }
      }
    }
    ctx.seen.length--;

    if (ctx.sorted) {
      const comparator = ctx.sorted === true ? undefined : ctx.sorted;
      if (extrasType === kObjectType) {
        ArrayPrototypeSort(output, comparator);
      } else if (keys.length > 1) {
        const start = output.length - keys.length;
        const tail = [];
        for (let i = start; i < output.length; i++) push(tail, output[i]);
        ArrayPrototypeSort(tail, comparator);
        for (let i = 0; i < tail.length; i++) output[start + i] = tail[i];
      }
    }

    const res = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
    const budget = ctx.budget[ctx.indentationLvl] || 0;
    const newLength = budget + res.length;
    ctx.budget[ctx.indentationLvl] = newLength;
    if (newLength > 2 ** 27) ctx.depth = -1;
    return res;
  }

  function unshift(arr, items) {
    const n = items.length;
    for (let i = arr.length - 1; i >= 0; i--) arr[i + n] = arr[i];
    for (let i = 0; i < n; i++) arr[i] = items[i];
  }

  function formatNothing() {
    return [];
  }

  function isArgumentsObject(value) {
    try {
      return ObjectPrototypeToString(value) === '[object Arguments]' &&
        !ObjectPrototypeHasOwnProperty(value, SymbolToStringTag);
    } catch {
      return false;
    }
  }

  function regExpToString(value) {
    let flags = '';
    for (let i = 0; i < regExpFlagGetters.length; i++) {
      if (regExpFlagGetters[i][0](value)) flags += regExpFlagGetters[i][1];
    }
    return ('/' + (RegExpPrototypeGetSource(value)) + '/' + flags);
  }

  function getIteratorBraces(type, tag) {
    if (tag !== (type + ' Iterator')) {
      if (tag !== '') tag += '] [';
      tag += (type + ' Iterator');
    }
    return [('[' + tag + '] {'), '}'];
  }

  function getBoxedBase(value, ctx, keys, constructor, tag, kind) {
    let primitive;
    let type;
    if (kind === 'number') {
      primitive = NumberPrototypeValueOf(value);
      type = 'Number';
    } else if (kind === 'string') {
      primitive = StringPrototypeValueOf(value);
      type = 'String';
      // The index properties of a String object only repeat its value.
      const n = MathMin(primitive.length, keys.length);
      for (let i = 0; i + n < keys.length; i++) keys[i] = keys[i + n];
      keys.length -= n;
    } else if (kind === 'boolean') {
      primitive = BooleanPrototypeValueOf(value);
      type = 'Boolean';
    } else if (kind === 'bigint') {
      primitive = BigIntPrototypeValueOf(value);
      type = 'BigInt';
    } else {
      primitive = SymbolPrototypeValueOf(value);
      type = 'Symbol';
    }
    let base = ('[' + type);
    if (type !== constructor) {
      if (constructor === null) {
        base += ' (null prototype)';
      } else {
        base += (' (' + constructor + ')');
      }
    }
    base += (': ' + (formatPrimitive(stylizeNoColor, primitive, ctx)) + ']');
    if (tag !== '' && tag !== constructor) base += (' [' + tag + ']');
    if (keys.length !== 0 || ctx.stylize === stylizeNoColor) return base;
    return ctx.stylize(base, StringPrototypeToLowerCase(type));
  }

  function getClassBase(value, constructor, tag) {
    const hasName = ObjectPrototypeHasOwnProperty(value, 'name');
    const name = (hasName && value.name) || '(anonymous)';
    let base = ('class ' + (toStr(name)));
    if (constructor !== 'Function' && constructor !== null) base += (' [' + constructor + ']');
    if (tag !== '' && constructor !== tag) base += (' [' + tag + ']');
    if (constructor !== null) {
      const superName = ObjectGetPrototypeOf(value).name;
      if (superName) base += (' extends ' + (toStr(superName)));
    } else {
      base += ' extends [null prototype]';
    }
    return ('[' + base + ']');
  }

  // isClassSource reports whether a function's source text is a class.
  function isClassSource(source) {
    if (!StringPrototypeStartsWith(source, 'class') || StringPrototypeCharCodeAt(source, source.length - 1) !== 125) {
      return false;
    }
    const c = StringPrototypeCharCodeAt(source, 5);
    // "class" followed by a name, a space, a brace or a comment.
    return c === 32 || c === 123 || c === 9 || c === 10 || c === 13 || c === 47;
  }

  function getFunctionBase(value, constructor, tag, chain) {
    let source = '';
    try {
      source = FunctionPrototypeToString(value);
    } catch {
      source = '';
    }
    if (isClassSource(source)) return getClassBase(value, constructor, tag);
    const fkind = functionKind(chain);
    let type = 'Function';
    if (fkind === 'generator' || fkind === 'asyncgenerator') type = ('Generator' + type);
    if (fkind === 'async' || fkind === 'asyncgenerator') type = ('Async' + type);
    let base = ('[' + type);
    if (constructor === null) base += ' (null prototype)';
    const name = value.name;
    if (name === '') {
      base += ' (anonymous)';
    } else {
      base += (': ' + (toStr(name)));
    }
    base += ']';
    if (constructor !== type && constructor !== null) base += (' ' + constructor);
    if (tag !== '' && constructor !== tag) base += (' [' + tag + ']');
    return base;
  }

  // ---- errors ----

  // The first line of an error's stack as V8 writes it when the stack is
  // first read (name: message), kept per error as V8 keeps its stack.
  const errorHeaders = new WeakMapCtor();
  function errorHeader(err) {
    let header = WeakMapPrototypeGet(errorHeaders, err);
    if (header === undefined) {
      try {
        header = ErrorPrototypeToString(err);
      } catch {
        header = 'Error';
      }
      if (typeof header !== 'string') header = 'Error';
      WeakMapPrototypeSet(errorHeaders, err, header);
    }
    return header;
  }

  // getStackString is the error's stack as Node shows it: the engine's own
  // stack (frames only) becomes "name: message" and the program's frames
  // (native.frames); a stack the program set is used as it is.
  function getStackString(err) {
    let stack;
    try {
      stack = err.stack;
    } catch {
      stack = undefined;
    }
    if (typeof stack === 'string' && (stack === '' || StringPrototypeStartsWith(stack, '    at '))) {
      const header = errorHeader(err);
      let frames = '';
      try {
        frames = nativeFrames(err);
        if (typeof frames !== 'string') frames = '';
      } catch {
        frames = '';
      }
      return frames === '' ? header : (header + '\n' + frames);
    }
    if (stack) {
      try {
        return StringCtor(stack);
      } catch {
        // fall through
      }
    }
    try {
      return ErrorPrototypeToString(err);
    } catch {
      return 'Error';
    }
  }

  function identicalSequenceRange(a, b) {
    for (let i = 0; i < a.length - 3; i++) {
      const pos = indexOfValue(b, a[i]);
      if (pos !== -1) {
        const rest = b.length - pos;
        if (rest > 3) {
          let len = 1;
          const maxLen = MathMin(a.length - i, rest);
          while (maxLen > len && a[i + len] === b[pos + len]) len++;
          if (len > 3) return { __proto__: null, len, offset: i };
        }
      }
    }
    return { __proto__: null, len: 0, offset: 0 };
  }

  function getStackFrames(ctx, err, stack) {
    const frames = split(stack, '\n');
    let cause;
    try {
      cause = err.cause;
    } catch {
      cause = undefined;
    }
    if (cause !== null && (typeof cause === 'object' || typeof cause === 'function') && isError(cause, protoChain(cause))) {
      const causeStack = getStackString(cause);
      const causeStackStart = StringPrototypeIndexOf(causeStack, '\n    at');
      if (causeStackStart !== -1) {
        const causeFrames = split(StringPrototypeSlice(causeStack, causeStackStart + 1), '\n');
        const range = identicalSequenceRange(frames, causeFrames);
        if (range.len > 0) {
          const skipped = range.len - 2;
          const msg = ('    ... ' + skipped + ' lines matching cause stack trace ...');
          const out = [];
          for (let i = 0; i <= range.offset; i++) push(out, frames[i]);
          push(out, ctx.stylize(msg, 'undefined'));
          for (let i = range.offset + 1 + skipped; i < frames.length; i++) push(out, frames[i]);
          return out;
        }
      }
    }
    return frames;
  }

  function improveStack(stack, constructor, name, tag) {
    let len = name.length;
    if (constructor === null ||
        (StringPrototypeEndsWith(name, 'Error') && StringPrototypeStartsWith(stack, name) &&
         (stack.length === len || stack[len] === ':' || stack[len] === '\n'))) {
      let fallback = 'Error';
      if (constructor === null) {
        const start = RegExpPrototypeExec(/^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n {4}at)/, stack) ||
          RegExpPrototypeExec(/^([a-z_A-Z0-9-]*Error)$/, stack);
        fallback = (start && start[1]) || '';
        len = fallback.length;
        fallback = fallback || 'Error';
      }
      const prefix = StringPrototypeSlice(getPrefix(constructor, tag, fallback), 0, -1);
      if (name !== prefix) {
        if (StringPrototypeIncludes(prefix, name)) {
          if (len === 0) {
            stack = (prefix + ': ' + stack);
          } else {
            stack = (prefix + (StringPrototypeSlice(stack, len)));
          }
        } else {
          stack = (prefix + ' [' + name + ']' + (StringPrototypeSlice(stack, len)));
        }
      }
    }
    return stack;
  }

  function removeDuplicateErrorKeys(ctx, keys, err, stack) {
    if (!ctx.showHidden && keys.length !== 0) {
      const names = ['name', 'message', 'stack'];
      for (let n = 0; n < names.length; n++) {
        const index = indexOfValue(keys, names[n]);
        if (index !== -1) {
          let included = false;
          try {
            included = StringPrototypeIncludes(stack, err[names[n]]);
          } catch {
            included = false;
          }
          if (included) spliceOne(keys, index);
        }
      }
    }
  }

  // hiddenStack puts an error's own stack first among its keys, where V8
  // has it, and returns its descriptor with the stack as V8 would hold it.
  function hiddenStack(err, keys) {
    const index = indexOfValue(keys, 'stack');
    if (index === -1) return undefined;
    spliceOne(keys, index);
    unshift(keys, ['stack']);
    const desc = ObjectGetOwnPropertyDescriptor(err, 'stack');
    if (desc === undefined || !('value' in desc) || typeof desc.value !== 'string' ||
        !(desc.value === '' || StringPrototypeStartsWith(desc.value, '    at '))) {
      return desc;
    }
    return { __proto__: null, value: getStackString(err), enumerable: desc.enumerable };
  }

  function formatError(err, constructor, tag, ctx, keys) {
    let name = 'Error';
    try {
      name = err.name != null ? StringCtor(err.name) : 'Error';
    } catch {
      name = 'Error';
    }
    let stack = getStackString(err);
    removeDuplicateErrorKeys(ctx, keys, err, stack);
    if ('cause' in err && (keys.length === 0 || !includesValue(keys, 'cause'))) push(keys, 'cause');
    if (ArrayIsArray(err.errors) && (keys.length === 0 || !includesValue(keys, 'errors'))) push(keys, 'errors');
    stack = improveStack(stack, constructor, name, tag);

    let message;
    try {
      message = err.message;
    } catch {
      message = undefined;
    }
    let pos = -1;
    try {
      pos = (message && StringPrototypeIndexOf(stack, message)) || -1;
    } catch {
      pos = -1;
    }
    if (pos !== -1) pos += message.length;
    const stackStart = StringPrototypeIndexOf(stack, '\n    at', pos);
    if (stackStart === -1) {
      stack = ('[' + stack + ']');
    } else {
      let newStack = StringPrototypeSlice(stack, 0, stackStart);
      const lines = getStackFrames(ctx, err, StringPrototypeSlice(stack, stackStart + 1));
      newStack += ('\n' + (join(lines, '\n')));
      stack = newStack;
    }
    if (ctx.indentationLvl !== 0) stack = replaceAll(stack, '\n', ('\n' + (spaces(ctx.indentationLvl))));
    return stack;
  }

  // ---- entries ----

  const remainingText = (remaining) => ('... ' + remaining + ' more item' + (remaining > 1 ? 's' : ''));

  // formatSpecialArray goes on from index i, the first hole, through the
  // own enumerable keys (for-in lists them in order without building them
  // all, and stops early).
  function formatSpecialArray(ctx, value, recurseTimes, maxLength, output, i) {
    let index = i;
    let skip = i;
    for (const key in value) {
      if (skip > 0) {
        skip--;
        continue;
      }
      if (output.length >= maxLength || !ObjectPrototypeHasOwnProperty(value, key)) break;
      const tmp = +key;
      if (tmp > 2 ** 32 - 2) break;
      if (('' + index) !== key) {
        if (!isNumberKey(key)) break;
        const emptyItems = tmp - index;
        const ending = emptyItems > 1 ? 's' : '';
        push(output, ctx.stylize(('<' + emptyItems + ' empty item' + ending + '>'), 'undefined'));
        index = tmp;
        if (output.length === maxLength) break;
      }
      push(output, formatProperty(ctx, value, recurseTimes, key, kArrayType));
      index++;
    }
    const remaining = value.length - index;
    if (output.length !== maxLength) {
      if (remaining > 0) {
        const ending = remaining > 1 ? 's' : '';
        push(output, ctx.stylize(('<' + remaining + ' empty item' + ending + '>'), 'undefined'));
      }
    } else if (remaining > 0) {
      push(output, remainingText(remaining));
    }
    return output;
  }

  function formatArray(ctx, value, recurseTimes) {
    const valLen = value.length;
    const len = MathMin(MathMax(0, ctx.maxArrayLength), valLen);
    const remaining = valLen - len;
    const output = [];
    for (let i = 0; i < len; i++) {
      if (!ObjectPrototypeHasOwnProperty(value, i)) {
        return formatSpecialArray(ctx, value, recurseTimes, len, output, i);
      }
      push(output, formatProperty(ctx, value, recurseTimes, i, kArrayType));
    }
    if (remaining > 0) push(output, remainingText(remaining));
    return output;
  }

  function formatArrayBuffer(ctx, value) {
    let buffer;
    try {
      buffer = new Uint8ArrayCtor(value);
    } catch {
      return [ctx.stylize('(detached)', 'special')];
    }
    const length = TypedArrayPrototypeGetLength(buffer);
    const n = MathMin(ctx.maxArrayLength, length);
    let str = '';
    for (let i = 0; i < n; i++) {
      const b = buffer[i];
      str += ('' + (i === 0 ? '' : ' ') + (b < 16 ? '0' : '') + (NumberPrototypeToString(b, 16)));
    }
    const remaining = length - ctx.maxArrayLength;
    if (remaining > 0) str += (' ... ' + remaining + ' more byte' + (remaining > 1 ? 's' : ''));
    return [((ctx.stylize('[Uint8Contents]', 'special')) + ': <' + str + '>')];
  }

  function formatTypedArray(ctx, value, recurseTimes) {
    const length = TypedArrayPrototypeGetLength(value);
    const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const remaining = length - maxLength;
    const output = [];
    const elementFormatter = length > 0 && typeof value[0] === 'number' ? formatNumber : formatBigInt;
    for (let i = 0; i < maxLength; ++i) push(output, elementFormatter(ctx.stylize, value[i], ctx.numericSeparator));
    if (remaining > 0) push(output, remainingText(remaining));
    if (ctx.showHidden) {
      ctx.indentationLvl += 2;
      let bytesPerElement;
      try {
        bytesPerElement = value.BYTES_PER_ELEMENT;
      } catch {
        bytesPerElement = undefined;
      }
      const extras = [
        ['BYTES_PER_ELEMENT', bytesPerElement],
        ['length', length],
        ['byteLength', TypedArrayPrototypeGetByteLength(value)],
        ['byteOffset', TypedArrayPrototypeGetByteOffset(value)],
        ['buffer', TypedArrayPrototypeGetBuffer(value)],
      ];
      for (let i = 0; i < extras.length; i++) {
        const str = formatValue(ctx, extras[i][1], recurseTimes, true);
        push(output, ('[' + extras[i][0] + ']: ' + str));
      }
      ctx.indentationLvl -= 2;
    }
    return output;
  }

  function formatSet(ctx, value, recurseTimes) {
    const length = SetPrototypeGetSize(value);
    const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const remaining = length - maxLength;
    const output = [];
    ctx.indentationLvl += 2;
    const it = SetPrototypeValues(value);
    for (let i = 0; i < maxLength; i++) {
      const r = SetIteratorNext(it);
      if (r.done) break;
      push(output, formatValue(ctx, r.value, recurseTimes));
    }
    if (remaining > 0) push(output, remainingText(remaining));
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatMap(ctx, value, recurseTimes) {
    const length = MapPrototypeGetSize(value);
    const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const remaining = length - maxLength;
    const output = [];
    ctx.indentationLvl += 2;
    const it = MapPrototypeEntries(value);
    for (let i = 0; i < maxLength; i++) {
      const r = MapIteratorNext(it);
      if (r.done) break;
      const entry = r.value;
      push(output, ((formatValue(ctx, entry[0], recurseTimes)) + ' => ' + (formatValue(ctx, entry[1], recurseTimes))));
    }
    if (remaining > 0) push(output, remainingText(remaining));
    ctx.indentationLvl -= 2;
    return output;
  }

  // An iterator cannot be read without being advanced: its items stay unknown.
  function formatIterator(ctx) {
    return [ctx.stylize('<items unknown>', 'special')];
  }

  function formatWeakCollection(ctx) {
    return [ctx.stylize('<items unknown>', 'special')];
  }

  function formatPromise(ctx, value, recurseTimes) {
    let details;
    try {
      details = nativePromiseState === null ? undefined : nativePromiseState(value);
    } catch {
      details = undefined;
    }
    if (details === undefined) return [ctx.stylize('<unknown>', 'special')];
    const state = details[0];
    if (state === 'pending') return [ctx.stylize('<pending>', 'special')];
    ctx.indentationLvl += 2;
    const str = formatValue(ctx, details[1], recurseTimes);
    ctx.indentationLvl -= 2;
    return [state === 'rejected' ? ((ctx.stylize('<rejected>', 'special')) + ' ' + str) : str];
  }

  function formatProperty(ctx, value, recurseTimes, key, type, desc, original = value) {
    let name, str;
    let extra = ' ';
    const indentationLvl = ctx.indentationLvl;
    try {
      desc = desc || ObjectGetOwnPropertyDescriptor(value, key) || { __proto__: null, value: value[key], enumerable: true };
      if (desc.value !== undefined) {
        const diff = (ctx.compact !== true || type !== kObjectType) ? 2 : 3;
        ctx.indentationLvl += diff;
        str = formatValue(ctx, desc.value, recurseTimes);
        if (diff === 3 && ctx.breakLength < getStringWidth(str, ctx.colors)) {
          extra = ('\n' + (spaces(ctx.indentationLvl)));
        }
        ctx.indentationLvl -= diff;
      } else if (desc.get !== undefined) {
        const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
        const s = ctx.stylize;
        const sp = 'special';
        if (ctx.getters && (ctx.getters === true ||
              (ctx.getters === 'get' && desc.set === undefined) ||
              (ctx.getters === 'set' && desc.set !== undefined))) {
          try {
            const tmp = ReflectApply(desc.get, original, []);
            ctx.indentationLvl += 2;
            if (tmp === null) {
              str = ((s(('[' + label + ':'), sp)) + ' ' + (s('null', 'null')) + (s(']', sp)));
            } else if (typeof tmp === 'object') {
              str = ((s(('[' + label + ']'), sp)) + ' ' + (formatValue(ctx, tmp, recurseTimes)));
            } else {
              const primitive = formatPrimitive(s, tmp, ctx);
              str = ((s(('[' + label + ':'), sp)) + ' ' + primitive + (s(']', sp)));
            }
            ctx.indentationLvl -= 2;
          } catch (err) {
            if (isStackOverflow(err)) throw err;
            ctx.indentationLvl = indentationLvl;
            const message = ('<Inspection threw (' + (errorMessage(err)) + ')>');
            str = ((s(('[' + label + ':'), sp)) + ' ' + message + (s(']', sp)));
          }
        } else {
          str = ctx.stylize(('[' + label + ']'), sp);
        }
      } else if (desc.set !== undefined) {
        str = ctx.stylize('[Setter]', 'special');
      } else {
        str = ctx.stylize('undefined', 'undefined');
      }
    } catch (err) {
      if (isStackOverflow(err)) throw err;
      ctx.indentationLvl = indentationLvl;
      str = ctx.stylize(inspectThrew(err), 'special');
      desc = { __proto__: null, enumerable: true };
    }
    if (type === kArrayType) return str;
    if (typeof key === 'symbol') {
      name = ('[' + (ctx.stylize(escapeString(SymbolPrototypeToString(key), 39), 'symbol')) + ']');
    } else if (key === '__proto__') {
      name = "['__proto__']";
    } else if (desc.enumerable === false) {
      name = ('[' + (escapeString(('' + key), 39)) + ']');
    } else if (ctx.stylize === stylizeNoColor) {
      name = plainKeyName('' + key);
    } else if (isIdentifierKey('' + key)) {
      name = ctx.stylize('' + key, 'name');
    } else {
      name = ctx.stylize(strEscape('' + key), 'string');
    }
    return (name + ':' + extra + str);
  }

  // plainKeyName is how an enumerable string key shows without colours,
  // remembered: the same keys come back object after object.
  const keyNames = newMap();
  function plainKeyName(key) {
    let name = MapPrototypeGet(keyNames, key);
    if (name === undefined) {
      name = isIdentifierKey(key) ? key : strEscape(key);
      if (MapPrototypeGetSize(keyNames) >= 4096) MapPrototypeClear(keyNames);
      MapPrototypeSet(keyNames, key, name);
    }
    return name;
  }

  // ---- layout ----

  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let i = 0;
    let outputLength = output.length;
    if (ctx.maxArrayLength < output.length) outputLength--;
    const separatorSpace = 2;
    const dataLen = [];
    for (; i < outputLength; i++) {
      const len = getStringWidth(output[i], ctx.colors);
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
        (totalLength / actualMax > 5 || maxLength <= 6)) {
      const approxCharHeights = 2.5;
      const averageBias = MathSqrt(actualMax - totalLength / output.length);
      const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
      const columns = MathMin(
        MathRound(MathSqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
        MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15,
      );
      if (columns <= 1) return output;
      const tmp = [];
      const maxLineLength = [];
      for (let i = 0; i < columns; i++) {
        let lineMaxLength = 0;
        for (let j = i; j < output.length; j += columns) {
          if (dataLen[j] > lineMaxLength) lineMaxLength = dataLen[j];
        }
        push(maxLineLength, lineMaxLength + separatorSpace);
      }
      let padNumbers = true;
      if (value !== undefined) {
        for (let i = 0; i < output.length; i++) {
          let v;
          try {
            v = value[i];
          } catch {
            v = undefined;
          }
          if (typeof v !== 'number' && typeof v !== 'bigint') {
            padNumbers = false;
            break;
          }
        }
      }
      for (let i = 0; i < outputLength; i += columns) {
        const max = MathMin(i + columns, outputLength);
        let str = '';
        let j = i;
        for (; j < max - 1; j++) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
          str += padNumbers ? padStart((output[j] + ', '), padding) : padEnd((output[j] + ', '), padding);
        }
        if (padNumbers) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
          str += padStart(output[j], padding);
        } else {
          str += output[j];
        }
        push(tmp, str);
      }
      if (ctx.maxArrayLength < output.length) push(tmp, output[outputLength]);
      output = tmp;
    }
    return output;
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let totalLength = output.length + start;
    if (totalLength + output.length > ctx.breakLength) return false;
    for (let i = 0; i < output.length; i++) {
      totalLength += ctx.colors ? removeColors(output[i]).length : output[i].length;
      if (totalLength > ctx.breakLength) return false;
    }
    return base === '' || !StringPrototypeIncludes(base, '\n');
  }

  function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
    if (ctx.compact !== true) {
      if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
        const entries = output.length;
        if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
        if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
          const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
          if (isBelowBreakLength(ctx, output, start, base)) {
            const joinedOutput = join(output, ', ');
            if (!StringPrototypeIncludes(joinedOutput, '\n')) {
              return ('' + (base ? (base + ' ') : '') + braces[0] + ' ' + joinedOutput + ' ' + braces[1]);
            }
          }
        }
      }
      const indentation = ('\n' + (spaces(ctx.indentationLvl)));
      return ('' + (base ? (base + ' ') : '') + braces[0] + indentation + '  ' + (join(output, (',' + indentation + '  '))) + indentation + braces[1]);
    }
    if (isBelowBreakLength(ctx, output, 0, base)) {
      return (braces[0] + (base ? (' ' + base) : '') + ' ' + (join(output, ', ')) + ' ' + braces[1]);
    }
    const indentation = spaces(ctx.indentationLvl);
    const ln = base === '' && braces[0].length === 1 ? ' ' : ((base ? (' ' + base) : '') + '\n' + indentation + '  ');
    return (braces[0] + ln + (join(output, (',\n' + indentation + '  '))) + ' ' + braces[1]);
  }

  // ---- format ----

  // hasBuiltInToString reports whether %s should inspect the object rather
  // than call its toString: true unless the program gave it (or its class)
  // a toString or Symbol.toPrimitive of its own.
  function hasBuiltInToString(value) {
    try {
      let ownToString = true;
      let ownToPrimitive = true;
      if (typeof value.toString !== 'function') {
        if (typeof value[SymbolToPrimitive] !== 'function') return true;
        if (ObjectPrototypeHasOwnProperty(value, SymbolToPrimitive)) return false;
        ownToString = false;
      } else if (ObjectPrototypeHasOwnProperty(value, 'toString')) {
        return false;
      } else if (typeof value[SymbolToPrimitive] !== 'function') {
        ownToPrimitive = false;
      } else if (ObjectPrototypeHasOwnProperty(value, SymbolToPrimitive)) {
        return false;
      }
      let pointer = value;
      for (let guard = 0; guard < 10000; guard++) {
        pointer = ObjectGetPrototypeOf(pointer);
        if (pointer === null) return true;
        if ((ownToString && ObjectPrototypeHasOwnProperty(pointer, 'toString')) ||
            (ownToPrimitive && ObjectPrototypeHasOwnProperty(pointer, SymbolToPrimitive))) {
          break;
        }
      }
      const descriptor = ObjectGetOwnPropertyDescriptor(pointer, 'constructor');
      return descriptor !== undefined && typeof descriptor.value === 'function' && isBuiltInName(descriptor.value.name);
    } catch {
      return true;
    }
  }

  let circularErrorMessage;
  function firstErrorLine(err) {
    const m = errorMessage(err);
    const i = StringPrototypeIndexOf(m, '\n');
    return i === -1 ? m : StringPrototypeSlice(m, 0, i);
  }
  function tryStringify(arg) {
    try {
      return JSONStringify(arg);
    } catch (err) {
      if (circularErrorMessage === undefined) {
        try {
          const a = {};
          a.a = a;
          JSONStringify(a);
        } catch (circularError) {
          circularErrorMessage = firstErrorLine(circularError);
        }
      }
      if (isStackOverflow(err)) throw err;
      let isTypeError = false;
      try {
        isTypeError = err.name === 'TypeError';
      } catch {
        isTypeError = false;
      }
      if (isTypeError && firstErrorLine(err) === circularErrorMessage) return '[Circular]';
      return inspectThrew(err);
    }
  }

  function formatNumberNoColor(number, options) {
    return formatNumber(stylizeNoColor, number, (options && options.numericSeparator) || false);
  }
  function formatBigIntNoColor(bigint, options) {
    return formatBigInt(stylizeNoColor, bigint, (options && options.numericSeparator) || false);
  }

  function format(...args) {
    return formatWithOptionsInternal(undefined, args);
  }

  // formatInteger is %d (toNumber: NumberCtor) and %i (NumberParseInt): a
  // bigint as itself, a symbol as NaN, anything else converted.
  function formatInteger(v, toNumber, inspectOptions) {
    if (typeof v === 'bigint') return formatBigIntNoColor(v, inspectOptions);
    if (typeof v === 'symbol') return 'NaN';
    let n;
    try {
      n = toNumber(v);
    } catch {
      n = NaN;
    }
    return formatNumberNoColor(n, inspectOptions);
  }

  function formatWithOptionsInternal(inspectOptions, args) {
    const first = args[0];
    let a = 0;
    let str = '';
    let joinStr = '';
    if (typeof first === 'string') {
      if (args.length === 1) return first;
      let tempStr;
      let lastPos = 0;
      for (let i = 0; i < first.length - 1; i++) {
        if (StringPrototypeCharCodeAt(first, i) === 37) { // '%'
          const nextChar = StringPrototypeCharCodeAt(first, ++i);
          if (a + 1 !== args.length) {
            switch (nextChar) {
              case 115: { // 's'
                const tempArg = args[++a];
                if (typeof tempArg === 'number') {
                  tempStr = formatNumberNoColor(tempArg, inspectOptions);
                } else if (typeof tempArg === 'bigint') {
                  tempStr = formatBigIntNoColor(tempArg, inspectOptions);
                } else if (typeof tempArg !== 'object' || tempArg === null || !hasBuiltInToString(tempArg)) {
                  try {
                    tempStr = StringCtor(tempArg);
                  } catch (err) {
                    tempStr = inspectThrew(err);
                  }
                } else {
                  tempStr = inspect(tempArg, { __proto__: null, ...inspectOptions, compact: 3, colors: false, depth: 0 });
                }
                break;
              }
              case 106: // 'j'
                tempStr = tryStringify(args[++a]);
                break;
              case 100: // 'd'
                tempStr = formatInteger(args[++a], NumberCtor, inspectOptions);
                break;
              case 79: // 'O'
                tempStr = inspect(args[++a], inspectOptions);
                break;
              case 111: // 'o'
                tempStr = inspect(args[++a], { __proto__: null, ...inspectOptions, showHidden: true, showProxy: true, depth: 4 });
                break;
              case 105: // 'i'
                tempStr = formatInteger(args[++a], NumberParseInt, inspectOptions);
                break;
              case 102: { // 'f'
                const tempFloat = args[++a];
                if (typeof tempFloat === 'symbol') {
                  tempStr = 'NaN';
                } else {
                  let n;
                  try {
                    n = NumberParseFloat(tempFloat);
                  } catch {
                    n = NaN;
                  }
                  tempStr = formatNumberNoColor(n, inspectOptions);
                }
                break;
              }
              case 99: // 'c'
                a += 1;
                tempStr = '';
                break;
              case 37: // '%'
                str += StringPrototypeSlice(first, lastPos, i);
                lastPos = i + 1;
                continue;
              default:
                continue;
            }
            if (lastPos !== i - 1) str += StringPrototypeSlice(first, lastPos, i - 1);
            str += tempStr;
            lastPos = i + 1;
          } else if (nextChar === 37) {
            str += StringPrototypeSlice(first, lastPos, i);
            lastPos = i + 1;
          }
        }
      }
      if (lastPos !== 0) {
        a++;
        joinStr = ' ';
        if (lastPos < first.length) str += StringPrototypeSlice(first, lastPos);
      }
    }
    while (a < args.length) {
      const value = args[a];
      str += joinStr;
      str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
      joinStr = ' ';
      a++;
    }
    return str;
  }

  // ---- console ----

  let groupIndent = '';
  const counts = newMap();
  const times = newMap();

  function write(text) {
    if (groupIndent.length !== 0) {
      if (StringPrototypeIncludes(text, '\n')) text = replaceAll(text, '\n', ('\n' + groupIndent));
      text = groupIndent + text;
    }
    nativeWrite(text);
  }

  function safeFormat(args) {
    try {
      return formatWithOptionsInternal(undefined, args);
    } catch (err) {
      if (isStackOverflow(err)) return '[Inspection interrupted prematurely. Maximum call stack size exceeded.]';
      return inspectThrew(err);
    }
  }

  function log(...args) {
    write(safeFormat(args));
  }
  function warn(...args) {
    write(safeFormat(args));
  }

  function dir(object, options) {
    let text;
    try {
      text = inspect(object, { __proto__: null, customInspect: false, ...options });
    } catch (err) {
      text = inspectThrew(err);
    }
    write(text);
  }

  const labelString = (label) => {
    if (typeof label === 'symbol') return SymbolPrototypeToString(label);
    return toStr(label);
  };

  function warning(message) {
    write(('Warning: ' + message));
  }

  function formatTime(ms) {
    let hours = 0;
    let minutes = 0;
    let seconds = 0;
    if (ms >= 1000) {
      if (ms >= 60000) {
        if (ms >= 3600000) {
          hours = MathFloor(ms / 3600000);
          ms = ms % 3600000;
        }
        minutes = MathFloor(ms / 60000);
        ms = ms % 60000;
      }
      seconds = ms / 1000;
    }
    if (hours !== 0 || minutes !== 0) {
      const parts = split(NumberPrototypeToFixed(seconds, 3), '.');
      const res = hours !== 0 ? (hours + ':' + (padZero(('' + minutes)))) : minutes;
      return (res + ':' + (padZero(parts[0])) + '.' + parts[1] + ' (' + (hours !== 0 ? 'h:m' : '') + 'm:ss.mmm)');
    }
    if (seconds !== 0) return ((NumberPrototypeToFixed(seconds, 3)) + 's');
    return ((NumberCtor(NumberPrototypeToFixed(ms, 3))) + 'ms');
  }
  const padZero = (s) => (s.length >= 2 ? s : ('0' + s));

  function now() {
    try {
      const t = nativeNow();
      return typeof t === 'number' ? t : 0;
    } catch {
      return 0;
    }
  }

  function time(label = 'default') {
    label = labelString(label);
    if (MapPrototypeHas(times, label)) {
      warning(('Label \'' + label + '\' already exists for console.time()'));
      return;
    }
    MapPrototypeSet(times, label, now());
  }

  function timeLogImpl(name, label, data) {
    const start = MapPrototypeGet(times, label);
    if (start === undefined) {
      warning(('No such label \'' + label + '\' for console.' + name + '()'));
      return false;
    }
    const formatted = formatTime(now() - start);
    const args = ['%s: %s', label, formatted];
    if (data !== undefined) for (let i = 0; i < data.length; i++) push(args, data[i]);
    write(safeFormat(args));
    return true;
  }

  function timeEnd(label = 'default') {
    label = labelString(label);
    if (timeLogImpl('timeEnd', label)) MapPrototypeDelete(times, label);
  }

  function timeLog(label = 'default', ...data) {
    label = labelString(label);
    timeLogImpl('timeLog', label, data);
  }

  function trace(...args) {
    const message = safeFormat(args);
    const holder = new ErrorCtor();
    if (ErrorCaptureStackTrace !== null) {
      try {
        ErrorCaptureStackTrace(holder, trace);
      } catch {
        // the frames of the Error are as good
      }
    }
    let frames = '';
    try {
      frames = nativeFrames(holder);
      if (typeof frames !== 'string') frames = '';
    } catch {
      frames = '';
    }
    const header = message === '' ? 'Trace' : ('Trace: ' + message);
    write(frames === '' ? header : (header + '\n' + frames));
  }

  function assert(expression, ...args) {
    if (!expression) {
      args[0] = ('Assertion failed' + (args.length === 0 ? '' : (': ' + (toStr(args[0])))));
      write(safeFormat(args));
    }
  }

  function count(label = 'default') {
    label = labelString(label);
    let n = MapPrototypeGet(counts, label);
    n = n === undefined ? 1 : n + 1;
    MapPrototypeSet(counts, label, n);
    write(safeFormat([(label + ': ' + n)]));
  }

  function countReset(label = 'default') {
    // Node looks the label up as given and deletes it as a string.
    if (!MapPrototypeHas(counts, label)) {
      warning(('Count for \'' + (labelString(label)) + '\' does not exist'));
      return;
    }
    MapPrototypeDelete(counts, labelString(label));
  }

  function group(...data) {
    if (data.length > 0) write(safeFormat(data));
    groupIndent += '  ';
  }

  function groupEnd() {
    groupIndent = StringPrototypeSlice(groupIndent, 0, MathMax(0, groupIndent.length - 2));
  }

  function clear() {}

  // ---- console.table ----

  const tableChars = {
    __proto__: null,
    middleMiddle: '─',
    rowMiddle: '┼',
    topRight: '┐',
    topLeft: '┌',
    leftMiddle: '├',
    topMiddle: '┬',
    bottomRight: '┘',
    bottomLeft: '└',
    bottomMiddle: '┴',
    rightMiddle: '┤',
    left: '│ ',
    right: ' │',
    middle: ' │ ',
  };

  function renderRow(row, columnWidths) {
    let out = tableChars.left;
    for (let i = 0; i < row.length; i++) {
      const cell = row[i];
      const len = getStringWidth(cell);
      const needed = columnWidths[i] - len;
      out += cell + spaces(MathCeil(needed));
      if (i !== row.length - 1) out += tableChars.middle;
    }
    out += tableChars.right;
    return out;
  }

  function renderTable(head, columns) {
    const rows = [];
    const columnWidths = [];
    for (let i = 0; i < head.length; i++) push(columnWidths, getStringWidth(head[i]));
    let longestColumn = 0;
    for (let i = 0; i < columns.length; i++) longestColumn = MathMax(longestColumn, columns[i].length);
    for (let i = 0; i < head.length; i++) {
      const column = columns[i];
      for (let j = 0; j < longestColumn; j++) {
        if (rows[j] === undefined) rows[j] = [];
        const value = rows[j][i] = ObjectPrototypeHasOwnProperty(column, j) ? column[j] : '';
        const width = columnWidths[i] || 0;
        const counted = getStringWidth(value);
        columnWidths[i] = MathMax(width, counted);
      }
    }
    const divider = [];
    for (let i = 0; i < columnWidths.length; i++) push(divider, StringPrototypeRepeat(tableChars.middleMiddle, columnWidths[i] + 2));
    let result = (tableChars.topLeft + (join(divider, tableChars.topMiddle)) + tableChars.topRight + '\n') +
      ((renderRow(head, columnWidths)) + '\n') +
      (tableChars.leftMiddle + (join(divider, tableChars.rowMiddle)) + tableChars.rightMiddle + '\n');
    for (let i = 0; i < rows.length; i++) result += ((renderRow(rows[i], columnWidths)) + '\n');
    result += (tableChars.bottomLeft + (join(divider, tableChars.bottomMiddle)) + tableChars.bottomRight);
    return result;
  }

  function tableInspect(v) {
    let depth = 0;
    try {
      depth = v !== null && typeof v === 'object' && !ArrayIsArray(v) && typedArrayTag(v) === undefined &&
        ObjectKeys(v).length > 2 ? -1 : 0;
    } catch {
      depth = 0;
    }
    return inspect(v, { __proto__: null, depth, maxArrayLength: 3, breakLength: Infinity });
  }

  function table(tabularData, properties) {
    if (properties !== undefined && !ArrayIsArray(properties)) properties = undefined;
    if (tabularData === null || typeof tabularData !== 'object') {
      log(tabularData);
      return;
    }
    let text;
    try {
      text = tableText(tabularData, properties);
    } catch (err) {
      if (isStackOverflow(err)) text = '[Inspection interrupted prematurely. Maximum call stack size exceeded.]';
      else text = inspectThrew(err);
    }
    write(text);
  }

  function indexArray(length) {
    const out = [];
    for (let i = 0; i < length; i++) push(out, tableInspect(i));
    return out;
  }

  function tableText(tabularData, properties) {
    const kind = ArrayIsArray(tabularData) ? 'plain' : kindOf(tabularData, protoChain(tabularData));
    if (kind === 'map') {
      const keys = [];
      const values = [];
      const it = MapPrototypeEntries(tabularData);
      for (;;) {
        const r = MapIteratorNext(it);
        if (r.done) break;
        push(keys, tableInspect(r.value[0]));
        push(values, tableInspect(r.value[1]));
      }
      return renderTable(['(iteration index)', 'Key', 'Values'], [indexArray(keys.length), keys, values]);
    }
    if (kind === 'set') {
      const values = [];
      const it = SetPrototypeValues(tabularData);
      for (;;) {
        const r = SetIteratorNext(it);
        if (r.done) break;
        push(values, tableInspect(r.value));
      }
      return renderTable(['(iteration index)', 'Values'], [indexArray(values.length), values]);
    }
    const map = { __proto__: null };
    let hasPrimitives = false;
    const valuesKeyArray = [];
    const indexKeyArray = ObjectKeys(tabularData);
    for (let i = 0; i < indexKeyArray.length; i++) {
      const item = tabularData[indexKeyArray[i]];
      const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
      if (properties === undefined && primitive) {
        hasPrimitives = true;
        valuesKeyArray[i] = tableInspect(item);
      } else {
        const keys = properties || ObjectKeys(item);
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k];
          const mk = typeof key === 'symbol' ? key : toStr(key);
          if (map[mk] === undefined) map[mk] = [];
          if ((primitive && properties) || !ObjectPrototypeHasOwnProperty(item, key)) {
            map[mk][i] = '';
          } else {
            map[mk][i] = tableInspect(item[key]);
          }
        }
      }
    }
    // Object.keys order of the columns: integer-like keys first.
    const keys = ObjectKeys(map);
    const values = [];
    for (let i = 0; i < keys.length; i++) push(values, map[keys[i]]);
    if (hasPrimitives) {
      push(keys, 'Values');
      push(values, valuesKeyArray);
    }
    unshift(keys, ['(index)']);
    unshift(values, [indexKeyArray]);
    return renderTable(keys, values);
  }

  const consoleObject = {
    __proto__: null,
    log,
    warn,
    dir,
    time,
    timeEnd,
    timeLog,
    trace,
    assert,
    clear,
    count,
    countReset,
    group,
    groupEnd,
    table,
    debug: log,
    info: log,
    dirxml: log,
    error: warn,
    groupCollapsed: group,
  };
  const console = {};
  {
    const names = ObjectKeys(consoleObject);
    for (let i = 0; i < names.length; i++) {
      const fn = consoleObject[names[i]];
      // Each method is its own function named as Node names it.
      const method = {
        [names[i]](...args) {
          return ReflectApply(fn, undefined, args);
        },
      }[names[i]];
      ObjectDefineProperty(console, names[i], { value: method, writable: true, enumerable: true, configurable: true });
    }
    ObjectDefineProperty(console, SymbolToStringTag, { value: 'console', writable: false, enumerable: false, configurable: true });
  }
  ObjectFreeze(console);

  // ---- the run's return value ----

  const kNotJSON = {};

  // applyToJSON applies toJSON as JSON.stringify does.
  function applyToJSON(value, key) {
    if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
      const toJSON = value.toJSON;
      if (typeof toJSON === 'function') return ReflectApply(toJSON, value, [key]);
    }
    return value;
  }

  // plainJSON is JSON.stringify(value) when value is plain data (objects
  // and arrays of strings, finite numbers, booleans and null, toJSON
  // applied), else kNotJSON. JSON.stringify itself walks the value (each
  // getter and toJSON runs once); its replacer only checks what it meets.
  function plainJSON(value) {
    let plain = true;
    const check = (key, v) => {
      if (!plain) return undefined;
      switch (typeof v) {
        case 'string':
        case 'boolean':
          return v;
        case 'number':
          if (!NumberIsFinite(v)) plain = false;
          return v;
        case 'object':
          if (v === null || isPlainData(v)) return v;
          plain = false;
          return undefined;
        default:
          plain = false;
          return undefined;
      }
    };
    let text;
    try {
      text = JSONStringify(value, check);
    } catch {
      return kNotJSON;
    }
    return plain && typeof text === 'string' ? text : kNotJSON;
  }

  // isPlainData reports whether JSON.stringify shows all of the object v: a
  // list without holes or other properties, or an object of the Object
  // prototype (or none) without enumerable symbol keys.
  function isPlainData(v) {
    const proto = ObjectGetPrototypeOf(v);
    if (ArrayIsArray(v)) {
      if (proto !== ArrayPrototype) return false;
      const length = v.length;
      // Other own keys (past kMaxKeyScan only symbols) or holes make it
      // more than a list.
      if (length <= kMaxKeyScan) return ReflectOwnKeys(v).length === length + 1;
      if (ObjectGetOwnPropertySymbols(v).length !== 0) return false;
      for (let i = 0; i < length; i++) if (!ObjectPrototypeHasOwnProperty(v, i)) return false;
      return true;
    }
    if (proto === null) {
      if (typedArrayTag(v) !== undefined || kindOf(v, []) !== 'plain') return false;
    } else if (proto !== ObjectPrototype) {
      return false;
    }
    if (ErrorIsError !== null && ErrorIsError(v)) return false;
    const symbols = ObjectGetOwnPropertySymbols(v);
    for (let i = 0; i < symbols.length; i++) {
      if (ObjectPrototypePropertyIsEnumerable(v, symbols[i])) return false;
    }
    return true;
  }

  // convertJSON is value as JSON, converted where JSON cannot hold it: a Map
  // is an object when all its keys are strings, else an array of [key,
  // value] pairs; a Set an array; a BigInt a string; NaN and ±Infinity null;
  // a cycle "[Circular]"; a typed array an array; an error its name,
  // message and own enumerable properties; a RegExp its source text; any
  // other object its own enumerable properties, as JSON.stringify does.
  // It returns undefined for what JSON leaves out (undefined, functions,
  // symbols).
  function convertJSON(value, key, stack) {
    try {
      value = applyToJSON(value, key);
    } catch {
      // as is
    }
    if (value === null) return 'null';
    switch (typeof value) {
      case 'string': return JSONStringify(value);
      case 'number': return NumberIsFinite(value) ? ('' + value) : 'null';
      case 'boolean': return value ? 'true' : 'false';
      case 'bigint': return JSONStringify(('' + value));
      case 'object': break;
      default: return undefined;
    }
    if (includesValue(stack, value)) return '"[Circular]"';
    push(stack, value);
    const out = convertObject(value, stack);
    stack.length--;
    return out;
  }

  function convertArrayItems(items, stack) {
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      let s = convertJSON(items[i], ('' + i), stack);
      if (s === undefined) s = 'null';
      out += i === 0 ? s : (',' + s);
    }
    return (out + ']');
  }

  // convertProperties appends "key":value for value's keys to members.
  function convertProperties(value, keys, stack, members) {
    for (let i = 0; i < keys.length; i++) {
      let v;
      try {
        v = value[keys[i]];
      } catch (err) {
        if (isStackOverflow(err)) throw err;
        v = inspectThrew(err);
      }
      const s = convertJSON(v, keys[i], stack);
      if (s !== undefined) push(members, JSONStringify(keys[i]) + ':' + s);
    }
    return members;
  }

  function convertObject(value, stack) {
    if (ArrayIsArray(value)) {
      const items = [];
      const length = value.length;
      for (let i = 0; i < length; i++) push(items, value[i]);
      return convertArrayItems(items, stack);
    }
    const taTag = typedArrayTag(value);
    if (taTag !== undefined) {
      const items = [];
      const length = TypedArrayPrototypeGetLength(value);
      for (let i = 0; i < length; i++) push(items, value[i]);
      return convertArrayItems(items, stack);
    }
    const chain = protoChain(value);
    const kind = kindOf(value, chain);
    if (kind === 'map') {
      const keys = [];
      const values = [];
      let allStrings = true;
      const it = MapPrototypeEntries(value);
      for (;;) {
        const r = MapIteratorNext(it);
        if (r.done) break;
        push(keys, r.value[0]);
        push(values, r.value[1]);
        if (typeof r.value[0] !== 'string') allStrings = false;
      }
      if (allStrings) {
        let out = '{';
        let first = true;
        for (let i = 0; i < keys.length; i++) {
          const s = convertJSON(values[i], keys[i], stack);
          if (s === undefined) continue;
          out += ('' + (first ? '' : ',') + (JSONStringify(keys[i])) + ':' + s);
          first = false;
        }
        return (out + '}');
      }
      let out = '[';
      for (let i = 0; i < keys.length; i++) {
        let k = convertJSON(keys[i], '0', stack);
        let v = convertJSON(values[i], '1', stack);
        if (k === undefined) k = 'null';
        if (v === undefined) v = 'null';
        out += ((i === 0 ? '' : ',') + '[' + k + ',' + v + ']');
      }
      return (out + ']');
    }
    if (kind === 'set') {
      const items = [];
      const it = SetPrototypeValues(value);
      for (;;) {
        const r = SetIteratorNext(it);
        if (r.done) break;
        push(items, r.value);
      }
      return convertArrayItems(items, stack);
    }
    if (kind === 'number') return convertJSON(NumberPrototypeValueOf(value), '', stack);
    if (kind === 'string') return JSONStringify(StringPrototypeValueOf(value));
    if (kind === 'boolean') return BooleanPrototypeValueOf(value) ? 'true' : 'false';
    if (kind === 'bigint') return JSONStringify(('' + (BigIntPrototypeValueOf(value))));
    if (kind === 'regexp') return JSONStringify(regExpToString(value));
    if (kind === 'date') {
      const time = DatePrototypeGetTime(value);
      return NumberIsNaN(time) ? 'null' : JSONStringify(DatePrototypeToISOString(value));
    }
    const keys = ObjectKeys(value);
    if (isError(value, chain)) {
      const members = [];
      const fields = ['name', 'message'];
      for (let i = 0; i < fields.length; i++) {
        if (includesValue(keys, fields[i])) continue;
        let v;
        try {
          v = value[fields[i]];
        } catch {
          v = undefined;
        }
        if (v === undefined) continue;
        const s = convertJSON(v, fields[i], stack);
        if (s !== undefined) push(members, JSONStringify(fields[i]) + ':' + s);
      }
      return '{' + join(convertProperties(value, keys, stack, members), ',') + '}';
    }
    return '{' + join(convertProperties(value, keys, stack, []), ',') + '}';
  }

  // returnValue renders the run's return value (docs/ARCHITECTURE.md, "What the model
  // sees"): ['json', JSON] for plain data, else ['text', Node's inspect
  // without elision, the value converted to JSON]. Items and characters past
  // what limitBytes (the caller's cut, 1 MiB by default) could show are
  // still elided, so that a huge Set or string costs no more than its
  // visible part.
  function returnValue(v, limitBytes) {
    const json = plainJSON(v);
    if (json !== kNotJSON) return ['json', json];
    const limit = typeof limitBytes === 'number' && limitBytes > 0 ? limitBytes : 1 << 20;
    const text = inspect(v, {
      __proto__: null,
      depth: Infinity,
      // Every item takes at least three bytes ("1, "); every character one.
      maxArrayLength: MathCeil(limit / 3) + 1,
      maxStringLength: limit + 1,
    });
    let converted;
    try {
      converted = convertJSON(v, '', []);
    } catch {
      converted = undefined;
    }
    return ['text', text, converted === undefined ? 'null' : converted];
  }

  return ObjectFreeze({ __proto__: null, console, format, inspect, returnValue });
})
