// Corrections to FormatJS's locale data, applied as each locale is added
// (entry.js imports this module after the polyfills and before the data).
//
// Each one is a deterministic difference between the CLDR data FormatJS
// ships and what ICU 78 (CLDR 48), and so Node 20, does with it; each is
// named in RATIONALE.md ("Why FormatJS in the guest and x/text for collation?") and checked by
// testdata/intl/cases.json.

const patched = new WeakSet();

function hook(ctor, patch) {
  const add = ctor.__addLocaleData;
  ctor.__addLocaleData = function __addLocaleData(...entries) {
    for (const e of entries) {
      if (e && e.data && !patched.has(e.data)) {
        patched.add(e.data);
        patch(e.locale, e.data);
      }
    }
    return add.apply(this, entries);
  };
}

const DATE_FIELDS = /[GyYuUrQqMLlwWdDFgEec]/;
const TIME_FIELDS = /[abBhHkKjJmsSAzZOvVXx]/;
const SKELETON = /^[A-Za-z]+$/;

// The style ICU's pattern generator picks to join a date skeleton to a
// time: full for a long month with a weekday, long for a long month,
// medium for an abbreviated one, else short.
function styleOf(dateSkeleton) {
  const m = /[ML]+/.exec(dateSkeleton);
  const width = m ? m[0].length : 0;
  if (width >= 4) return /[Ec]/.test(dateSkeleton) ? 'full' : 'long';
  return width === 3 ? 'medium' : 'short';
}

function join(glue, date, time) {
  return glue.replace('{1}', date).replace('{0}', time);
}

// The time-zone fields a skeleton's generic zone (v) stands for when a
// format asks for another kind of zone name: ICU adapts the v of "Hv" to
// the requested z, O or v width; FormatJS matches only what is listed.
const ZONES = ['z', 'zzzz', 'O', 'OOOO', 'vvvv'];

function patchDateTimeFormat(locale, data) {
  // The literal between date and time in the data's standard patterns:
  // FormatJS builds its combined date-and-time skeletons with them.
  const seps = new Set();
  for (const k of ['full', 'long', 'medium', 'short']) {
    const p = data.dateTimeFormat[k];
    const i = p.indexOf('{1}');
    const j = p.indexOf('{0}');
    if (i >= 0 && j > i) seps.add(p.slice(i + 3, j).replace(/'/g, ''));
  }
  // The patterns ICU joins a date to a time with, by the date's style:
  // CLDR's, from cldr-dates-full (pack.go, refreshDates), "at" variants
  // included; FormatJS's where there are none.
  const glues = { ...data.dateTimeFormat, ...data.glue };
  data.dateTimeFormat = glues;
  const styleDates = new Set(Object.values(data.dateFormat || {}));
  const styleTimes = new Set(Object.values(data.timeFormat || {}));
  // The combined entries of the Gregorian calendar, as [key, date
  // skeleton, time pattern], for the locale's other calendars below.
  const combined = [];
  const others = data.calendarData || {};
  for (const cal of Object.keys(data.formats || {})) {
    const f = data.formats[cal];
    if (!f || typeof f !== 'object' || cal in others) continue;
    const dates = new Set();
    const times = new Set();
    for (const k of Object.keys(f)) {
      if (!SKELETON.test(k)) continue;
      const d = DATE_FIELDS.test(k);
      const t = TIME_FIELDS.test(k);
      if (d && !t) dates.add(k);
      else if (t && !d) times.add(k);
    }
    // Rebuild every combined date-and-time entry as ICU would: the date
    // skeleton's pattern and the time's, joined by the glue of the date's
    // style. Entries FormatJS built from a date *style* pattern (as
    // "y年M月d日 H:mm:ss") have no counterpart in ICU, where they made a
    // numeric ja date come out as a long one; they go.
    const out = {};
    for (const k of Object.keys(f)) {
      if (SKELETON.test(k)) {
        out[k] = f[k];
        continue;
      }
      const split = splitCombined(k, seps, dates, times, styleDates, styleTimes);
      if (!split) {
        out[k] = f[k];
        continue;
      }
      const [d, t] = split;
      if (!dates.has(d)) continue; // a style pattern: dropped
      const time = times.has(t) ? f[t] : t;
      out[k] = join(glues[styleOf(d)], f[d], time);
      if (cal === 'gregory') combined.push([k, d, time]);
    }
    // A date with only a time-zone name ("12/25/2024, Eastern Standard
    // Time"): ICU joins the zone to the date as it would a time.
    for (const d of dates) {
      for (const z of ZONES) {
        const k = d + ' ' + z;
        if (!(k in out)) out[k] = join(glues[styleOf(d)], f[d], z);
      }
    }
    // Times whose generic zone stands for any zone name ("Hv" → "HO").
    for (const t of times) {
      if (!/v/.test(t) || /vvvv/.test(t)) continue;
      for (const z of ZONES) {
        const k = t.replace('v', z);
        if (!(k in out)) out[k] = f[t].replace(/v+/, z);
      }
    }
    data.formats[cal] = out;
  }
  // A locale's other calendar (pack.go adds a default one that is not
  // the Gregorian: th's buddhist, fa's persian) brings its date skeletons,
  // names and date styles; its times, zones, interval patterns and glue
  // are the Gregorian's, and its combined entries are built as those are.
  const greg = data.formats && data.formats.gregory;
  for (const cal of Object.keys(others)) {
    const own = data.formats[cal];
    const cd = others[cal];
    if (!greg || !own) continue;
    cd.timeFormat ??= data.timeFormat;
    cd.dateTimeFormat ??= glues;
    cd.intervalFormats ??= data.intervalFormats;
    const out = { ...own };
    // Times, alone or with only a weekday (EHm: "E H:mm"), are the
    // Gregorian's.
    for (const k of Object.keys(greg)) {
      if (SKELETON.test(k) && TIME_FIELDS.test(k) && !DATE_FIELDS.test(k.replace(/[Ec]/g, ''))) out[k] = greg[k];
    }
    // ICU's pattern generator also matches the date styles by their
    // skeletons (fa's full "y MMMM d, EEEE" for a long weekday, year, month
    // and day); FormatJS's Gregorian data lists them by pattern.
    for (const p of Object.values(cd.dateFormat || {})) {
      if (typeof p === 'string' && !(p in out)) out[p] = p;
    }
    for (const [k, d, time] of combined) {
      if (own[d] !== undefined) out[k] = join(glues[styleOf(d)], own[d], time);
    }
    for (const d of Object.keys(own)) {
      for (const z of ZONES) {
        const k = d + ' ' + z;
        if (!(k in out)) out[k] = join(glues[styleOf(d)], own[d], z);
      }
    }
    data.formats[cal] = out;
  }
}

// splitCombined finds the date and time parts of a combined key
// (date + separator + time), or returns null.
function splitCombined(k, seps, dates, times, styleDates, styleTimes) {
  for (const sep of seps) {
    let i = k.indexOf(sep);
    while (i > 0) {
      const d = k.slice(0, i);
      const t = k.slice(i + sep.length);
      if ((dates.has(d) || styleDates.has(d)) && (times.has(t) || styleTimes.has(t))) return [d, t];
      i = k.indexOf(sep, i + 1);
    }
  }
  return null;
}

// ICU formats the percent unit ({style: 'unit', unit: 'percent'}) in its
// short and narrow forms with the locale's percent pattern (de "45 %"
// with a no-break space), not with the unit pattern FormatJS uses.
function patchNumberFormat(locale, data) {
  const pct = data.numbers && data.numbers.percent && data.numbers.percent.latn;
  const unit = data.units && data.units.simple && data.units.simple.percent;
  if (!pct || !unit) return;
  const pattern = pct.split(';')[0].replace(/[#0,.]+/, '{0}');
  for (const w of ['short', 'narrow']) {
    if (!unit[w]) continue;
    const forms = {};
    for (const k of Object.keys(unit[w])) forms[k] = pattern;
    unit[w] = forms;
  }
}

hook(Intl.DateTimeFormat, patchDateTimeFormat);
hook(Intl.NumberFormat, patchNumberFormat);
