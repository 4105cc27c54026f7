#!/usr/bin/env node
// gen.js writes the Intl conformance table the guest is held to: Node 20's
// own output (ICU, CLDR) for the six locales ptc ships data for.
//
//	node testdata/intl/gen.js
//
// It writes, beside itself:
//   - cases.json: [{name, code, expected}], where code is the body of a
//     function returning a string or a JSON-able value; host/intl_test.go
//     runs every body in the guest and compares JSON.stringify of the
//     results.
//   - collation.json: sort orders and pairwise compare results by locale
//     and Collator options, with the options in the compact form
//     host/collate.go reads; host/collate_test.go checks x/text against them.
//
// Runs with TZ=UTC and the en-US default locale (it re-executes itself with
// that environment), as the guest's defaults are. Every date is fixed.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

if (process.env.PTC_INTL_GEN !== '1') {
  const env = { ...process.env, PTC_INTL_GEN: '1', TZ: 'UTC', LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' };
  const r = spawnSync(process.execPath, [__filename, ...process.argv.slice(2)], { env, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const defaults = new Intl.DateTimeFormat().resolvedOptions();
if (defaults.locale !== 'en-US' || defaults.timeZone !== 'UTC') {
  console.error(`gen.js: default locale ${defaults.locale} and time zone ${defaults.timeZone}, want en-US and UTC`);
  process.exit(1);
}
if (!process.versions.node.startsWith('20.')) {
  console.error(`gen.js: Node ${process.versions.node}; the table is Node 20's`);
  process.exit(1);
}

const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP'];

const cases = [];
const names = new Set();

// add records a case: code is a function body; its result is the expected
// value. A body that throws is a bug in this table.
function add(name, code) {
  if (names.has(name)) throw new Error(`duplicate case ${name}`);
  names.add(name);
  let expected;
  try {
    expected = new Function(code)();
  } catch (e) {
    throw new Error(`case ${name} threw ${e}\n${code}`);
  }
  if (expected === undefined) throw new Error(`case ${name} returned undefined`);
  // Round-trip so the table holds exactly what JSON can carry.
  expected = JSON.parse(JSON.stringify(expected));
  cases.push({ name, code, expected });
}

const j = JSON.stringify;
const D = 'new Date(Date.UTC(2024, 2, 10, 6, 30, 5, 123))'; // Sunday 10 March 2024
const D2 = 'new Date(Date.UTC(2024, 11, 25, 18, 5, 0))'; // Wednesday 25 December 2024
const D3 = 'new Date(Date.UTC(1999, 0, 1, 0, 0, 0))';
const BC = 'new Date(Date.UTC(-500, 5, 1, 12, 0, 0))';

// ---- NumberFormat -------------------------------------------------------

const nf = (loc, opts, v) =>
  `return new Intl.NumberFormat(${j(loc)}${opts ? ', ' + j(opts) : ''}).format(${v});`;

for (const loc of LOCALES) {
  add(`nf.decimal.${loc}`, nf(loc, null, '1234567.891'));
  add(`nf.decimal.negative.${loc}`, nf(loc, null, '-0.5'));
  add(`nf.decimal.small.${loc}`, nf(loc, null, '0.000123456'));
  add(`nf.decimal.specials.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}); return [NaN, Infinity, -Infinity, -0, 1e21].map(v => f.format(v));`);
  add(`nf.fraction.${loc}`, nf(loc, { minimumFractionDigits: 2, maximumFractionDigits: 2 }, '1234.5'));
  add(`nf.fraction.max0.${loc}`, nf(loc, { maximumFractionDigits: 0 }, '2.5'));
  add(`nf.significant.${loc}`, nf(loc, { maximumSignificantDigits: 3 }, '123456.789'));
  add(`nf.significant.min.${loc}`, nf(loc, { minimumSignificantDigits: 5 }, '1.5'));
  add(`nf.integerDigits.${loc}`, nf(loc, { minimumIntegerDigits: 4 }, '42'));
  add(`nf.grouping.off.${loc}`, nf(loc, { useGrouping: false }, '1234567.5'));
  add(`nf.grouping.min2.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {useGrouping: 'min2'}); return [1234, 12345].map(v => f.format(v));`);
  add(`nf.percent.${loc}`, nf(loc, { style: 'percent' }, '0.256'));
  add(`nf.percent.fraction.${loc}`, nf(loc, { style: 'percent', minimumFractionDigits: 1 }, '-0.0123'));
  for (const cur of ['USD', 'EUR', 'JPY', 'GBP']) {
    add(`nf.currency.${cur}.${loc}`, nf(loc, { style: 'currency', currency: cur }, '1234.567'));
  }
  add(`nf.currency.USD.negative.${loc}`, nf(loc, { style: 'currency', currency: 'USD' }, '-42.5'));
  add(`nf.currency.EUR.code.${loc}`, nf(loc, { style: 'currency', currency: 'EUR', currencyDisplay: 'code' }, '1234.5'));
  add(`nf.currency.EUR.name.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {style: 'currency', currency: 'EUR', currencyDisplay: 'name'}); return [1, 2.5, 1000].map(v => f.format(v));`);
  add(`nf.currency.USD.narrow.${loc}`, nf(loc, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' }, '99.99'));
  add(`nf.currency.accounting.${loc}`, nf(loc, { style: 'currency', currency: 'EUR', currencySign: 'accounting' }, '-3.5'));
  add(`nf.compact.short.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {notation: 'compact'}); return [999, 1234, 56789, 1234567, 2.5e9, 7e12].map(v => f.format(v));`);
  add(`nf.compact.long.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {notation: 'compact', compactDisplay: 'long'}); return [1234, 56789, 1234567, 2.5e9].map(v => f.format(v));`);
  add(`nf.compact.currency.${loc}`, nf(loc, { notation: 'compact', style: 'currency', currency: 'USD' }, '1234567'));
  add(`nf.scientific.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {notation: 'scientific'}); return [123456, 0.00042, -5].map(v => f.format(v));`);
  add(`nf.engineering.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {notation: 'engineering'}); return [123456, 0.00042].map(v => f.format(v));`);
  add(`nf.unit.speed.${loc}`, `return ['short', 'long', 'narrow'].map(d => new Intl.NumberFormat(${j(loc)}, {style: 'unit', unit: 'kilometer-per-hour', unitDisplay: d}).format(50));`);
  add(`nf.unit.celsius.${loc}`, `return ['short', 'long'].map(d => new Intl.NumberFormat(${j(loc)}, {style: 'unit', unit: 'celsius', unitDisplay: d}).format(21.5));`);
  add(`nf.unit.liter.${loc}`, `return [1, 3].map(v => new Intl.NumberFormat(${j(loc)}, {style: 'unit', unit: 'liter', unitDisplay: 'long'}).format(v));`);
  add(`nf.unit.megabyte.${loc}`, nf(loc, { style: 'unit', unit: 'megabyte' }, '512'));
  add(`nf.unit.percent.${loc}`, nf(loc, { style: 'unit', unit: 'percent' }, '45'));
  add(`nf.signDisplay.${loc}`, `return ['auto', 'always', 'exceptZero', 'never', 'negative'].map(s => { const f = new Intl.NumberFormat(${j(loc)}, {signDisplay: s}); return [-1.5, 0, -0, 2].map(v => f.format(v)).join(' | '); });`);
  add(`nf.formatToParts.currency.${loc}`, `return new Intl.NumberFormat(${j(loc)}, {style: 'currency', currency: 'EUR'}).formatToParts(-1234567.891);`);
  add(`nf.formatToParts.percent.${loc}`, `return new Intl.NumberFormat(${j(loc)}, {style: 'percent', signDisplay: 'always'}).formatToParts(0.5);`);
  add(`nf.toLocaleString.${loc}`, `return (1234567.891).toLocaleString(${j(loc)});`);
  add(`nf.toLocaleString.currency.${loc}`, `return (-9876.5).toLocaleString(${j(loc)}, {style: 'currency', currency: 'JPY'});`);
  add(`nf.bigint.${loc}`, `return (123456789012345678901234567890n).toLocaleString(${j(loc)});`);
  add(`nf.bigint.format.${loc}`, `return new Intl.NumberFormat(${j(loc)}, {style: 'currency', currency: 'USD'}).format(-12345678901234567890n);`);
  add(`nf.resolvedOptions.${loc}`, `return new Intl.NumberFormat(${j(loc)}).resolvedOptions();`);
  add(`nf.resolvedOptions.currency.${loc}`, `return new Intl.NumberFormat(${j(loc)}, {style: 'currency', currency: 'JPY'}).resolvedOptions();`);
  add(`nf.formatRange.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {style: 'currency', currency: 'EUR', maximumFractionDigits: 0}); return [f.formatRange(3, 5), f.formatRange(2.9, 3.1)];`);
}

// Locale-independent NumberFormat behaviour, en-US.
add('nf.rounding.halfExpand', `return [0.125, 0.135, 1.005, 2.5, -2.5].map(v => new Intl.NumberFormat('en-US', {maximumFractionDigits: 2}).format(v));`);
add('nf.rounding.modes', `return ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand', 'halfTrunc', 'halfEven'].map(m => new Intl.NumberFormat('en-US', {maximumFractionDigits: 0, roundingMode: m}).format(-2.5) + '/' + new Intl.NumberFormat('en-US', {maximumFractionDigits: 0, roundingMode: m}).format(3.5));`);
add('nf.rounding.increment', `return new Intl.NumberFormat('en-US', {maximumFractionDigits: 2, minimumFractionDigits: 2, roundingIncrement: 5}).format(1.234);`);
add('nf.rounding.priority', `return ['auto', 'morePrecision', 'lessPrecision'].map(p => new Intl.NumberFormat('en-US', {maximumFractionDigits: 2, maximumSignificantDigits: 2, roundingPriority: p}).format(1.2345));`);
add('nf.trailingZeroDisplay', `return ['auto', 'stripIfInteger'].map(t => new Intl.NumberFormat('en-US', {minimumFractionDigits: 2, trailingZeroDisplay: t}).format(5));`);
add('nf.default.locale', `return new Intl.NumberFormat().format(1234.5);`);
add('nf.default.toLocaleString', `return (1234.5).toLocaleString();`);
add('nf.default.resolvedLocale', `return new Intl.NumberFormat().resolvedOptions().locale;`);
add('nf.fallback.unknownLocale', `return new Intl.NumberFormat('zz-ZZ').resolvedOptions().locale;`);
add('nf.currency.lowercaseCode', `return new Intl.NumberFormat('en-US', {style: 'currency', currency: 'eur'}).format(1);`);
add('nf.currency.missing.throws', `try { new Intl.NumberFormat('en-US', {style: 'currency'}); return 'no error'; } catch (e) { return e.name; }`);
add('nf.unit.invalid.throws', `try { new Intl.NumberFormat('en-US', {style: 'unit', unit: 'parsec'}); return 'no error'; } catch (e) { return e.name; }`);
add('nf.string.input', `return new Intl.NumberFormat('en-US', {maximumFractionDigits: 20}).format('12345678901234567890.125');`);
add('nf.bigint.compact', `return new Intl.NumberFormat('en-US', {notation: 'compact'}).format(12345678901234567890n);`);
add('nf.unit.compound', `return new Intl.NumberFormat('en-US', {style: 'unit', unit: 'mile-per-gallon', unitDisplay: 'long'}).format(30);`);
add('nf.unit.digital', `return ['bit', 'byte', 'kilobyte', 'gigabyte', 'terabyte', 'petabyte'].map(u => new Intl.NumberFormat('en-US', {style: 'unit', unit: u}).format(8));`);
add('nf.unit.duration', `return ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'year'].map(u => new Intl.NumberFormat('de-DE', {style: 'unit', unit: u, unitDisplay: 'long'}).format(2));`);
add('nf.unit.length.ja', `return ['centimeter', 'meter', 'kilometer', 'inch', 'foot', 'mile'].map(u => new Intl.NumberFormat('ja-JP', {style: 'unit', unit: u}).format(3));`);
add('nf.numberingSystem.arab', `return new Intl.NumberFormat('en-US-u-nu-arab').format(1234.5);`);
add('nf.numberingSystem.option', `return new Intl.NumberFormat('en-US', {numberingSystem: 'fullwide'}).format(1234.5);`);
add('nf.supportedLocalesOf', `return Intl.NumberFormat.supportedLocalesOf(['de-DE', 'fr-FR', 'ja-JP', 'en-GB']);`);
add('nf.formatToParts.compact', `return new Intl.NumberFormat('de-DE', {notation: 'compact', compactDisplay: 'long'}).formatToParts(1234567);`);
add('nf.formatToParts.scientific', `return new Intl.NumberFormat('fr-FR', {notation: 'scientific'}).formatToParts(-123456);`);
add('nf.formatToParts.unit', `return new Intl.NumberFormat('ja-JP', {style: 'unit', unit: 'kilometer-per-hour', unitDisplay: 'long'}).formatToParts(88);`);
add('nf.formatToParts.nan', `return new Intl.NumberFormat('de-DE').formatToParts(NaN);`);
add('nf.formatRangeToParts', `return new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).formatRangeToParts(3, 5);`);
add('nf.formatRange.approx', `return new Intl.NumberFormat('en-US', {maximumFractionDigits: 0}).formatRange(2.9, 3.1);`);

// Many values per formatter, to hold the guest's fast path for Numbers
// (guest/quickjs/intl/entry.js, roundDecimal) to ICU's rounding.
let seed = 20240310;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const BULK = [0, 0.5, 1.005, 2.5, -2.5, 0.125, 1e21, 1.5e-7, 123456789.987654321, -0.0049, 0.0005, 999.9995, 9.995, 99999.5, 1e15 + 0.3, 5e-324];
for (let i = 0; i < 44; i++) {
  const e = Math.floor(rnd() * 14) - 5;
  BULK.push(Number(((rnd() - 0.3) * Math.pow(10, e)).toPrecision(1 + Math.floor(rnd() * 12))));
}
const BULK_OPTIONS = [
  {}, { style: 'percent', maximumFractionDigits: 2 }, { style: 'currency', currency: 'EUR' },
  { style: 'currency', currency: 'JPY', currencySign: 'accounting' }, { maximumFractionDigits: 0, signDisplay: 'exceptZero' },
  { minimumFractionDigits: 2, maximumFractionDigits: 5, useGrouping: 'always' }, { minimumIntegerDigits: 3, useGrouping: false },
  { style: 'currency', currency: 'USD', currencyDisplay: 'code', signDisplay: 'always' },
];
for (const loc of LOCALES) {
  BULK_OPTIONS.forEach((o, i) => {
    add(`nf.bulk.${loc}.${i}`, `const f = new Intl.NumberFormat(${j(loc)}, ${j(o)}); return [-0, ...${j(BULK)}].map(v => f.format(v));`);
  });
  add(`nf.bulk.parts.${loc}`, `const f = new Intl.NumberFormat(${j(loc)}, {style: 'currency', currency: 'GBP'}); return [-0, ...${j(BULK.slice(0, 20))}].map(v => f.formatToParts(v));`);
  for (const type of ['cardinal', 'ordinal']) {
    const vals = [0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 23, 101, 111, 1000000, 1500000, 0.5, 1.5, 2.0004];
    add(`pr.bulk.${type}.${loc}`, `const p = new Intl.PluralRules(${j(loc)}, {type: ${j(type)}}); const q = new Intl.PluralRules(${j(loc)}, {type: ${j(type)}, minimumFractionDigits: 1}); return [-0, ...${j(vals.concat(BULK.filter((v) => Math.abs(v) < 1e20)))}].map(v => p.select(v) + '/' + q.select(v));`);
  }
}

// ---- DateTimeFormat -----------------------------------------------------

const dtf = (loc, opts, d) => `return new Intl.DateTimeFormat(${j(loc)}${opts ? ', ' + j(opts) : ''}).format(${d});`;

for (const loc of LOCALES) {
  add(`dtf.default.${loc}`, dtf(loc, null, D));
  for (const s of ['full', 'long', 'medium', 'short']) {
    add(`dtf.dateStyle.${s}.${loc}`, dtf(loc, { dateStyle: s }, D));
    add(`dtf.timeStyle.${s}.${loc}`, dtf(loc, { timeStyle: s }, D));
  }
  add(`dtf.dateTimeStyle.full.short.${loc}`, dtf(loc, { dateStyle: 'full', timeStyle: 'short' }, D2));
  add(`dtf.dateTimeStyle.long.medium.${loc}`, dtf(loc, { dateStyle: 'long', timeStyle: 'medium' }, D2));
  add(`dtf.dateTimeStyle.medium.medium.${loc}`, dtf(loc, { dateStyle: 'medium', timeStyle: 'medium' }, D2));
  add(`dtf.dateTimeStyle.short.short.${loc}`, dtf(loc, { dateStyle: 'short', timeStyle: 'short' }, D2));
  add(`dtf.components.numeric.${loc}`, dtf(loc, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }, D2));
  add(`dtf.components.long.${loc}`, dtf(loc, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }, D2));
  add(`dtf.components.short.${loc}`, dtf(loc, { weekday: 'short', month: 'short', day: 'numeric' }, D2));
  add(`dtf.month.names.${loc}`, `const f = new Intl.DateTimeFormat(${j(loc)}, {month: 'long'}); return [0, 4, 8, 11].map(m => f.format(new Date(Date.UTC(2024, m, 15))));`);
  add(`dtf.month.short.${loc}`, `const f = new Intl.DateTimeFormat(${j(loc)}, {month: 'short'}); return [1, 5, 9].map(m => f.format(new Date(Date.UTC(2024, m, 15))));`);
  add(`dtf.weekday.${loc}`, `return ['long', 'short', 'narrow'].map(w => new Intl.DateTimeFormat(${j(loc)}, {weekday: w}).format(${D2}));`);
  add(`dtf.era.${loc}`, `return [${D}, ${BC}].map(d => new Intl.DateTimeFormat(${j(loc)}, {era: 'long', year: 'numeric'}).format(d));`);
  add(`dtf.era.short.${loc}`, dtf(loc, { era: 'short', year: 'numeric', month: 'short', day: 'numeric' }, D3));
  add(`dtf.hour12.true.${loc}`, dtf(loc, { hour: 'numeric', minute: '2-digit', hour12: true }, D2));
  add(`dtf.hour12.false.${loc}`, dtf(loc, { hour: 'numeric', minute: '2-digit', hour12: false }, D2));
  add(`dtf.hourCycle.h23.midnight.${loc}`, dtf(loc, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, D3));
  add(`dtf.tz.NewYork.${loc}`, dtf(loc, { dateStyle: 'medium', timeStyle: 'long', timeZone: 'America/New_York' }, D2));
  add(`dtf.tz.Tokyo.${loc}`, dtf(loc, { dateStyle: 'short', timeStyle: 'full', timeZone: 'Asia/Tokyo' }, D2));
  add(`dtf.tz.Berlin.long.${loc}`, dtf(loc, { hour: 'numeric', minute: 'numeric', timeZoneName: 'long', timeZone: 'Europe/Berlin' }, D));
  add(`dtf.tz.Sydney.short.${loc}`, dtf(loc, { hour: 'numeric', minute: 'numeric', timeZoneName: 'short', timeZone: 'Australia/Sydney' }, D));
  add(`dtf.tz.shortOffset.${loc}`, dtf(loc, { hour: 'numeric', timeZoneName: 'shortOffset', timeZone: 'Asia/Kolkata' }, D));
  add(`dtf.formatToParts.${loc}`, `return new Intl.DateTimeFormat(${j(loc)}, {dateStyle: 'full', timeStyle: 'long', timeZone: 'Europe/Berlin'}).formatToParts(${D2});`);
  add(`dtf.formatRange.days.${loc}`, `return new Intl.DateTimeFormat(${j(loc)}, {dateStyle: 'medium'}).formatRange(${D}, new Date(Date.UTC(2024, 2, 14)));`);
  add(`dtf.formatRange.months.${loc}`, `return new Intl.DateTimeFormat(${j(loc)}, {year: 'numeric', month: 'long', day: 'numeric'}).formatRange(${D}, ${D2});`);
  add(`dtf.formatRange.hours.${loc}`, `return new Intl.DateTimeFormat(${j(loc)}, {hour: 'numeric', minute: 'numeric'}).formatRange(${D}, new Date(Date.UTC(2024, 2, 10, 9, 45)));`);
  add(`dtf.resolvedOptions.${loc}`, `return new Intl.DateTimeFormat(${j(loc)}).resolvedOptions();`);
  add(`dtf.resolvedOptions.styles.${loc}`, `return new Intl.DateTimeFormat(${j(loc)}, {dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Tokyo'}).resolvedOptions();`);
  add(`date.toLocaleString.${loc}`, `return ${D2}.toLocaleString(${j(loc)});`);
  add(`date.toLocaleDateString.${loc}`, `return ${D2}.toLocaleDateString(${j(loc)});`);
  add(`date.toLocaleTimeString.${loc}`, `return ${D2}.toLocaleTimeString(${j(loc)});`);
  add(`date.toLocaleDateString.options.${loc}`, `return ${D2}.toLocaleDateString(${j(loc)}, {weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'Australia/Sydney'});`);
  add(`date.toLocaleTimeString.options.${loc}`, `return ${D2}.toLocaleTimeString(${j(loc)}, {hour: '2-digit', minute: '2-digit', timeZone: 'America/New_York', timeZoneName: 'short'});`);
  add(`date.toLocaleString.tz.${loc}`, `return ${D}.toLocaleString(${j(loc)}, {timeZone: 'Asia/Tokyo'});`);
}

// Time zones and daylight-saving edges, en-US unless said.
const tzEdge = (name, tz, instants, loc = 'en-US') =>
  add(`dtf.dst.${name}`, `const f = new Intl.DateTimeFormat(${j(loc)}, {year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: ${j(tz)}}); return [${instants.join(', ')}].map(ms => f.format(new Date(ms)));`);
tzEdge('NewYork.spring', 'America/New_York', ['Date.UTC(2024, 2, 10, 6, 59)', 'Date.UTC(2024, 2, 10, 7, 0)', 'Date.UTC(2024, 2, 10, 7, 1)']);
tzEdge('NewYork.fall', 'America/New_York', ['Date.UTC(2024, 10, 3, 5, 30)', 'Date.UTC(2024, 10, 3, 6, 30)']);
tzEdge('Berlin.spring', 'Europe/Berlin', ['Date.UTC(2024, 2, 31, 0, 59)', 'Date.UTC(2024, 2, 31, 1, 0)'], 'de-DE');
tzEdge('Berlin.fall', 'Europe/Berlin', ['Date.UTC(2024, 9, 27, 0, 30)', 'Date.UTC(2024, 9, 27, 1, 30)'], 'de-DE');
tzEdge('Sydney.autumn', 'Australia/Sydney', ['Date.UTC(2024, 3, 6, 15, 59)', 'Date.UTC(2024, 3, 6, 16, 0)'], 'en-GB');
tzEdge('Sydney.spring', 'Australia/Sydney', ['Date.UTC(2024, 9, 5, 15, 59)', 'Date.UTC(2024, 9, 5, 16, 0)'], 'en-GB');
tzEdge('Tokyo', 'Asia/Tokyo', ['Date.UTC(2024, 0, 1, 0, 0)'], 'ja-JP');
tzEdge('historic.NewYork1970', 'America/New_York', ['Date.UTC(1970, 6, 1, 12, 0)']);
tzEdge('Kolkata', 'Asia/Kolkata', ['Date.UTC(2024, 5, 1, 12, 0)']);
tzEdge('Kathmandu', 'Asia/Kathmandu', ['Date.UTC(2024, 5, 1, 12, 0)']);
tzEdge('LordHowe', 'Australia/Lord_Howe', ['Date.UTC(2024, 0, 1, 12, 0)', 'Date.UTC(2024, 6, 1, 12, 0)']);
add('dtf.tzName.long.NewYork', `return ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP'].map(l => new Intl.DateTimeFormat(l, {timeZoneName: 'long', timeZone: 'America/New_York'}).format(${D2}));`);
add('dtf.tzName.short.Berlin', `return ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP'].map(l => new Intl.DateTimeFormat(l, {timeZoneName: 'short', timeZone: 'Europe/Berlin'}).format(${D}));`);
add('dtf.tzName.longOffset', `return new Intl.DateTimeFormat('en-US', {timeZoneName: 'longOffset', timeZone: 'America/New_York'}).format(${D2});`);
add('dtf.timeZone.names', `return ['Africa/Asmara', 'Asia/Kolkata', 'asia/calcutta', 'America/Argentina/Buenos_Aires', 'Europe/Kyiv', 'UTC', 'Etc/UTC', 'etc/gmt', 'GMT', 'Etc/GMT0', 'Zulu', 'Etc/GMT+5', 'US/Pacific', 'Africa/Accra', 'Asia/Ho_Chi_Minh', 'America/Indiana/Indianapolis', 'Antarctica/South_Pole', 'Asia/Chongqing', 'EST5EDT', 'Factory', 'Etc/Unknown', '+05:00', '-0800', 'GMT+5', 'Mars/Olympus', ''].map(z => { try { return z + ' ' + new Intl.DateTimeFormat('en', {timeZone: z}).resolvedOptions().timeZone; } catch (e) { return z + ' ' + e.name + ': ' + e.message; } });`);
add('dtf.timeZone.every', `const f = (z) => new Intl.DateTimeFormat('en-US', {timeZone: z, hour: 'numeric', minute: 'numeric', hourCycle: 'h23'}); return Intl.supportedValuesOf('timeZone').map(z => z + ' ' + f(z).format(Date.UTC(2024, 0, 15, 12)) + ' ' + f(z).format(Date.UTC(2024, 6, 15, 12)));`);
add('dtf.timeZone.toLocaleString', `return [new Date(Date.UTC(2024, 0, 15, 12)).toLocaleString('en-US', {timeZone: 'GMT'}), new Date(Date.UTC(2024, 0, 15, 12)).toLocaleTimeString('en-GB', {timeZone: 'Asia/Kolkata', timeZoneName: 'short'})];`);
add('dtf.weekday.standAlone', `return ['fi', 'de', 'de-AT', 'lv', 'tk', 'os', 'cy', 'fo', 'ml', 'km', 'nn', 'xh', 'mn', 'yo', 'lb', 'smn', 'az', 'es-PY'].map(l => [l, ...[{weekday: 'long'}, {weekday: 'short'}, {weekday: 'narrow'}, {weekday: 'short', day: 'numeric', month: 'numeric'}, {weekday: 'long', day: 'numeric', month: 'long', year: 'numeric'}, {dateStyle: 'full'}].map(o => new Intl.DateTimeFormat(l, {...o, timeZone: 'UTC'}).format(${D})), new Intl.DateTimeFormat(l, {weekday: 'long', timeZone: 'UTC'}).formatRange(${D}, ${D}.getTime() + 2 * 864e5)].join(' | '));`);
add('dtf.tzName.generic', `return ['shortGeneric', 'longGeneric'].map(n => new Intl.DateTimeFormat('en-US', {timeZoneName: n, timeZone: 'America/Los_Angeles'}).format(${D2}));`);
add('dtf.tz.UTC.names', `return ['short', 'long'].map(n => new Intl.DateTimeFormat('en-US', {timeZoneName: n, timeZone: 'UTC'}).format(${D2}));`);
add('dtf.tz.alias', `return new Intl.DateTimeFormat('en-US', {timeZone: 'US/Pacific'}).resolvedOptions().timeZone;`);
add('dtf.tz.caseInsensitive', `return new Intl.DateTimeFormat('en-US', {timeZone: 'europe/berlin'}).resolvedOptions().timeZone;`);
add('dtf.tz.offset', `return new Intl.DateTimeFormat('en-US', {timeZone: 'Etc/GMT-3', timeStyle: 'long'}).format(${D2});`);
add('dtf.tz.invalid.throws', `try { new Intl.DateTimeFormat('en-US', {timeZone: 'Mars/Olympus'}); return 'no error'; } catch (e) { return e.name; }`);
add('dtf.default', `return new Intl.DateTimeFormat().format(${D2});`);
add('dtf.default.resolved', `const o = new Intl.DateTimeFormat().resolvedOptions(); return [o.locale, o.timeZone, o.calendar, o.numberingSystem];`);
add('dtf.default.toLocaleString', `return ${D2}.toLocaleString();`);
add('dtf.default.toLocaleDateString', `return ${D2}.toLocaleDateString();`);
add('dtf.default.toLocaleTimeString', `return ${D2}.toLocaleTimeString();`);
add('dtf.invalidDate.throws', `try { new Intl.DateTimeFormat('en-US').format(new Date(NaN)); return 'no error'; } catch (e) { return e.name; }`);
add('dtf.invalidDate.toLocaleString', `return new Date(NaN).toLocaleString('en-US');`);
add('dtf.number.input', `return new Intl.DateTimeFormat('en-US', {dateStyle: 'medium'}).format(0);`);
add('dtf.fractionalSecondDigits', `return [1, 2, 3].map(n => new Intl.DateTimeFormat('en-US', {minute: '2-digit', second: '2-digit', fractionalSecondDigits: n}).format(${D}));`);
add('dtf.dayPeriod', `return ['narrow', 'short', 'long'].map(p => new Intl.DateTimeFormat('en-US', {hour: 'numeric', dayPeriod: p}).format(${D2}));`);
add('dtf.hourCycle.h11', `return new Intl.DateTimeFormat('ja-JP', {hour: 'numeric', minute: 'numeric', hourCycle: 'h11'}).format(${D3});`);
add('dtf.hourCycle.h24', `return new Intl.DateTimeFormat('en-GB', {hour: 'numeric', minute: 'numeric', hourCycle: 'h24'}).format(${D3});`);
add('dtf.hour12.resolved', `return ['en-US', 'en-GB', 'de-DE', 'ja-JP'].map(l => new Intl.DateTimeFormat(l, {hour: 'numeric'}).resolvedOptions().hourCycle);`);
add('dtf.extension.hc', `return new Intl.DateTimeFormat('en-US-u-hc-h23', {timeStyle: 'short'}).format(${D2});`);
add('dtf.2digit.year', `return new Intl.DateTimeFormat('en-US', {year: '2-digit', month: 'narrow'}).format(${D3});`);
add('dtf.month.narrow', `return ['en-US', 'de-DE', 'ja-JP'].map(l => new Intl.DateTimeFormat(l, {month: 'narrow'}).format(${D2}));`);
add('dtf.ja.calendar', `return new Intl.DateTimeFormat('ja-JP-u-ca-japanese', {era: 'long', year: 'numeric', month: 'long', day: 'numeric'}).format(${D2});`);
add('dtf.formatToParts.dayPeriod', `return new Intl.DateTimeFormat('en-US', {hour: 'numeric', minute: 'numeric', second: 'numeric', fractionalSecondDigits: 3}).formatToParts(${D});`);
add('dtf.formatRange.same', `return new Intl.DateTimeFormat('en-US', {dateStyle: 'long'}).formatRange(${D}, ${D});`);
add('dtf.formatRange.years', `return new Intl.DateTimeFormat('de-DE', {dateStyle: 'long'}).formatRange(${D3}, ${D2});`);
add('dtf.formatRangeToParts', `return new Intl.DateTimeFormat('en-US', {month: 'short', day: 'numeric'}).formatRangeToParts(${D}, new Date(Date.UTC(2024, 2, 14)));`);
add('dtf.supportedLocalesOf', `return Intl.DateTimeFormat.supportedLocalesOf(['ja-JP', 'es-ES', 'en-US']);`);
add('dtf.toLocaleDateString.dateStyle', `return ['full', 'long', 'medium', 'short'].map(s => ${D2}.toLocaleDateString('en-US', {dateStyle: s}));`);
add('dtf.toLocaleTimeString.hour12', `return [${D2}.toLocaleTimeString('en-US', {hour12: false}), ${D2}.toLocaleTimeString('de-DE', {hour12: true})];`);
add('dtf.toLocaleString.components', `return ${D2}.toLocaleString('en-US', {month: 'long'});`);
add('dtf.toLocaleTimeString.components', `return ${D2}.toLocaleTimeString('en-US', {hour: 'numeric'});`);
add('dtf.toLocaleDateString.components', `return ${D2}.toLocaleDateString('en-US', {year: 'numeric'});`);
add('dtf.leapDay', `return new Intl.DateTimeFormat('en-GB', {dateStyle: 'full'}).format(new Date(Date.UTC(2024, 1, 29)));`);
add('dtf.year.far', `return [Date.UTC(1, 0, 1), Date.UTC(9999, 11, 31), Date.UTC(275760, 8, 13)].map(ms => new Intl.DateTimeFormat('en-US', {dateStyle: 'medium', timeZone: 'UTC'}).format(new Date(ms)));`);

// ---- PluralRules --------------------------------------------------------

const pluralNums = [0, 1, 2, 3, 4, 5, 11, 21, 22, 23, 101, 1.5, 0.5, 1000000];
for (const loc of LOCALES) {
  add(`pr.cardinal.${loc}`, `const p = new Intl.PluralRules(${j(loc)}); return ${j(pluralNums)}.map(n => n + ':' + p.select(n));`);
  add(`pr.ordinal.${loc}`, `const p = new Intl.PluralRules(${j(loc)}, {type: 'ordinal'}); return ${j(pluralNums)}.map(n => n + ':' + p.select(n));`);
  add(`pr.resolvedOptions.${loc}`, `return new Intl.PluralRules(${j(loc)}).resolvedOptions();`);
  add(`pr.fraction.${loc}`, `const p = new Intl.PluralRules(${j(loc)}, {minimumFractionDigits: 1}); return [1, 2, 0].map(n => p.select(n));`);
}
add('pr.ordinal.suffix.en', `const p = new Intl.PluralRules('en-US', {type: 'ordinal'}); const s = {one: 'st', two: 'nd', few: 'rd', other: 'th'}; return [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(n => n + s[p.select(n)]);`);
add('pr.ordinal.resolvedOptions', `return new Intl.PluralRules('en-GB', {type: 'ordinal'}).resolvedOptions();`);
add('pr.fr.compact', `return [1e6, 1.5e6].map(n => new Intl.PluralRules('fr-FR').select(n));`);
add('pr.default', `return new Intl.PluralRules().resolvedOptions().locale;`);
add('pr.supportedLocalesOf', `return Intl.PluralRules.supportedLocalesOf(['fr-FR', 'de-DE']);`);
add('pr.locale.ownRules', `return ['pt-AO', 'pt-PT-u-nu-latn', 'kok-Latn-IN', 'en-GB', 'sr-Latn', 'zz'].map(l => { const p = new Intl.PluralRules(l); return p.resolvedOptions().locale + ' ' + p.select(0); });`);
add('pr.selectRange', `return new Intl.PluralRules('en-US').selectRange(1, 2);`);

// ---- RelativeTimeFormat -------------------------------------------------

for (const loc of LOCALES) {
  add(`rtf.always.${loc}`, `const f = new Intl.RelativeTimeFormat(${j(loc)}); return [[-1, 'day'], [0, 'day'], [1, 'day'], [2, 'week'], [-3, 'month'], [1, 'year'], [-5, 'minute'], [10, 'second'], [1, 'quarter'], [-2, 'hour']].map(([v, u]) => f.format(v, u));`);
  add(`rtf.auto.${loc}`, `const f = new Intl.RelativeTimeFormat(${j(loc)}, {numeric: 'auto'}); return [[-2, 'day'], [-1, 'day'], [0, 'day'], [1, 'day'], [2, 'day'], [-1, 'week'], [0, 'month'], [1, 'year'], [0, 'second'], [-1, 'quarter']].map(([v, u]) => f.format(v, u));`);
  add(`rtf.short.${loc}`, `const f = new Intl.RelativeTimeFormat(${j(loc)}, {style: 'short'}); return [[-3, 'month'], [2, 'hour'], [-1, 'year']].map(([v, u]) => f.format(v, u));`);
  add(`rtf.narrow.${loc}`, `const f = new Intl.RelativeTimeFormat(${j(loc)}, {style: 'narrow'}); return [[-3, 'month'], [2, 'hour'], [5, 'days']].map(([v, u]) => f.format(v, u));`);
  add(`rtf.formatToParts.${loc}`, `return new Intl.RelativeTimeFormat(${j(loc)}).formatToParts(-1234.5, 'day');`);
  add(`rtf.resolvedOptions.${loc}`, `return new Intl.RelativeTimeFormat(${j(loc)}, {numeric: 'auto', style: 'short'}).resolvedOptions();`);
}
add('rtf.default', `return new Intl.RelativeTimeFormat().format(3, 'days');`);
add('rtf.plural.units', `return ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'quarters', 'years'].map(u => new Intl.RelativeTimeFormat('en-US').format(-1, u));`);
add('rtf.negativeZero', `return [new Intl.RelativeTimeFormat('en-US').format(-0, 'day'), new Intl.RelativeTimeFormat('en-US', {numeric: 'auto'}).format(-0, 'day')];`);
add('rtf.fraction', `return new Intl.RelativeTimeFormat('de-DE').format(1.5, 'hour');`);
add('rtf.invalidUnit.throws', `try { new Intl.RelativeTimeFormat('en-US').format(1, 'fortnight'); return 'no error'; } catch (e) { return e.name; }`);
add('rtf.supportedLocalesOf', `return Intl.RelativeTimeFormat.supportedLocalesOf(['es-ES', 'ja-JP']);`);

// ---- ListFormat ---------------------------------------------------------

for (const loc of LOCALES) {
  for (const type of ['conjunction', 'disjunction', 'unit']) {
    add(`lf.${type}.${loc}`, `return ['long', 'short', 'narrow'].map(style => new Intl.ListFormat(${j(loc)}, {type: ${j(type)}, style}).format(['A', 'B', 'C']));`);
  }
  add(`lf.lengths.${loc}`, `const f = new Intl.ListFormat(${j(loc)}); return [[], ['x'], ['x', 'y'], ['x', 'y', 'z', 'w']].map(l => f.format(l));`);
  add(`lf.formatToParts.${loc}`, `return new Intl.ListFormat(${j(loc)}, {type: 'disjunction'}).formatToParts(['rot', 'grün', 'blau']);`);
  add(`lf.resolvedOptions.${loc}`, `return new Intl.ListFormat(${j(loc)}, {type: 'unit', style: 'narrow'}).resolvedOptions();`);
}
add('lf.default', `return new Intl.ListFormat().format(['a', 'b', 'c']);`);
add('lf.es.y.e', `return [new Intl.ListFormat('es-ES').format(['agua', 'hielo']), new Intl.ListFormat('es-ES', {type: 'disjunction'}).format(['siete', 'ocho'])];`);
add('lf.he.vav', `return ['long', 'short', 'narrow'].flatMap(style => ['conjunction', 'disjunction', 'unit'].map(type => { const lf = new Intl.ListFormat('he', {style, type}); return [lf.format(['A', 'B']), lf.format(['\u05d0', '\u05d1', '1']), lf.format(['x', '', '\u05d0']), JSON.stringify(lf.formatToParts(['a', 'b']))].join(' | '); }));`);
add('lf.iterable', `return new Intl.ListFormat('en-GB').format(new Set(['x', 'y', 'z']));`);
add('lf.nonString.throws', `try { new Intl.ListFormat('en-US').format([1, 2]); return 'no error'; } catch (e) { return e.name; }`);
add('lf.supportedLocalesOf', `return Intl.ListFormat.supportedLocalesOf(['fr-FR', 'en-GB']);`);

// ---- Collator and localeCompare ------------------------------------------
// Names start with "collate." so host/intl_test.go can tell them apart.

const WORDS = {
  common: ['résumé', 'resume', 'Resume', 'RESUME', 'résume', 'apple', 'Apple', 'banana', 'Zebra', 'zebra', 'éclair', 'eclair', 'a', 'A', 'á', 'b', 'B', 'item 2', 'item-1', 'item10', 'item2', '_x', 'x', '1', '10', '2'],
  de: ['Äpfel', 'Apfel', 'Ärger', 'Arger', 'Öl', 'Ol', 'Zucker', 'Übel', 'Ubel', 'ß', 'ss', 'Straße', 'Strasse', 'strasse', 'Müller', 'Mueller', 'Muller'],
  fr: ['cote', 'côte', 'coté', 'côté', 'Cote', 'élève', 'eleve', 'Élève', 'ça', 'ca', 'cz', 'œuf', 'oeuf', 'naïve', 'naive'],
  es: ['ñandú', 'nandu', 'Ñu', 'nube', 'llama', 'luz', 'lz', 'chico', 'cz', 'cuna', 'árbol', 'arbol', 'zeta', 'ánimo'],
  ja: ['あ', 'ア', 'か', 'カ', 'が', 'ガ', 'ｱ', 'ｶ', 'さ', '漢字', '日本', '東京', 'abc', 'ABC', '１２', '12', 'ー', 'ぁ'],
};
const wordsFor = (loc) => [...WORDS.common, ...(WORDS[loc.slice(0, 2)] || [])];

// The compact options string host/collate.go reads (entry.js builds it the
// same way): the sensitivity's first letter, then n (numeric), U or L
// (caseFirst upper or lower), p (ignorePunctuation), s (usage search).
function compact(o) {
  let s = (o.sensitivity || 'variant')[0];
  if (o.numeric) s += 'n';
  if (o.caseFirst === 'upper') s += 'U';
  if (o.caseFirst === 'lower') s += 'L';
  if (o.ignorePunctuation) s += 'p';
  if (o.usage === 'search') s += 's';
  return s;
}

const COLLATOR_OPTIONS = [
  {},
  { sensitivity: 'base' },
  { sensitivity: 'accent' },
  { sensitivity: 'case' },
  { numeric: true },
  { caseFirst: 'upper' },
  { caseFirst: 'lower' },
  { ignorePunctuation: true },
  { usage: 'search', sensitivity: 'base' },
];

for (const loc of LOCALES) {
  for (const o of COLLATOR_OPTIONS) {
    const tag = Object.keys(o).length ? Object.entries(o).map(([k, v]) => `${k}=${v}`).join(',') : 'default';
    add(`collate.sort.${loc}.${tag}`, `return ${j(wordsFor(loc))}.sort(new Intl.Collator(${j(loc)}, ${j(o)}).compare);`);
  }
  add(`collate.localeCompare.${loc}`, `return [['a', 'b'], ['a', 'A'], ['é', 'e'], ['Z', 'a'], ['item10', 'item9'], ['', 'a'], ['a', 'a']].map(([x, y]) => x.localeCompare(y, ${j(loc)}));`);
  add(`collate.localeCompare.base.${loc}`, `return [['a', 'A'], ['é', 'e'], ['ä', 'a'], ['a', 'b']].map(([x, y]) => x.localeCompare(y, ${j(loc)}, {sensitivity: 'base'}));`);
  add(`collate.resolvedOptions.${loc}`, `return new Intl.Collator(${j(loc)}).resolvedOptions();`);
}
add('collate.default.sort', `return ['b', 'a', 'B', 'á', 'A', 'c'].sort(new Intl.Collator().compare);`);
add('collate.localeCompare.default', `return ['b', 'a', 'B', 'á', 'A', 'c'].sort((x, y) => x.localeCompare(y));`);
add('collate.localeCompare.numeric', `return ['x10', 'x9', 'x1'].sort((a, b) => a.localeCompare(b, undefined, {numeric: true}));`);
add('collate.extension.kn', `const c = new Intl.Collator('de-DE-u-kn-true'); return [c.resolvedOptions(), ['a10', 'a9'].sort(c.compare)];`);
add('collate.extension.kf', `const c = new Intl.Collator('en-US-u-kf-upper'); return [c.resolvedOptions().caseFirst, ['a', 'A', 'b', 'B'].sort(c.compare)];`);
add('collate.resolvedOptions.all', `return new Intl.Collator('fr-FR', {usage: 'search', sensitivity: 'accent', ignorePunctuation: true, numeric: true, caseFirst: 'upper'}).resolvedOptions();`);
add('collate.resolvedOptions.fallback', `return new Intl.Collator('zz').resolvedOptions().locale;`);
add('collate.compare.bound', `const c = new Intl.Collator('en-US').compare; return [c('a', 'b'), c('b', 'a'), c('a', 'a')];`);
add('collate.supportedLocalesOf', `return Intl.Collator.supportedLocalesOf(['de-DE', 'ja-JP', 'fr-FR']);`);
add('collate.compare.coerce', `return new Intl.Collator('en-US').compare(10, 9);`);
add('collate.compare.undefined', `return new Intl.Collator('en-US').compare();`);

// ---- The rest: Array, canonical locales, Intl.Locale, shape ---------------

for (const loc of LOCALES) {
  add(`array.toLocaleString.${loc}`, `return [1234.5, ${D2}, 'x', null, 7n].toLocaleString(${j(loc)});`);
}
add('array.toLocaleString.options', `return [0.25, 0.5].toLocaleString('en-US', {style: 'percent'});`);
add('array.toLocaleString.default', `return [1234.5, ${D2}].toLocaleString();`);
add('typedarray.toLocaleString', `return new Float64Array([1234.5, 0.125]).toLocaleString('de-DE');`);
add('getCanonicalLocales', `return Intl.getCanonicalLocales(['EN-us', 'de-de', 'ja-jp-u-ca-japanese', 'zh-hant-tw', 'sr-latn-rs']);`);
add('getCanonicalLocales.aliases', `return Intl.getCanonicalLocales(['iw', 'in', 'sh', 'en-US-u-kn-true', 'und']);`);
add('getCanonicalLocales.string', `return Intl.getCanonicalLocales('EN-GB');`);
add('getCanonicalLocales.invalid.throws', `try { Intl.getCanonicalLocales(['en_US']); return 'no error'; } catch (e) { return e.name; }`);
add('locale.basics', `const l = new Intl.Locale('de-DE', {hourCycle: 'h23', calendar: 'gregory'}); return [l.toString(), l.baseName, l.language, l.region, l.hourCycle, l.calendar];`);
add('locale.maximize', `return ['en', 'ja', 'de', 'es', 'fr', 'zh-TW'].map(t => new Intl.Locale(t).maximize().toString());`);
add('locale.minimize', `return ['en-Latn-US', 'ja-Jpan-JP', 'de-Latn-DE', 'en-Latn-GB'].map(t => new Intl.Locale(t).minimize().toString());`);
add('intl.shape', `return [typeof Intl, Object.prototype.toString.call(Intl), Object.keys(globalThis).includes('Intl'), Object.getOwnPropertyNames(Intl).filter(n => ['Collator', 'DateTimeFormat', 'ListFormat', 'Locale', 'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'getCanonicalLocales'].includes(n)).sort()];`);
add('intl.descriptor', `const d = Object.getOwnPropertyDescriptor(globalThis, 'Intl'); return [d.writable, d.enumerable, d.configurable];`);
add('toLocale.descriptors', `return [[Number.prototype, 'toLocaleString'], [BigInt.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString'], [String.prototype, 'localeCompare'], [Array.prototype, 'toLocaleString']].map(([o, k]) => { const d = Object.getOwnPropertyDescriptor(o, k); return [typeof d.value, d.writable, d.enumerable, d.configurable]; });`);
add('toStringTag', `return [new Intl.NumberFormat(), new Intl.DateTimeFormat(), new Intl.PluralRules(), new Intl.RelativeTimeFormat(), new Intl.ListFormat(), new Intl.Collator(), new Intl.Locale('en')].map(o => Object.prototype.toString.call(o));`);
add('instanceof', `return [new Intl.NumberFormat() instanceof Intl.NumberFormat, Intl.NumberFormat('en') instanceof Intl.NumberFormat, new Intl.Collator() instanceof Intl.Collator, Intl.Collator('en') instanceof Intl.Collator];`);
add('format.bound', `const f = new Intl.NumberFormat('de-DE').format; return [1, 22, 333333].map(f);`);

// ---- Every locale: 40 and more, each constructor's common options --------
// Names start with "loc." The locales span scripts, plural systems and
// numbering systems; each case is one locale, one constructor and one set
// of options over several inputs.

const MANY = ['ar', 'ar-EG', 'az', 'bg', 'bn', 'ca', 'cs', 'da', 'de-AT', 'de-CH', 'el', 'en-AU', 'en-CA', 'en-IN', 'es-419', 'es-MX',
  'et', 'fa', 'fi', 'fil', 'fr-CA', 'fr-CH', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'it', 'ka', 'kk', 'ko', 'lt', 'lv', 'ms', 'nb',
  'nl', 'pl', 'pt-BR', 'pt-PT', 'ro', 'ru', 'sk', 'sl', 'sr', 'sr-Latn', 'sv', 'sw', 'ta', 'th', 'tr', 'uk', 'ur', 'vi', 'zh-CN',
  'zh-TW', 'zh-HK'];
const NUMS = [0, 1, 2, 5, 22, -1234567.891, 0.5, 1e6];
const DATES = [D, D2, D3];
const LOCAL_CURRENCY = { ar: 'SAR', 'ar-EG': 'EGP', az: 'AZN', bg: 'BGN', bn: 'BDT', cs: 'CZK', da: 'DKK', 'de-CH': 'CHF', 'en-AU': 'AUD', 'en-CA': 'CAD', 'en-IN': 'INR',
  'es-MX': 'MXN', fa: 'IRR', fil: 'PHP', 'fr-CA': 'CAD', 'fr-CH': 'CHF', he: 'ILS', hi: 'INR', hu: 'HUF', hy: 'AMD', id: 'IDR', ka: 'GEL', kk: 'KZT', ko: 'KRW',
  ms: 'MYR', nb: 'NOK', pl: 'PLN', 'pt-BR': 'BRL', ro: 'RON', ru: 'RUB', sr: 'RSD', 'sr-Latn': 'RSD', sv: 'SEK', sw: 'TZS', ta: 'INR', th: 'THB', tr: 'TRY',
  uk: 'UAH', ur: 'PKR', vi: 'VND', 'zh-CN': 'CNY', 'zh-TW': 'TWD', 'zh-HK': 'HKD' };
for (const loc of MANY) {
  const L = j(loc);
  const cur = LOCAL_CURRENCY[loc] || 'EUR';
  const nfc = (name, o) => add(`loc.nf.${name}.${loc}`, `const f = new Intl.NumberFormat(${L}, ${j(o)}); return ${j(NUMS)}.map(v => f.format(v));`);
  nfc('decimal', {});
  nfc('percent', { style: 'percent' });
  nfc('currency', { style: 'currency', currency: cur });
  nfc('currency.USD.name', { style: 'currency', currency: 'USD', currencyDisplay: 'name' });
  nfc('compact', { notation: 'compact' });
  nfc('compact.long', { notation: 'compact', compactDisplay: 'long' });
  nfc('unit', { style: 'unit', unit: 'kilometer', unitDisplay: 'long' });
  nfc('fraction', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  add(`loc.nf.resolvedOptions.${loc}`, `return new Intl.NumberFormat(${L}).resolvedOptions();`);
  const dtfc = (name, o) => add(`loc.dtf.${name}.${loc}`, `const f = new Intl.DateTimeFormat(${L}, ${j(o)}); return [${DATES.join(', ')}].map(d => f.format(d));`);
  dtfc('default', {});
  for (const st of ['full', 'long', 'medium', 'short']) dtfc(`dateStyle.${st}`, { dateStyle: st });
  dtfc('timeStyle.short', { timeStyle: 'short' });
  dtfc('timeStyle.medium', { timeStyle: 'medium' });
  dtfc('dateTime.long.short', { dateStyle: 'long', timeStyle: 'short' });
  dtfc('components', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  dtfc('month.short', { month: 'short', day: 'numeric' });
  add(`loc.dtf.resolvedOptions.${loc}`, `return new Intl.DateTimeFormat(${L}).resolvedOptions();`);
  add(`loc.date.toLocaleString.${loc}`, `return ${D2}.toLocaleString(${L});`);
  const prn = [0, 1, 2, 3, 4, 5, 6, 11, 12, 21, 22, 25, 100, 101, 102, 111, 1000, 0.5, 1.5, 2.5];
  add(`loc.pr.cardinal.${loc}`, `const p = new Intl.PluralRules(${L}); return ${j(prn)}.map(n => n + ':' + p.select(n));`);
  add(`loc.pr.ordinal.${loc}`, `const p = new Intl.PluralRules(${L}, {type: 'ordinal'}); return ${j(prn)}.map(n => n + ':' + p.select(n));`);
  add(`loc.pr.resolvedOptions.${loc}`, `return new Intl.PluralRules(${L}).resolvedOptions();`);
  add(`loc.rtf.long.${loc}`, `const f = new Intl.RelativeTimeFormat(${L}); return [[-1, 'day'], [2, 'day'], [-5, 'hour'], [3, 'month'], [-1, 'year'], [21, 'minute']].map(([v, u]) => f.format(v, u));`);
  add(`loc.rtf.auto.${loc}`, `const f = new Intl.RelativeTimeFormat(${L}, {numeric: 'auto'}); return [[-1, 'day'], [0, 'day'], [1, 'day'], [-1, 'week'], [1, 'month']].map(([v, u]) => f.format(v, u));`);
  for (const type of ['conjunction', 'disjunction', 'unit']) {
    add(`loc.lf.${type}.${loc}`, `return ['long', 'short'].map(style => new Intl.ListFormat(${L}, {type: ${j(type)}, style}).format(['A', 'B', 'C']));`);
  }
  for (const [type, codes] of [['language', ['en', 'de', 'fr-CA', 'zh-Hant']], ['region', ['US', 'DE', 'JP', '419']], ['script', ['Latn', 'Cyrl', 'Arab']], ['currency', ['USD', 'EUR', 'JPY']]]) {
    add(`loc.dn.${type}.${loc}`, `const d = new Intl.DisplayNames(${L}, {type: ${j(type)}}); return ${j(codes)}.map(c => d.of(c));`);
  }
  add(`loc.segmenter.word.${loc}`, `return [...new Intl.Segmenter(${L}, {granularity: 'word'}).segment('Hello, world! 42 times.')].map(s => [s.segment, s.index, s.isWordLike]);`);
  add(`loc.segmenter.grapheme.${loc}`, `return [...new Intl.Segmenter(${L}).segment('e\u0301👍🏽🇩🇪a')].map(s => s.segment);`);
  add(`loc.collate.${loc}`, `return ['b', 'a', 'B', 'á', 'A', 'c', 'ä', 'z', 'ö', 'ch', 'ı', 'i', 'İ'].sort(new Intl.Collator(${L}).compare);`);
  add(`loc.collate.resolvedOptions.${loc}`, `return new Intl.Collator(${L}).resolvedOptions().locale;`);
  add(`loc.case.${loc}`, `return ['i', 'I', 'İ', 'ı', 'ij', 'Ì', 'i\u0307', 'ΣΑΣ'].map(s => s.toLocaleUpperCase(${L}) + '/' + s.toLocaleLowerCase(${L}));`);
}

// The cases the issue names.
add('issue.nf.en-IN', `return new Intl.NumberFormat('en-IN').format(1234567.891);`);
add('issue.nf.en-IN.INR', `return new Intl.NumberFormat('en-IN', {style: 'currency', currency: 'INR'}).format(1234567.891);`);
add('issue.dtf.en-IN', `return [${D2}.toLocaleDateString('en-IN'), ${D2}.toLocaleString('en-IN'), new Intl.DateTimeFormat('en-IN', {dateStyle: 'full'}).format(${D2})];`);
add('issue.nf.ru', `return [new Intl.NumberFormat('ru').format(1234567.891), new Intl.NumberFormat('ru', {style: 'currency', currency: 'RUB'}).format(1234.5)];`);
add('issue.nf.pt-BR', `return [new Intl.NumberFormat('pt-BR').format(1234567.891), new Intl.NumberFormat('pt-BR', {style: 'currency', currency: 'BRL'}).format(1234.5)];`);
add('issue.nf.zh-CN', `return [new Intl.NumberFormat('zh-CN').format(1234567.891), new Intl.NumberFormat('zh-CN', {style: 'currency', currency: 'CNY'}).format(1234.5), new Intl.NumberFormat('zh-CN', {notation: 'compact'}).format(123456789)];`);
add('issue.pr.ru', `return [new Intl.PluralRules('ru').select(5), new Intl.PluralRules('ru').select(2), new Intl.PluralRules('ru').select(1)];`);
add('issue.pr.ar', `return [0, 1, 2, 3, 11, 100].map(n => new Intl.PluralRules('ar').select(n));`);
add('issue.pr.pl', `return [1, 2, 5, 22, 25].map(n => new Intl.PluralRules('pl').select(n));`);
add('issue.dn', `return [new Intl.DisplayNames('en', {type: 'region'}).of('DE'), new Intl.DisplayNames('de', {type: 'language'}).of('en-US'), new Intl.DisplayNames('ja', {type: 'currency'}).of('EUR'), new Intl.DisplayNames('en', {type: 'language', languageDisplay: 'standard'}).of('en-GB'), new Intl.DisplayNames('en', {type: 'region', fallback: 'none'}).of('XZ')];`);
add('issue.dn.resolvedOptions', `return new Intl.DisplayNames('fr', {type: 'language'}).resolvedOptions();`);
add('issue.segmenter.sentence', `return [...new Intl.Segmenter('en', {granularity: 'sentence'}).segment('One. Two? Three!')].map(s => s.segment);`);
add('issue.segmenter.resolvedOptions', `return new Intl.Segmenter('fr', {granularity: 'word'}).resolvedOptions();`);
for (const key of ['calendar', 'collation', 'currency', 'numberingSystem', 'timeZone', 'unit']) {
  add(`issue.supportedValuesOf.${key}`, `return Intl.supportedValuesOf(${j(key)});`);
}
add('issue.supportedValuesOf.invalid', `try { Intl.supportedValuesOf('x'); return 'no error'; } catch (e) { return e.name; }`);
add('issue.case.tr', `return ['i'.toLocaleUpperCase('tr'), 'I'.toLocaleLowerCase('tr'), 'İ'.toLocaleLowerCase('tr'), 'I\u0307'.toLocaleLowerCase('tr'), 'istanbul'.toLocaleUpperCase('tr-TR'), 'DİYARBAKIR'.toLocaleLowerCase('tr'), 'I\u0323\u0307'.toLocaleLowerCase('tr'), 'I\u0301\u0307'.toLocaleLowerCase('tr')];`);
add('issue.case.az', `return ['i'.toLocaleUpperCase('az'), 'I'.toLocaleLowerCase('az-Latn'), 'iI'.toLocaleUpperCase(['az'])];`);
add('issue.case.lt', `return ['i\u0307'.toLocaleUpperCase('lt'), 'j\u0307\u0301'.toLocaleUpperCase('lt'), 'I\u0300'.toLocaleLowerCase('lt'), 'Ì'.toLocaleLowerCase('lt'), 'Í'.toLocaleLowerCase('lt'), 'Ĩ'.toLocaleLowerCase('lt'), 'J\u0301'.toLocaleLowerCase('lt'), 'Į\u0301'.toLocaleLowerCase('lt'), 'I'.toLocaleLowerCase('lt')];`);
add('issue.case.other', `return ['i'.toLocaleUpperCase('en'), 'i'.toLocaleUpperCase(['xx', 'tr']), 'i'.toLocaleUpperCase([]), 'I'.toLocaleLowerCase(), 'ΟΔΟΣ'.toLocaleLowerCase('tr'), 'ß'.toLocaleUpperCase('tr')];`);
add('issue.case.invalid.throws', `try { 'i'.toLocaleUpperCase('tr_TR'); return 'no error'; } catch (e) { return e.name; }`);
add('issue.fallback.none', `return ['ru', 'pt-BR', 'zh-CN', 'en-IN', 'ar', 'sw'].map(l => new Intl.NumberFormat(l).resolvedOptions().locale + ' ' + new Intl.DateTimeFormat(l).resolvedOptions().locale);`);

// A currency's name joined to the number by a pattern chosen by the
// number's plural category (ro: "{0} de {1}" only for other; sw, ceb:
// the name first but for one), with and without fraction digits.
add('nf.currency.name.plural', `return ['ro', 'sw', 'ceb'].flatMap(l => [0, 2].map(d => new Intl.NumberFormat(l, {style: 'currency', currency: 'USD', currencyDisplay: 'name', maximumFractionDigits: d, minimumFractionDigits: d})).map(f => [1, 2, 5, 20, 101, 1.5].map(v => f.format(v)).join(' | ')));`);

// Calendars other than the Gregorian: the default of th (buddhist) and of
// fa, fa-AF and ps (persian), chosen by option or extension, the Persian
// leap years, eras and stand-alone months, and a calendar the locale has
// no data for.
const LEAP = '[Date.UTC(2024, 2, 19), Date.UTC(2024, 2, 20), Date.UTC(2025, 2, 20), Date.UTC(2025, 2, 21), Date.UTC(1979, 1, 11), Date.UTC(2100, 5, 1)].map(ms => new Date(ms))';
add('cal.th.gregory', `return [new Intl.DateTimeFormat('th-u-ca-gregory', {dateStyle: 'long'}).format(${D}), new Intl.DateTimeFormat('th', {calendar: 'gregory', dateStyle: 'full'}).format(${D}), new Intl.DateTimeFormat('th', {calendar: 'gregory'}).resolvedOptions().calendar];`);
add('cal.th.formatToParts', `return new Intl.DateTimeFormat('th', {dateStyle: 'full'}).formatToParts(${D});`);
add('cal.th.era', `return [new Intl.DateTimeFormat('th', {era: 'short', year: 'numeric'}).format(${D}), new Intl.DateTimeFormat('th', {year: 'numeric'}).format(${D}), new Intl.DateTimeFormat('th', {year: 'numeric', month: 'long'}).format(${D})];`);
add('cal.th.toLocaleDateString', `return [${D2}.toLocaleDateString('th-TH'), ${D2}.toLocaleDateString('th', {month: 'long', day: 'numeric', weekday: 'short'}), ${D2}.toLocaleTimeString('th')];`);
add('cal.fa.leap', `const f = new Intl.DateTimeFormat('fa', {dateStyle: 'medium'}); return ${LEAP}.map(d => f.format(d));`);
add('cal.fa.numeric', `const f = new Intl.DateTimeFormat('fa-u-nu-latn', {year: 'numeric', month: '2-digit', day: '2-digit'}); return ${LEAP}.map(d => f.format(d));`);
add('cal.fa.era', `return [new Intl.DateTimeFormat('fa', {era: 'long', year: 'numeric'}).format(${D}), new Intl.DateTimeFormat('fa', {month: 'long'}).format(${D}), new Intl.DateTimeFormat('fa', {year: 'numeric', month: 'long'}).format(${D2})];`);
add('cal.fa.gregory', `return [new Intl.DateTimeFormat('fa', {calendar: 'gregory', dateStyle: 'long'}).format(${D}), new Intl.DateTimeFormat('fa-u-ca-gregory').resolvedOptions().calendar];`);
add('cal.fa-AF', `return [new Intl.DateTimeFormat('fa-AF', {dateStyle: 'long'}).format(${D}), new Intl.DateTimeFormat('fa-AF').resolvedOptions().calendar];`);
add('cal.ps', `return [new Intl.DateTimeFormat('ps', {dateStyle: 'medium'}).format(${D}), new Intl.DateTimeFormat('ps-PK', {dateStyle: 'medium'}).format(${D}), new Intl.DateTimeFormat('ps').resolvedOptions().calendar];`);
add('cal.weekday.time', `return ['fa', 'ps'].map(l => [{weekday: 'short', hour: 'numeric', minute: 'numeric'}, {weekday: 'long', hour: 'numeric'}, {weekday: 'short', day: 'numeric', hour: 'numeric', minute: 'numeric'}].map(o => new Intl.DateTimeFormat(l, o).format(${D2})).join(' | '));`);
add('cal.other.locales', `return ['en-TH', 'fa-US', 'th-US', 'en-IR', 'ar-SA'].map(l => new Intl.DateTimeFormat(l).resolvedOptions().calendar);`);
add('cal.en.buddhist', `return [new Intl.DateTimeFormat('en-u-ca-buddhist', {dateStyle: 'medium'}).format(${D}), new Intl.DateTimeFormat('en', {calendar: 'persian', dateStyle: 'medium'}).format(${D})];`);

// ---- Collation data for host/collate_test.go ------------------------------

const sorts = [];
const pairs = [];
const PAIR_WORDS = {
  common: [['a', 'b'], ['a', 'A'], ['A', 'b'], ['a', 'á'], ['á', 'A'], ['resume', 'résumé'], ['résumé', 'Résumé'], ['item2', 'item10'], ['x-y', 'xy'], ['x y', 'xy'], ['a b', 'a-b'], ['', 'a'], ['abc', 'abc'], ['ab', 'abc'], ['Ab', 'aB']],
  de: [['ä', 'a'], ['ä', 'ae'], ['ö', 'oe'], ['ß', 'ss'], ['Straße', 'Strasse'], ['Müller', 'Mueller']],
  fr: [['côte', 'coté'], ['cote', 'côte'], ['œ', 'oe'], ['ç', 'c']],
  es: [['ñ', 'n'], ['ñ', 'o'], ['ll', 'lz'], ['ch', 'cz']],
  ja: [['あ', 'ア'], ['か', 'が'], ['ｱ', 'ア'], ['ぁ', 'あ'], ['日本', '東京'], ['abc', 'ＡＢＣ']],
};
for (const loc of LOCALES) {
  for (const o of COLLATOR_OPTIONS) {
    const c = new Intl.Collator(loc, o);
    const opts = compact(o);
    sorts.push({ locale: loc, options: opts, input: wordsFor(loc), expected: [...wordsFor(loc)].sort(c.compare) });
    for (const [a, b] of [...PAIR_WORDS.common, ...(PAIR_WORDS[loc.slice(0, 2)] || [])]) {
      pairs.push({ locale: loc, options: opts, a, b, expected: Math.sign(c.compare(a, b)) });
    }
  }
}

// Strings beyond the six locales' letters, to find where x/text's older
// tables (CLDR 23, Unicode 6.2) part from ICU 78: symbols, punctuation,
// other scripts, compatibility forms, characters newer than Unicode 6.2.
const PROBE = ['a', 'æ', 'ae', 'ø', 'o', 'Å', 'å', 'þ', 'ð', 'đ', 'ł', 'ß', 'ẞ', 'ǅ', 'ǆ', 'ﬁ', 'fi', '½', '1/2', 'x²', 'x2', 'Ω', 'ω', 'α', 'я', 'Я', 'ж', 'א', 'ع', '한', '中', '1', '١', '१', '١٢', '€', '$', '£', '¥', '%', '&', '@', '#', '*', '+', '=', '<', '~', '^', '`', '´', '¨', '|', '\\', '/', '-', '–', '—', '_', '.', ',', ';', ':', '!', '?', '¿', '¡', "'", '"', '«', '»', '(', ')', '[', ']', '{', '}', '§', '¶', '©', '®', '™', '°', '•', '…', ' ', '\u00a0', '\t', '😀', '😎', '🥰', '🫠', '👍🏽', '🇩🇪', '\u0301', 'e\u0301', 'é', 'Ｚ', 'ｚ', 'ｶ', 'ヵ', 'ゝ', 'ヽ', '々', '〆', 'ヶ', 'ｰ', '・', '「', '」', '。', '、'];
for (const loc of LOCALES) {
  for (const o of [{}, { sensitivity: 'base' }]) {
    const c = new Intl.Collator(loc, o);
    sorts.push({ locale: loc, options: compact(o), input: PROBE, expected: [...PROBE].sort(c.compare) });
  }
}

const dir = __dirname;
fs.writeFileSync(path.join(dir, 'cases.json'), JSON.stringify(cases, null, 1) + '\n');
fs.writeFileSync(path.join(dir, 'collation.json'), JSON.stringify({ sorts, pairs }, null, 1) + '\n');
console.log(`gen.js: ${cases.length} cases, ${sorts.length} sorts, ${pairs.length} pairs (Node ${process.versions.node}, ICU ${process.versions.icu}, CLDR ${process.versions.cldr}, tz ${process.versions.tz})`);
