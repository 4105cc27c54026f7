#!/usr/bin/env node
// gen.js records hosts.json, Node 20's answers to every URL test of the
// web-platform-tests in which the host matters, from the WPT URL data files
// in the directory given (urltestdata.json, setters_tests.json,
// toascii.json; the data is not in this repository):
//
//   node testdata/url/gen.js DIR > testdata/url/hosts.json
//
// The rows are:
//   - toascii.json, every entry, three ways as WPT's toascii test runs it:
//     new URL("https://" + input + "/x"), and the host and hostname setters
//     of new URL("https://x/x");
//   - urltestdata.json, the entries whose input holds a non-ASCII code point
//     or "xn--", or which name a URL with a special scheme (whose host goes
//     through domain to ASCII);
//   - setters_tests.json, every host and hostname entry;
//   - a few inputs of our own (from "extra").
// Each row holds what observe.js sees with Node's URL, under "node". The
// expectations written in the WPT files are not copied: host/url_test.go
// compares the guest with Node, and host/url_wpt_test.go, given the
// directory in WPT_URL_DIR, with the WPT files themselves.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

if (!process.version.startsWith('v20.')) {
  console.error(`gen.js records Node 20's behaviour; this is Node ${process.version}`);
  process.exit(1);
}
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node testdata/url/gen.js DIR > testdata/url/hosts.json (DIR: the WPT URL data files)');
  process.exit(2);
}
const observe = vm.runInThisContext(fs.readFileSync(path.join(__dirname, 'observe.js'), 'utf8'));
const load = (name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));

const rows = [];
const add = (from, row) => rows.push({ from, ...row, node: observe(URL, row) });

// toascii.json: WPT's toascii test, three ways.
load('toascii.json').forEach((c, i) => {
  if (typeof c === 'string') return;
  add(`toascii.json#${i}`, { input: 'https://' + c.input + '/x', base: null });
  add(`toascii.json#${i} host`, { href: 'https://x/x', set: 'host', value: c.input });
  add(`toascii.json#${i} hostname`, { href: 'https://x/x', set: 'hostname', value: c.input });
});

// urltestdata.json: where the host matters.
const SPECIAL = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:']);
const protocolOf = (input, base) => {
  try { return new URL(input, base === null ? undefined : base).protocol; } catch { /* below */ }
  const m = /^[\0- ]*([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(input);
  if (m) return m[1].toLowerCase() + ':';
  try { return new URL(base).protocol; } catch { return ''; }
};
load('urltestdata.json').forEach((c, i) => {
  if (typeof c === 'string') return;
  const interesting = /[^\0-\x7f]|xn--/i.test(c.input) || SPECIAL.has(protocolOf(c.input, c.base)) ||
    (c.protocol !== undefined && SPECIAL.has(c.protocol));
  if (interesting) add(`urltestdata.json#${i}`, { input: c.input, base: c.base });
});

// setters_tests.json: the host and hostname setters.
const setters = load('setters_tests.json');
for (const prop of ['host', 'hostname']) {
  setters[prop].forEach((c, i) => add(`setters_tests.json ${prop}#${i}`, { href: c.href, set: prop, value: c.new_value }));
}

// Our own: the inputs issue 24 found differing, and neighbours.
const extra = [
  ['ZWJ after virama (Sinhala)', 'http://\u0dc1\u0dca\u200d\u0dbb\u0dd3.lk/'],
  ['ZWNJ between joining letters (Persian)', 'http://\u0646\u0627\u0645\u0647\u200c\u0627\u06cc.com/'],
  ['ZWJ alone', 'http://a\u200db.com/'],
  ['ZWNJ alone', 'http://a\u200cb.com/'],
  ['U+1680 OGHAM SPACE MARK', 'http://a\u1680b.com/'],
  ['U+2FF0 IDEOGRAPHIC DESCRIPTION CHARACTER', 'http://a\u2ff0b.com/'],
  ['U+2FF0 alone', 'http://\u2ff0/'],
  ['Bidi: RTL label then digit label', 'http://\u05d0.1/'],
  ['Bidi: LTR and RTL labels', 'http://a.\u05d0/'],
  ['Bidi: RTL label ending in a European digit', 'http://\u05d0\u05d11.com/'],
  ['Bidi: Arabic-Indic and European digits mixed', 'http://\u0627\u0661\u0031.com/'],
  ['percent-encoded non-ASCII', 'http://%E2%98%83.com/'],
  ['percent-encoded ZWJ', 'http://\u0dc1\u0dca%E2%80%8D\u0dbb\u0dd3.lk/'],
  ['uppercase XN-- prefix', 'http://XN--MNCHEN-3YA.de/'],
  ['xn-- label that decodes to ASCII', 'http://xn--abc-.com/'],
  ['empty xn-- label', 'http://xn--.com/'],
  ['nested xn--xn--', 'http://xn--xn--a-ecp.com/'],
  ['leading combining mark', 'http://\u0301a.com/'],
  ['trailing dot kept', 'http://m\u00fcnchen.de./'],
  ['empty labels kept', 'http://a..m\u00fcnchen/'],
  ['long label (no DNS length check)', 'http://' + '\u00e9'.repeat(70) + '.com/'],
  ['label of 1,024 code points', 'http://' + 'l'.repeat(1023) + '\u3404/'],
  ['label of 1,101 code points', 'http://' + 'l'.repeat(1100) + '\u3404/'],
  ['Punycode label of 1,024 code points', 'http://' + new URL('http://' + 'l'.repeat(1023) + '\u3404/').host + '/'],
  ['long domain (no DNS length check)', 'http://' + ('\u00e9'.repeat(50) + '.').repeat(8) + 'com/'],
  ['ideographic full stop maps to dot', 'http://m\u00fcnchen\u3002de/'],
  ['fullwidth full stop maps to dot', 'http://m\u00fcnchen\uff0ede/'],
  ['mapped to a forbidden code point', 'http://a\uff0fb.com/'],
  ['non-ASCII host ending in a number', 'http://\u00e9.1/'],
  ['fullwidth digits become an IPv4 address', 'http://\uff11\uff12\uff17.0.0.1/'],
  ['deviation ß kept', 'http://stra\u00dfe.de/'],
  ['deviation ς kept', 'http://\u03c3\u03bf\u03c6\u03bf\u03c2.gr/'],
  ['U+FDFA expands', 'http://\ufdfa.com/'],
  ['emoji', 'http://\u{1F4A9}.la/'],
  ['unassigned code point', 'http://\u{E0100}a.com/'],
  ['private use', 'http://\ue000.com/'],
  ['U+FFFD', 'http://\ufffd.com/'],
  ['non-special scheme: opaque host untouched', 'foo://\u0dc1\u0dca\u200d\u0dbb\u0dd3/'],
];
for (const [name, input] of extra) add(`extra: ${name}`, { input, base: null });
add('extra: hostname setter, ZWJ after virama', { href: 'http://x/', set: 'hostname', value: '\u0dc1\u0dca\u200d\u0dbb\u0dd3.lk' });
add('extra: host setter, U+1680', { href: 'http://x/', set: 'host', value: 'a\u1680b.com' });

process.stdout.write(JSON.stringify(rows, null, 1) + '\n');
console.error(`gen.js: ${rows.length} rows`);
