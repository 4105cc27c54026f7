#!/usr/bin/env node
// gen.js writes the RegExp v-flag conformance table the guest is held to:
// Node 20's own answers for set operations, nested classes, \q{} strings,
// properties of strings, case folding, the v-mode syntax errors and the
// String methods with v regexps.
//
//	node testdata/regexp/gen.js
//
// It writes v.json beside itself: {helpers, cases: [{name, code,
// expected}]}, where code is the body of a function returning a JSON-able
// value that may call the helpers; host/regexp_test.go runs every body in
// the guest after the helpers and compares JSON.stringify of the results.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

if (!process.versions.node.startsWith('20.')) {
  console.error(`gen.js: Node ${process.versions.node}; the table is Node 20's`);
  process.exit(1);
}

const cases = [];
let helpers = '';
const names = new Set();
function add(name, code, spec) {
  if (names.has(name)) throw new Error(`duplicate case ${name}`);
  names.add(name);
  const node = new Function(helpers + '\n' + code)();
  if (spec === undefined || JSON.stringify(spec) === JSON.stringify(node)) {
    cases.push({ name, code, expected: node });
  } else {
    cases.push({ name, code, expected: spec, node });
  }
}

// Node 20's V8 (11.3) case-folds the result of a set operation under the
// i flag, where the spec folds each operand first (MaybeSimpleCaseFolding,
// ES2024 22.2.2.9): /[\w--s]/vi matches "S" in Node 20, and must not.
// For A--B and A&&B under vi the table therefore holds the spec's answer,
// composed from Node's own answers for [A] and [B] alone (a code point
// matches [A--B] exactly when its folding is in A's folded set and not in
// B's, and it matches [A] exactly when its folding is in A's folded set);
// where Node's direct answer differs it is kept beside it as "node".
function specMembership(a, op, b, flags) {
  const ra = new RegExp(`^[${a}]$`, flags);
  const rb = new RegExp(`^[${b}]$`, flags);
  const out = [];
  for (const [lo, hi] of PROBE) {
    for (let c = lo; c <= hi; c++) {
      const ch = String.fromCodePoint(c);
      const inA = ra.test(ch), inB = rb.test(ch);
      if (!(op === '--' ? inA && !inB : inA && inB)) continue;
      const last = out[out.length - 1];
      if (last && last[1] === c - 1) last[1] = c; else out.push([c, c]);
    }
  }
  return out;
}

// The code points a class is probed with: ASCII, Latin-1 and Latin
// Extended, Greek, the letterlike symbols (K, Å), Cherokee, Deseret and the
// emoji faces.
const PROBE = [[0, 0x24f], [0x370, 0x3ff], [0x1e9b, 0x1e9f], [0x2126, 0x212b], [0x13a0, 0x13a4], [0xab70, 0xab74], [0x10400, 0x1040f], [0x10428, 0x10437], [0x1f600, 0x1f60f]];

// membership(src, flags): the code points of PROBE that ^(?:src)$ matches,
// as [from, to] ranges, or the name of the error the pattern throws.
const membership = `function membership(src, flags) {
  let re;
  try { re = new RegExp('^(?:' + src + ')$', flags); } catch (e) { return e.name; }
  const out = [];
  for (const [lo, hi] of ${JSON.stringify(PROBE)}) {
    for (let c = lo; c <= hi; c++) {
      if (!re.test(String.fromCodePoint(c))) continue;
      const last = out[out.length - 1];
      if (last && last[1] === c - 1) last[1] = c; else out.push([c, c]);
    }
  }
  return out;
}`;
helpers += membership + '\n';

// execs(src, flags, inputs): for each input, exec's match (index, the
// groups and lastIndex), or the name of the error the pattern throws.
const execs = `function execs(src, flags, inputs) {
  let re;
  try { re = new RegExp(src, flags); } catch (e) { return e.name; }
  return inputs.map((s) => {
    re.lastIndex = 0;
    const m = re.exec(s);
    return m && [m.index, ...m, re.lastIndex];
  });
}`;
helpers += execs + '\n';

// Set operations: operands × operators × flags, probed code point by code point.
const operands = ['\\p{L}', '\\p{Lu}', '\\p{Ll}', '\\p{N}', '\\p{ASCII}', '\\p{Script=Greek}', '[a-z]', '[A-Z]', '\\w', '\\d', '\\s', '[\\u{10400}-\\u{10410}]', '\\P{Ll}', '[^a-m]', '\\W'];
const ops = ['--', '&&', ''];
for (const flags of ['v', 'vi']) {
  for (const a of operands) {
    for (const b of operands) {
      for (const op of ops) {
        const src = `[${a}${op}${b}]`;
        const spec = flags === 'vi' && op !== '' ? specMembership(a, op, b, flags) : undefined;
        add(`set.${flags}.${src}`, `return membership(${JSON.stringify(src)}, ${JSON.stringify(flags)});`, spec);
      }
    }
  }
}

// Classes probed code point by code point, each with and without i.
const classes = [
  '[a-z[0-9]]', '[[a-c][x-z]]', '[a[b[c[d]]]]', '[\\d\\p{Lu}]', '[[\\p{L}--\\p{Ll}]&&\\p{Script=Latin}]',
  '[\\p{Decimal_Number}--[0-9]]', '[[^a-z]&&\\p{ASCII}]', '[^\\p{L}--[a-z]]', '[^[^a-z]]', '[^\\d&&[0-5]]',
  '\\P{L}', '[\\P{Ll}]', '[^\\P{Ll}]', '\\p{Lu}', '\\P{Lu}', '[\\p{Lu}]', '[^\\p{Lu}]', '[\\P{Lu}]', '[^\\P{Lu}]',
  '\\W', '[^\\W]', '[\\W]', '\\w', '[ſ]', '[\\u212A]', '[σ]', '[^σ]',
  '[\\u{10400}]', '[^\\u{10428}]', '[\\p{Script=Cherokee}--\\p{Lu}]', '[ß]', '[\\u1E9E]', '[^]', '[]', '[^[]]',
  '[\\q{a|b|c}]', '[\\q{A}--a]',  '[^\\q{a|b}]', '[^[\\q{ab}]&&a]',
  '[\\-\\&\\!\\#\\%\\,\\:\\;\\<\\=\\>\\@\\`\\~]', '[\\(\\)\\[\\]\\{\\}\\/\\|\\^\\$\\.\\*\\+\\?]', '[a\\-z]', '[\\b]', '[\\cJ]', '[\\0]', '[\\x41-\\x43]', '[\\u0041-\\u{43}]',
  '[&]', '[a&b]', '[!#%]', '[a^b]', '[^^]', '[_--_]', '[\\p{Any}--\\p{ASCII}--\\p{Latin}]', '[\\p{Script_Extensions=Greek}&&\\p{Lowercase}]',
];
// Set operations on two operands, with the spec's answer under vi.
const pairs = [['[a-z]', '--', 'k'], ['\\w', '--', 's'], ['Σ', '--', 'ς'], ['\\p{L}', '--', '\\q{x|y|z}'], ['[a-z]', '&&', '\\q{m|n}'], ['[a-z]', '&&', '[A-Z]'], ['\\p{Lu}', '--', '\\p{ASCII}'], ['ſ', '&&', 's'], ['\\u212A', '--', 'k']];
for (const flags of ['v', 'vi']) {
  for (const [a, op, b] of pairs) {
    const src = `[${a}${op}${b}]`;
    add(`pair.${flags}.${src}`, `return membership(${JSON.stringify(src)}, ${JSON.stringify(flags)});`, flags === 'vi' ? specMembership(a, op, b, flags) : undefined);
  }
}
for (const flags of ['v', 'vi']) {
  for (const src of classes) {
    add(`class.${flags}.${src}`, `return membership(${JSON.stringify(src)}, ${JSON.stringify(flags)});`);
  }
}

// Strings: \q{}, longest first, backtracking, quantifiers, lookbehind,
// captures; and the properties of strings.
const INPUTS = ['', 'a', 'A', 'ab', 'abc', 'ABC', 'abcd', 'abab', 'aab', 'abb', 'xabcx', 'ſt', 'STſ', '😀', 'a😀b', '👨‍👩‍👧', '🇫🇷🇩🇪', '#️⃣', '👍🏽', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '❤️', '☺', '☺️', '1️⃣x', 'x👩🏽‍💻y', '©', '©️', 'K'];
const strings = [
  '[\\q{abc|d}]', '[\\q{a|ab|abc}]', '[\\q{abc|ab|a}]', '[\\q{}]', '[\\q{}a]', '[\\q{|ab}]', '[a\\q{bc}]', '[\\q{abc}--\\q{abc}]',
  '[\\q{abc|def}&&\\q{def|ghi|abc}]', '[\\q{ab}--a]', '[\\q{ab|a}b]', '^[\\q{ab|a}]+$', '[\\q{ab|a}]*b', '^[\\q{abc|ab}]c$', '^[\\q{ab|a}]{2}$',
  '(?<=[\\q{ab|b}])c', '(?<![\\q{ab}])c', '(?<=^[\\q{a|ab}])c', '([\\q{ab|a}])(b?)', '(?<x>[\\q{abc|a}])\\k<x>', '[\\q{ABC}]', '[\\q{ſt|K}]', '[[\\q{ab}]--[\\q{AB}]]',
  '[\\q{\\u{1F600}a|b\\x41}]', '[\\q{a\\|b}]', '[\\q{\\}}]', '\\p{RGI_Emoji}', '^\\p{RGI_Emoji}$', '\\p{RGI_Emoji}+', '[\\p{RGI_Emoji}--\\q{😀}]',
  '\\p{Emoji_Keycap_Sequence}', '\\p{RGI_Emoji_Flag_Sequence}', '\\p{Basic_Emoji}', '\\p{RGI_Emoji_Modifier_Sequence}', '\\p{RGI_Emoji_Tag_Sequence}',
  '\\p{RGI_Emoji_ZWJ_Sequence}', '[\\p{RGI_Emoji}&&\\p{Basic_Emoji}]', '[\\p{RGI_Emoji_Flag_Sequence}\\q{x}]', '[\\p{Basic_Emoji}--\\p{Emoji_Presentation}]',
  '(?<=\\p{RGI_Emoji})b', '[\\p{RGI_Emoji}&&\\q{😀|x}]', '[\\p{RGI_Emoji}&&[\\q{😀}]]',
];
for (const flags of ['v', 'vi', 'gv']) {
  for (const src of strings) {
    add(`exec.${flags}.${src}`, `return execs(${JSON.stringify(src)}, ${JSON.stringify(flags)}, ${JSON.stringify(INPUTS)});`);
  }
}

// Syntax: which patterns compile, with the v flag and, to compare, u.
const syntax = [
  '[a-z&&b]', '[a&&b--c]', '[ab&&c]', '[a--b&&c]', '[a&&b&&c]', '[a--b--c]', '[a&&&b]', '[&&a]', '[a&&]', '[a--]', '[--a]', '[a-z--b]', '[a--b-c]', '[a&&b-c]',
  '[!!]', '[a##]', '[$$]', '[%%]', '[**]', '[++]', '[,,]', '[..]', '[::]', '[;;]', '[<<]', '[==]', '[>>]', '[??]', '[@@]', '[^^^]', '[``]', '[~~]', '[&&]',
  '[(]', '[)]', '[{]', '[}]', '[/]', '[-]', '[|]', '[a-]', '[-a]', '[a-z-]', '[[]', '[]]', '[\\q]', '[\\q{a]', '[\\q{(}]', '[\\q{a-b}]', '[\\q{a|b}-c]',
  '[z-a]', '[\\d-z]', '[a-\\d]', '[[a]-z]', '\\q{a}', '[\\c1]', '[\\B]', '[\\1]', '[\\k]', '[\\z]', '[^\\q{ab}]', '[^\\q{a|}]', '[^\\q{a|b}]', '\\P{RGI_Emoji}',
  '[^\\p{RGI_Emoji}]', '[\\P{RGI_Emoji}]', '[^[\\q{ab}]]', '[^[\\q{ab}]--a]', '[^a--[\\q{ab}]]', '[^[\\q{ab}]&&[\\q{cd}]]', '\\p{RGI_Emoji=Yes}', '\\p{Basic_Emoji}',
  '[\\p{RGI_Emoji}]', '[\\p{L}--\\p{RGI_Emoji}]', '[^\\p{L}--\\p{RGI_Emoji}]', '(?<=[\\q{ab}])', '[\\q{\\u{110000}}]', '[\\u{D800}]', '[\\uD83D\\uDE00]', '[&]', '[a&]', '[&a]',
  '[!]', '[a!]', '[#a#]', '[\\-]', '[a\\-b]', 'a{', '}', ']', '[\\_]', '[\\&\\&]', '[\\!!]', '[\\q{}]', '[a[]]', '[a-z]{2,1}', '(?<a>.)\\k<a>', '\\p{Lu}', '\\p{RGI_Emoji_Flag_Sequence}',
];
for (const flags of ['v', 'u']) {
  add(`syntax.${flags}`, `const out = {};\nfor (const src of ${JSON.stringify(syntax)}) {\n  try { new RegExp(src, ${JSON.stringify(flags)}); out[src] = 'ok'; } catch (e) { out[src] = e.name; }\n}\nreturn out;`);
}

// String methods with v regexps, the flag getters and u-mode semantics
// the v flag keeps.
const misc = {
  'split.empty': `return "a😀b".split(/(?:)/v);`,
  'split.set': `return "a,b;c.d".split(/[\\p{P}--[;]]/v);`,
  'split.strings': `return "xabyaz".split(/[\\q{ab|a}]/v);`,
  'split.limit': `return "a1b2c3".split(/[\\d&&[0-2]]/v, 2);`,
  'replace.empty.g': `return "😀😀".replace(/(?:)/gv, "-");`,
  'replace.strings': `return "abcab".replace(/[\\q{ab|a}]/gv, "[$&]");`,
  'replace.fn': `return "Ab1cD".replace(/[\\p{L}--[a-z]]/gv, (m, i) => m.toLowerCase() + i);`,
  'replaceAll': `return "a-b_c".replaceAll(/[\\p{P}--_]/gv, "+");`,
  'match.g': `return "xyz😀é".match(/[\\p{L}--[y]]/gv);`,
  'match.emoji.g': `return "a👍🏽b🇫🇷c1️⃣".match(/\\p{RGI_Emoji}/gv);`,
  'match.nog': `const m = "zzabc".match(/[\\q{abc|ab}]/v); return [m[0], m.index, m.input];`,
  'matchAll': `return [..."a😀b😀".matchAll(/\\p{RGI_Emoji}/gv)].map((m) => [m[0], m.index]);`,
  'matchAll.empty': `return [..."😀😀".matchAll(/(?:)/gv)].map((m) => m.index);`,
  'matchAll.strings': `return [..."abcabab".matchAll(/[\\q{abc|ab}]/gv)].map((m) => [m[0], m.index]);`,
  'search': `return ["xyé".search(/[\\p{L}--\\p{ASCII}]/v), "abc".search(/[\\q{bc}]/v)];`,
  'test.lastIndex': `const re = /[\\q{ab}]/gv; const r = [re.test("abab"), re.lastIndex, re.test("abab"), re.lastIndex, re.test("abab"), re.lastIndex]; return r;`,
  'sticky': `const re = /[\\q{ab|a}]/yv; re.lastIndex = 1; const m = re.exec("xab"); return [m && m[0], re.lastIndex];`,
  'flags.v': `const re = /a/v; return [re.flags, re.unicodeSets, re.unicode, re.source, String(re)];`,
  'flags.all': `return [/a/dgimsvy.flags, new RegExp("a", "v").flags, new RegExp("[a&&b]", "v").source];`,
  'flags.getter': `const d = Object.getOwnPropertyDescriptor(RegExp.prototype, "unicodeSets"); return [typeof d.get, d.set, d.enumerable, d.configurable, d.get.call(/a/v), d.get.call(/a/u), d.get.call(RegExp.prototype)];`,
  'flags.getter.throws': `const d = Object.getOwnPropertyDescriptor(RegExp.prototype, "unicodeSets"); try { d.get.call({}); return "no"; } catch (e) { return e.name; }`,
  'flags.generic': `return Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get.call({ unicodeSets: true, global: true, hasIndices: 1 });`,
  'flags.uv': `try { new RegExp("a", "uv"); return "ok"; } catch (e) { return e.name; }`,
  'flags.vv': `try { new RegExp("a", "vv"); return "ok"; } catch (e) { return e.name; }`,
  'astral.dot': `return [/^.$/v.test("😀"), /^..$/v.test("😀"), /\\u{1F600}/v.exec("x😀")?.index, /[😀]/v.test("\\uD83D"), /^[^x]$/v.test("😀")];`,
  'astral.escape': `return [/\\uD83D\\uDE00/v.test("😀"), /^\\uD83D/v.test("😀"), /^\\u{1F600}$/v.test("😀")];`,
  'astral.lastIndex': `const re = /./gv; re.lastIndex = 1; const m = re.exec("😀a"); return [m[0], m.index, re.lastIndex];`,
  'ignoreCase.chars': `return [/ſ/vi.test("s"), /s/vi.test("ſ"), /\\u212A/vi.test("k"), /k/vi.test("\\u212A"), /ß/vi.test("ẞ"), /σ/vi.test("ς"), /\\u{10400}/vi.test("\\u{10428}")];`,
  'ignoreCase.props': `return [/\\p{Lu}/vi.test("a"), /\\P{Lu}/vi.test("A"), /\\P{Ll}/vi.test("a"), /[^\\P{Ll}]/vi.test("A"), /\\w/vi.test("ſ"), /\\W/vi.test("ſ"), /[^\\w]/vi.test("K")];`,
  'backref.i': `return [/(a)\\1/vi.test("aA"), /(?<n>[\\q{ab}])\\k<n>/vi.exec("abAB")?.[0]];`,
  'named': `const m = /(?<e>\\p{RGI_Emoji})(?<r>.*)/v.exec("x👍🏽yz"); return [m.groups.e, m.groups.r, m.index];`,
  'indices': `const m = /[\\q{abc|ab}](.)/dv.exec("xabcd"); return m.indices;`,
  'lookbehind.emoji': `return "a🇫🇷b🇩🇪c".replace(/(?<=\\p{RGI_Emoji_Flag_Sequence})./gv, "_");`,
  'quant.emoji': `return /^\\p{RGI_Emoji}{2,3}$/v.exec("👍🏽🇫🇷😀")?.[0];`,
  'symbol.split.species': `return RegExp.prototype[Symbol.split].call(/[\\q{b|bc}]/v, "abcabd");`,
  'unicode.escape.class': `return [/[[\\u{1F600}-\\u{1F64F}]--\\u{1F610}]/v.test("😐"), /[[\\u{1F600}-\\u{1F64F}]--\\u{1F610}]/v.test("😀")];`,
};
for (const [name, code] of Object.entries(misc)) add(`misc.${name}`, code);

const out = path.join(__dirname, 'v.json');
// One case a line, so that a change to the table reads as a diff.
fs.writeFileSync(out, `{"helpers": ${JSON.stringify(helpers)},\n"cases": [\n${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]}\n`);
console.error(`gen.js: wrote ${cases.length} cases to ${path.relative(process.cwd(), out)}`);
