// The guest's Intl: the FormatJS polyfills with the CLDR data of every
// locale (loaded by locale, on first use), the buddhist and persian
// calendars, a Collator backed by the host (golang.org/x/text/collate),
// and the toLocale* methods, made to give Node 20's output.
//
// bundle.go turns this module into a script whose completion value is
// install(native); calling it runs the code below with `native` bound:
//
//   native.collate(a, b, locale, options) → negative, zero or positive
//     compares two strings (host/collate.go); locale is a resolved tag
//     such as "de" or "en-US", options the compact string built by
//     collatorOptions below.
//   native.timeZone (optional): the default IANA time zone; UTC if absent.
//
// The default locale is en-US; a locale with no data falls back to it.

/* global native */

// Import order matters: each polyfill installs itself on globalThis.Intl
// (intl-locale's creates it), and data.js then hooks the locale-data
// loaders. The locale data is not in this script: bundle.go packs it,
// by locale and constructor, after it (see pack.go), and the host hands
// the guest one entry at a time (native.intlData), on first use.
import '@formatjs/intl-locale/polyfill-force.js';
import '@formatjs/intl-pluralrules/polyfill-force.js';
import '@formatjs/intl-numberformat/polyfill-force.js';
import '@formatjs/intl-datetimeformat/polyfill-force.js';
import '@formatjs/intl-relativetimeformat/polyfill-force.js';
import '@formatjs/intl-listformat/polyfill-force.js';
import '@formatjs/intl-displaynames/polyfill-force.js';
import '@formatjs/intl-segmenter/polyfill-force.js';
import '@formatjs/intl-supportedvaluesof/polyfill-force.js';
import './data.js';
import { installCaseMapping } from './casing.js';

import zones from '@formatjs/intl-datetimeformat/add-all-tz.js';
import { LOCALES, KINDS, BASES, PLURAL_FNS, COLLATIONS, TIME_ZONES, CURRENCIES } from 'ptc:intl-index';

import { BuddhistCalendar, PersianCalendar } from '@internationalized/date';
import { getCanonicalLocales } from '@formatjs/intl-getcanonicallocales';
import { LookupSupportedLocales, ResolveLocale } from '@formatjs/intl-localematcher';
import { findIntervalFormat, parseDateTimeSkeleton, replaceDateTimeTokens } from '@formatjs/intl-datetimeformat/polyfill-force.js';

const DEFAULT_LOCALE = 'en-US';
// The most formatters, plans or collators a cache keeps before it starts over.
const CACHE_MAX = 64;

// define gives a property the attributes of a built-in method.
function define(target, name, value) {
  Object.defineProperty(target, name, { value, writable: true, enumerable: false, configurable: true });
}

// methods copies the methods of an object literal (method shorthand makes
// them non-constructors, as built-ins are) onto target.
function methods(target, src) {
  for (const name of Object.getOwnPropertyNames(src)) define(target, name, src[name]);
}

// The getcanonicallocales polyfill is a second copy of the module
// intl-locale imports (alias tables and all); the function is installed
// from that one instead.
define(Intl, 'getCanonicalLocales', getCanonicalLocales);

// ---- Locale data, loaded on first use ------------------------------------
// A constructor (or its supportedLocalesOf) first gets the data of the
// locales it may resolve to: for the default locale and each one
// requested, every available locale on its lookup chain (en-IN, en) and
// the one best-fit matching picks among all of them. Nothing else loads:
// a program formatting in ru pays for ru alone.

const Base = {
  NumberFormat: Intl.NumberFormat,
  DateTimeFormat: Intl.DateTimeFormat,
  RelativeTimeFormat: Intl.RelativeTimeFormat,
  ListFormat: Intl.ListFormat,
  DisplayNames: Intl.DisplayNames,
  PluralRules: Intl.PluralRules,
};

// The calendars besides the Gregorian that some locales default to (th's
// buddhist, fa's persian: pack.go gives those locales their names and
// patterns). FormatJS asks a calendar for a day's era, year, month (from
// 0) and day; @internationalized/date has the arithmetic (ICU's), by
// Julian day. The era codes are those pack.go names.
{
  const MS_PER_DAY = 86400000;
  const JD_1970 = 2440588; // the Julian day of 1970-01-01
  const calendar = (name, c) => ({
    calendar: name,
    dateFromTime(t) {
      const d = c.fromJulianDay(Math.floor(t / MS_PER_DAY) + JD_1970);
      return { era: d.era, year: d.year, month: d.month - 1, day: d.day };
    },
  });
  Base.DateTimeFormat.__addCalendarData(calendar('buddhist', new BuddhistCalendar()), calendar('persian', new PersianCalendar()));
}

const NK = KINDS.length;
const LOCALE_INDEX = new Map(LOCALES.map((l, i) => [l, i]));
// The locales with data, by constructor.
const AVAILABLE = {};
for (let k = 0; k < NK; k++) AVAILABLE[KINDS[k]] = LOCALES.filter((_, i) => BASES[i * NK + k] !== -2);
const loaded = {};
for (const name of KINDS) loaded[name] = new Set();

// entryData returns the whole data of entry id, applying its patch to
// its base's (see pack.go), or undefined when there is none.
function entryData(id) {
  const text = native.intlData(id);
  if (text === undefined) return undefined;
  const v = JSON.parse(text);
  const b = BASES[id];
  if (b < 0) return v;
  const base = entryData(b * NK + (id % NK));
  return base === undefined ? undefined : patch(base, v);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function patch(base, p) {
  for (const k of Object.keys(p)) {
    const v = p[k];
    if (k === '\u0000') {
      for (const g of v) delete base[g];
    } else if (isObject(v) && isObject(base[k])) {
      patch(base[k], v);
    } else {
      Object.defineProperty(base, k, { value: v, writable: true, enumerable: true, configurable: true });
    }
  }
  return base;
}

// chain lists a tag's lookup fallbacks, as FormatJS registers them:
// zh-Hant-TW, zh-TW, zh-Hant, zh.
function chain(tag) {
  const out = [tag];
  const parts = tag.split('-');
  while (parts.length > 1) {
    if (parts.length > 2 && parts[1].length === 4) out.push([parts[0], ...parts.slice(2)].join('-'));
    parts.pop();
    out.push(parts.join('-'));
  }
  return out;
}

function load(name, locale) {
  const k = KINDS.indexOf(name);
  const li = LOCALE_INDEX.get(locale);
  if (li === undefined || loaded[name].has(locale)) return;
  loaded[name].add(locale);
  // Ancestors first: FormatJS lets a region's data stand for its language
  // until the language's own is added.
  for (const a of chain(locale).slice(1).reverse()) load(name, a);
  const d = entryData(li * NK + k);
  if (d === undefined) return;
  if (name === 'PluralRules') d.data.fn = PLURAL_FNS[d.data.fn];
  Base[name].__addLocaleData(d);
}

// ensure loads what a constructor may resolve to for requested, a
// canonical locale list: for each tag (and the default), the available
// locales on its lookup chain and on its likely-subtags form's (zh-TW:
// zh-Hant-TW, zh-Hant, zh), which is where FormatJS's best-fit matching
// looks. Matching among all locales would cost more than the data.
const ensured = {};
for (const name of KINDS) ensured[name] = new Set();

function ensure(name, requested) {
  if (name === 'DateTimeFormat') ensureZones();
  const done = ensured[name];
  for (const tag of [DEFAULT_LOCALE, ...requested]) {
    if (done.has(tag)) continue;
    done.add(tag);
    const bare = tag.replace(/-[ux]-.*$/, '');
    for (const c of chain(bare)) load(name, c);
    let max;
    try {
      max = new Intl.Locale(bare).maximize().toString();
    } catch {
      continue;
    }
    if (max !== bare) for (const c of chain(max)) load(name, c);
  }
}

// The IANA zones: FormatJS unpacks every zone's transitions when the data
// is added (most of a second in the guest); here each zone is unpacked
// when first used. A packed zone is "Name|ts,abbr,offset,dst|…", with
// base-36 times and offsets and indexes into the abbreviation and offset
// lists; an empty time is the start of time.
let zonesLoaded = false;

function ensureZones() {
  if (zonesLoaded) return;
  zonesLoaded = true;
  const d = zones();
  const abbrvs = d.abbrvs.split('|');
  const offsets = d.offsets.split('|').map((n) => parseInt(n, 36));
  const tz = {};
  for (const packed of d.zones) {
    const bar = packed.indexOf('|');
    const name = bar < 0 ? packed : packed.slice(0, bar);
    Object.defineProperty(tz, name, {
      enumerable: true,
      configurable: true,
      get() {
        const transitions = [];
        if (bar >= 0) {
          for (const t of packed.slice(bar + 1).split('|')) {
            const [ts, abbr, offset, dst] = t.split(',');
            transitions.push([ts === '' ? -Infinity : parseInt(ts, 36), abbrvs[+abbr], offsets[+offset], dst === '1']);
          }
        }
        Object.defineProperty(tz, name, { value: transitions, writable: true, enumerable: true, configurable: true });
        return transitions;
      },
    });
  }
  Base.DateTimeFormat.tzData = tz;
}

// A locale's date formats: FormatJS parses all of them (about a thousand
// skeletons with their interval patterns) when a locale's first
// DateTimeFormat is made, a second in the guest. Here each format gets its
// fields from the skeleton, all the format matcher scores them on, and is
// parsed in full only when a matcher picks it.
{
  const add = Base.DateTimeFormat.__addLocaleData;
  Base.DateTimeFormat.__addLocaleData = function __addLocaleData(...entries) {
    const r = add.apply(this, entries);
    for (const e of entries) {
      const processed = Base.DateTimeFormat.localeData[e.locale];
      if (processed && e.data && e.data.formats) processed.formats = lazyFormats(e.data);
    }
    return r;
  };
}

function lazyFormats(data) {
  const formats = {};
  for (const cal of Object.keys(data.formats)) {
    if (cal === 'iso8601') continue;
    const intervals = (data.calendarData && data.calendarData[cal] && data.calendarData[cal].intervalFormats) || data.intervalFormats;
    let list;
    Object.defineProperty(formats, cal, {
      enumerable: true,
      get: () => (list ??= asGenerated(Object.entries(data.formats[cal]).map(([skeleton, pattern]) => lazyFormat(skeleton, pattern, intervals)))),
    });
  }
  Object.defineProperty(formats, 'iso8601', { enumerable: true, get: () => formats.gregory });
  return formats;
}

// asGenerated drops the formats ICU's pattern generator would not choose
// from. A date style's pattern (keyed by itself, "EEEE, d MMMM y") gives
// way to the locale's skeleton with the same fields ("yMMMMEEEEd": "EEEE
// d MMMM y" in en-AU), which overrides it in ICU. A skeleton with a
// stand-alone weekday (c) gives way to one with the same fields and a
// format weekday (E) of any width: ICU scores a c against the E a request
// asks for as a worse match than a width to adjust, so fi's {weekday:
// 'long', year, month: 'long', day} takes "E d. MMMM y" (sunnuntaina), not
// "cccc d. MMMM y" (sunnuntai); dateStyle full keeps its c.
function asGenerated(list) {
  const isSkeleton = (f) => /^[A-Za-z]+$/.test(f.skeleton);
  const fields = (f) => DTF_SKELETON_FIELDS.map((k) => f[k]).join();
  const skeletons = new Set(list.filter(isSkeleton).map(fields));
  list = list.filter((f) => isSkeleton(f) || !skeletons.has(fields(f)));
  const standAlone = (f) => /c/.test(f.skeleton.replace(/'[^']*'/g, ''));
  if (!list.some(standAlone)) return list;
  const anyWeekday = (f) => DTF_SKELETON_FIELDS.map((k) => (k === 'weekday' ? f.weekday !== undefined : f[k])).join();
  const withE = new Set(list.filter((f) => !standAlone(f)).map(anyWeekday));
  return list.filter((f) => !standAlone(f) || !withE.has(anyWeekday(f)));
}
const DTF_SKELETON_FIELDS = ['weekday', 'era', 'year', 'month', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits', 'timeZoneName', 'hour12'];

// lazyFormat has the properties FormatJS's parsed format has, in the same
// order; those needing the full parse are getters.
function lazyFormat(skeleton, pattern, intervals) {
  let full;
  const parse = () => (full ??= parseDateTimeSkeleton(skeleton, pattern, intervals[skeleton] || findIntervalFormat(skeleton, intervals), intervals.intervalFormatFallback));
  const f = Object.create(null);
  const lazyProp = (name) => Object.defineProperty(f, name, { enumerable: true, configurable: true, get: () => parse()[name] });
  lazyProp('pattern');
  lazyProp('pattern12');
  f.skeleton = skeleton;
  f.rawPattern = pattern;
  lazyProp('rangePatterns');
  lazyProp('rangePatterns12');
  replaceDateTimeTokens(skeleton, f);
  return f;
}

// lazy puts a constructor in front of FormatJS's that loads data first;
// init, when given, makes the instance from the canonical locales.
function lazy(name, callable, init) {
  const B = Base[name];
  const C = {
    [name]: function (locales, options) {
      if (new.target === undefined) {
        if (!callable) throw new TypeError(`Constructor Intl.${name} requires 'new'`);
        return new C(locales, options);
      }
      const requested = Intl.getCanonicalLocales(locales);
      ensure(name, requested);
      if (init !== undefined) return init(B, requested, options, new.target);
      return Reflect.construct(B, [requested, options], new.target);
    },
  }[name];
  Object.defineProperty(C, 'length', { value: 0 });
  Object.defineProperty(C, 'prototype', { value: B.prototype, writable: false, enumerable: false, configurable: false });
  define(B.prototype, 'constructor', C);
  methods(C, {
    supportedLocalesOf(locales, options) {
      const requested = Intl.getCanonicalLocales(locales);
      if (options !== undefined) {
        const m = Object(options).localeMatcher;
        if (m !== undefined && m !== 'lookup' && m !== 'best fit') B.supportedLocalesOf([], options);
      }
      return LookupSupportedLocales(AVAILABLE[name], requested);
    },
  });
  Object.defineProperty(C.supportedLocalesOf, 'length', { value: 1 });
  define(Intl, name, C);
  return C;
}

// ---- supportedValuesOf: time zones and currencies as ICU lists them ------------
// The canonical IDs of the zones with a location (not Etc/*, not UTC),
// and the currencies CLDR says are legal tender today; FormatJS lists every
// currency its English data names (historic ones too) and its zones by
// their tzdata targets.
{
  const supportedValuesOf = Intl.supportedValuesOf;
  methods(Intl, {
    supportedValuesOf(key) {
      const k = String(key);
      if (k === 'timeZone') return TIME_ZONES.split('|').map((l) => l.split(' ', 1)[0]).filter((z) => z !== 'UTC' && !z.startsWith('Etc/'));
      if (k === 'currency') return CURRENCIES.slice();
      return supportedValuesOf(key);
    },
  });
  Object.defineProperty(Intl.supportedValuesOf, 'length', { value: 1 });
}

// ---- Time zones as ICU names them --------------------------------------------
// V8 accepts the time zone names CLDR's BCP 47 data lists, in any case,
// and reports each by its entry's canonical ID (Asia/Kolkata as
// Asia/Calcutta, Etc/GMT as UTC; TIME_ZONES, see ids.go); anything else,
// an offset like +05:00 included, is a RangeError. FormatJS follows its
// own tzdata links (Africa/Asmara to Africa/Nairobi) and rejects GMT, so
// it is given a name of the zone it has data for, and resolvedOptions
// reports the canonical ID.

let zoneIndex;
// zoneIDs maps each upper-cased name to [canonical ID, name FormatJS
// knows].
function zoneIDs() {
  if (zoneIndex !== undefined) return zoneIndex;
  ensureZones();
  zoneIndex = new Map();
  for (const line of TIME_ZONES.split('|')) {
    const names = line.split(' ');
    const id = names[0];
    const known = id === 'UTC' ? 'UTC' : names.find((n) => Object.hasOwn(Base.DateTimeFormat.tzData, n)) ?? id;
    for (const n of names) zoneIndex.set(n.toUpperCase(), [id, known]);
  }
  return zoneIndex;
}

// zoneOf holds each DateTimeFormat's canonical time zone ID; undefined
// for the default zone.
const zoneOf = new WeakMap();

// zoneOption returns the options to give FormatJS and the canonical ID of
// the time zone asked for (undefined when none was).
function zoneOption(options) {
  if (options === undefined || options === null) return [options, undefined];
  const o = Object(options);
  const tz = o.timeZone;
  if (tz === undefined) return [options, undefined];
  const name = String(tz);
  const ids = zoneIDs().get(name.toUpperCase());
  if (ids === undefined) throw new RangeError(`Invalid time zone specified: ${name}`);
  return [Object.create(o, { timeZone: { value: ids[1], enumerable: true } }), ids[0]];
}

let defaultZone;
function defaultZoneID() {
  if (defaultZone === undefined) {
    const name = typeof native.timeZone === 'string' && native.timeZone !== '' ? native.timeZone : 'UTC';
    defaultZone = (zoneIDs().get(name.toUpperCase()) ?? ['UTC'])[0];
  }
  return defaultZone;
}

// ---- Defaults ------------------------------------------------------------

for (const C of Object.values(Base)) C.__defaultLocale = DEFAULT_LOCALE;
if (typeof native.timeZone === 'string' && native.timeZone !== '') {
  const ids = zoneIDs().get(native.timeZone.toUpperCase());
  Base.DateTimeFormat.__setDefaultTimeZone(ids === undefined ? native.timeZone : ids[1]);
}

const NumberFormat = lazy('NumberFormat', true);
const DateTimeFormat = lazy('DateTimeFormat', true, (B, requested, options, newTarget) => {
  const [opts, zone] = zoneOption(options);
  const dtf = Reflect.construct(B, [requested, opts], newTarget);
  zoneOf.set(dtf, zone);
  return dtf;
});
lazy('RelativeTimeFormat', false);
const ListFormat = lazy('ListFormat', false);
lazy('DisplayNames', false);
const PluralRules = Intl.PluralRules;

Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', writable: false, enumerable: false, configurable: true });

// ---- NumberFormat: resolvedOptions in V8's order ----------------------------

const NF_ORDER = [
  'locale', 'numberingSystem', 'style', 'currency', 'currencyDisplay', 'currencySign', 'unit', 'unitDisplay',
  'minimumIntegerDigits', 'minimumSignificantDigits', 'maximumSignificantDigits', 'minimumFractionDigits',
  'maximumFractionDigits', 'useGrouping', 'notation', 'compactDisplay', 'signDisplay', 'roundingMode',
  'roundingIncrement', 'trailingZeroDisplay', 'roundingPriority',
];

function reorder(o, order) {
  const out = {};
  for (const k of order) if (k in o) out[k] = o[k];
  for (const k of Object.keys(o)) if (!(k in out)) out[k] = o[k];
  return out;
}

// FormatJS does not group the digits of a compact number beyond the
// largest compact unit ("12345679T"); ICU does ("12,345,679T"), by the
// number's useGrouping (min2 by default for compact notation).
{
  const proto = NumberFormat.prototype;
  const resolved = proto.resolvedOptions;
  const formatGetter = Object.getOwnPropertyDescriptor(proto, 'format').get;
  const formatToParts = proto.formatToParts;
  const groupSymbols = new Map();
  const groupSymbol = (locale, nu) => {
    const key = locale + '/' + nu;
    let g = groupSymbols.get(key);
    if (g === undefined) {
      const p = formatToParts.call(new NumberFormat(locale, { numberingSystem: nu, useGrouping: 'always' }), 1000).find((x) => x.type === 'group');
      g = p ? p.value : ',';
      groupSymbols.set(key, g);
    }
    return g;
  };
  const fixes = new WeakMap();
  const partsFix = (nf) => {
    let fix = fixes.get(nf);
    if (fix !== undefined) return fix;
    const o = resolved.call(nf);
    fix = null;
    if (o.notation === 'compact' && o.useGrouping !== false) {
      const min = o.useGrouping === 'always' ? 4 : o.useGrouping === 'min2' ? 5 : 4 + (/^es\b/.test(o.locale) ? 1 : 0);
      fix = (parts) => {
        const ints = parts.filter((p) => p.type === 'integer');
        if (ints.length !== 1 || parts.some((p) => p.type === 'group') || ints[0].value.length < min) return parts;
        const i = parts.indexOf(ints[0]);
        const digits = ints[0].value;
        const out = [];
        const head = digits.length % 3 || 3;
        out.push({ type: 'integer', value: digits.slice(0, head) });
        for (let k = head; k < digits.length; k += 3) {
          out.push({ type: 'group', value: groupSymbol(o.locale, o.numberingSystem) }, { type: 'integer', value: digits.slice(k, k + 3) });
        }
        parts.splice(i, 1, ...out);
        return parts;
      };
    }
    fixes.set(nf, fix);
    return fix;
  };
  const slow = (nf, x) => {
    const fix = partsFix(nf);
    return fix === null ? formatToParts.call(nf, x) : fix(formatToParts.call(nf, x));
  };
  const bound = new WeakMap();
  const makeFormat = (nf, inner) => (x) => {
    if (typeof x === 'number' && Number.isFinite(x)) {
      const p = fastPlan(nf, slow);
      if (p !== null) return fastFormat(p, x);
    }
    const fix = partsFix(nf);
    return fix === null ? inner(x) : fix(formatToParts.call(nf, x)).map((p) => p.value).join('');
  };
  Object.defineProperty(proto, 'format', {
    configurable: true,
    enumerable: false,
    get: function format() {
      let f = bound.get(this);
      if (f === undefined) {
        f = makeFormat(this, formatGetter.call(this));
        bound.set(this, f);
      }
      return f;
    },
  });
  methods(proto, {
    formatToParts(x) {
      if (typeof x === 'number' && Number.isFinite(x) && this instanceof NumberFormat) {
        const p = fastPlan(this, slow);
        if (p !== null) return fastParts(p, x);
      }
      const parts = formatToParts.call(this, x);
      const fix = partsFix(this);
      return fix === null ? parts : fix(parts);
    },
    resolvedOptions() {
      return reorder(resolved.call(this), NF_ORDER);
    },
  });
  Object.defineProperty(proto.formatToParts, 'length', { value: 1 });
}

// ---- NumberFormat: a fast path for format --------------------------------
// FormatJS rounds with arbitrary-precision decimals: about 2 ms a number in
// the guest, and a date format makes several. For a Number in standard
// notation rounded to fraction digits (halfExpand), as toLocaleString()
// and most formats do, the digits are rounded here on the number's
// shortest decimal string, as FormatJS and ICU do, and put in the frame of
// text FormatJS gives a representative number of the same sign class. A
// plan is made once per set of resolved options, from formats of a few
// probes, and is used only if it reproduces every probe.

const plans = new Map();
const planOf = new WeakMap();
const NUMBER_PARTS = ['integer', 'group', 'decimal', 'fraction'];

function fastPlan(nf, slow) {
  let p = planOf.get(nf);
  if (p !== undefined) return p;
  const o = NumberFormat.prototype.resolvedOptions.call(nf);
  const key = JSON.stringify(o);
  p = plans.get(key);
  if (p === undefined) {
    p = makePlan(o, (x) => slow(nf, x));
    if (plans.size >= CACHE_MAX) plans.clear();
    plans.set(key, p);
  }
  planOf.set(nf, p);
  return p;
}

function makePlan(o, slow) {
  if (o.notation !== 'standard' || o.roundingMode !== 'halfExpand' || o.roundingIncrement !== 1 ||
      o.trailingZeroDisplay !== 'auto' || o.minimumSignificantDigits !== undefined || o.numberingSystem !== 'latn' ||
      !(o.style === 'decimal' || o.style === 'percent' || (o.style === 'currency' && o.currencyDisplay !== 'name'))) {
    return null;
  }
  // frame splits a format into the parts before and after its number:
  // [text before, text after, parts before, parts after, number parts].
  const frame = (parts) => {
    const i = parts.findIndex((q) => NUMBER_PARTS.includes(q.type));
    let j = i;
    while (j < parts.length && NUMBER_PARTS.includes(parts[j].type)) j++;
    if (i < 0 || parts.slice(j).some((q) => NUMBER_PARTS.includes(q.type))) return null;
    const text = (qs) => qs.map((q) => q.value).join('');
    return [text(parts.slice(0, i)), text(parts.slice(j)), parts.slice(0, i), parts.slice(j), parts.slice(i, j)];
  };
  // Probes, each a slow format (some 2 ms in the guest): the four sign
  // classes, a number showing the separators, the grouping threshold, and
  // two more to check the plan on.
  const probes = [1, -1, 0, -0, 1234567890.5];
  const formats = probes.map(slow);
  const frames = formats.map(frame);
  if (frames.includes(null)) return null;
  const p = {
    percent: o.style === 'percent',
    minFD: o.minimumFractionDigits,
    maxFD: o.maximumFractionDigits,
    minID: o.minimumIntegerDigits,
    pos: frames[0], neg: frames[1], zero: frames[2], negZero: frames[3],
    decimal: '.', group: '', threshold: Infinity, primary: 3, secondary: 3,
  };
  const big = frames[4][4];
  const dec = big.find((q) => q.type === 'decimal');
  if (dec) p.decimal = dec.value;
  const grp = big.find((q) => q.type === 'group');
  const grouped = (x) => {
    const parts = slow(x);
    probes.push(x);
    formats.push(parts);
    return parts.some((q) => q.type === 'group');
  };
  if (grp) {
    const ints = big.filter((q) => q.type === 'integer').map((q) => q.value.length);
    p.group = grp.value;
    p.primary = ints[ints.length - 1];
    p.secondary = ints.length > 2 ? ints[ints.length - 2] : p.primary;
    p.threshold = grouped(1000) ? 4 : grouped(10000) ? 5 : 6;
  }
  for (const x of [98765.4321, -0.0001]) {
    probes.push(x);
    formats.push(slow(x));
  }
  for (let i = 0; i < probes.length; i++) {
    if (fastFormat(p, probes[i]) !== formats[i].map((q) => q.value).join('')) return null;
    if (JSON.stringify(fastParts(p, probes[i])) !== JSON.stringify(formats[i])) return null;
  }
  return p;
}

// roundDecimal rounds |x| (finite) times 10^shift half away from zero to
// at most maxFD fraction digits, as ECMA-402's ToRawFixed does on the
// number's shortest decimal string, and returns its integer digits and its
// fraction digits with trailing zeros dropped down to minFD.
function roundDecimal(x, minFD, maxFD, shift) {
  let s = String(x < 0 ? -x : x);
  let exp = 0;
  const e = s.indexOf('e');
  if (e >= 0) {
    exp = +s.slice(e + 1);
    s = s.slice(0, e);
  }
  const dot = s.indexOf('.');
  let digits = dot < 0 ? s : s.slice(0, dot) + s.slice(dot + 1);
  // The decimal point falls after `point` digits (before them if negative).
  let point = (dot < 0 ? s.length : dot) + exp + shift;
  let lead = 0;
  while (lead < digits.length - 1 && digits[lead] === '0') lead++;
  digits = digits.slice(lead);
  point -= lead;
  let keep = point + maxFD;
  let head = '';
  if (keep >= 0) {
    head = digits.slice(0, keep).padEnd(keep, '0');
    if (keep < digits.length && digits[keep] >= '5') {
      // Add one unit in the last place kept.
      let i = head.length - 1;
      while (i >= 0 && head[i] === '9') i--;
      head = (i < 0 ? '1' : head.slice(0, i) + String.fromCharCode(head.charCodeAt(i) + 1)) + '0'.repeat(head.length - 1 - i);
      if (i < 0) {
        point++;
        keep++;
      }
    }
  }
  let int;
  let frac;
  if (keep <= 0) {
    int = '0';
    frac = '0'.repeat(maxFD);
  } else if (point <= 0) {
    int = '0';
    frac = '0'.repeat(-point) + head;
  } else {
    int = head.slice(0, point);
    frac = head.slice(point);
  }
  let end = frac.length;
  while (end > minFD && frac[end - 1] === '0') end--;
  return [int, frac.slice(0, end)];
}

// fastDigits rounds and groups a finite Number for a plan: its integer
// groups, fraction digits, and frame.
function fastDigits(p, x) {
  const r = roundDecimal(x, p.minFD, p.maxFD, p.percent ? 2 : 0);
  let int = r[0];
  const frac = r[1];
  const zero = /^0*$/.test(int) && /^0*$/.test(frac);
  if (int.length < p.minID) int = int.padStart(p.minID, '0');
  const groups = [];
  if (int.length >= p.threshold) {
    let rest = int.slice(0, -p.primary);
    groups.unshift(int.slice(-p.primary));
    while (rest.length > 0) {
      groups.unshift(rest.slice(-p.secondary));
      rest = rest.slice(0, -p.secondary);
    }
  } else {
    groups.push(int);
  }
  const negative = x < 0 || Object.is(x, -0);
  return [groups, frac, negative ? (zero ? p.negZero : p.neg) : zero ? p.zero : p.pos];
}

// fastFormat formats a finite Number with a plan.
function fastFormat(p, x) {
  const [groups, frac, fr] = fastDigits(p, x);
  const int = groups.join(p.group);
  return fr[0] + (frac.length > 0 ? int + p.decimal + frac : int) + fr[1];
}

// fastParts is formatToParts of a finite Number with a plan.
function fastParts(p, x) {
  const [groups, frac, fr] = fastDigits(p, x);
  const parts = fr[2].map((q) => ({ ...q }));
  groups.forEach((g, i) => {
    if (i > 0) parts.push({ type: 'group', value: p.group });
    parts.push({ type: 'integer', value: g });
  });
  if (frac.length > 0) parts.push({ type: 'decimal', value: p.decimal }, { type: 'fraction', value: frac });
  for (const q of fr[3]) parts.push({ ...q });
  return parts;
}

// ---- PluralRules: resolvedOptions as V8 11 (Node 20) gives them ----------
// The locale is the one whose rules apply: the longest prefix of the
// matched locale with rules of its own ("en" for en-GB, "pt-PT" and
// "kok-Latn" for themselves), or the default when none was requested or
// none matched; categories are sorted with "other" last; no notation or
// rounding options.

{
  const pluralLocale = (tag) => {
    const parts = tag.split('-u-')[0].split('-');
    for (let n = parts.length; n > 1; n--) {
      const l = parts.slice(0, n).join('-');
      if (AVAILABLE.PluralRules.includes(l)) return l;
    }
    return parts[0];
  };
  const B = PluralRules;
  const resolved = B.prototype.resolvedOptions;
  const matched = new WeakMap();
  // A constructor in front of FormatJS's, to learn whether a requested
  // locale matched (FormatJS's resolvedOptions cannot tell "en-US" asked
  // for from the default).
  const PluralRulesV8 = function PluralRules(locales, options) {
    if (new.target === undefined) throw new TypeError("Constructor Intl.PluralRules requires 'new'");
    const asked = Intl.getCanonicalLocales(locales);
    ensure('PluralRules', asked);
    const pr = Reflect.construct(B, [asked, options], new.target);
    matched.set(pr, asked.length > 0 && B.supportedLocalesOf(asked).length > 0);
    return pr;
  };
  for (const k of Reflect.ownKeys(B)) {
    if (k !== 'name' && k !== 'length') Object.defineProperty(PluralRulesV8, k, Object.getOwnPropertyDescriptor(B, k));
  }
  define(B.prototype, 'constructor', PluralRulesV8);
  define(Intl, 'PluralRules', PluralRulesV8);
  methods(PluralRulesV8, {
    supportedLocalesOf(locales) {
      return LookupSupportedLocales(AVAILABLE.PluralRules, Intl.getCanonicalLocales(locales));
    },
  });
  Object.defineProperty(PluralRulesV8.supportedLocalesOf, 'length', { value: 1 });
  methods(B.prototype, {
    resolvedOptions() {
      const o = resolved.call(this);
      const out = { locale: matched.get(this) ? pluralLocale(o.locale) : DEFAULT_LOCALE, type: o.type };
      out.minimumIntegerDigits = o.minimumIntegerDigits;
      const sig = o.minimumSignificantDigits !== undefined;
      if (sig) {
        out.minimumSignificantDigits = o.minimumSignificantDigits;
        out.maximumSignificantDigits = o.maximumSignificantDigits;
      }
      if (!sig || (o.roundingPriority !== undefined && o.roundingPriority !== 'auto')) {
        out.minimumFractionDigits = o.minimumFractionDigits;
        out.maximumFractionDigits = o.maximumFractionDigits;
      }
      out.pluralCategories = [...o.pluralCategories].sort((a, b) => (a === 'other') - (b === 'other') || (a < b ? -1 : a > b ? 1 : 0));
      return out;
    },
  });
  // select: FormatJS rounds with arbitrary-precision decimals before it
  // applies the locale's rule to the digits; for a Number rounded to
  // fraction digits the digits come from roundDecimal instead, under a
  // plan checked against FormatJS on probes, as NumberFormat's.
  const select = B.prototype.select;
  const probes = [0, 1, 2, 3, 5, 11, 21, 101, 1000000, 0.5, 1.5, 1.25, -1, -0, 2.0004];
  const planOf = new WeakMap();
  const fastSelect = (p, x) => {
    const [int, frac] = roundDecimal(x, p.minFD, p.maxFD, 0);
    return p.fn(int.padStart(p.minID, '0') + (frac.length > 0 ? '.' + frac : ''), p.ordinal, 0);
  };
  const planFor = (pr) => {
    let p = planOf.get(pr);
    if (p !== undefined) return p;
    const o = resolved.call(pr);
    const key = 'pr' + JSON.stringify(o);
    p = plans.get(key);
    if (p === undefined) {
      const data = B.localeData && B.localeData[o.locale];
      p = null;
      if (data && typeof data.fn === 'function' && (o.notation === undefined || o.notation === 'standard') &&
          o.roundingMode === 'halfExpand' && o.roundingIncrement === 1 && o.trailingZeroDisplay === 'auto' &&
          o.minimumSignificantDigits === undefined) {
        p = { fn: data.fn, ordinal: o.type === 'ordinal', minFD: o.minimumFractionDigits, maxFD: o.maximumFractionDigits, minID: o.minimumIntegerDigits };
        if (probes.some((x) => fastSelect(p, x) !== select.call(pr, x))) p = null;
      }
      if (plans.size >= CACHE_MAX) plans.clear();
      plans.set(key, p);
    }
    planOf.set(pr, p);
    return p;
  };
  methods(B.prototype, {
    select(n) {
      if (typeof n === 'number' && Number.isFinite(n) && this instanceof B) {
        const p = planFor(this);
        if (p !== null) return fastSelect(p, n);
      }
      return select.call(this, n);
    },
  });
  Object.defineProperty(B.prototype.select, 'length', { value: 1 });
}

// ---- DateTimeFormat --------------------------------------------------------
// V8 (and so Node 20) writes U+202F NARROW NO-BREAK SPACE as a plain space
// in format() and toLocale*String(), for compatibility with older output;
// formatToParts and formatRange keep it. One more correction applies to the
// parts: FormatJS writes a longOffset zone as a short one ("GMT-5", not
// "GMT-05:00").

function longOffset(v) {
  const m = /^(.*?)([+\-\u2212])(\d{1,2})(?::(\d{2}))?$/.exec(v);
  return m ? `${m[1]}${m[2]}${m[3].padStart(2, '0')}:${m[4] ?? '00'}` : v;
}

{
  const proto = DateTimeFormat.prototype;
  const formatGetter = Object.getOwnPropertyDescriptor(proto, 'format').get;
  const formatToParts = proto.formatToParts;
  const resolved = proto.resolvedOptions;
  const fixes = new WeakMap();
  // partsFix returns the function correcting a format's parts in place, or
  // null when it needs none.
  const partsFix = (dtf) => {
    let fix = fixes.get(dtf);
    if (fix !== undefined) return fix;
    fix = null;
    if (resolved.call(dtf).timeZoneName === 'longOffset') {
      fix = (parts) => {
        for (const p of parts) {
          if (p.type === 'timeZoneName') p.value = longOffset(p.value);
        }
        return parts;
      };
    }
    fixes.set(dtf, fix);
    return fix;
  };
  const bound = new WeakMap();
  const makeFormat = (dtf, inner) => (date) => {
    const fix = partsFix(dtf);
    const s = fix === null ? inner(date) : fix(formatToParts.call(dtf, date)).map((p) => p.value).join('');
    return s.replace(/\u202f/g, ' ');
  };
  Object.defineProperty(proto, 'format', {
    configurable: true,
    enumerable: false,
    get: function format() {
      let f = bound.get(this);
      if (f === undefined) {
        f = makeFormat(this, formatGetter.call(this));
        bound.set(this, f);
      }
      return f;
    },
  });
  methods(proto, {
    formatToParts(date) {
      const parts = formatToParts.call(this, date);
      const fix = partsFix(this);
      return fix === null ? parts : fix(parts);
    },
    resolvedOptions() {
      const o = resolved.call(this);
      o.timeZone = zoneOf.get(this) ?? defaultZoneID();
      return o;
    },
  });
  Object.defineProperty(proto.formatToParts, 'length', { value: 1 });
}

// ---- ListFormat: Spanish y/e and o/u, Hebrew ו/ו- ------------------------------
// ICU writes "e" for "y" before a word starting with an i sound ("i", "hi"
// not followed by a vowel a or e) and "u" for "o" before an o sound ("o",
// "ho", "8", "11"); and Hebrew "and" (ו, joined to its word) as "ו-"
// before a word that does not start with a Hebrew letter ("A ו-B"). CLDR's
// patterns cannot say so, and FormatJS does not.

{
  const proto = ListFormat.prototype;
  const formatToParts = proto.formatToParts;
  const fixSpanish = (p, next) => {
    if (p.value === ' y ' && /^(i|hi$|hi[^ae])/i.test(next)) p.value = ' e ';
    else if (p.value === ' o ' && /^(o|ho|8|11$)/i.test(next)) p.value = ' u ';
  };
  const fixHebrew = (p, next) => {
    if (p.value === ' \u05d5' && next !== '' && !/^\p{Script=Hebrew}/u.test(next)) p.value = ' \u05d5-';
  };
  const fixers = { es: fixSpanish, he: fixHebrew };
  const fixerOf = new WeakMap();
  const fixer = (lf) => {
    let f = fixerOf.get(lf);
    if (f === undefined) {
      f = fixers[proto.resolvedOptions.call(lf).locale.split('-')[0]] ?? null;
      fixerOf.set(lf, f);
    }
    return f;
  };
  const fix = (lf, parts) => {
    const f = fixer(lf);
    if (f === null) return parts;
    for (let i = 0; i + 1 < parts.length; i++) {
      if (parts[i].type === 'literal' && parts[i + 1].type === 'element') f(parts[i], parts[i + 1].value);
    }
    return parts;
  };
  methods(proto, {
    format(list) {
      return fix(this, formatToParts.call(this, list)).map((p) => p.value).join('');
    },
    formatToParts(list) {
      return fix(this, formatToParts.call(this, list));
    },
  });
  Object.defineProperty(proto.format, 'length', { value: 1 });
  Object.defineProperty(proto.formatToParts, 'length', { value: 1 });
}

// ---- DisplayNames: a language with a script ------------------------------------
// ICU names a language tag it has no name for by its language's name with
// the script's in the locale's pattern: zh-Hant, "Chinese (Traditional)".
// FormatJS composes only a language and a region. (A language, a script
// and a region take CLDR's localeSeparator, which FormatJS's data lacks:
// those keep FormatJS's answer.)

{
  const DN = Base.DisplayNames;
  const proto = DN.prototype;
  const of = proto.of;
  const resolved = proto.resolvedOptions;
  const TAG = /^([a-z]{2,3})-([A-Z][a-z]{3})$/;
  methods(proto, {
    of(code) {
      const r = of.call(this, code);
      const o = resolved.call(this);
      if (o.type !== 'language') return r;
      const canonical = Intl.getCanonicalLocales(String(code))[0];
      const m = TAG.exec(canonical);
      if (m === null || (r !== undefined && r !== canonical)) return r;
      const data = DN.localeData[o.locale];
      const pattern = data && data.patterns && data.patterns.locale;
      const opts = { style: o.style, languageDisplay: o.languageDisplay, fallback: 'none' };
      const lang = new DN(o.locale, { ...opts, type: 'language' }).of(m[1]);
      const script = new DN(o.locale, { ...opts, type: 'script' }).of(m[2]);
      if (pattern === undefined || lang === undefined || script === undefined) return r;
      return pattern.replace('{0}', lang).replace('{1}', script);
    },
  });
  Object.defineProperty(proto.of, 'length', { value: 1 });
}

// ---- Collator ----------------------------------------------------------------
// ECMA-402's Intl.Collator over native.collate. The locales it resolves to
// are those ICU has collation data under: a language (or a language and
// script) with formatting data, and the regions with tailorings of their
// own (fr-CA, en-US).

const COLLATOR_LOCALES = [...new Set([...LOCALES.filter((l) => !/-([A-Z]{2}|\d{3})$/.test(l)), ...COLLATIONS])];
const COLLATOR_DATA = {};
for (const l of COLLATOR_LOCALES) COLLATOR_DATA[l] = { kf: ['false', 'lower', 'upper'], kn: ['false', 'true'] };

const collatorSlots = new WeakMap();

function getOption(options, name, type, values, fallback) {
  let v = options[name];
  if (v === undefined) return fallback;
  v = type === 'boolean' ? Boolean(v) : String(v);
  if (values !== undefined && !values.includes(v)) throw new RangeError(`Value ${v} out of range for Intl.Collator options property ${name}`);
  return v;
}

// collatorOptions is the compact options string host/collate.go reads:
// the sensitivity's first letter (b, a, c, v), then n for numeric, U or L
// for caseFirst upper or lower, p for ignorePunctuation, s for usage
// search.
function collatorOptions(s) {
  let o = s.sensitivity[0];
  if (s.numeric) o += 'n';
  if (s.caseFirst === 'upper') o += 'U';
  else if (s.caseFirst === 'lower') o += 'L';
  if (s.ignorePunctuation) o += 'p';
  if (s.usage === 'search') o += 's';
  return o;
}

function Collator(locales, options) {
  if (new.target === undefined) return new Collator(locales, options);
  const requested = Intl.getCanonicalLocales(locales);
  options = options === undefined ? Object.create(null) : Object(options);
  if (options === null) throw new TypeError('Cannot convert undefined or null to object');
  const usage = getOption(options, 'usage', 'string', ['sort', 'search'], 'sort');
  getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit');
  const collation = getOption(options, 'collation', 'string', undefined, undefined);
  if (collation !== undefined && !/^[a-z0-9]{3,8}(-[a-z0-9]{3,8})*$/i.test(collation)) {
    throw new RangeError(`Invalid collation: ${collation}`);
  }
  let numeric = getOption(options, 'numeric', 'boolean', undefined, undefined);
  if (numeric !== undefined) numeric = String(numeric);
  const caseFirst = getOption(options, 'caseFirst', 'string', ['upper', 'lower', 'false'], undefined);
  const r = ResolveLocale(COLLATOR_LOCALES, requested, { localeMatcher: 'lookup', kn: numeric, kf: caseFirst }, ['kf', 'kn'], COLLATOR_DATA, () => DEFAULT_LOCALE);
  const slots = {
    locale: r.locale,
    dataLocale: r.dataLocale,
    usage,
    sensitivity: getOption(options, 'sensitivity', 'string', ['base', 'accent', 'case', 'variant'], 'variant'),
    ignorePunctuation: getOption(options, 'ignorePunctuation', 'boolean', undefined, false),
    collation: 'default',
    numeric: r.kn === 'true',
    caseFirst: r.kf ?? 'false',
    bound: undefined,
  };
  slots.options = collatorOptions(slots);
  collatorSlots.set(this, slots);
}

function slotsOf(c, method) {
  const s = collatorSlots.get(c);
  if (s === undefined) throw new TypeError(`Method Intl.Collator.prototype.${method} called on incompatible receiver`);
  return s;
}

function compareWith(s, x, y) {
  const a = String(x);
  const b = String(y);
  if (a === b) return 0;
  const r = native.collate(a, b, s.dataLocale, s.options);
  return r < 0 ? -1 : r > 0 ? 1 : 0;
}

Object.defineProperty(Collator, 'prototype', { writable: false, enumerable: false, configurable: false });
Object.defineProperty(Collator.prototype, Symbol.toStringTag, { value: 'Intl.Collator', writable: false, enumerable: false, configurable: true });
Object.defineProperty(Collator.prototype, 'compare', {
  configurable: true,
  enumerable: false,
  get: function compare() {
    const s = slotsOf(this, 'compare');
    if (s.bound === undefined) s.bound = ((st) => (x, y) => compareWith(st, x, y))(s);
    return s.bound;
  },
});
methods(Collator.prototype, {
  resolvedOptions() {
    const s = slotsOf(this, 'resolvedOptions');
    return {
      locale: s.locale,
      usage: s.usage,
      sensitivity: s.sensitivity,
      ignorePunctuation: s.ignorePunctuation,
      collation: s.collation,
      numeric: s.numeric,
      caseFirst: s.caseFirst,
    };
  },
});
methods(Collator, {
  supportedLocalesOf(locales, options) {
    if (options !== undefined) getOption(Object(options), 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit');
    return LookupSupportedLocales(COLLATOR_LOCALES, Intl.getCanonicalLocales(locales));
  },
});
Object.defineProperty(Collator.supportedLocalesOf, 'length', { value: 1 });
define(Intl, 'Collator', Collator);

// ---- Case mapping ----------------------------------------------------------------
// The language of TransformCase: the first requested locale's, or the
// default's.

installCaseMapping(define, (locales) => {
  const requested = Intl.getCanonicalLocales(locales);
  return (requested.length > 0 ? requested[0] : DEFAULT_LOCALE).split('-')[0];
});

// ---- toLocale* -----------------------------------------------------------------
// As ECMA-402 defines them. Making a formatter costs far more than using
// one (a DateTimeFormat with options, some 20 ms in the guest), so the
// formatters are kept, by kind, locale and options, when reading the
// options twice cannot tell: no options, or a plain object whose own
// properties are data holding primitives, while Object.prototype has no
// enumerable properties (which the options would inherit).

const cache = new Map();

function optionsKey(options) {
  if (options === undefined) return '';
  if (typeof options !== 'object' || options === null) return null;
  const proto = Object.getPrototypeOf(options);
  if (proto !== Object.prototype && proto !== null) return null;
  for (const _ in Object.prototype) return null;
  if (Object.getOwnPropertySymbols(options).length > 0) return null;
  const ds = Object.getOwnPropertyDescriptors(options);
  let key = '';
  for (const k of Object.keys(ds).sort()) {
    const d = ds[k];
    if (!('value' in d)) return null;
    const v = d.value;
    const t = typeof v;
    if (t === 'undefined') continue;
    if (t !== 'string' && t !== 'number' && t !== 'boolean') return null;
    key += JSON.stringify(k) + t[0] + JSON.stringify(String(v));
  }
  return key;
}

function cached(kind, locales, options, make) {
  if (locales !== undefined && typeof locales !== 'string') return make();
  const o = optionsKey(options);
  if (o === null) return make();
  const key = kind + '\u0000' + (locales ?? '') + '\u0000' + o;
  let f = cache.get(key);
  if (f === undefined) {
    f = make();
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, f);
  }
  return f;
}

// toDateTimeOptions is ECMA-402's ToDateTimeOptions: the options object a
// toLocale*String call formats with (required: date, time or any;
// defaults: date, time or all).
function toDateTimeOptions(options, required, defaults) {
  options = Object.create(options === undefined ? null : Object(options));
  let needDefaults = true;
  if (required === 'date' || required === 'any') {
    for (const p of ['weekday', 'year', 'month', 'day']) if (options[p] !== undefined) needDefaults = false;
  }
  if (required === 'time' || required === 'any') {
    for (const p of ['dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits']) if (options[p] !== undefined) needDefaults = false;
  }
  const dateStyle = options.dateStyle;
  const timeStyle = options.timeStyle;
  if (dateStyle !== undefined || timeStyle !== undefined) needDefaults = false;
  if (required === 'date' && timeStyle !== undefined) throw new TypeError('Invalid option : timeStyle');
  if (required === 'time' && dateStyle !== undefined) throw new TypeError('Invalid option : dateStyle');
  if (needDefaults && (defaults === 'date' || defaults === 'all')) {
    for (const p of ['year', 'month', 'day']) options[p] = 'numeric';
  }
  if (needDefaults && (defaults === 'time' || defaults === 'all')) {
    for (const p of ['hour', 'minute', 'second']) options[p] = 'numeric';
  }
  return options;
}

const thisTime = Date.prototype.getTime;
const thisNumber = Number.prototype.valueOf;
const thisBigInt = BigInt.prototype.valueOf;

function dateToLocale(date, locales, options, kind, required, defaults) {
  const t = thisTime.call(date);
  if (Number.isNaN(t)) return 'Invalid Date';
  const f = cached(kind, locales, options, () => new DateTimeFormat(locales, toDateTimeOptions(options, required, defaults)));
  return f.format(t);
}

methods(Date.prototype, {
  toLocaleString() {
    return dateToLocale(this, arguments[0], arguments[1], 'dt', 'any', 'all');
  },
  toLocaleDateString() {
    return dateToLocale(this, arguments[0], arguments[1], 'd', 'date', 'date');
  },
  toLocaleTimeString() {
    return dateToLocale(this, arguments[0], arguments[1], 't', 'time', 'time');
  },
});

function numberToLocale(x, locales, options) {
  const f = cached('n', locales, options, () => new NumberFormat(locales, options));
  return f.format(x);
}

methods(Number.prototype, {
  toLocaleString() {
    return numberToLocale(thisNumber.call(this), arguments[0], arguments[1]);
  },
});
methods(BigInt.prototype, {
  toLocaleString() {
    return numberToLocale(thisBigInt.call(this), arguments[0], arguments[1]);
  },
});

// Array.prototype.toLocaleString passes locales and options on to each
// element (ECMA-402); the separator is V8's ",". A cyclic array gives ""
// where it recurs, as in V8.
const joining = new Set();

function listToLocale(list, len, locales, options) {
  if (joining.has(list)) return '';
  joining.add(list);
  try {
    let r = '';
    for (let k = 0; k < len; k++) {
      if (k > 0) r += ',';
      const e = list[k];
      if (e !== undefined && e !== null) r += String(e.toLocaleString(locales, options));
    }
    return r;
  } finally {
    joining.delete(list);
  }
}

methods(Array.prototype, {
  toLocaleString() {
    const o = Object(this);
    if (this === undefined || this === null) throw new TypeError('Array.prototype.toLocaleString called on null or undefined');
    const len = Math.min(Math.max(Math.trunc(Number(o.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
    return listToLocale(o, len, arguments[0], arguments[1]);
  },
});

{
  const TypedArray = Object.getPrototypeOf(Int8Array.prototype);
  const length = Object.getOwnPropertyDescriptor(TypedArray, 'length').get;
  methods(TypedArray, {
    toLocaleString() {
      const len = length.call(this); // throws for a non-typed-array
      return listToLocale(this, len, arguments[0], arguments[1]);
    },
  });
}

methods(String.prototype, {
  localeCompare(that) {
    if (this === undefined || this === null) throw new TypeError('String.prototype.localeCompare called on null or undefined');
    const s = String(this);
    const t = String(that);
    const locales = arguments[1];
    const options = arguments[2];
    const c = cached('c', locales, options, () => new Collator(locales, options));
    return compareWith(collatorSlots.get(c), s, t);
  },
});
