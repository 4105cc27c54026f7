// Locale-sensitive case mapping: String.prototype.toLocaleUpperCase and
// toLocaleLowerCase for Turkish, Azerbaijani and Lithuanian, by the
// language-sensitive rules of Unicode's SpecialCasing.txt (as ICU, and so
// Node 20, applies them). Every other language maps as toUpperCase and
// toLowerCase do. The Unicode properties the rules' contexts need
// (Soft_Dotted, canonical combining class) are tables bundle.go generates
// from Go's unicode package and golang.org/x/text/unicode/norm.
//
// Which language applies follows ECMA-402's TransformCase: the first
// requested locale (or the default), matched by lookup against the
// languages with rules of their own; V8 looks at no other.

import { SOFT_DOTTED, CCC_ABOVE, CCC_OTHER } from 'ptc:intl-index';

// inRanges reports whether code point c is in a flattened list of
// [first, last] pairs, sorted.
function inRanges(r, c) {
  let lo = 0;
  let hi = r.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < r[2 * mid]) hi = mid - 1;
    else if (c > r[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const above = (c) => inRanges(CCC_ABOVE, c);
// blocks: a combining class of 0 (a starter) or 230 (above) ends the
// contexts After_I, After_Soft_Dotted, Before_Dot and More_Above.
const blocks = (c) => !inRanges(CCC_OTHER, c);

const DOT_ABOVE = 0x307;

// afterBase reports whether, looking back from index i of the code
// points cps, the nearest code point that blocks is one test accepts
// (After_I, After_Soft_Dotted).
function afterBase(cps, i, test) {
  for (let j = i - 1; j >= 0; j--) {
    if (test(cps[j])) return true;
    if (blocks(cps[j])) return false;
  }
  return false;
}

// beforeDot reports Before_Dot at i: a U+0307 follows, with nothing that
// blocks between.
function beforeDot(cps, i) {
  for (let j = i + 1; j < cps.length; j++) {
    if (cps[j] === DOT_ABOVE) return true;
    if (blocks(cps[j])) return false;
  }
  return false;
}

// moreAbove reports More_Above at i: a combining mark above follows, with
// no starter between.
function moreAbove(cps, i) {
  for (let j = i + 1; j < cps.length; j++) {
    if (above(cps[j])) return true;
    if (!inRanges(CCC_OTHER, cps[j])) return false;
  }
  return false;
}

const cp = (s) => Array.from(s, (ch) => ch.codePointAt(0));
const str = (...cs) => String.fromCodePoint(...cs);

// lower maps the code point at i of cps by the language's rules, or
// returns undefined when the default mapping applies.
function lower(lang, cps, i) {
  const c = cps[i];
  if (lang === 'lt') {
    switch (c) {
      case 0x49: return moreAbove(cps, i) ? str(0x69, DOT_ABOVE) : undefined;
      case 0x4a: return moreAbove(cps, i) ? str(0x6a, DOT_ABOVE) : undefined;
      case 0x12e: return moreAbove(cps, i) ? str(0x12f, DOT_ABOVE) : undefined;
      case 0xcc: return str(0x69, DOT_ABOVE, 0x300);
      case 0xcd: return str(0x69, DOT_ABOVE, 0x301);
      case 0x128: return str(0x69, DOT_ABOVE, 0x303);
    }
    return undefined;
  }
  switch (c) {
    case 0x130: return 'i';
    case DOT_ABOVE: return afterBase(cps, i, (x) => x === 0x49) ? '' : undefined;
    case 0x49: return beforeDot(cps, i) ? 'i' : '\u0131';
  }
  return undefined;
}

function upper(lang, cps, i) {
  const c = cps[i];
  if (lang === 'lt') return c === DOT_ABOVE && afterBase(cps, i, (x) => inRanges(SOFT_DOTTED, x)) ? '' : undefined;
  return c === 0x69 ? '\u0130' : undefined;
}

// special: the code points a language maps by its own rules (in some
// context); a string without any maps as by default.
const SPECIAL = {
  tr: /[\u0049\u0130\u0307\u0069]/,
  lt: /[\u0049\u004a\u012e\u00cc\u00cd\u0128\u0307]/,
};

// transform maps s for language lang ('tr', 'az', 'lt' or other), upper
// or lower. The default mapping comes from the engine's own toUpperCase
// and toLowerCase of the whole string, so its contexts (a final sigma)
// stay as they are; lowercasing maps a code point to as many as it does
// alone (a final sigma is one either way), so its output is aligned code
// point by code point.
function transform(s, lang, up, toUpper, toLower) {
  const rules = lang === 'az' ? 'tr' : lang;
  const special = SPECIAL[rules];
  if (special === undefined || !special.test(s)) return up ? toUpper(s) : toLower(s);
  const cps = cp(s);
  let out = '';
  if (up) {
    let run = '';
    for (let i = 0; i < cps.length; i++) {
      const m = upper(rules, cps, i);
      if (m === undefined) {
        run += str(cps[i]);
        continue;
      }
      out += toUpper(run) + m;
      run = '';
    }
    return out + toUpper(run);
  }
  const def = cp(toLower(s));
  let k = 0;
  for (let i = 0; i < cps.length; i++) {
    const n = cps[i] < 0x80 ? 1 : cp(toLower(str(cps[i]))).length;
    const m = lower(rules, cps, i);
    out += m === undefined ? str(...def.slice(k, k + n)) : m;
    k += n;
  }
  return out;
}

// installCaseMapping replaces the two methods; language(locales) returns
// the language subtag of the locale a call resolves to.
export function installCaseMapping(define, language) {
  const toUpper = Function.prototype.call.bind(String.prototype.toUpperCase);
  const toLower = Function.prototype.call.bind(String.prototype.toLowerCase);
  const check = (self, name) => {
    if (self === undefined || self === null) throw new TypeError(`String.prototype.${name} called on null or undefined`);
    return String(self);
  };
  define(String.prototype, 'toLocaleUpperCase', {
    toLocaleUpperCase() {
      const s = check(this, 'toLocaleUpperCase');
      return transform(s, language(arguments[0]), true, toUpper, toLower);
    },
  }.toLocaleUpperCase);
  define(String.prototype, 'toLocaleLowerCase', {
    toLocaleLowerCase() {
      const s = check(this, 'toLocaleLowerCase');
      return transform(s, language(arguments[0]), false, toUpper, toLower);
    },
  }.toLocaleLowerCase);
}
