// Web-standard globals for the ptc guest: structuredClone, TextEncoder,
// TextDecoder, URL, URLSearchParams, atob, btoa, crypto, performance and
// DOMException, behaving as Node 20's do (testdata/web/cases.json is the
// conformance table, recorded from Node 20 by testdata/web/gen.js).
//
// The script's completion value is a factory. The host calls it once, while
// building the snapshot, with the natives it provides:
//   randomBytes(n) -> ArrayBuffer   n <= 65536 fresh bytes from the run's source
//   now() -> number                 ms since the run started (fractional, monotonic)
//   timeOrigin: number              ms since the epoch when the run started
//   domainToASCII(d) -> string|null the URL Standard's domain to ASCII of d
//                                   (UTS #46, by the host); null: not valid
// The functions are kept; timeOrigin is read at each use, since the snapshot
// that holds these globals serves many runs. The factory returns the globals
// to install (non-enumerable). Every built-in used is captured here, at
// factory time: a program that later replaces String.prototype.replace,
// Array.prototype.push, Object.defineProperty or a global constructor
// changes nothing these functions do.
(function (native) {
'use strict';

const {
  Object: O, Array: A, String: S, Number: N, Symbol: Sym, Reflect: R, Math: M,
  Error, TypeError, RangeError, Map, Set, WeakMap, WeakSet, WeakRef, FinalizationRegistry,
  Promise, Date, RegExp, BigInt, Boolean, Function: F, ArrayBuffer, SharedArrayBuffer,
  DataView, Uint8Array: U8, Uint16Array: U16, Iterator, decodeURIComponent, encodeURIComponent, escape, unescape,
} = globalThis;
const uncurry = F.prototype.bind.bind(F.prototype.call);
const apply = R.apply, ownKeys = R.ownKeys;
const defineProperty = O.defineProperty, getProto = O.getPrototypeOf, setProto = O.setPrototypeOf;
const getOwn = O.getOwnPropertyDescriptor, create = O.create, freeze = O.freeze, keysOf = O.keys;
const ObjectToString = O.prototype.toString;
const isArray = A.isArray, floor = M.floor;
const fromCharCode = S.fromCharCode;
const SP = S.prototype;
const charCodeAt = uncurry(SP.charCodeAt), strSlice = uncurry(SP.slice), indexOf = uncurry(SP.indexOf);
const lastIndexOf = uncurry(SP.lastIndexOf), toLower = uncurry(SP.toLowerCase);
const toWellFormed = uncurry(SP.toWellFormed);
const arrSlice = uncurry(A.prototype.slice);
const arrSort = uncurry(A.prototype.sort);
const numToString = uncurry(N.prototype.toString);
const objToString = uncurry(O.prototype.toString), fnToString = uncurry(F.prototype.toString);
const symToString = uncurry(Sym.prototype.toString);
const getter = (o, k) => uncurry(getOwn(o, k).get);
const isError = Error.isError, captureStack = Error.captureStackTrace;
const mapGet = uncurry(Map.prototype.get), mapSet = uncurry(Map.prototype.set);
const mapHas = uncurry(Map.prototype.has), mapForEach = uncurry(Map.prototype.forEach);
const mapSize = getter(Map.prototype, 'size'), setSize = getter(Set.prototype, 'size');
const setAdd = uncurry(Set.prototype.add);
const setForEach = uncurry(Set.prototype.forEach);
const TA = getProto(U8), TAP = TA.prototype;
const taSet = uncurry(TAP.set), taTag = getter(TAP, Sym.toStringTag), taBuffer = getter(TAP, 'buffer');
const taOffset = getter(TAP, 'byteOffset'), taLength = getter(TAP, 'length');
const taByteLength = getter(TAP, 'byteLength');
const ABP = ArrayBuffer.prototype, isView = ArrayBuffer.isView;
const abByteLength = getter(ABP, 'byteLength'), abResizable = getter(ABP, 'resizable');
const abMax = getter(ABP, 'maxByteLength'), abTransfer = uncurry(ABP.transfer);
const abDetached = getter(ABP, 'detached');
const sabByteLength = getter(SharedArrayBuffer.prototype, 'byteLength');
const dvBuffer = getter(DataView.prototype, 'buffer'), dvOffset = getter(DataView.prototype, 'byteOffset');
const dvByteLength = getter(DataView.prototype, 'byteLength');
const RegExpProto = RegExp.prototype, reExec = uncurry(RegExpProto.exec), dateTime = uncurry(Date.prototype.getTime), reSource = getter(RegExpProto, 'source');
const promiseThen = uncurry(Promise.prototype.then);
const SymIterator = Sym.iterator, SymTag = Sym.toStringTag;
const IteratorProto = Iterator.prototype;
const nativeRandom = native.randomBytes, nativeNow = native.now, timeOrigin = () => +native.timeOrigin;

// list is an array no program can reach into through Array.prototype.
const list = () => setProto([], null);
const push = (l, v) => { l[l.length] = v; };
// toStr converts as a template literal does in V8 (QuickJS compiles those
// to String.prototype.concat calls, which a program can replace).
function toStr(v) {
  if (typeof v === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
  return S(v);
}
const usv = (v) => toWellFormed(toStr(v));
function props(o, enumerable, tag, ctor) {
  const ks = ownKeys(o);
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i];
    if (ctor ? k !== 'prototype' && k !== 'length' && k !== 'name' : k !== 'constructor') {
      const d = getOwn(o, k);
      d.enumerable = enumerable;
      defineProperty(o, k, d);
    }
  }
  if (tag) defineProperty(o, SymTag, { value: tag, configurable: true });
}
// webClass gives a class Node's shape: enumerable members, a toStringTag.
function webClass(C, tag) {
  props(C.prototype, true, tag);
  props(C, true, undefined, true);
  return C;
}

// Node's errors: a code property, messages as Node words them.
const own = (o, k, value) => defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
function nodeError(Ctor, code, message) {
  const e = new Ctor(message);
  own(e, 'code', code);
  return e;
}
function inspectShort(v) {
  if (typeof v === 'string') {
    let s = "'" + v + "'";
    return s.length > 28 ? strSlice(s, 0, 25) + '...' : s;
  }
  if (typeof v === 'bigint') return toStr(v) + 'n';
  if (typeof v === 'symbol') return symToString(v);
  return toStr(v);
}
function received(v) {
  if (v == null) return ' Received ' + v;
  if (typeof v === 'function') return ' Received function ' + v.name;
  if (typeof v === 'object') {
    const c = v.constructor;
    return ' Received ' + (c && c.name ? 'an instance of ' + c.name : inspectShort(v));
  }
  return ' Received type ' + typeof v + ' (' + inspectShort(v) + ')';
}
const argType = (name, what, v) => nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
  'The "' + name + '" argument must be ' + what + '.' + received(v));
const missingArgs = (s) => nodeError(TypeError, 'ERR_MISSING_ARGS', 'The ' + s + ' must be specified');
const invalidThis = (type) => nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type ' + type);

// ---------------------------------------------------------------- DOMException

const codeNames = 'IndexSize,INDEX_SIZE,DOMStringSize,DOMSTRING_SIZE,HierarchyRequest,HIERARCHY_REQUEST,' +
  'WrongDocument,WRONG_DOCUMENT,InvalidCharacter,INVALID_CHARACTER,NoDataAllowed,NO_DATA_ALLOWED,' +
  'NoModificationAllowed,NO_MODIFICATION_ALLOWED,NotFound,NOT_FOUND,NotSupported,NOT_SUPPORTED,' +
  'InUseAttribute,INUSE_ATTRIBUTE,InvalidState,INVALID_STATE,Syntax,SYNTAX,' +
  'InvalidModification,INVALID_MODIFICATION,Namespace,NAMESPACE,InvalidAccess,INVALID_ACCESS,' +
  'Validation,VALIDATION,TypeMismatch,TYPE_MISMATCH,Security,SECURITY,Network,NETWORK,Abort,ABORT,' +
  'URLMismatch,URL_MISMATCH,QuotaExceeded,QUOTA_EXCEEDED,Timeout,TIMEOUT,InvalidNodeType,INVALID_NODE_TYPE,' +
  'DataClone,DATA_CLONE';
const errorCodes = new Map();
let domInternals;
class DOMException {
  #name; #message;
  constructor(message = '', options = 'Error') {
    this.#message = toStr(message);
    if (options && typeof options === 'object') {
      this.#name = toStr(options.name);
      if ('cause' in options) defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true });
    } else {
      this.#name = toStr(options);
    }
    captureStack(this);
  }
  get name() { return domInternals(this).#name; }
  get message() { return domInternals(this).#message; }
  get code() { return mapGet(errorCodes, domInternals(this).#name) || 0; }
  static {
    domInternals = (o) => {
      if (typeof o !== 'object' || o === null || !(#name in o)) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of DOMException');
      return o;
    };
  }
}
setProto(DOMException.prototype, Error.prototype);
webClass(DOMException, 'DOMException');
{
  let i = 0, code = 1;
  for (;;) {
    const comma = indexOf(codeNames, ',', i), end = indexOf(codeNames, ',', comma + 1);
    mapSet(errorCodes, strSlice(codeNames, i, comma) + 'Error', code);
    const d = { value: code, enumerable: true };
    const constant = strSlice(codeNames, comma + 1, end < 0 ? codeNames.length : end) + '_ERR';
    defineProperty(DOMException, constant, d);
    defineProperty(DOMException.prototype, constant, d);
    if (end < 0) break;
    i = end + 1;
    code++;
  }
}
const domError = (message, name) => new DOMException(message, name);

// ------------------------------------------------------------ UTF-8 and text

// utf8Write writes s (lone surrogates as U+FFFD) into out from 0, stopping
// before a character that does not fit; it returns [read, written].
function utf8Write(s, out, room) {
  let j = 0, i = 0;
  const len = s.length;
  for (; i < len; i++) {
    let c = charCodeAt(s, i);
    if (c < 0x80) {
      if (j >= room) break;
      out[j++] = c;
      continue;
    }
    if (c < 0x800) {
      if (j + 2 > room) break;
      out[j++] = 0xc0 | c >> 6;
      out[j++] = 0x80 | c & 63;
      continue;
    }
    if ((c & 0xf800) === 0xd800) {
      const d = i + 1 < len ? charCodeAt(s, i + 1) : 0;
      if (c < 0xdc00 && (d & 0xfc00) === 0xdc00) {
        if (j + 4 > room) break;
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[j++] = 0xf0 | c >> 18;
        out[j++] = 0x80 | c >> 12 & 63;
        out[j++] = 0x80 | c >> 6 & 63;
        out[j++] = 0x80 | c & 63;
        i++;
        continue;
      }
      c = 0xfffd;
    }
    if (j + 3 > room) break;
    out[j++] = 0xe0 | c >> 12;
    out[j++] = 0x80 | c >> 6 & 63;
    out[j++] = 0x80 | c & 63;
  }
  return [i, j];
}
// bytesOfLatin1 turns a string of code units below 256 into bytes.
function bytesOfLatin1(b) {
  const n = b.length, out = new U8(n);
  for (let i = 0; i < n; i++) out[i] = charCodeAt(b, i);
  return out;
}
// latin1OfBytes is the reverse, a native call per chunk.
function latin1OfBytes(b) {
  let s = '';
  for (let i = 0, n = taLength(b); i < n; i += CHUNK) s += apply(fromCharCode, null, new U8(taBuffer(b), taOffset(b) + i, n - i < CHUNK ? n - i : CHUNK));
  return s;
}
// utf8Encode encodes s (lone surrogates as U+FFFD): the engine's own
// encodeURIComponent does the UTF-8, unescape makes it one unit per byte.
const utf8Encode = (s) => bytesOfLatin1(unescape(encodeURIComponent(toWellFormed(s))));

// Chunks of UTF-16 code units become a string without a per-character concat.
const CHUNK = 8192;
function units(hint) {
  const buf = new U16(hint < CHUNK ? hint + 1 : CHUNK);
  const size = taLength(buf);
  let k = 0, s = '';
  return {
    put(c) {
      if (k === size) { s += apply(fromCharCode, null, buf); k = 0; }
      buf[k++] = c;
    },
    end() { return s + apply(fromCharCode, null, new U16(taBuffer(buf), 0, k)); },
  };
}
const invalidData = () => nodeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', 'The encoded data was not valid for encoding utf-8');
// utf8Decode decodes bytes as the Encoding Standard's UTF-8 decoder does
// (each maximal subpart of an invalid sequence becomes one U+FFFD). st, when
// given, carries a partial sequence between calls: [cp, needed, seen, lower, upper].
function utf8Decode(b, fatal, st, flush) {
  let cp = 0, need = 0, seen = 0, lo = 0x80, hi = 0xbf;
  if (st) { cp = st[0]; need = st[1]; seen = st[2]; lo = st[3]; hi = st[4]; }
  // Valid UTF-8 with nothing pending: the engine's decodeURIComponent.
  if (need === 0) try { return decodeURIComponent(escape(latin1OfBytes(b))); } catch {}
  const out = units(taLength(b));
  const bad = () => {
    if (fatal) throw invalidData();
    out.put(0xfffd);
  };
  for (let i = 0, n = taLength(b); i < n; i++) {
    const x = b[i];
    if (need === 0) {
      if (x < 0x80) out.put(x);
      else if (x >= 0xc2 && x <= 0xdf) { need = 1; cp = x & 0x1f; }
      else if (x >= 0xe0 && x <= 0xef) {
        if (x === 0xe0) lo = 0xa0;
        if (x === 0xed) hi = 0x9f;
        need = 2; cp = x & 0xf;
      } else if (x >= 0xf0 && x <= 0xf4) {
        if (x === 0xf0) lo = 0x90;
        if (x === 0xf4) hi = 0x8f;
        need = 3; cp = x & 7;
      } else bad();
      continue;
    }
    if (x < lo || x > hi) {
      cp = need = seen = 0; lo = 0x80; hi = 0xbf;
      bad();
      i--;
      continue;
    }
    lo = 0x80; hi = 0xbf;
    cp = cp << 6 | x & 0x3f;
    if (++seen !== need) continue;
    if (cp > 0xffff) { out.put(0xd7c0 + (cp >> 10)); out.put(0xdc00 | cp & 0x3ff); } else out.put(cp);
    cp = need = seen = 0;
  }
  if (need && (flush || !st)) { need = 0; lo = 0x80; hi = 0xbf; bad(); }
  if (st) { st[0] = cp; st[1] = need; st[2] = seen; st[3] = lo; st[4] = hi; }
  return out.end();
}

let encoderCheck;
class TextEncoder {
  #ok;
  constructor() { this.#ok = true; }
  get encoding() { encoderCheck(this); return 'utf-8'; }
  encode(input = '') { encoderCheck(this); return utf8Encode(toStr(input)); }
  encodeInto(src, dest) {
    encoderCheck(this);
    if (typeof src !== 'string') throw argType('src', 'of type string', src);
    if (!isView(dest) || taTag(dest) !== 'Uint8Array') throw argType('dest', 'an instance of Uint8Array', dest);
    const r = utf8Write(src, dest, taLength(dest));
    return { read: r[0], written: r[1] };
  }
  static { encoderCheck = (o) => { if (typeof o !== 'object' || o === null || !(#ok in o)) throw invalidThis('TextEncoder'); }; }
}
webClass(TextEncoder, 'TextEncoder');

const utf8Labels = ',unicode-1-1-utf-8,unicode11utf8,unicode20utf8,utf-8,utf8,x-unicode20utf8,';
const isWS = (c) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
function optionsObject(o) {
  if (o !== null && typeof o !== 'object' && typeof o !== 'function') throw argType('options', 'of type object', o);
  return o;
}
// bytesOf views an ArrayBuffer, SharedArrayBuffer or view as bytes, or
// returns undefined.
function bytesOf(v) {
  if (isView(v)) {
    if (taTag(v) !== undefined) return new U8(taBuffer(v), taOffset(v), taByteLength(v));
    return new U8(dvBuffer(v), dvOffset(v), dvByteLength(v));
  }
  if (typeof v === 'object' && v !== null) {
    try { abByteLength(v); return new U8(v); } catch {}
    try { sabByteLength(v); return new U8(v); } catch {}
  }
}
let decoderCheck;
class TextDecoder {
  #fatal; #ignoreBOM; #bomSeen = false; #fast = true; #state = null;
  constructor(encoding = 'utf-8', options = {}) {
    let label = toStr(encoding);
    optionsObject(options);
    let a = 0, b = label.length;
    while (a < b && isWS(charCodeAt(label, a))) a++;
    while (b > a && isWS(charCodeAt(label, b - 1))) b--;
    const l = toLower(strSlice(label, a, b));
    if (l === '' || indexOf(utf8Labels, ',' + l + ',') < 0) {
      throw nodeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', 'The "' + label + '" encoding is not supported');
    }
    this.#fatal = options !== null && !!options.fatal;
    this.#ignoreBOM = options !== null && !!options.ignoreBOM;
  }
  get encoding() { decoderCheck(this); return 'utf-8'; }
  get fatal() { return decoderCheck(this).#fatal; }
  get ignoreBOM() { return decoderCheck(this).#ignoreBOM; }
  decode(input = undefined, options = {}) {
    decoderCheck(this);
    optionsObject(options);
    const stream = options !== null && !!options.stream;
    if (stream) this.#fast = false;
    let bytes;
    if (input === undefined) bytes = new U8(0);
    else if ((bytes = bytesOf(input)) === undefined) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + (this.#fast ? 'list' : 'input') +
        '" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.');
    }
    if (this.#state === null) this.#state = [0, 0, 0, 0x80, 0xbf];
    let s;
    try {
      s = utf8Decode(bytes, this.#fatal, this.#state, !stream);
    } catch (e) {
      this.#bomSeen = false;
      this.#state = null;
      throw e;
    }
    if (!this.#ignoreBOM && !this.#bomSeen && s.length) {
      if (charCodeAt(s, 0) === 0xfeff) s = strSlice(s, 1);
      this.#bomSeen = true;
    }
    if (!stream) { this.#bomSeen = false; this.#state = null; }
    return s;
  }
  static { decoderCheck = (o) => { if (typeof o !== 'object' || o === null || !(#fast in o)) throw invalidThis('TextDecoder'); return o; }; }
}
webClass(TextDecoder, 'TextDecoder');

// ------------------------------------------------------------------- base64

const badChar = () => domError('Invalid character', 'InvalidCharacterError');
const u8ToBase64 = uncurry(U8.prototype.toBase64), u8FromBase64 = U8.fromBase64;
const NOT_LATIN1 = /[^\x00-\xff]/, NOT_BASE64 = /[^\t\n\f\r A-Za-z0-9+/=]/, ASCII_WS = /[\t\n\f\r ]/;
// After a '=' only padding and whitespace, and at most two '='.
const BAD_PADDING = /=[\t\n\f\r ]*[^=\t\n\f\r ]|=[\t\n\f\r ]*=[\t\n\f\r ]*=/;
function btoa(input) {
  if (arguments.length === 0) throw missingArgs('"input" argument');
  const s = toStr(input);
  if (reExec(NOT_LATIN1, s) !== null) throw badChar();
  return u8ToBase64(bytesOfLatin1(s));
}
// atob follows Node 20's messages: a character outside the alphabet, or
// misplaced padding, is "Invalid character"; one data character too many is
// "not correctly encoded".
function atob(input) {
  if (arguments.length === 0) throw missingArgs('"input" argument');
  const s = toStr(input);
  if (reExec(NOT_BASE64, s) !== null || reExec(BAD_PADDING, s) !== null) throw badChar();
  let count = s.length;
  if (reExec(ASCII_WS, s) !== null) for (let i = 0; i < s.length; i++) if (isWS(charCodeAt(s, i))) count--;
  const first = indexOf(s, '='), equals = first < 0 ? 0 : indexOf(s, '=', first + 1) < 0 ? 1 : 2;
  if ((count - equals) % 4 === 1) throw domError('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  if (equals && count % 4) throw badChar();
  return latin1OfBytes(u8FromBase64(s));
}

// ---------------------------------------------------------------------- URL

// Percent-encode sets over ASCII, as bits: fragment, query, special-query,
// path, userinfo. Code points below 0x20, above 0x7E and non-ASCII are in all.
const PF = 1, PQ = 2, PSQ = 4, PP = 8, PU = 16;
const SETS = new U8(128);
{
  const add = (chars, bits) => { for (let i = 0; i < chars.length; i++) SETS[charCodeAt(chars, i)] |= bits; };
  add(' "<>`', PF);
  add(' "#<>', PQ | PSQ | PP | PU);
  add("'", PSQ);
  add('?`{}', PP | PU);
  add('/:;=@[\\]^|', PU);
}
// NEEDS_ENCODING[mask] finds a code point pctEncode would change.
const NEEDS_ENCODING = { __proto__: null };
for (const mask of [0, PF, PQ, PSQ, PP, PU]) {
  let cls = '';
  for (let c = 0x20; c < 0x7f; c++) if (SETS[c] & mask) cls += '\\x' + toUpperHex(c);
  NEEDS_ENCODING[mask] = new RegExp('[^\\x20-\\x7e' + (cls ? ']|[' + cls : '') + ']');
}
const HEX = list();
for (let i = 0; i < 256; i++) push(HEX, '%' + (i < 16 ? '0' : '') + toUpperHex(i));
function toUpperHex(n) {
  const d = '0123456789ABCDEF';
  return n < 16 ? d[n] : d[n >> 4] + d[n & 15];
}
// pctEncode UTF-8 percent-encodes the code points of s in the set mask (0:
// the C0 control percent-encode set). s holds no lone surrogates.
function pctEncode(s, mask) {
  if (reExec(NEEDS_ENCODING[mask], s) === null) return s;
  let out = '', start = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = charCodeAt(s, i);
    if (c >= 0x20 && c < 0x7f && !(SETS[c] & mask)) continue;
    out += strSlice(s, start, i);
    if (c < 0x80) out += HEX[c];
    else {
      const b = utf8Encode((c & 0xfc00) === 0xd800 && i + 1 < n ? strSlice(s, i, i + 2) : s[i]);
      if (taLength(b) === 4) i++;
      for (let k = 0; k < taLength(b); k++) out += HEX[b[k]];
    }
    start = i + 1;
  }
  return start === 0 ? out + s : out + strSlice(s, start);
}
const hexVal = (c) => c >= 48 && c <= 57 ? c - 48 : (c |= 32) >= 97 && c <= 102 ? c - 87 : -1;
// pctDecode percent-decodes s into bytes (its other code points as UTF-8).
function pctDecode(s) {
  const b = utf8Encode(s), out = new U8(taLength(b));
  let j = 0;
  for (let i = 0, n = taLength(b); i < n; i++) {
    let c = b[i];
    if (c === 37 && i + 2 < n) {
      const h = hexVal(b[i + 1]), l = hexVal(b[i + 2]);
      if (h >= 0 && l >= 0) { c = h << 4 | l; i += 2; }
    }
    out[j++] = c;
  }
  return new U8(taBuffer(out), 0, j);
}

const SPECIAL = { __proto__: null, 'ftp:': 21, 'file:': -1, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };
const special = (scheme) => SPECIAL[scheme + ':'] !== undefined;
const defaultPort = (scheme) => { const p = SPECIAL[scheme + ':']; return p > 0 ? p : null; };

// Hosts. A failure is null; a host is its serialisation.
const FORBIDDEN_HOST = /[\0\t\n\r #/:<>?@[\\\]^|]/, FORBIDDEN_DOMAIN = /[\0-\x20#%/:<>?@[\\\]^|\x7f]/;
const forbiddenHost = (s, domain) => reExec(domain ? FORBIDDEN_DOMAIN : FORBIDDEN_HOST, s) !== null;
function parseHost(input, opaque) {
  if (input[0] === '[') {
    if (input[input.length - 1] !== ']') return null;
    const a = parseIPv6(strSlice(input, 1, -1));
    return a === null ? null : '[' + serializeIPv6(a) + ']';
  }
  if (opaque) return forbiddenHost(input, false) ? null : pctEncode(input, 0);
  const domain = indexOf(input, '%') < 0 ? input : utf8Decode(pctDecode(input), false);
  const ascii = domainToASCII(domain);
  if (ascii === null || ascii === '' || forbiddenHost(ascii, true)) return null;
  if (endsInNumber(ascii)) {
    const v4 = parseIPv4(ascii);
    return v4 === null ? null : serializeIPv4(v4);
  }
  return ascii;
}
function splitOn(s, sep) {
  const parts = list();
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    if (i === s.length || s[i] === sep) { push(parts, strSlice(s, start, i)); start = i + 1; }
  }
  return parts;
}
const splitDots = (s) => splitOn(s, '.');
function endsInNumber(s) {
  let end = s.length;
  if (s[end - 1] === '.') {
    if (end === 1) return false;
    end--;
  }
  const last = strSlice(s, lastIndexOf(s, '.', end - 1) + 1, end);
  return reExec(DIGITS, last) !== null || parseIPv4Number(last) !== null;
}
const DIGITS = /^[0-9]+$/;
function parseIPv4Number(s) {
  if (s === '') return null;
  let radix = 10;
  if (s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) { radix = 16; s = strSlice(s, 2); }
  else if (s.length >= 2 && s[0] === '0') { radix = 8; s = strSlice(s, 1); }
  if (s === '') return 0;
  let v = 0;
  for (let i = 0; i < s.length; i++) {
    const d = hexVal(charCodeAt(s, i));
    if (d < 0 || d >= radix || (radix === 10 && charCodeAt(s, i) > 57)) return null;
    v = v * radix + d;
  }
  return v;
}
function parseIPv4(s) {
  const parts = splitDots(s);
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.length--;
  if (parts.length > 4) return null;
  const nums = list();
  for (let i = 0; i < parts.length; i++) {
    const v = parseIPv4Number(parts[i]);
    if (v === null) return null;
    push(nums, v);
  }
  const n = nums.length;
  for (let i = 0; i < n - 1; i++) if (nums[i] > 255) return null;
  if (nums[n - 1] >= 256 ** (5 - n)) return null;
  let v = nums[n - 1];
  for (let i = 0; i < n - 1; i++) v += nums[i] * 256 ** (3 - i);
  return v;
}
function serializeIPv4(v) {
  let s = '';
  for (let i = 3; i >= 0; i--) s += numToString(floor(v / 256 ** i) % 256) + (i ? '.' : '');
  return s;
}
function parseIPv6(s) {
  const a = list();
  for (let i = 0; i < 8; i++) a[i] = 0;
  let piece = 0, compress = -1, p = 0;
  const n = s.length, at = (i) => i < n ? charCodeAt(s, i) : -1;
  if (at(0) === 58) {
    if (at(1) !== 58) return null;
    p = 2;
    compress = ++piece;
  }
  while (p < n) {
    if (piece === 8) return null;
    if (at(p) === 58) {
      if (compress >= 0) return null;
      p++;
      compress = ++piece;
      continue;
    }
    let value = 0, len = 0;
    while (len < 4 && hexVal(at(p)) >= 0) { value = value * 16 + hexVal(at(p)); p++; len++; }
    if (at(p) === 46) {
      if (len === 0) return null;
      p -= len;
      if (piece > 6) return null;
      let seen = 0;
      while (p < n) {
        let v4 = null;
        if (seen > 0) {
          if (at(p) === 46 && seen < 4) p++;
          else return null;
        }
        if (at(p) < 48 || at(p) > 57) return null;
        while (at(p) >= 48 && at(p) <= 57) {
          const d = at(p) - 48;
          if (v4 === null) v4 = d;
          else if (v4 === 0) return null;
          else v4 = v4 * 10 + d;
          if (v4 > 255) return null;
          p++;
        }
        a[piece] = a[piece] * 256 + v4;
        seen++;
        if (seen === 2 || seen === 4) piece++;
      }
      if (seen !== 4) return null;
      break;
    } else if (at(p) === 58) {
      p++;
      if (p === n) return null;
    } else if (p < n) return null;
    a[piece++] = value;
  }
  if (compress >= 0) {
    let swaps = piece - compress;
    piece = 7;
    while (piece !== 0 && swaps > 0) {
      const t = a[piece]; a[piece] = a[compress + swaps - 1]; a[compress + swaps - 1] = t;
      piece--; swaps--;
    }
  } else if (piece !== 8) return null;
  return a;
}
function serializeIPv6(a) {
  let best = -1, bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && a[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j === i ? i + 1 : j;
  }
  let out = '', ignore0 = false;
  for (let i = 0; i < 8; i++) {
    if (ignore0 && a[i] === 0) continue;
    ignore0 = false;
    if (best === i) { out += i === 0 ? '::' : ':'; ignore0 = true; continue; }
    out += numToString(a[i], 16);
    if (i !== 7) out += ':';
  }
  return out;
}

// domainToASCII is the URL Standard's domain to ASCII (beStrict false): a
// domain that is ASCII and has no label starting with "xn--" is only
// lowercased, as the standard allows; any other is UTS #46 ToASCII, which
// the host computes (native domainToASCII). null: not a valid domain.
const hostToASCII = native.domainToASCII;
const NEEDS_UTS46 = /[^\x00-\x7f]|(?:^|\.)xn--/i;
function domainToASCII(d) {
  if (reExec(NEEDS_UTS46, d) === null) return toLower(d);
  return hostToASCII(d);
}

// The URL record. path is a list of segments, or a string when opaque; host
// is its serialisation or null; port a number or null.
function newRecord() {
  return { __proto__: null, scheme: '', username: '', password: '', host: null, port: null, path: list(), query: null, fragment: null };
}
const isAlpha = (c) => (c |= 32) >= 97 && c <= 122;
const isDigit = (c) => c >= 48 && c <= 57;
const isDrive = (s) => s.length === 2 && isAlpha(charCodeAt(s, 0)) && (s[1] === ':' || s[1] === '|');
const isNormDrive = (s) => s.length === 2 && isAlpha(charCodeAt(s, 0)) && s[1] === ':';
function startsWithDrive(s, p) {
  return s.length - p >= 2 && isDrive(strSlice(s, p, p + 2)) &&
    (s.length - p === 2 || indexOf('/\\?#', s[p + 2]) >= 0);
}
// shorten keeps a file URL's one segment that starts with a drive letter
// ("c:x" too, as Node 20 does; the standard keeps only "c:").
function shorten(u) {
  const path = u.path;
  if (u.scheme === 'file' && path.length === 1 && isNormDrive(strSlice(path[0], 0, 2))) return;
  if (path.length) path.length--;
}
const dot = (s) => s === '.' || (s.length === 3 && toLower(s) === '%2e');
const dotdot = (s) => {
  if (s.length < 2 || s.length > 6) return false;
  s = toLower(s);
  return s === '..' || s === '.%2e' || s === '%2e.' || s === '%2e%2e';
};
const credentials = (u) => u.username !== '' || u.password !== '';
const copyPath = (p) => typeof p === 'string' ? p : setProto(arrSlice(p), null);
const FAIL = null;

const TAB_OR_NEWLINE = /[\t\n\r]/;
// span finds the next code point from p on that a state acts on (the others
// it only collects), so a run of ordinary ones costs one native search.
const AUTH = /[@/?#]/g, AUTH_SP = /[@/?#\\]/g, HOST_NS = /[:[\]/?#]/g, HOST_SP = /[:[\]/?#\\]/g,
  FILE_HOST_END = /[/\\?#]/g, SCHEME_END = /[^a-zA-Z0-9+.-]/g, PATH_NS = /[/?#]/g, PATH_SP = /[/?#\\]/g, QUERY_END = /#/g, QUERY_OR_FRAGMENT = /[?#]/g;
function span(re, s, p) {
  re.lastIndex = p;
  const m = reExec(re, s);
  return m === null ? s.length : m.index;
}
// Basic URL parser states.
const SCHEME_START = 1, SCHEME = 2, NO_SCHEME = 3, SPECIAL_RELATIVE_OR_AUTHORITY = 4,
  PATH_OR_AUTHORITY = 5, RELATIVE = 6, RELATIVE_SLASH = 7, SPECIAL_AUTHORITY_SLASHES = 8,
  SPECIAL_AUTHORITY_IGNORE_SLASHES = 9, AUTHORITY = 10, HOST = 11, HOSTNAME = 12, PORT = 13,
  FILE = 14, FILE_SLASH = 15, FILE_HOST = 16, PATH_START = 17, PATH = 18, OPAQUE_PATH = 19,
  QUERY = 20, FRAGMENT = 21;

// parse runs the basic URL parser. Without override it returns a new record
// or null; with one it changes url and returns null on failure.
function parse(input, base, url, override) {
  let s = input;
  if (!url) {
    url = newRecord();
    let a = 0, b = s.length;
    while (a < b && charCodeAt(s, a) <= 0x20) a++;
    while (b > a && charCodeAt(s, b - 1) <= 0x20) b--;
    s = strSlice(s, a, b);
  }
  if (reExec(TAB_OR_NEWLINE, s) !== null) {
    let t = '';
    for (let i = 0; i < s.length; i++) { const c = charCodeAt(s, i); if (c !== 9 && c !== 10 && c !== 13) t += s[i]; }
    s = t;
  }
  let state = override || SCHEME_START, buf = '', atSeen = false, brackets = false, passSeen = false, pathSeen = false;
  const n = s.length;
  let scheme = null, sp = false;
  for (let p = 0; p <= n; p++) {
    const c = p < n ? charCodeAt(s, p) : -1, ch = p < n ? s[p] : '';
    if (url.scheme !== scheme) sp = special(scheme = url.scheme);
    const end = c === -1 || c === 47 || c === 63 || c === 35 || (sp && c === 92);
    switch (state) {
      case SCHEME_START:
        if (isAlpha(c)) { buf += toLower(ch); state = SCHEME; } else if (!override) { state = NO_SCHEME; p--; } else return FAIL;
        break;
      case SCHEME:
        if (isAlpha(c) || isDigit(c) || c === 43 || c === 45 || c === 46) {
          const k = span(SCHEME_END, s, p + 1);
          buf += toLower(strSlice(s, p, k));
          p = k - 1;
        }
        else if (c === 58) {
          if (override) {
            if (special(url.scheme) !== special(buf)) return FAIL;
            if ((credentials(url) || url.port !== null) && buf === 'file') return FAIL;
            if (url.scheme === 'file' && url.host === '') return FAIL;
          }
          url.scheme = buf;
          if (override) {
            if (url.port === defaultPort(buf)) url.port = null;
            return url;
          }
          buf = '';
          if (url.scheme === 'file') state = FILE;
          else if (special(url.scheme) && base && base.scheme === url.scheme) state = SPECIAL_RELATIVE_OR_AUTHORITY;
          else if (special(url.scheme)) state = SPECIAL_AUTHORITY_SLASHES;
          else if (s[p + 1] === '/') { state = PATH_OR_AUTHORITY; p++; }
          else { url.path = ''; state = OPAQUE_PATH; }
        } else if (!override) { buf = ''; state = NO_SCHEME; p = -1; } else return FAIL;
        break;
      case NO_SCHEME:
        if (!base || (typeof base.path === 'string' && c !== 35)) return FAIL;
        if (typeof base.path === 'string') {
          url.scheme = base.scheme; url.path = base.path; url.query = base.query; url.fragment = '';
          state = FRAGMENT;
        } else { state = base.scheme !== 'file' ? RELATIVE : FILE; p--; }
        break;
      case SPECIAL_RELATIVE_OR_AUTHORITY:
        if (c === 47 && s[p + 1] === '/') { state = SPECIAL_AUTHORITY_IGNORE_SLASHES; p++; } else { state = RELATIVE; p--; }
        break;
      case PATH_OR_AUTHORITY:
        if (c === 47) state = AUTHORITY; else { state = PATH; p--; }
        break;
      case RELATIVE:
        url.scheme = base.scheme;
        if (c === 47 || (special(base.scheme) && c === 92)) state = RELATIVE_SLASH;
        else {
          url.username = base.username; url.password = base.password; url.host = base.host;
          url.port = base.port; url.path = copyPath(base.path); url.query = base.query;
          if (c === 63) { url.query = ''; state = QUERY; } else if (c === 35) { url.fragment = ''; state = FRAGMENT; } else if (c !== -1) {
            url.query = null; shorten(url); state = PATH; p--;
          }
        }
        break;
      case RELATIVE_SLASH:
        if (sp && (c === 47 || c === 92)) state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
        else if (c === 47) state = AUTHORITY;
        else {
          url.username = base.username; url.password = base.password; url.host = base.host; url.port = base.port;
          state = PATH; p--;
        }
        break;
      case SPECIAL_AUTHORITY_SLASHES:
        state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
        if (c === 47 && s[p + 1] === '/') p++; else p--;
        break;
      case SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== 47 && c !== 92) { state = AUTHORITY; p--; }
        break;
      case AUTHORITY:
        if (c === 64) {
          if (atSeen) buf = '%40' + buf;
          atSeen = true;
          const k = passSeen ? -1 : indexOf(buf, ':');
          if (k >= 0) {
            url.username += pctEncode(strSlice(buf, 0, k), PU);
            url.password += pctEncode(strSlice(buf, k + 1), PU);
            passSeen = true;
          } else if (passSeen) url.password += pctEncode(buf, PU);
          else url.username += pctEncode(buf, PU);
          buf = '';
        } else if (end) {
          if (atSeen && buf === '') return FAIL;
          p -= buf.length + 1;
          buf = '';
          state = HOST;
        } else { const k = span(sp ? AUTH_SP : AUTH, s, p + 1); buf += strSlice(s, p, k); p = k - 1; }
        break;
      case HOST:
      case HOSTNAME:
        if (override && url.scheme === 'file') { p--; state = FILE_HOST; } else if (c === 58 && !brackets) {
          if (buf === '' || override === HOSTNAME) return FAIL;
          const h = parseHost(buf, !sp);
          if (h === null) return FAIL;
          url.host = h; buf = ''; state = PORT;
        } else if (end) {
          p--;
          if (sp && buf === '') return FAIL;
          if (override && buf === '' && (credentials(url) || url.port !== null)) return FAIL;
          const h = parseHost(buf, !sp);
          if (h === null) return FAIL;
          url.host = h; buf = ''; state = PATH_START;
          if (override) return url;
        } else {
          if (c === 91) brackets = true;
          if (c === 93) brackets = false;
          if (c === 91 || c === 93) buf += ch; else { const k = span(sp ? HOST_SP : HOST_NS, s, p + 1); buf += strSlice(s, p, k); p = k - 1; }
        }
        break;
      case PORT:
        if (isDigit(c)) buf += ch;
        else if (end || override) {
          if (buf !== '') {
            let port = 0;
            for (let i = 0; i < buf.length && port <= 65535; i++) port = port * 10 + charCodeAt(buf, i) - 48;
            if (port > 65535) return FAIL;
            url.port = port === defaultPort(url.scheme) ? null : port;
            buf = '';
            if (override) return url;
          }
          if (override) return FAIL;
          state = PATH_START; p--;
        } else return FAIL;
        break;
      case FILE:
        url.scheme = 'file';
        url.host = '';
        if (c === 47 || c === 92) state = FILE_SLASH;
        else if (base && base.scheme === 'file') {
          url.host = base.host; url.path = copyPath(base.path); url.query = base.query;
          if (c === 63) { url.query = ''; state = QUERY; } else if (c === 35) { url.fragment = ''; state = FRAGMENT; } else if (c !== -1) {
            url.query = null;
            if (!startsWithDrive(s, p)) shorten(url); else url.path = list();
            state = PATH; p--;
          }
        } else { state = PATH; p--; }
        break;
      case FILE_SLASH:
        if (c === 47 || c === 92) state = FILE_HOST;
        else {
          if (base && base.scheme === 'file') {
            url.host = base.host;
            if (!startsWithDrive(s, p) && typeof base.path !== 'string' && isNormDrive(base.path[0] || '')) push(url.path, base.path[0]);
          }
          state = PATH; p--;
        }
        break;
      case FILE_HOST:
        if (c === -1 || c === 47 || c === 92 || c === 63 || c === 35) {
          p--;
          if (!override && isDrive(buf)) state = PATH;
          else if (buf === '') {
            url.host = '';
            if (override) return url;
            state = PATH_START;
          } else {
            let h = parseHost(buf, !sp);
            if (h === null) return FAIL;
            if (h === 'localhost') h = '';
            url.host = h;
            if (override) return url;
            buf = ''; state = PATH_START;
          }
        } else { const k = span(FILE_HOST_END, s, p + 1); buf += strSlice(s, p, k); p = k - 1; }
        break;
      case PATH_START:
        if (sp) { state = PATH; if (c !== 47 && c !== 92) p--; } else if (!override && c === 63) { url.query = ''; state = QUERY; } else if (!override && c === 35) { url.fragment = ''; state = FRAGMENT; } else if (c !== -1) { state = PATH; if (c !== 47) p--; } else if (override && url.host === null) push(url.path, '');
        break;
      case PATH:
        if (!pathSeen) {
          pathSeen = true;
          const k = span(QUERY_OR_FRAGMENT, s, p);
          if (url.path.length === 0 && (!override || k === n) && verbatimPath(strSlice(s, p, k), sp, url.scheme === 'file')) {
            const segs = splitOn(strSlice(s, p, k), '/');
            for (let i = 0; i < segs.length; i++) push(url.path, segs[i]);
            p = k;
            if (s[k] === '?') { url.query = ''; state = QUERY; } else if (s[k] === '#') { url.fragment = ''; state = FRAGMENT; }
            break;
          }
        }
        if (c === -1 || c === 47 || (sp && c === 92) || (!override && (c === 63 || c === 35))) {
          const slash = c === 47 || (sp && c === 92);
          if (dotdot(buf)) {
            // Node 20 (ada) adds no empty segment to a non-special URL's
            // path that ".." found empty.
            const had = url.path.length;
            shorten(url);
            if (!slash && (sp || had)) push(url.path, '');
          } else if (dot(buf)) {
            if (!slash) push(url.path, '');
          } else {
            if (url.scheme === 'file' && url.path.length === 0 && isDrive(buf)) buf = buf[0] + ':';
            push(url.path, pctEncode(buf, PP));
          }
          buf = '';
          if (c === 63) { url.query = ''; state = QUERY; }
          if (c === 35) { url.fragment = ''; state = FRAGMENT; }
        } else { const k = span(sp ? PATH_SP : PATH_NS, s, p + 1); buf += strSlice(s, p, k); p = k - 1; }
        break;
      case OPAQUE_PATH:
        if (c === 63) { url.query = ''; state = QUERY; } else if (c === 35) { url.fragment = ''; state = FRAGMENT; } else if (c !== -1) {
          const k = span(QUERY_OR_FRAGMENT, s, p);
          url.path += pctEncode(strSlice(s, p, k), 0);
          p = k - 1;
        }
        break;
      case QUERY:
        if ((!override && c === 35) || c === -1) {
          url.query += pctEncode(buf, sp ? PSQ : PQ);
          buf = '';
          if (c === 35) { url.fragment = ''; state = FRAGMENT; }
        } else { const k = span(QUERY_END, s, p + 1); buf += strSlice(s, p, k); p = k - 1; }
        break;
      case FRAGMENT:
        if (c !== -1) { url.fragment += pctEncode(strSlice(s, p), PF); p = n; }
        break;
    }
  }
  return url;
}
// setHost is the host and hostname setters as Node 20 (ada 2.9) has them:
// what follows a colon goes through setPort first, with the URL as it was.
function setHost(u, v, hostname) {
  if (typeof u.path === 'string') return;
  let t = '';
  for (let i = 0; i < v.length && v[i] !== '#'; i++) {
    const c = charCodeAt(v, i);
    if (c !== 9 && c !== 10 && c !== 13) t += v[i];
  }
  if (u.scheme === 'file') { parse(t, null, u, hostname ? HOSTNAME : HOST); return; }
  const sp = special(u.scheme);
  let at = t.length, colon = false, br = false;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (ch === '[') br = true;
    else if (ch === ']') br = false;
    else if ((ch === ':' && !br) || ch === '/' || ch === '?' || (sp && ch === '\\')) { at = i; colon = ch === ':'; break; }
  }
  const view = strSlice(t, 0, at), host = u.host, port = u.port;
  if (colon) {
    if (hostname) return;
    if (at + 1 < t.length) setPort(u, strSlice(t, at + 1));
  } else if (view === '' && (sp || credentials(u) || u.port !== null)) return;
  if (view === '' && !sp) {
    if (u.host !== null || (u.path.length > 1 && u.path[0] === '')) u.host = '';
    return;
  }
  const h = parseHost(view, !sp);
  if (h === null) { u.host = host; u.port = port; } else u.host = h;
}
// setPort is the port setter as Node 20 (ada 2.9) has it: leading digits
// count, a value over 65535 or one starting with '-', a control or a space
// changes nothing, and one with no digit at all changes nothing.
function setPort(u, v) {
  if (u.host === null || u.host === '' || u.scheme === 'file') return;
  let t = '', digit = false;
  for (let i = 0; i < v.length; i++) {
    const c = charCodeAt(v, i);
    if (c !== 9 && c !== 10 && c !== 13) t += v[i];
    if (isDigit(c)) digit = true;
  }
  if (t === '') { u.port = null; return; }
  if (charCodeAt(t, 0) <= 0x20 || t[0] === '-' || !digit) return;
  let port = 0, k = 0;
  for (; k < t.length && isDigit(charCodeAt(t, k)); k++) {
    port = port * 10 + charCodeAt(t, k) - 48;
    if (port > 65535) return;
  }
  u.port = k === 0 || port === defaultPort(u.scheme) ? null : port;
}
// verbatimPath says whether Node 20 (ada 2.9) takes a path as written,
// without resolving dot segments: when it needs no percent-encoding, has no
// backslash or '%', does not start with '.', and its first "/." does not
// begin a "." or ".." segment. (Later dot segments then stay.)
const NOT_VERBATIM = /[^\x21-\x7e]|[%\\"#<>?`{}]/;
function verbatimPath(v, sp, file) {
  if (indexOf(v, '.') < 0 || reExec(NOT_VERBATIM, v) !== null || v[0] === '.' || (file && startsWithDrive(v, 0))) return false;
  const k = indexOf(v, '/.'), c = v[k + 2];
  return k >= 0 && c !== undefined && c !== '.' && c !== '/';
}
function serializePath(u) {
  if (typeof u.path === 'string') return u.path;
  let s = '';
  for (let i = 0; i < u.path.length; i++) s += '/' + u.path[i];
  return s;
}
function serialize(u, noFragment) {
  let s = u.scheme + ':';
  if (u.host !== null) {
    s += '//';
    if (credentials(u)) s += u.username + (u.password !== '' ? ':' + u.password : '') + '@';
    s += u.host;
    if (u.port !== null) s += ':' + u.port;
  } else if (typeof u.path !== 'string' && u.path.length > 1 && u.path[0] === '') s += '/.';
  s += serializePath(u);
  if (u.query !== null) s += '?' + u.query;
  if (!noFragment && u.fragment !== null) s += '#' + u.fragment;
  return s;
}
function origin(u) {
  if (u.scheme === 'blob') {
    const inner = parse(serializePath(u), null);
    return inner && (inner.scheme === 'http' || inner.scheme === 'https') ? origin(inner) : 'null';
  }
  if (!special(u.scheme) || u.scheme === 'file') return 'null';
  return u.scheme + '://' + u.host + (u.port !== null ? ':' + u.port : '');
}
function stripOpaqueSpaces(u) {
  if (typeof u.path !== 'string' || u.fragment !== null || u.query !== null) return;
  let k = u.path.length;
  while (k > 0 && u.path[k - 1] === ' ') k--;
  u.path = strSlice(u.path, 0, k);
}

// application/x-www-form-urlencoded
function formParse(s) {
  const out = list();
  for (let start = 0; start <= s.length;) {
    let i = indexOf(s, '&', start);
    if (i < 0) i = s.length;
    if (i > start) {
      let name = strSlice(s, start, i), value = '';
      const eq = indexOf(name, '=');
      if (eq >= 0) { value = strSlice(name, eq + 1); name = strSlice(name, 0, eq); }
      push(out, formDecode(name));
      push(out, formDecode(value));
    }
    start = i + 1;
  }
  return out;
}
// formDecode decodes a name or value as Node 20 does: as the standard says
// when its escapes are valid UTF-8, otherwise (Node's fallback) with every
// code unit other than an escape taken as its low byte.
function formDecode(s) {
  let t = s;
  if (indexOf(s, '+') >= 0) {
    t = '';
    for (let i = 0, j; i < s.length; i = j + 1) {
      j = indexOf(s, '+', i);
      if (j < 0) j = s.length;
      t += strSlice(s, i, j) + (j < s.length ? ' ' : '');
    }
  }
  if (reExec(ESCAPE, t) === null) return t;
  try { return decodeURIComponent(t); } catch {}
  const b = new U8(t.length);
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    let c = charCodeAt(t, i) & 255;
    if (c === 37 && i + 2 < t.length) {
      const h = hexVal(charCodeAt(t, i + 1)), l = hexVal(charCodeAt(t, i + 2));
      if (h >= 0 && l >= 0) { c = h << 4 | l; i += 2; }
    }
    b[j++] = c;
  }
  return utf8Decode(new U8(taBuffer(b), 0, j), false);
}
const ESCAPE = /%[0-9A-Fa-f]{2}/, FORM_SAFE = /^[A-Za-z0-9*\-._]*$/;
function formEncode(s) {
  if (reExec(FORM_SAFE, s) !== null) return s;
  const b = utf8Encode(s);
  let out = '';
  for (let i = 0, n = taLength(b); i < n; i++) {
    const c = b[i];
    if (c === 32) out += '+';
    else if (isAlpha(c) || isDigit(c) || c === 42 || c === 45 || c === 46 || c === 95) out += fromCharCode(c);
    else out += HEX[c];
  }
  return out;
}
function formSerialize(l) {
  let s = '';
  for (let i = 0; i < l.length; i += 2) s += (i ? '&' : '') + formEncode(l[i]) + '=' + formEncode(l[i + 1]);
  return s;
}

let urlRecord, urlSetQuery, paramsList, paramsAttach;
const invalidURL = (input, base) => {
  const e = nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  own(e, 'input', input);
  if (base !== undefined) own(e, 'base', base);
  return e;
};
function parseWithBase(input, base) {
  let b = null;
  if (base !== undefined) {
    b = parse(base, null);
    if (b === null) return null;
  }
  return parse(input, b);
}

class URL {
  #u; #params = null;
  constructor(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('"url" argument');
    input = toStr(input);
    if (base !== undefined) base = toStr(base);
    const u = parseWithBase(toWellFormed(input), base === undefined ? undefined : toWellFormed(base));
    if (u === null) throw invalidURL(input, base);
    this.#u = u;
  }
  static parse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('"url" argument');
    try { return new URL(input, base); } catch (e) { if (e.code === 'ERR_INVALID_URL') return null; throw e; }
  }
  static canParse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('"url" argument');
    input = toStr(input);
    if (base !== undefined) base = toWellFormed(toStr(base));
    return parseWithBase(toWellFormed(input), base) !== null;
  }
  toString() { return serialize(urlRecord(this)); }
  get href() { return serialize(urlRecord(this)); }
  set href(v) {
    urlRecord(this);
    v = toStr(v);
    const u = parse(toWellFormed(v), null);
    if (u === null) throw invalidURL(v);
    this.#u = u;
    if (this.#params) paramsList(this.#params, u.query ? formParse(u.query) : list());
  }
  get origin() { return origin(urlRecord(this)); }
  get protocol() { return urlRecord(this).scheme + ':'; }
  set protocol(v) { const u = urlRecord(this); parse(usv(v) + ':', null, u, SCHEME_START); }
  get username() { return urlRecord(this).username; }
  set username(v) {
    const u = urlRecord(this);
    v = usv(v);
    if (u.host === null || u.host === '' || u.scheme === 'file') return;
    u.username = pctEncode(v, PU);
  }
  get password() { return urlRecord(this).password; }
  set password(v) {
    const u = urlRecord(this);
    v = usv(v);
    if (u.host === null || u.host === '' || u.scheme === 'file') return;
    u.password = pctEncode(v, PU);
  }
  get host() {
    const u = urlRecord(this);
    return !u.host ? '' : u.port === null ? u.host : u.host + ':' + u.port;
  }
  set host(v) { setHost(urlRecord(this), usv(v), false); }
  get hostname() { const h = urlRecord(this).host; return h === null ? '' : h; }
  set hostname(v) { setHost(urlRecord(this), usv(v), true); }
  get port() { const p = urlRecord(this).port; return p === null ? '' : '' + p; }
  set port(v) { setPort(urlRecord(this), usv(v)); }
  get pathname() { return serializePath(urlRecord(this)); }
  set pathname(v) {
    const u = urlRecord(this);
    v = usv(v);
    if (typeof u.path === 'string') return;
    u.path = list();
    parse(v, null, u, PATH_START);
  }
  get search() { const q = urlRecord(this).query; return q ? '?' + q : ''; }
  set search(v) { urlRecord(this); urlSetQuery(this, usv(v), true); }
  get searchParams() {
    urlRecord(this);
    if (this.#params === null) {
      this.#params = new URLSearchParams();
      paramsList(this.#params, this.#u.query ? formParse(this.#u.query) : list());
      paramsAttach(this.#params, this);
    }
    return this.#params;
  }
  get hash() { const f = urlRecord(this).fragment; return f ? '#' + f : ''; }
  set hash(v) {
    const u = urlRecord(this);
    v = usv(v);
    if (v === '') { u.fragment = null; stripOpaqueSpaces(u); return; }
    u.fragment = '';
    parse(v[0] === '#' ? strSlice(v, 1) : v, null, u, FRAGMENT);
  }
  toJSON() { return serialize(urlRecord(this)); }
  static {
    urlRecord = (o) => {
      if (typeof o !== 'object' || o === null || !(#u in o)) throw new TypeError('Receiver must be an instance of class URL');
      return o.#u;
    };
    // urlSetQuery sets the query from the search setter (fromSetter, which
    // also refreshes searchParams) or from searchParams' update steps.
    urlSetQuery = (o, v, fromSetter) => {
      const u = o.#u;
      if (v === '') {
        u.query = null;
        if (fromSetter && o.#params) paramsList(o.#params, list());
        stripOpaqueSpaces(u);
        return;
      }
      const input = v[0] === '?' ? strSlice(v, 1) : v;
      u.query = '';
      parse(input, null, u, QUERY);
      if (fromSetter && o.#params) paramsList(o.#params, formParse(u.query));
    };
  }
}
webClass(URL, 'URL');

let iteratorFor, check, pairAt;
class URLSearchParams {
  #l; #url = null;
  constructor(init = undefined) {
    let l = list();
    if (init === undefined || init === null) { /* empty */ } else if (typeof init === 'object' || typeof init === 'function') {
      const method = init[SymIterator];
      if (method === URLSearchParams.prototype[SymIterator] && #l in init) {
        l = setProto(arrSlice(init.#l), null);
      } else if (method != null) {
        if (typeof method !== 'function') throw nodeError(TypeError, 'ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable');
        for (const pair of init) {
          if ((typeof pair !== 'object' && typeof pair !== 'function') || pair === null || typeof pair[SymIterator] !== 'function') throw badTuple();
          const kv = list();
          for (const x of pair) push(kv, x);
          if (kv.length !== 2) throw badTuple();
          push(l, usv(kv[0]));
          push(l, usv(kv[1]));
        }
      } else {
        const seen = new Map();
        const ks = ownKeys(init);
        for (let i = 0; i < ks.length; i++) {
          const d = getOwn(init, ks[i]);
          if (d === undefined || !d.enumerable) continue;
          const k = usv(ks[i]), v = usv(init[ks[i]]);
          const at = mapGet(seen, k);
          if (at !== undefined) l[at + 1] = v;
          else { mapSet(seen, k, l.length); push(l, k); push(l, v); }
        }
      }
    } else {
      const s = usv(init);
      l = formParse(s[0] === '?' ? strSlice(s, 1) : s);
    }
    this.#l = l;
  }
  get size() { return check(this).#l.length / 2; }
  append(name, value) {
    check(this);
    if (arguments.length < 2) throw missingArgs('"name" and "value" arguments');
    push(this.#l, usv(name));
    push(this.#l, usv(value));
    this.#update();
  }
  delete(name, value = undefined) {
    check(this);
    if (arguments.length < 1) throw missingArgs('"name" argument');
    name = usv(name);
    if (value !== undefined) value = usv(value);
    const l = this.#l, out = list();
    for (let i = 0; i < l.length; i += 2) {
      if (l[i] === name && (value === undefined || l[i + 1] === value)) continue;
      push(out, l[i]);
      push(out, l[i + 1]);
    }
    this.#l = out;
    this.#update();
  }
  get(name) {
    check(this);
    if (arguments.length < 1) throw missingArgs('"name" argument');
    name = usv(name);
    const l = this.#l;
    for (let i = 0; i < l.length; i += 2) if (l[i] === name) return l[i + 1];
    return null;
  }
  getAll(name) {
    check(this);
    if (arguments.length < 1) throw missingArgs('"name" argument');
    name = usv(name);
    const l = this.#l, out = list();
    for (let i = 0; i < l.length; i += 2) if (l[i] === name) push(out, l[i + 1]);
    return arrSlice(out);
  }
  has(name, value = undefined) {
    check(this);
    if (arguments.length < 1) throw missingArgs('"name" argument');
    name = usv(name);
    if (value !== undefined) value = usv(value);
    const l = this.#l;
    for (let i = 0; i < l.length; i += 2) if (l[i] === name && (value === undefined || l[i + 1] === value)) return true;
    return false;
  }
  set(name, value) {
    check(this);
    if (arguments.length < 2) throw missingArgs('"name" and "value" arguments');
    name = usv(name);
    value = usv(value);
    const l = this.#l, out = list();
    let found = false;
    for (let i = 0; i < l.length; i += 2) {
      if (l[i] !== name) { push(out, l[i]); push(out, l[i + 1]); } else if (!found) { found = true; push(out, name); push(out, value); }
    }
    if (!found) { push(out, name); push(out, value); }
    this.#l = out;
    this.#update();
  }
  sort() {
    check(this);
    const l = this.#l, pairs = list();
    for (let i = 0; i < l.length; i += 2) push(pairs, [l[i], l[i + 1], i]);
    arrSort(pairs, (a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[2] - b[2]);
    const out = list();
    for (let i = 0; i < pairs.length; i++) { push(out, pairs[i][0]); push(out, pairs[i][1]); }
    this.#l = out;
    this.#update();
  }
  entries() { return iteratorFor(check(this), 2); }
  forEach(callback, thisArg = undefined) {
    check(this);
    if (typeof callback !== 'function') throw argType('callback', 'of type function', callback);
    for (let i = 0; i < this.#l.length; i += 2) apply(callback, thisArg, [this.#l[i + 1], this.#l[i], this]);
  }
  keys() { return iteratorFor(check(this), 0); }
  values() { return iteratorFor(check(this), 1); }
  toString() { return formSerialize(check(this).#l); }
  #update() { if (this.#url) urlSetQuery(this.#url, formSerialize(this.#l), false); }
  static {
    check = (o) => { if (typeof o !== 'object' || o === null || !(#l in o)) throw invalidThis('URLSearchParams'); return o; };
    paramsList = (o, l) => { o.#l = l; };
    paramsAttach = (o, url) => { o.#url = url; };
    pairAt = (o, i) => i < o.#l.length ? o.#l : null;
  }
}
const badTuple = () => nodeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
webClass(URLSearchParams, 'URLSearchParams');
defineProperty(URLSearchParams.prototype, SymIterator, { value: URLSearchParams.prototype.entries, writable: true, configurable: true });

// The URLSearchParams iterator reads the list live, as Node's does.
const iterState = new WeakMap(), wmGet = uncurry(WeakMap.prototype.get), wmSet = uncurry(WeakMap.prototype.set);
const ParamsIteratorProto = create(IteratorProto, {
  next: {
    value: function next() {
      const st = typeof this === 'object' && this !== null ? wmGet(iterState, this) : undefined;
      if (st === undefined) throw invalidThis('URLSearchParamsIterator');
      const l = pairAt(st.target, st.index);
      if (l === null) return { value: undefined, done: true };
      const k = l[st.index], v = l[st.index + 1];
      st.index += 2;
      return { value: st.kind === 0 ? k : st.kind === 1 ? v : [k, v], done: false };
    },
    writable: true, enumerable: true, configurable: true,
  },
  [SymTag]: { value: 'URLSearchParams Iterator', configurable: true },
});
iteratorFor = (target, kind) => {
  const it = create(ParamsIteratorProto);
  wmSet(iterState, it, { __proto__: null, target, kind, index: 0 });
  return it;
};

// ----------------------------------------------------------- structuredClone

const cloneError = (what) => domError(what + ' could not be cloned.', 'DataCloneError');
// describe words an uncloneable value as V8's messages do.
function describe(v) {
  if (typeof v === 'symbol') return symToString(v);
  if (typeof v === 'function') {
    const s = fnToString(v);
    const marker = '() {\n    [native code]\n}', m = indexOf(s, marker);
    if (m >= 0 && m + marker.length === s.length) {
      const name = strSlice(s, 9, m);
      return 'function ' + (strSlice(name, 0, 6) === 'bound ' ? '' : name) + '() { [native code] }';
    }
    return s;
  }
  const data = (k) => {
    for (let o = v; o !== null; o = getProto(o)) {
      // Node 20's V8 has no Iterator global: iterators' constructor is Object.
      if (o === IteratorProto && k === 'constructor') return O;
      const d = getOwn(o, k);
      if (d) return 'value' in d ? d.value : undefined;
    }
  };
  if (data('toString') === ObjectToString) {
    const c = data('constructor');
    if (typeof c === 'function' && c.name) return '#<' + c.name + '>';
  }
  const tag = data(SymTag);
  return '[object ' + (typeof tag === 'string' ? tag : 'Object') + ']';
}
const TYPED = { __proto__: null };
{
  const names = 'Int8 Uint8 Uint8Clamped Int16 Uint16 Int32 Uint32 Float16 Float32 Float64 BigInt64 BigUint64';
  let start = 0;
  for (let i = 0; i <= names.length; i++) {
    if (i < names.length && names[i] !== ' ') continue;
    const n = strSlice(names, start, i) + 'Array';
    if (typeof globalThis[n] === 'function') TYPED[n] = globalThis[n];
    start = i + 1;
  }
}
const ERRORS = { __proto__: null, EvalError: 1, RangeError: 1, ReferenceError: 1, SyntaxError: 1, TypeError: 1, URIError: 1 };
for (const k in ERRORS) ERRORS[k] = globalThis[k];
// Kinds of object the clone recognises: a brand check that throws for any
// other object, and how to clone one (null: it cannot be cloned). An
// object's prototype chain says which kind to check first, so ordinary
// objects, class instances and the common built-ins cost no exception.
const ObjectProto = O.prototype;
const byProto = new Map(), KINDS = list();
function kind(protos, check, build, make) {
  const k = { __proto__: null, check, build, make };
  push(KINDS, k);
  for (let i = 0; i < protos.length; i++) mapSet(byProto, protos[i], k);
  return k;
}
const valueOf = (C) => uncurry(C.prototype.valueOf);
kind([Date.prototype], dateTime, (v) => new Date(dateTime(v)));
kind([RegExpProto], (v) => { if (v === RegExpProto) throw 0; reSource(v); }, (v) => {
  let flags = '';
  for (let i = 0; i < 8; i++) if (reFlags[i](v)) flags += 'dgimsuvy'[i];
  return new RegExp(reSource(v), flags);
});
kind([ABP], abByteLength, (v) => abDetached(v) ? new ArrayBuffer(0) : copyBuffer(v));
kind([SharedArrayBuffer.prototype], sabByteLength, (v) => v);
kind([Map.prototype], mapSize, (v, memory, out) => {
  const entries = list();
  mapForEach(v, (val, key) => { push(entries, key); push(entries, val); });
  for (let i = 0; i < entries.length; i += 2) mapSet(out, clone(entries[i], memory), clone(entries[i + 1], memory));
}, () => new Map());
kind([Set.prototype], setSize, (v, memory, out) => {
  const entries = list();
  setForEach(v, (val) => push(entries, val));
  for (let i = 0; i < entries.length; i++) setAdd(out, clone(entries[i], memory));
}, () => new Set());
for (const C of [Boolean, N, S, BigInt]) { const f = valueOf(C); kind([C.prototype], f, (v) => O(f(v))); }
kind([Sym.prototype], valueOf(Sym), null);
kind([WeakMap.prototype], uncurry(WeakMap.prototype.has), null);
kind([WeakSet.prototype], uncurry(WeakSet.prototype.has), null);
kind([WeakRef.prototype], uncurry(WeakRef.prototype.deref), null);
kind([Promise.prototype], (v) => promiseThen(v, undefined, () => {}), null);
// Arguments objects, iterators, generators and FinalizationRegistry have no
// side-effect-free brand check: the toStringTag or the prototype decides.
const BY_PROTO_ONLY = (() => {
  const gen = getProto(function* () {}).prototype, agen = getProto(async function* () {}).prototype;
  return kind([FinalizationRegistry.prototype, gen, agen, getProto([][SymIterator]()),
    getProto(new Map()[SymIterator]()), getProto(new Set()[SymIterator]()), getProto(''[SymIterator]()),
    getProto(/a/[Sym.matchAll]('')), getProto(IteratorProto.map.call([][SymIterator](), (x) => x))], () => {}, null);
})();
KINDS.length--;
// kindOf returns v's kind, or null for an ordinary object. An object whose
// prototype chain holds no built-in prototype is taken as ordinary when its
// toStringTag says so (a Map moved onto Object.prototype would pass as one).
function kindOf(v) {
  for (let o = getProto(v); o !== null && o !== ObjectProto; o = getProto(o)) {
    const k = mapGet(byProto, o);
    if (k !== undefined) {
      if (brand(k.check, v)) return k;
      break;
    }
  }
  const tag = objToString(v);
  if (tag === '[object Object]') return null;
  if (tag === '[object Arguments]') return BY_PROTO_ONLY;
  for (let i = 0; i < KINDS.length; i++) if (brand(KINDS[i].check, v)) return KINDS[i];
  return null;
}
function brand(f, v) { try { f(v); return true; } catch { return false; } }
const reFlags = list();
{
  const names = ['hasIndices', 'global', 'ignoreCase', 'multiline', 'dotAll', 'unicode', 'unicodeSets', 'sticky'];
  for (let i = 0; i < 8; i++) push(reFlags, getter(RegExpProto, names[i]));
}
function copyBuffer(b) {
  const len = abByteLength(b);
  const c = abResizable(b) ? new ArrayBuffer(len, { maxByteLength: abMax(b) }) : new ArrayBuffer(len);
  taSet(new U8(c), new U8(b));
  return c;
}
function structuredClone(value = undefined, options = undefined) {
  if (arguments.length === 0) throw missingArgs('value argument');
  if (options !== undefined && options !== null && typeof options !== 'object') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The options argument must be either an object or undefined');
  }
  const transfer = list(), memory = new Map();
  if (options != null && options.transfer != null) {
    const t = options.transfer;
    if (typeof t !== 'object' || typeof t[SymIterator] !== 'function') {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Optional transferList argument must be an iterable');
    }
    for (const b of t) {
      if (!brand(abByteLength, b)) throw new TypeError('Found invalid object in transferList');
      for (let i = 0; i < transfer.length; i++) if (transfer[i] === b) throw domError('Transfer list contains duplicate ArrayBuffer', 'DataCloneError');
      push(transfer, b);
    }
  }
  const c = clone(value, memory);
  for (let i = 0; i < transfer.length; i++) if (!abDetached(transfer[i])) abTransfer(transfer[i]);
  return c;
}
function clone(v, memory) {
  if (typeof v === 'symbol' || typeof v === 'function') throw cloneError(describe(v));
  if (typeof v !== 'object' || v === null) return v;
  if (mapHas(memory, v)) return mapGet(memory, v);
  let out;
  if (isArray(v)) {
    out = new A(v.length);
  } else if (isError(v)) {
    const Ctor = ERRORS[toStr(v.name)] || Error;
    const md = getOwn(v, 'message'), cd = getOwn(v, 'cause'), stack = v.stack;
    out = new Ctor();
    mapSet(memory, v, out);
    delete out.stack;
    delete out.message;
    const def = (k, value) => defineProperty(out, k, { value, writable: true, configurable: true });
    def('stack', typeof stack === 'string' ? stack : undefined);
    if (md && 'value' in md) def('message', toStr(md.value));
    if (cd && 'value' in cd) def('cause', clone(cd.value, memory));
    return out;
  } else if (isView(v)) {
    const tag = taTag(v);
    if (tag !== undefined) {
      out = new TYPED[tag](clone(taBuffer(v), memory), taOffset(v), taLength(v));
    } else {
      out = new DataView(clone(dvBuffer(v), memory), dvOffset(v), dvByteLength(v));
    }
    mapSet(memory, v, out);
    return out;
  } else {
    const k = kindOf(v);
    if (k !== null) {
      if (k.build === null) throw cloneError(describe(v));
      if (k.make) {
        mapSet(memory, v, out = k.make());
        k.build(v, memory, out);
      } else mapSet(memory, v, out = k.build(v));
      return out;
    }
    out = {};
  }
  mapSet(memory, v, out);
  const keys = keysOf(v);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (getOwn(v, key) === undefined) continue;
    defineProperty(out, key, { value: clone(v[key], memory), writable: true, enumerable: true, configurable: true });
  }
  return out;
}

// -------------------------------------------------------- crypto, performance

let cryptoCheck;
class Crypto {
  #ok = true;
  constructor(key) { if (key !== cryptoCheck) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor'); }
  getRandomValues(array) {
    cryptoCheck(this);
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.");
    const tag = isView(array) ? taTag(array) : undefined;
    if (tag === undefined || tag === 'Float16Array' || tag === 'Float32Array' || tag === 'Float64Array') {
      throw domError('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
    }
    const n = taByteLength(array);
    if (n > 65536) throw domError('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
    taSet(new U8(taBuffer(array), taOffset(array), n), new U8(nativeRandom(n)));
    return array;
  }
  randomUUID() {
    cryptoCheck(this);
    const b = new U8(nativeRandom(16));
    b[6] = b[6] & 0x0f | 0x40;
    b[8] = b[8] & 0x3f | 0x80;
    let s = '';
    for (let i = 0; i < 16; i++) {
      s += (b[i] < 16 ? '0' : '') + numToString(b[i], 16);
      if (i === 3 || i === 5 || i === 7 || i === 9) s += '-';
    }
    return s;
  }
  static { cryptoCheck = (o) => { if (typeof o !== 'object' || o === null || !(#ok in o)) throw invalidThis('Crypto'); }; }
}
webClass(Crypto, 'Crypto');
const crypto = new Crypto(cryptoCheck);

let perfCheck;
class Performance {
  #ok = true;
  constructor(key) { if (key !== perfCheck) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor'); }
  now() { perfCheck(this); return nativeNow(); }
  get timeOrigin() { perfCheck(this); return timeOrigin(); }
  toJSON() { perfCheck(this); return { timeOrigin: timeOrigin() }; }
  static { perfCheck = (o) => { if (typeof o !== 'object' || o === null || !(#ok in o)) throw invalidThis('Performance'); }; }
}
webClass(Performance, 'Performance');
const performance = new Performance(perfCheck);

return freeze({
  __proto__: null, structuredClone, TextEncoder, TextDecoder, URL, URLSearchParams, atob, btoa,
  crypto, performance, DOMException,
});
})
