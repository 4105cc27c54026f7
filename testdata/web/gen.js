#!/usr/bin/env node
// gen.js records testdata/web/cases.json from Node 20: each case is a
// function body using the web globals (URL, URLSearchParams, TextEncoder,
// TextDecoder, structuredClone, atob, btoa, crypto, performance,
// DOMException); its expected value is what the body returns in Node 20, or
// {"throws": "Name: message"} when it throws. host/web_test.go runs every
// case in the guest and compares.
//
//   node testdata/web/gen.js   (Node 20; writes cases.json beside this file)
//
// A case with "isolate": true changes built-ins (to show the guest's globals
// do not depend on them) and runs alone, in its own process or run.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

if (!process.version.startsWith('v20.')) {
  console.error(`gen.js records Node 20's behaviour; this is Node ${process.version}`);
  process.exit(1);
}

const cases = [];
const add = (name, code, extra) => cases.push({ name, code: code.trim(), ...extra });
const q = JSON.stringify;

// ------------------------------------------------------------------ URL parsing

const parts = `const u = new URL(%ARGS%);
return [u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin];`;
const url = (name, input, base) => add('url/' + name,
  parts.replace('%ARGS%', q(input) + (base === undefined ? '' : ', ' + q(base))));

url('simple', 'https://example.com/a/b?c=d#e');
url('uppercase scheme and host', 'HTTPS://EXAMPLE.COM/Path');
url('default port http', 'http://example.com:80/');
url('default port https', 'https://example.com:443/x');
url('default port ws', 'ws://example.com:80');
url('default port wss', 'wss://example.com:443');
url('default port ftp', 'ftp://example.com:21/');
url('non-default port', 'http://example.com:8080/');
url('port leading zeros', 'http://example.com:0080/');
url('port zero', 'http://example.com:0/');
url('empty port', 'http://example.com:/');
url('port on non-special', 'foo://example.com:80/');
url('credentials', 'https://user:pa ss@example.com/');
url('credentials only user', 'https://user@example.com/');
url('credentials empty password', 'https://user:@example.com/');
url('credentials at signs', 'https://a@b@example.com/');
url('credentials percent-encode set', 'http://a"b<c>d:e;f=g[h]i|j@host/');
url('leading and trailing C0 and space', '\u0000 \t http://example.com/ \u001f');
url('tab and newline removed', 'ht\ttp://exa\nmple.com/p\ra');
url('backslashes in special', 'http:\\\\example.com\\a\\b');
url('backslash in non-special path', 'foo://host/a\\b');
url('no slashes special', 'http:example.com/a');
url('many slashes special', 'http:////example.com/a');
url('dot segments', 'http://example.com/a/./b/../c');
url('dot segments encoded', 'http://example.com/a/%2e/b/%2E%2e/c');
url('dot segments above root', 'http://example.com/../../a');
url('trailing dot dot', 'http://example.com/a/b/..');
url('trailing dot', 'http://example.com/a/b/.');
url('empty segments kept', 'http://example.com//a//b');
url('path percent-encode set', 'http://example.com/a b"c<d>e`f{g}h|i^j');
url('path keeps existing escapes', 'http://example.com/%7Efoo%zz%');
url('path non-ASCII', 'http://example.com/caf\u00e9/\u{1F600}');
url('query percent-encode set special', "http://example.com/?a b\"c<d>e'f`g");
url('query percent-encode set non-special', "foo://example.com/?a b\"c<d>e'f");
url('query non-ASCII', 'http://example.com/?q=caf\u00e9');
url('fragment percent-encode set', 'http://example.com/#a b"c<d>e`f{g}');
url('fragment with hash', 'http://example.com/#a#b');
url('empty query and fragment', 'http://example.com/?#');
url('lone surrogate becomes U+FFFD', 'http://example.com/\uD800?\uDC00#\uD800');
url('ipv4 dotted', 'http://192.168.0.1/');
url('ipv4 single number', 'http://3232235521/');
url('ipv4 hex', 'http://0xC0.0xA8.0x00.0x01/');
url('ipv4 octal', 'http://0300.0250.0.01/');
url('ipv4 short two parts', 'http://127.1/');
url('ipv4 short three parts', 'http://10.1.258/');
url('ipv4 trailing dot', 'http://1.2.3.4./');
url('ipv4 empty hex', 'http://0x/');
url('ipv4 max', 'http://4294967295/');
url('ipv4 mixed case hex', 'http://0XfF.1/');
url('ipv6 full', 'http://[2001:0db8:0000:0000:0000:ff00:0042:8329]/');
url('ipv6 compressed longest run', 'http://[1:0:0:2:0:0:0:3]/');
url('ipv6 first run on tie', 'http://[1:0:0:2:0:0:3:4]/');
url('ipv6 single zero not compressed', 'http://[1:2:3:4:5:6:0:8]/');
url('ipv6 loopback', 'http://[::1]:8080/');
url('ipv6 unspecified', 'http://[::]/');
url('ipv6 embedded ipv4', 'http://[::ffff:192.168.0.1]/');
url('ipv6 uppercase', 'http://[ABCD::EF]/');
url('ipv6 in non-special', 'foo://[::1]/');
url('opaque host keeps case and escapes', 'foo://ExAmPlE%41/');
url('opaque host non-ASCII encoded', 'foo://h\u00e9/');
url('empty host non-special', 'foo:///path');
url('opaque path', 'mailto:someone@example.com');
url('opaque path with spaces', 'data:text/plain,hello world');
url('opaque path query fragment', 'javascript:alert(1)?x#y');
url('non-special path', 'foo:/a/./b/../c');
url('non-special double slash path', 'foo:/.//p');
url('scheme with plus dash dot', 'a+b-c.d://host/');
url('blob origin', 'blob:https://example.com:8443/uuid');
url('blob opaque origin', 'blob:foo');
url('file simple', 'file:///home/user/a.txt');
url('file host', 'file://server/share/x');
url('file localhost dropped', 'file://localhost/etc/hosts');
url('file drive letter pipe', 'file:///C|/Windows/');
url('file drive letter kept above root', 'file:///C:/a/../../..');
url('file backslashes', 'file:\\\\\\C:\\x\\y');
url('file no slashes', 'file:a/b');
url('idna lowercase', 'http://M\u00dcNCHEN.de/');
url('idna punycode', 'http://m\u00fcnchen.de/');
url('idna sharp s kept', 'http://stra\u00dfe.de/');
url('idna fullwidth', 'http://\uff27\uff4f.com/');
url('idna ideographic full stop', 'http://a\u3002b\u3002c/');
url('idna soft hyphen ignored', 'http://ab\u00adc.com/');
url('idna emoji', 'http://\u{1F600}.la/');
url('idna existing punycode', 'http://xn--mnchen-3ya.de/');
url('host percent-decoded', 'http://%65xample.com/');
url('host uppercase escapes', 'http://EX%41MPLE.com/');
url('relative path', 'c/d', 'http://example.com/a/b');
url('relative dot dot', '../../x', 'http://example.com/a/b/c');
url('relative absolute path', '/x/y', 'http://example.com/a/b?q#f');
url('relative query only', '?z=1', 'http://example.com/a/b?q#f');
url('relative fragment only', '#g', 'http://example.com/a/b?q#f');
url('relative empty', '', 'http://example.com/a/b?q#f');
url('scheme-relative', '//other.org/p', 'https://example.com/a');
url('relative backslash special', '\\\\other.org\\p', 'https://example.com/a');
url('relative same scheme', 'http:c', 'http://example.com/a/b');
url('relative other scheme', 'https:c', 'http://example.com/a/b');
url('relative to file', 'x.txt', 'file:///C:/dir/old.txt');
url('relative drive to file', '/D:/x', 'file:///C:/dir/');
url('relative non-special', '../q', 'foo://h/a/b/c');
url('fragment on opaque base', '#x', 'mailto:a@b');
url('absolute ignores base', 'https://a.org/', 'http://example.com/');

// Where Node 20's URL parser (ada 2.9) differs from the standard, the guest
// does as Node does; these cases pin each difference.
url('node: path taken verbatim after a non-dot "/." segment', 'http://h//.x/../y');
url('node: dot segments resolved when the path starts with a dot', 'http://h/.x/../y');
url('node: ".." on an empty non-special path adds no slash', 'foo://h/..');
url('node: ".." relative to a one-segment non-special base', '..', 'foo://h/a');
url('node: file segment starting with a drive letter kept', 'file:///c:x/..');

const bad = (name, input, base) => add('url/invalid ' + name,
  `try { new URL(${q(input)}${base === undefined ? '' : ', ' + q(base)}); return 'parsed'; }
catch (e) { return [e.name, e.message, e.code, e.input, e.base, Object.keys(e)]; }`);
bad('no scheme', 'example.com');
bad('relative without base', '/a/b');
bad('bad base', 'a', 'not a url');
bad('empty host special', 'http:///');
bad('empty host with credentials', 'http://user@/');
bad('port too large', 'http://example.com:65536/');
bad('port not a number', 'http://example.com:8a/');
bad('forbidden host code point', 'http://exa mple.com/');
bad('forbidden host caret', 'http://a^b/');
bad('forbidden domain code point percent', 'http://a%25b/');
bad('escaped forbidden code point', 'http://a%20b/');
bad('ipv4 part over 255', 'http://1.256.3.4/');
bad('ipv4 too many parts', 'http://1.2.3.4.5/');
bad('ipv4 last part too large', 'http://1.2.65536/');
bad('ipv4 bad octal', 'http://09.1.1.1/');
bad('ends in number not ipv4', 'http://foo.09/');
bad('ipv6 unclosed', 'http://[::1/');
bad('ipv6 two compressions', 'http://[1::2::3]/');
bad('ipv6 too many pieces', 'http://[1:2:3:4:5:6:7:8:9]/');
bad('ipv6 bad ipv4 part', 'http://[::1.2.3.256]/');
bad('ipv6 ipv4 too early', 'http://[1:2:3:4:5:6:7:1.2.3.4]/');
bad('ipv6 bad char', 'http://[::g]/');
bad('opaque host forbidden', 'foo://a b/');
bad('invalid punycode', 'http://xn--a.com/');
bad('replacement character host', 'http://%ef%bf%bd/');
bad('relative against opaque base', 'x', 'mailto:a@b');
bad('lone surrogate input kept in error', '\uD800');

add('url/canParse', `return [URL.canParse('https://a/'), URL.canParse('a'), URL.canParse('a', 'https://b/'), URL.canParse('a', 'b')];`);
add('url/canParse no argument', `return URL.canParse();`);
add('url/constructor no argument', `return new URL();`);
add('url/parse', `return [URL.parse('https://a/b').href, URL.parse('nope'), URL.parse('c', 'https://a/b').href];`);
add('url/toString toJSON', `const u = new URL('https://a/b?c#d'); return [String(u), u.toJSON(), JSON.stringify({ u })];`);
add('url/input converted to string', `return [new URL({ toString() { return 'https://x/' } }).href, new URL(1, 'https://x/a/').href];`);
add('url/symbol input', `return new URL(Symbol('x'));`);

// -------------------------------------------------------------------- setters

const comps = 'href protocol username password host hostname port pathname search hash origin'.split(' ');
const set = (name, init, key, value) => add('url/set ' + name,
  `const u = new URL(${q(init)}); let r; try { u[${q(key)}] = ${q(value)}; r = 'ok'; } catch (e) { r = e.name + ': ' + e.message; }
return [r, ${comps.map((c) => 'u.' + c).join(', ')}];`);
set('href', 'https://a/b', 'href', 'http://c:81/d?e#f');
set('href invalid throws', 'https://a/b', 'href', 'not a url');
set('protocol special to special', 'http://a:443/', 'protocol', 'https');
set('protocol with colon and rest', 'http://a/', 'protocol', 'wss:foo');
set('protocol special to non-special refused', 'http://a/', 'protocol', 'foo');
set('protocol non-special to special refused', 'foo://a/', 'protocol', 'http');
set('protocol to file with port refused', 'http://a:8/', 'protocol', 'file');
set('protocol invalid refused', 'http://a/', 'protocol', '1x');
set('username', 'http://a/', 'username', 'us er@:');
set('password', 'http://u@a/', 'password', 'p@ss:w');
set('username on file ignored', 'file:///x', 'username', 'u');
set('host with port', 'http://a:1/p', 'host', 'b:2');
set('host port default dropped', 'http://a:1/p', 'host', 'b:80');
set('host invalid port keeps old', 'http://a:1/p', 'host', 'b:99999');
set('host empty on special ignored', 'http://a/p', 'host', '');
set('host ipv6', 'http://a/', 'host', '[::1]:9');
set('host cut at slash', 'http://a/p', 'host', 'b/c');
set('host on opaque path ignored', 'mailto:x', 'host', 'a');
set('hostname', 'http://a:1/', 'hostname', 'b.example');
set('hostname with colon ignored', 'http://a:1/', 'hostname', 'b:2');
set('hostname idna', 'http://a/', 'hostname', 'b\u00fccher.de');
set('port', 'http://a/', 'port', '8080');
set('port default', 'https://a:1/', 'port', '443');
set('port leading digits', 'http://a/', 'port', '12ab');
set('port empty clears', 'http://a:1/', 'port', '');
set('port too large ignored', 'http://a:1/', 'port', '65536');
set('port no digits ignored', 'http://a:1/', 'port', 'x');
set('port on file ignored', 'file:///x', 'port', '1');
set('pathname', 'http://a/x', 'pathname', 'b c/../d?e#f');
set('pathname backslash special', 'http://a/x', 'pathname', '\\b\\c');
set('pathname on opaque ignored', 'mailto:x', 'pathname', 'y');
set('search', 'http://a/?x', 'search', '?b c=d#e');
set('search without question mark', 'http://a/', 'search', 'q=1');
set('search empty', 'http://a/?x#f', 'search', '');
set('hash', 'http://a/#x', 'hash', 'b c');
set('hash empty', 'http://a/#x', 'hash', '');
set('hash on opaque path', 'mailto:x', 'hash', '#y z');
add('url/set opaque path trailing spaces stripped', `const u = new URL('foo:a b #x'); const before = u.pathname; u.hash = ''; return [before, u.pathname, u.href];`);
set('node: host port set before the host (none yet)', 'foo:/p', 'host', '[::1]:9');
set('node: host empty on a URL without host ignored', 'foo:/p', 'hostname', '');
set('node: host value cut at #', 'http://a:1/', 'host', 'b:2#3');
set('node: port starting with minus ignored', 'http://a:1/', 'port', '-2');
set('node: port without leading digits clears', 'http://a:1/', 'port', 'x2');
set('node: host getter empty when hostname is', 'foo://x:7/', 'host', ':1');
add('url/set search params follow the query as parsed', `const u = new URL('http://a/'); const p = u.searchParams; u.search = 'a=1\\t&b=\\n2'; return [u.search, [...p]];`);

// ---------------------------------------------------------- URLSearchParams

add('usp/string init', `const p = new URLSearchParams('?a=1&b=2&a=3'); return [...p];`);
add('usp/plus and percent decoding', `return [...new URLSearchParams('a+b=c%20d&e%2Bf=%C3%A9&g=%zz&h=%E2%82')];`);
add('usp/empty pairs and missing values', `return [...new URLSearchParams('&&a&=b&c=&=')];`);
add('usp/only first equals splits', `return [...new URLSearchParams('a=b=c')];`);
add('usp/record init', `return [...new URLSearchParams({ a: '1', b: 2, c: [3, 4] })];`);
add('usp/sequence init', `return [...new URLSearchParams([['a', '1'], ['b', '2'], ['a', '3']])];`);
add('usp/map init', `return [...new URLSearchParams(new Map([['x', 'y']]))];`);
add('usp/copy init', `const a = new URLSearchParams('a=1'); const b = new URLSearchParams(a); b.append('b', '2'); return [a.toString(), b.toString()];`);
add('usp/record with symbol key', `try { new URLSearchParams({ a: '1', [Symbol('s')]: '2' }); return 'ok'; } catch (e) { return [e.name, e.message]; }`);
add('usp/record duplicate after USV conversion', `return new URLSearchParams({ '\\uD800': '1', '\\uFFFD': '2' }).toString();`);
add('usp/iterator init', `return new URLSearchParams(new Map([['a', '1']]).entries()).toString();`);
add('usp/string pair refused', `try { new URLSearchParams(['ab']); } catch (e) { return [e.name, e.message, e.code]; }`);
add('usp/bad tuple', `try { new URLSearchParams([['a']]); } catch (e) { return [e.name, e.message, e.code]; }`);
add('usp/bad pair', `try { new URLSearchParams([1]); } catch (e) { return [e.name, e.message, e.code]; }`);
add('usp/null and undefined init', `return [new URLSearchParams(null).toString(), new URLSearchParams(undefined).size, new URLSearchParams('').size];`);
add('usp/number init', `return new URLSearchParams(12).toString();`);
add('usp/lone surrogates', `return new URLSearchParams({ '\\uD800': '\\uDC00' }).toString();`);
add('usp/append get getAll has', `const p = new URLSearchParams(); p.append('a', 1); p.append('a', 'x y'); return [p.get('a'), p.getAll('a'), p.has('a'), p.has('b'), p.get('b'), p.has('a', 'x y'), p.has('a', '2')];`);
add('usp/set replaces first removes rest', `const p = new URLSearchParams('a=1&b=2&a=3&c=4'); p.set('a', 'z'); p.set('d', 'w'); return p.toString();`);
add('usp/delete', `const p = new URLSearchParams('a=1&b=2&a=3'); p.delete('a'); const q = new URLSearchParams('a=1&a=2'); q.delete('a', '2'); return [p.toString(), q.toString()];`);
add('usp/sort stable by code units', `const p = new URLSearchParams('z=1&a=2&\\u{1F600}=3&\\uFFFD=4&a=1&B=0'); p.sort(); return [...p.keys()];`);
add('usp/size', `const p = new URLSearchParams('a=1&b=2&a=3'); const s = p.size; p.delete('a'); return [s, p.size];`);
add('usp/serialisation', `return new URLSearchParams({ ' ': '+', '*-._': "!'()~", 'é&=': '\\u{1F600}%' }).toString();`);
add('usp/forEach', `const r = []; new URLSearchParams('a=1&b=2').forEach(function (v, k, p) { r.push([k, v, this.tag, p.size]); }, { tag: 't' }); return r;`);
add('usp/forEach needs function', `try { new URLSearchParams().forEach(1); } catch (e) { return [e.name, e.message, e.code]; }`);
add('usp/iterators', `const p = new URLSearchParams('a=1&b=2'); return [[...p.keys()], [...p.values()], [...p.entries()], [...p], Object.prototype.toString.call(p.keys()), typeof p.keys().next];`);
add('usp/iterator is live', `const p = new URLSearchParams('a=1'); const it = p.values(); const first = it.next(); p.append('b', '2'); return [first, it.next(), it.next()];`);
add('usp/missing arguments', `const p = new URLSearchParams(); const r = []; for (const f of [() => p.append('a'), () => p.get(), () => p.set('a'), () => p.delete()]) { try { f(); r.push('ok'); } catch (e) { r.push(e.message); } } return r;`);
add('usp/wrong this', `try { URLSearchParams.prototype.get.call({}, 'a'); } catch (e) { return [e.name, e.message, e.code]; }`);
add('usp/url searchParams live', `const u = new URL('https://a/?x=1'); const p = u.searchParams; p.append('y', 'a b'); const h1 = u.href; u.search = '?z=3'; return [h1, [...p], p === u.searchParams];`);
add('usp/url searchParams emptied', `const u = new URL('https://a/?x=1#f'); u.searchParams.delete('x'); return [u.href, u.search];`);
add('usp/url href updates params', `const u = new URL('https://a/?x=1'); const p = u.searchParams; u.href = 'https://b/?k=v&k=w'; return p.getAll('k');`);
add('usp/url query with question marks', `return [...new URL('https://a/??x=1').searchParams];`);
add('usp/url sort', `const u = new URL('https://a/?b=2&a=1&c=%20'); u.searchParams.sort(); return u.search;`);
add('usp/non-ASCII with bad escape (Node fallback)', `return [...new URLSearchParams('k=\\u00e9%FF')];`);

// ---------------------------------------------------------- TextEncoder/Decoder

const bytes = (expr) => `return Array.from(${expr});`;
add('text/encode ascii', bytes(`new TextEncoder().encode('hi')`));
add('text/encode multibyte', bytes(`new TextEncoder().encode('\\u00e9\\u20ac\\u{1F600}')`));
add('text/encode lone surrogates', bytes(`new TextEncoder().encode('a\\uD800b\\uDC00\\uD800')`));
add('text/encode default and undefined', `const e = new TextEncoder(); return [e.encode().length, e.encode(undefined).length, Array.from(e.encode(null)), Array.from(e.encode(12))];`);
add('text/encode returns fresh Uint8Array', `const b = new TextEncoder().encode('\\u00e9'); return [Object.prototype.toString.call(b), b.length, b.buffer.byteLength, b.byteOffset];`);
add('text/encoding', `return [new TextEncoder().encoding, new TextDecoder().encoding];`);
add('text/encodeInto', `const d = new Uint8Array(8); const r = new TextEncoder().encodeInto('a\\u00e9\\u{1F600}', d); return [r, Array.from(d)];`);
add('text/encodeInto partial character', `const d = new Uint8Array(5); return [new TextEncoder().encodeInto('ab\\u{1F600}', d), new TextEncoder().encodeInto('\\u20ac', new Uint8Array(2))];`);
add('text/encodeInto subarray', `const d = new Uint8Array(6); const r = new TextEncoder().encodeInto('xyz', d.subarray(2, 4)); return [r, Array.from(d)];`);
add('text/encodeInto needs string', `try { new TextEncoder().encodeInto(1, new Uint8Array(1)); } catch (e) { return [e.name, e.message, e.code]; }`);
add('text/encodeInto needs Uint8Array', `try { new TextEncoder().encodeInto('a', new Uint16Array(1)); } catch (e) { return [e.name, e.message, e.code]; }`);
const dec = (name, arr, opts, decOpts) => add('text/decode ' + name,
  `const s = new TextDecoder('utf-8'${opts ? ', ' + opts : ''}).decode(new Uint8Array(${q(arr)})${decOpts ? ', ' + decOpts : ''});
return Array.from(s, (c) => c.codePointAt(0).toString(16));`);
dec('ascii', [0x68, 0x69]);
dec('multibyte', [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]);
dec('BOM stripped', [0xef, 0xbb, 0xbf, 0x41, 0xef, 0xbb, 0xbf]);
dec('ignoreBOM keeps it', [0xef, 0xbb, 0xbf, 0x41], '{ ignoreBOM: true }');
dec('maximal subparts', [0xf0, 0x90, 0x80, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xe0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0x41]);
dec('overlong and out of range', [0xc1, 0xbf, 0xf5, 0x80, 0xff, 0xfe]);
dec('truncated at end', [0x41, 0xe2, 0x82]);
dec('surrogate code points', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]);
dec('continuation alone', [0x80, 0xbf, 0x41]);
add('text/decode fatal throws', `try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0x61, 0xff])); } catch (e) { return [e.name, e.message, e.code]; }`);
add('text/decode fatal truncated', `try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xe2, 0x82])); } catch (e) { return [e.name, e.message, e.code]; }`);
add('text/decode stream', `const d = new TextDecoder(); const b = new Uint8Array([0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]); return [d.decode(b.subarray(0, 1), { stream: true }), d.decode(b.subarray(1, 4), { stream: true }), d.decode(b.subarray(4, 6), { stream: true }), d.decode(b.subarray(6))];`);
add('text/decode stream flush incomplete', `const d = new TextDecoder(); return [d.decode(new Uint8Array([0xf0, 0x9f]), { stream: true }), d.decode()];`);
add('text/decode stream BOM once', `const d = new TextDecoder(); const bom = new Uint8Array([0xef, 0xbb, 0xbf]); return [d.decode(bom, { stream: true }), d.decode(bom, { stream: true }), d.decode(), d.decode(bom)];`);
add('text/decode buffer types', `const ab = new Uint8Array([0x61, 0x62, 0x63, 0x64]).buffer; const d = new TextDecoder(); return [d.decode(ab), d.decode(new DataView(ab, 1, 2)), d.decode(new Uint16Array(ab, 2, 1)), d.decode(new Uint8Array(ab, 3))];`);
add('text/decode bad input', `try { new TextDecoder().decode('abc'); } catch (e) { return [e.name, e.message, e.code]; }`);
add('text/labels', `return ['utf8', ' UTF-8\\n', 'unicode-1-1-utf-8', 'UNICODE11UTF8', 'x-unicode20utf8', undefined].map((l) => new TextDecoder(l).encoding);`);
add('text/unknown label', `try { new TextDecoder('nope'); } catch (e) { return [e.name, e.message, e.code]; }`);
add('text/options attributes', `const d = new TextDecoder('utf-8', { fatal: 1, ignoreBOM: 'yes' }); return [d.fatal, d.ignoreBOM, new TextDecoder().fatal, new TextDecoder(undefined, null).ignoreBOM];`);
add('text/bad options', `try { new TextDecoder('utf-8', 5); } catch (e) { return [e.name, e.message, e.code]; }`);
add('text/round trip', `const s = 'h\\u00e9llo w\\u00f6rld \\u{1F30D} \\u4e2d\\u6587'; return new TextDecoder().decode(new TextEncoder().encode(s)) === s;`);
add('text/large round trip', `const s = 'ab\\u00e9\\u20ac\\u{1F600}'.repeat(5000); const b = new TextEncoder().encode(s); return [b.length, new TextDecoder().decode(b) === s];`);

// ----------------------------------------------------------------- base64

add('base64/btoa', `return [btoa(''), btoa('f'), btoa('fo'), btoa('foo'), btoa('foob'), btoa('\\u00ff\\u00fe\\u0000')];`);
add('base64/btoa converts', `return [btoa(undefined), btoa(null), btoa(12)];`);
add('base64/btoa non-latin1', `try { btoa('\\u0100'); } catch (e) { return [e.name, e.message, e.code, e instanceof DOMException]; }`);
add('base64/btoa no argument', `try { btoa(); } catch (e) { return [e.name, e.message, e.code]; }`);
add('base64/atob', `return [atob(''), atob('Zg=='), atob('Zm8='), atob('Zm9v'), atob('Zg'), atob('Zm8')];`);
add('base64/atob whitespace', `return atob(' Zm\\t9v\\nYm\\fF y\\r');`);
add('base64/atob non-zero trailing bits', `return [atob('YR=='), atob('YWJ=')];`);
add('base64/atob binary', `return Array.from(atob('/+8A'), (c) => c.charCodeAt(0));`);
const atobErr = (name, s) => add('base64/atob error ' + name, `try { atob(${q(s)}); } catch (e) { return [e.name, e.message, e.code]; }`);
atobErr('invalid character', 'Zm9v!');
atobErr('length one mod four', 'Zm9vY');
atobErr('padding wrong length', 'Zm9=');
atobErr('too much padding', 'Zg===');
atobErr('data after padding', 'Zg==Zg==');
atobErr('one char and padding', 'Z==');
atobErr('url-safe alphabet', 'Zm-_');
atobErr('non-latin1', '\u00e9');
add('base64/atob converts', `return [atob(undefined === 1 ? '' : 'YWJj'), (() => { try { return atob(undefined); } catch (e) { return e.message; } })()];`);

// ------------------------------------------------------------ structuredClone

add('clone/primitives', `return [structuredClone(1), structuredClone('s'), structuredClone(true), structuredClone(null), structuredClone(undefined) === undefined, Object.is(structuredClone(-0), -0), Number.isNaN(structuredClone(NaN)), String(structuredClone(10n ** 20n))];`);
add('clone/wrappers', `const v = structuredClone([new Number(-0), new String('ab'), new Boolean(false), Object(5n)]); return v.map((x) => [typeof x, Object.prototype.toString.call(x), String(x.valueOf()), Object.is(x.valueOf(), -0)]);`);
add('clone/wrapper extra properties dropped', `const s = new String('ab'); s.x = 1; return Object.keys(structuredClone(s));`);
add('clone/date', `const d = new Date(1700000000123); const c = structuredClone(d); return [c instanceof Date, c.getTime(), c !== d, Number.isNaN(structuredClone(new Date(NaN)).getTime())];`);
add('clone/regexp', `const r = /a+b/gimsuy; r.lastIndex = 3; const c = structuredClone(r); return [c instanceof RegExp, c.source, c.flags, c.lastIndex, c !== r, structuredClone(/x/dv).flags];`);
add('clone/plain object', `const o = { b: 1, a: { c: [1, 2] }, 2: 'two', 1: 'one' }; const c = structuredClone(o); return [c, Object.keys(c), c.a !== o.a];`);
add('clone/own enumerable string keys only', `const o = { v: 1, [Symbol('s')]: 2 }; Object.defineProperty(o, 'hidden', { value: 3 }); const c = structuredClone(o); return [Object.getOwnPropertyNames(c), Object.getOwnPropertySymbols(c).length];`);
add('clone/getters invoked', `let n = 0; const c = structuredClone({ get g() { n++; return 'got'; } }); return [c, n, Object.getOwnPropertyDescriptor(c, 'g')];`);
add('clone/property deleted by getter skipped', `const c = structuredClone({ a: 1, get b() { delete this.c; return 2; }, c: 3 }); return c;`);
add('clone/class instance becomes plain', `class P { constructor() { this.x = 1; } m() {} } const c = structuredClone(new P()); return [c, Object.getPrototypeOf(c) === Object.prototype, c.constructor === Object];`);
add('clone/null prototype becomes Object', `const o = Object.create(null); o.k = 'v'; const c = structuredClone(o); return [c, Object.getPrototypeOf(c) === Object.prototype];`);
add('clone/array holes and extra properties', `const a = [1, , 3]; a.extra = 'x'; a[6] = 7; const c = structuredClone(a); return [c.length, 1 in c, Object.keys(c), c.extra, Array.isArray(c)];`);
add('clone/sparse array', `const a = []; a[1000] = 'z'; const c = structuredClone(a); return [c.length, Object.keys(c)];`);
add('clone/map and set', `const k = { key: 1 }; const m = new Map([[k, 'v'], ['s', k]]); const s = new Set([k, 1, 'a']); const [cm, cs] = structuredClone([m, s]); const ck = [...cm.keys()][0]; return [[...cm.values()][1] === ck, [...cs][0] === ck, cm.size, cs.size, [...cs].slice(1), cm instanceof Map, cs instanceof Set];`);
add('clone/map extra properties dropped', `const m = new Map([[1, 2]]); m.x = 1; return Object.keys(structuredClone(m));`);
add('clone/cycles', `const o = { name: 'o' }; o.self = o; o.list = [o]; const c = structuredClone(o); return [c.self === c, c.list[0] === c, c !== o];`);
add('clone/shared references', `const shared = { s: 1 }; const c = structuredClone({ a: shared, b: shared, c: [shared] }); return [c.a === c.b, c.c[0] === c.a];`);
add('clone/array buffer', `const b = new Uint8Array([1, 2, 3]).buffer; const c = structuredClone(b); new Uint8Array(b)[0] = 9; return [Object.prototype.toString.call(c), Array.from(new Uint8Array(c))];`);
add('clone/typed arrays share cloned buffer', `const buf = new ArrayBuffer(8); const a = new Uint8Array(buf, 2, 3); const v = new DataView(buf, 1); const [ca, cv, cb] = structuredClone([a, v, buf]); return [ca.buffer === cb, cv.buffer === cb, ca.byteOffset, ca.length, cv.byteOffset, cv.byteLength, Object.prototype.toString.call(cv)];`);
add('clone/typed array kinds', `const list = [new Int8Array([-1]), new Uint8ClampedArray([300]), new Int16Array([-2]), new Uint32Array([4e9]), new Float32Array([1.5]), new Float64Array([Math.PI]), new BigInt64Array([-5n]), new BigUint64Array([5n])]; return structuredClone(list).map((t) => [Object.prototype.toString.call(t), String(t[0])]);`);
add('clone/resizable buffer', `const b = new ArrayBuffer(2, { maxByteLength: 8 }); const c = structuredClone(b); return [c.resizable, c.maxByteLength, c.byteLength];`);
add('clone/errors', `const e = new RangeError('out', { cause: { n: 1 } }); e.extra = 1; const c = structuredClone(e); return [c instanceof RangeError, c.name, c.message, c.cause, c.extra, Object.getOwnPropertyNames(c), c.stack === e.stack];`);
add('clone/error types by name', `return [new Error('a'), new EvalError('b'), new ReferenceError('c'), new SyntaxError('d'), new TypeError('e'), new URIError('f')].map((e) => { const c = structuredClone(e); return [c.constructor.name, c.message]; });`);
add('clone/error subclass becomes its name', `class MyError extends TypeError { constructor(m) { super(m); this.name = 'MyError'; } } const c = structuredClone(new MyError('m')); const e2 = new Error('x'); e2.name = 'TypeError'; return [c.constructor.name, c.name, structuredClone(e2).constructor.name];`);
add('clone/error without message', `const c = structuredClone(new Error()); return [Object.getOwnPropertyNames(c), c.message];`);
add('clone/error message converted', `const e = new Error('x'); e.message = 42; const c = structuredClone(e); return [c.message, typeof c.message];`);
add('clone/error property descriptors', `const c = structuredClone(new Error('m', { cause: 1 })); return ['message', 'cause'].map((k) => Object.getOwnPropertyDescriptor(c, k));`);
add('clone/nested cause error', `const c = structuredClone(new Error('outer', { cause: new TypeError('inner') })); return [c.cause instanceof TypeError, c.cause.message];`);
const cloneErr = (name, expr) => add('clone/uncloneable ' + name,
  `try { structuredClone(${expr}); return 'cloned'; } catch (e) { return [e.name, e.message, e.code, e instanceof DOMException, e instanceof Error]; }`);
cloneErr('function', 'function foo(a) { return a; }');
cloneErr('arrow', '() => 1');
cloneErr('class', 'class A {}');
cloneErr('native function', '[].push');
cloneErr('bound function', '(function () {}).bind(null)');
cloneErr('nested function', '{ a: [1, { f() {} }] }');
cloneErr('symbol', "Symbol('tag')");
cloneErr('well-known symbol', 'Symbol.iterator');
cloneErr('symbol wrapper', "Object(Symbol('w'))");
cloneErr('weakmap', 'new WeakMap()');
cloneErr('weakset', 'new WeakSet()');
cloneErr('weakref', 'new WeakRef({})');
cloneErr('promise', 'Promise.resolve(1)');
cloneErr('generator', '(function* () {})()');
cloneErr('promise with own constructor', '(() => { const p = Promise.resolve(); p.constructor = function Bar() {}; return p; })()');
add('clone/web objects are plain objects', `return [new URL('https://a/'), new URLSearchParams('a=1'), new URLSearchParams('a=1').keys(), new TextEncoder(), new TextDecoder(), new DOMException('x', 'AbortError')].map((o) => structuredClone(o));`);
cloneErr('map iterator', 'new Map([[1, 2]]).entries()');
cloneErr('array iterator', '[1].values()');
cloneErr('async generator', '(async function* () {})()');
cloneErr('arguments', '(function () { return arguments; })(1)');
add('clone/math and json are plain objects', `return [structuredClone(Math), structuredClone(JSON)];`);
add('clone/transfer', `const b = new ArrayBuffer(4); new Uint8Array(b)[0] = 7; const u = new Uint8Array(b); const c = structuredClone({ b, u }, { transfer: [b] }); return [b.byteLength, u.length, c.b.byteLength, new Uint8Array(c.b)[0], c.u.buffer === c.b];`);
add('clone/transfer not in value', `const b = new ArrayBuffer(4); const r = structuredClone(1, { transfer: [b] }); return [r, b.byteLength];`);
add('clone/transfer duplicate', `const b = new ArrayBuffer(1); try { structuredClone(b, { transfer: [b, b] }); } catch (e) { return [e.name, e.message, e.code, b.byteLength]; }`);
add('clone/transfer invalid object', `try { structuredClone(1, { transfer: [{}] }); } catch (e) { return [e.name, e.message]; }`);
add('clone/transfer not iterable', `try { structuredClone(1, { transfer: 5 }); } catch (e) { return [e.name, e.message, e.code]; }`);
add('clone/bad options', `try { structuredClone(1, 5); } catch (e) { return [e.name, e.message, e.code]; }`);
add('clone/no argument', `try { structuredClone(); } catch (e) { return [e.name, e.message, e.code]; }`);
add('clone/null options', `return [structuredClone(1, null), structuredClone(2, { transfer: undefined })];`);
add('clone/getter exception propagates', `try { structuredClone({ get x() { throw new RangeError('boom'); } }); } catch (e) { return [e.name, e.message]; }`);
add('clone/deep nesting', `let o = {}; const root = o; for (let i = 0; i < 1000; i++) { o.n = {}; o = o.n; } let c = structuredClone(root), d = 0; while (c.n) { c = c.n; d++; } return d;`);

// --------------------------------------------------- crypto and performance

add('crypto/randomUUID format', `const u = crypto.randomUUID(); return [typeof u, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u)];`);
add('crypto/randomUUID distinct', `const s = new Set(); for (let i = 0; i < 100; i++) s.add(crypto.randomUUID()); return s.size;`);
add('crypto/getRandomValues', `const a = new Uint32Array(16); const r = crypto.getRandomValues(a); return [r === a, a.some((x) => x !== 0), crypto.getRandomValues(new Uint8Array(0)).length];`);
add('crypto/getRandomValues integer kinds', `return [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array].map((T) => crypto.getRandomValues(new T(4)).length);`);
add('crypto/getRandomValues view of bigger buffer', `const b = new Uint8Array(8); crypto.getRandomValues(b.subarray(2, 4)); return [b[0], b[1], b[4], b[5], b[6], b[7]];`);
add('crypto/getRandomValues 65536 bytes', `return crypto.getRandomValues(new Uint8Array(65536)).length;`);
const cryptoErr = (name, expr) => add('crypto/getRandomValues error ' + name,
  `try { ${expr}; return 'ok'; } catch (e) { return [e.name, e.message, e.code, e instanceof DOMException]; }`);
cryptoErr('too large', 'crypto.getRandomValues(new Uint8Array(65537))');
cryptoErr('float', 'crypto.getRandomValues(new Float64Array(1))');
cryptoErr('dataview', 'crypto.getRandomValues(new DataView(new ArrayBuffer(1)))');
cryptoErr('array', 'crypto.getRandomValues([1, 2])');
cryptoErr('no argument', 'crypto.getRandomValues()');
cryptoErr('wrong this', 'crypto.getRandomValues.call({}, new Uint8Array(1))');
add('crypto/no subtle', `return [typeof crypto.getRandomValues, typeof crypto.randomUUID, Object.prototype.toString.call(crypto)];`);
add('performance/now', `const a = performance.now(); let x = 0; for (let i = 0; i < 1e5; i++) x += i; const b = performance.now(); return [typeof a, a >= 0, b >= a];`);
add('performance/timeOrigin and toJSON', `return [typeof performance.timeOrigin, performance.timeOrigin > 1.6e12, typeof performance.toJSON().timeOrigin, Object.prototype.toString.call(performance)];`);

// ----------------------------------------------------------------- DOMException

add('domexception/basic', `const e = new DOMException('msg', 'NotFoundError'); return [e.name, e.message, e.code, String(e), e instanceof Error, Object.prototype.toString.call(e), Object.keys(e)];`);
add('domexception/defaults', `const e = new DOMException(); return [e.name, e.message, e.code];`);
add('domexception/options object', `const e = new DOMException('m', { name: 'AbortError', cause: 'why' }); return [e.name, e.code, e.cause, Object.getOwnPropertyDescriptor(e, 'cause')];`);
add('domexception/legacy codes', `return ['IndexSizeError', 'InvalidCharacterError', 'SyntaxError', 'InvalidStateError', 'NetworkError', 'AbortError', 'QuotaExceededError', 'TimeoutError', 'DataCloneError', 'EncodingError', 'Custom'].map((n) => new DOMException('', n).code);`);
add('domexception/constants', `return [DOMException.INDEX_SIZE_ERR, DOMException.DOMSTRING_SIZE_ERR, DOMException.INUSE_ATTRIBUTE_ERR, DOMException.URL_MISMATCH_ERR, DOMException.DATA_CLONE_ERR, DOMException.prototype.ABORT_ERR, new DOMException().TIMEOUT_ERR];`);
add('domexception/wrong this', `try { Object.getOwnPropertyDescriptor(DOMException.prototype, 'name').get.call({}); } catch (e) { return [e.name, e.message, e.code]; }`);
add('domexception/prototype chain', `return [Object.getPrototypeOf(DOMException.prototype) === Error.prototype, DOMException.name, DOMException.length];`);

// ------------------------------------------------------------ shapes, as in Node

function shape(expr, keys) {
  return `const o = ${expr}; const r = {};
for (const k of ${keys}) { const d = Object.getOwnPropertyDescriptor(o, k); if (!d) { r[String(k)] = null; continue; }
  r[String(k)] = [d.enumerable, d.configurable, 'value' in d ? (typeof d.value === 'function' ? 'fn ' + d.value.name + '/' + d.value.length : typeof d.value === 'string' ? d.value : typeof d.value) : 'get ' + (d.get && d.get.name) + ' set ' + (d.set && d.set.name), d.writable]; }
return r;`;
}
add('shape/URL prototype', shape('URL.prototype', `['constructor', 'toString', 'href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash', 'toJSON', Symbol.toStringTag]`));
add('shape/URL statics', shape('URL', `['length', 'name', 'parse', 'canParse']`));
add('shape/URLSearchParams prototype', shape('URLSearchParams.prototype', `['constructor', 'size', 'append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'entries', 'forEach', 'keys', 'values', 'toString', Symbol.iterator, Symbol.toStringTag]`));
add('shape/URLSearchParams iterator', `const p = Object.getPrototypeOf(new URLSearchParams().keys()); return [Object.getOwnPropertyNames(p), p[Symbol.toStringTag], Object.getPrototypeOf(p) === Object.getPrototypeOf(Object.getPrototypeOf([].keys()))];`);
add('shape/TextEncoder prototype', shape('TextEncoder.prototype', `['constructor', 'encoding', 'encode', 'encodeInto', Symbol.toStringTag]`));
add('shape/TextDecoder prototype', shape('TextDecoder.prototype', `['constructor', 'decode', 'encoding', 'fatal', 'ignoreBOM', Symbol.toStringTag]`));
add('shape/DOMException prototype', shape('DOMException.prototype', `['constructor', 'name', 'message', 'code', 'ABORT_ERR', Symbol.toStringTag]`));
add('shape/crypto', shape('Object.getPrototypeOf(crypto)', `['getRandomValues', 'randomUUID', Symbol.toStringTag]`));
add('shape/performance', shape('Object.getPrototypeOf(performance)', `['now', 'timeOrigin', 'toJSON', Symbol.toStringTag]`));
add('shape/functions', `return [atob, btoa, structuredClone].map((f) => [f.name, f.length]);`);
add('shape/toStringTag', `return [new URL('a:b'), new URLSearchParams(), new TextEncoder(), new TextDecoder(), new DOMException()].map((o) => Object.prototype.toString.call(o));`);
add('shape/instances have no own enumerable keys', `return [new URL('https://a/'), new URLSearchParams('a=1'), new TextEncoder(), new TextDecoder()].map((o) => Object.keys(o).length);`);
add('shape/URL wrong this', `try { URL.prototype.toString.call({}); } catch (e) { return [e.name, e.message]; }`);
add('shape/TextDecoder wrong this', `try { TextDecoder.prototype.decode.call({}); } catch (e) { return [e.name, e.message, e.code]; }`);

// ------------------------------------------------- built-ins replaced by the program

// Each tamper case builds its inputs, replaces built-ins, then uses the web
// globals, returning what it read through property access and literals only.
// Node 20 itself is not immune everywhere (its URLSearchParams parser uses
// String.prototype.slice and Array.prototype.push; randomUUID and
// getRandomValues trip an indexed setter on Array.prototype), so each case
// uses what Node survives; the guest survives all of it.
const tamperInputs = `const bytes = new Uint8Array([0xc3, 0xa9, 0xff]), dst = new Uint8Array(4), rnd = new Uint8Array(4);
const src = { a: [1, { b: new Map([[1, 2]]) }], d: new Date(0), s: new Set([3]), e: new RangeError('r') };
const fn = () => 1;`;
const tamperOps = (usp, after = '') => `const u = new URL('HTTP://M\\u00dcnchen.de/a/../b?x=1 2#f'), v = new URL('../c?d', 'http://[1:0:0:2:0:0:0:3]:81/b/e');
v.host = '0x7f.1:8'; v.pathname = 'x y/./z'; v.search = 'q=1'; v.hash = 'h';
let err; try { new URL('nope'); } catch (e) { err = [e.name, e.message, e.code]; }
const c = structuredClone(src), e = new TextEncoder().encodeInto('a\\u00e9', dst);
let cerr; try { structuredClone(fn); } catch (e) { cerr = [e.name, e.message]; }
const out = [u.href, v.href, err, btoa('hi'), atob('aGk='), new TextEncoder().encode('\\u00e9\\u{1F600}').length, e.read, e.written, dst[2],
  new TextDecoder().decode(bytes), c.a[0], c.d.getTime(), c.s.size, c.e.message, c.e instanceof RangeError, cerr, structuredClone(bytes).length,
  new DOMException('m', 'AbortError').code, typeof performance.now()];
${usp ? `const p = new URLSearchParams('b=2&a=1&a=%20'); p.sort(); const w = new URL('http://a/?x=1'); w.searchParams.append('y', 'z w');
out[out.length] = [p.toString(), p.get('a'), p.getAll('a').length, p.size, w.href, crypto.randomUUID().length, crypto.getRandomValues(rnd).length];` : ''}
${after}return out;`;
const tamper = (name, code, usp, after) => add('tamper/' + name, tamperInputs + '\n' + code + '\n' + tamperOps(usp, after), { isolate: true });
tamper('string methods', `for (const k of ['replace', 'replaceAll', 'slice', 'substring', 'indexOf', 'lastIndexOf', 'toLowerCase', 'toUpperCase', 'charCodeAt', 'codePointAt', 'charAt', 'split', 'normalize', 'toWellFormed', 'padStart', 'repeat', 'startsWith', 'trim', 'concat', 'at']) String.prototype[k] = () => { throw new Error('tampered ' + k); };
String.fromCharCode = String.fromCodePoint = () => 'tampered';`, false);
tamper('array methods', `for (const k of ['push', 'pop', 'shift', 'join', 'slice', 'splice', 'sort', 'map', 'forEach', 'indexOf', 'includes', 'concat', 'fill', 'reverse']) Array.prototype[k] = () => { throw new Error('tampered ' + k); };
Array.isArray = () => false; Array.from = () => [];`, false);
tamper('object, function and reflect', `for (const k of ['defineProperty', 'defineProperties', 'keys', 'entries', 'getPrototypeOf', 'setPrototypeOf', 'getOwnPropertyDescriptor', 'getOwnPropertyNames', 'create', 'freeze', 'hasOwn', 'assign']) Object[k] = () => { throw new Error('tampered Object.' + k); };
for (const k of ['apply', 'construct', 'ownKeys', 'get', 'set', 'defineProperty', 'getPrototypeOf']) Reflect[k] = () => { throw new Error('tampered Reflect.' + k); };
Function.prototype.call = Function.prototype.apply = Function.prototype.bind = () => { throw new Error('tampered Function.prototype'); };
Object.prototype.toString = () => '[object Tampered]';`, true);
tamper('global constructors', `for (const k of ['Map', 'Set', 'WeakMap', 'Uint8Array', 'Uint16Array', 'ArrayBuffer', 'DataView', 'RegExp', 'Date', 'Error', 'TypeError', 'RangeError', 'Array', 'Promise', 'Symbol', 'Reflect', 'Math', 'JSON', 'decodeURIComponent', 'encodeURIComponent']) globalThis[k] = function () { throw new Error('tampered ' + k); };`, true);
tamper('iterators, species and collections', `Array.prototype[Symbol.iterator] = function* () { yield 'tampered'; };
Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true });
for (const C of [Uint8Array, ArrayBuffer, Array, Promise, RegExp]) C.prototype.constructor = function () { throw new Error('species'); };
for (const C of [Map, Set, WeakMap]) for (const k of ['get', 'set', 'has', 'add', 'delete', 'forEach']) if (C.prototype[k]) C.prototype[k] = () => { throw new Error('tampered ' + C.name + '.' + k); };
Math.floor = () => 0; Number.prototype.toString = () => 'tampered'; JSON.stringify = () => 'tampered';
RegExp.prototype.exec = () => null; RegExp.prototype[Symbol.replace] = () => 'tampered';
Uint8Array.prototype.set = () => { throw new Error('tampered set'); };`, true);
tamper('indexed setters', `Object.defineProperty(Array.prototype, '0', { set() { throw new Error('setter 0'); }, configurable: true });
Object.defineProperty(Array.prototype, '1', { set() { throw new Error('setter 1'); }, configurable: true });
Object.defineProperty(Object.prototype, 'scheme', { set() { throw new Error('setter scheme'); }, configurable: true });`, false,
// QuickJS's own JSON.stringify (which returns the result) trips the setters.
`delete Array.prototype[0]; delete Array.prototype[1]; delete Object.prototype.scheme;\n`);

// ---------------------------------------------------------------------- record

function evaluate(code) {
  try {
    const v = new Function(code)();
    return v === undefined ? null : JSON.parse(JSON.stringify(v));
  } catch (e) {
    return { throws: String(e && e.name) + ': ' + String(e && e.message) };
  }
}
const out = [];
const names = new Set();
for (const c of cases) {
  if (names.has(c.name)) throw new Error('duplicate case name ' + c.name);
  names.add(c.name);
  let expected;
  if (c.isolate) {
    const script = `const { writeSync } = require('fs'), stringify = JSON.stringify, f = new Function(${q(c.code)});
let r; try { const v = f(); r = v === undefined ? null : v; } catch (e) { r = { throws: String(e && e.name) + ': ' + String(e && e.message) }; }
writeSync(1, stringify(r));`;
    expected = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  } else {
    expected = evaluate(c.code);
  }
  out.push({ name: c.name, code: c.code, ...(c.isolate ? { isolate: true } : {}), expected });
}
const file = path.join(__dirname, 'cases.json');
fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${out.length} cases to ${path.relative(process.cwd(), file)}`);
