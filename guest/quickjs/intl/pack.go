//go:build ignore

// The locale data of the Intl bundle (see bundle.go): every locale of
// FormatJS's CLDR data, by locale and constructor, each entry compressed
// on its own so that the host hands the guest one locale's data for one
// constructor at a time.
//
// The bundle is the script, a NUL byte, and the pack:
//
//	"PTCINTL1"  magic
//	uint32      n, the number of entries
//	n × {uint32 offset, uint32 size, uint32 raw size}   from the pack's start
//	the entries: raw DEFLATE (RFC 1951) of JSON text
//
// all little-endian. Entry locale*len(kinds) + kind is the data of
// LOCALES[locale] for KINDS[kind] (the script's index module, below); an
// empty entry means FormatJS has none (BASES -2). An entry is either the whole data
// ({"data":…,"locale":…}, as FormatJS's locale-data file would add it) or,
// when BASES names a base entry, a patch to the base's whole data: the
// patch's members replace the base's, an object member patches the base's
// object, and the member "\u0000" lists the keys the locale lacks. Most
// locales are a region of a language whose data differs from the
// language's in a few members (en-IN from en in its number grouping and
// date patterns), so patches keep the pack small.

package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/text/collate"
	"golang.org/x/text/unicode/norm"
)

// kinds are the constructors with locale data, and their packages.
var kinds = []struct{ name, pkg string }{
	{"NumberFormat", "intl-numberformat"},
	{"DateTimeFormat", "intl-datetimeformat"},
	{"RelativeTimeFormat", "intl-relativetimeformat"},
	{"ListFormat", "intl-listformat"},
	{"DisplayNames", "intl-displaynames"},
	{"PluralRules", "intl-pluralrules"},
}

const (
	numberKind   = 0
	dateKind     = 1
	relativeKind = 2
	pluralKind   = 5
)

// deleted is the member of a patch listing the keys a locale lacks.
const deleted = "\u0000"

type localeData struct {
	locales []string
	// full[l][k] is the data of locale l for kind k, nil when none.
	full [][]any
	// bases[l*len(kinds)+k] is the locale whose entry l's is a patch to,
	// -1 when it is whole, -2 when there is none.
	bases []int
	// pluralFns are the distinct plural rule functions (source); a plural
	// entry's data.fn is an index into them.
	pluralFns []string
	// timeZones are the time zone IDs ICU knows (see timeZoneIDs);
	// currencies the current ones (see currentCurrencies).
	timeZones  string
	currencies []string
}

var (
	// The argument of a locale-data file's __addLocaleData call.
	addData = regexp.MustCompile(`(?s)__addLocaleData\((\{.*\})\)\s*;?\s*\}\s*$`)
	// A range condition on n in a plural rule function: (n % 10) in 2..9
	// and n in 0..1 (rangeMod, rangeN).
	rangeMod = regexp.MustCompile(`\(\((n % \d+)\) >= (\d+) && \((n % \d+)\) <= (\d+)\)`)
	rangeN   = regexp.MustCompile(`\bn >= (\d+) && n <= (\d+)`)
	// The plural rule function inside a plural-rules data literal.
	pluralFn = regexp.MustCompile(`(?s)"fn":(function\(.*?\n\})(?:,"pluralRanges"|\}\s*,\s*"locale")`)
)

// collect reads every locale-data file of every kind.
func collect(dir string) (*localeData, error) {
	byLocale := map[string][]any{}
	fnIndex := map[string]int{}
	d := &localeData{}
	periods, err := dayPeriodRules(dir)
	if err != nil {
		return nil, err
	}
	prefs, err := readCalendarPrefs(dir)
	if err != nil {
		return nil, err
	}
	if d.timeZones, err = timeZoneIDs(dir); err != nil {
		return nil, err
	}
	if d.currencies, err = currentCurrencies(dir); err != nil {
		return nil, err
	}
	for k, kd := range kinds {
		ddir := filepath.Join(dir, "node_modules", "@formatjs", kd.pkg, "locale-data")
		ents, err := os.ReadDir(ddir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".js") {
				continue
			}
			locale := strings.TrimSuffix(name, ".js")
			src, err := os.ReadFile(filepath.Join(ddir, name))
			if err != nil {
				return nil, err
			}
			var arg string
			if m := parsedCall.FindStringSubmatch(string(src)); m != nil {
				if err := json.Unmarshal([]byte(m[1]), &arg); err != nil {
					return nil, fmt.Errorf("%s/%s: %w", kd.pkg, name, err)
				}
			} else if m := addData.FindStringSubmatch(string(src)); m != nil {
				arg = m[1]
			} else {
				return nil, fmt.Errorf("%s/%s: no locale data found: has its format changed?", kd.pkg, name)
			}
			if k == pluralKind {
				m := pluralFn.FindStringSubmatchIndex(arg)
				if m == nil {
					return nil, fmt.Errorf("%s/%s: no plural rule function found: has its format changed?", kd.pkg, name)
				}
				fn := integerRanges(arg[m[2]:m[3]])
				i, ok := fnIndex[fn]
				if !ok {
					i = len(d.pluralFns)
					fnIndex[fn] = i
					d.pluralFns = append(d.pluralFns, fn)
				}
				arg = arg[:m[2]] + fmt.Sprint(i) + arg[m[3]:]
			}
			var v any
			dec := json.NewDecoder(strings.NewReader(arg))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", kd.pkg, name, err)
			}
			switch k {
			case numberKind:
				err = refreshNumbers(dir, locale, v)
			case dateKind:
				err = refreshDates(dir, locale, v, periods)
				if err == nil {
					err = addCalendar(dir, locale, v, prefs)
				}
			case relativeKind:
				err = refreshRelative(dir, locale, v)
			}
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", kd.pkg, name, err)
			}
			if byLocale[locale] == nil {
				byLocale[locale] = make([]any, len(kinds))
			}
			byLocale[locale][k] = v
		}
	}
	for l := range byLocale {
		d.locales = append(d.locales, l)
	}
	sort.Strings(d.locales)
	index := map[string]int{}
	for i, l := range d.locales {
		index[l] = i
		d.full = append(d.full, byLocale[l])
	}
	d.bases = make([]int, len(d.locales)*len(kinds))
	for i := range d.bases {
		d.bases[i] = -2
	}
	// A locale's entry patches its nearest ancestor's (en-IN's, en's;
	// zh-Hant-HK's, zh-Hant's), or a sibling standing for a group of
	// regions (en-001 for en-IN, es-419 for es-MX) when that patch is
	// smaller. Bases come before the locales patching them (fewer
	// subtags), so no chain loops.
	for i, l := range d.locales {
		parts := strings.Split(l, "-")
		var cands []int
		for n := len(parts) - 1; n >= 1; n-- {
			if j, ok := index[strings.Join(parts[:n], "-")]; ok {
				cands = append(cands, j)
			}
		}
		if len(parts) == 2 && len(parts[1]) == 2 {
			for _, group := range []string{"001", "150", "419"} {
				if j, ok := index[parts[0]+"-"+group]; ok {
					cands = append(cands, j)
				}
			}
		}
		for k := range kinds {
			v := d.full[i][k]
			if v == nil {
				continue
			}
			best, bestSize := -1, len(mustJSON(v))
			for _, j := range cands {
				b := d.full[j][k]
				if b == nil {
					continue
				}
				if n := len(mustJSON(diff(b, v))); n < bestSize {
					best, bestSize = j, n
				}
			}
			d.bases[i*len(kinds)+k] = best
		}
	}
	return d, nil
}

// integerRanges corrects FormatJS's plural rule functions: CLDR's range
// conditions on the number's value (n = 0..1, n % 100 = 11..99) hold only
// for an integer in the range, while FormatJS's code compares as if the
// range were continuous, so that ar gives "many" for 67.891 and lt "few"
// for 2.5 where ICU (and Node) give "other" and "many".
func integerRanges(fn string) string {
	fn = rangeMod.ReplaceAllStringFunc(fn, func(m string) string {
		g := rangeMod.FindStringSubmatch(m)
		if g[1] != g[3] {
			return m
		}
		return "(Number.isInteger(" + g[1] + ") && (" + g[1] + ") >= " + g[2] + " && (" + g[1] + ") <= " + g[4] + ")"
	})
	return rangeN.ReplaceAllString(fn, "Number.isInteger(n) && n >= $1 && n <= $2")
}

// diff returns the patch turning a into b (see the package comment).
func diff(a, b any) any {
	ao, aok := a.(map[string]any)
	bo, bok := b.(map[string]any)
	if !aok || !bok {
		return b
	}
	p := map[string]any{}
	var gone []string
	for k := range ao {
		if _, ok := bo[k]; !ok {
			gone = append(gone, k)
		}
	}
	for k, bv := range bo {
		av, ok := ao[k]
		if ok && reflect.DeepEqual(av, bv) {
			continue
		}
		if ok {
			if _, isObj := bv.(map[string]any); isObj {
				if _, wasObj := av.(map[string]any); wasObj {
					p[k] = diff(av, bv)
					continue
				}
			}
		}
		p[k] = bv
	}
	if len(gone) > 0 {
		sort.Strings(gone)
		p[deleted] = gone
	}
	return p
}

func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// pack encodes the entries (see the package comment).
func (d *localeData) pack() ([]byte, error) {
	n := len(d.locales) * len(kinds)
	var body bytes.Buffer
	head := make([]byte, 12+12*n)
	copy(head, "PTCINTL1")
	binary.LittleEndian.PutUint32(head[8:], uint32(n))
	for i := 0; i < n; i++ {
		l, k := i/len(kinds), i%len(kinds)
		v := d.full[l][k]
		if v == nil {
			continue
		}
		if b := d.bases[i]; b >= 0 {
			v = diff(d.full[b][k], v)
		}
		raw := mustJSON(v)
		off := len(head) + body.Len()
		w, err := flate.NewWriter(&body, flate.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(raw); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		e := head[12+12*i:]
		binary.LittleEndian.PutUint32(e, uint32(off))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(head)+body.Len()-off))
		binary.LittleEndian.PutUint32(e[8:], uint32(len(raw)))
	}
	return append(head, body.Bytes()...), nil
}

// indexModule is the module entry.js imports as "ptc:intl-index".
const indexModule = "ptc:intl-index"

// indexPlugin serves the index of the pack to entry.js: LOCALES, KINDS,
// BASES (see localeData), PLURAL_FNS, the Unicode properties the
// locale-sensitive case mapping needs (casing.js), COLLATIONS, the
// tags golang.org/x/text/collate (the host's Collator) has tailorings for,
// TIME_ZONES and CURRENCIES (ids.go).
func (d *localeData) indexPlugin() api.Plugin {
	return api.Plugin{
		Name: "intl-index",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: "^" + regexp.QuoteMeta(indexModule) + "$"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: indexModule, Namespace: "intl-index"}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "intl-index"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				js := d.indexJS()
				return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS}, nil
			})
		},
	}
}

func (d *localeData) indexJS() string {
	var b strings.Builder
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	fmt.Fprintf(&b, "export const LOCALES = %s.split(' ');\n", mustJSON(strings.Join(d.locales, " ")))
	fmt.Fprintf(&b, "export const KINDS = %s;\n", mustJSON(names))
	fmt.Fprintf(&b, "export const BASES = %s;\n", mustJSON(d.bases))
	b.WriteString("export const PLURAL_FNS = [\n")
	for _, fn := range d.pluralFns {
		b.WriteString(fn + ",\n")
	}
	b.WriteString("];\n")
	fmt.Fprintf(&b, "export const SOFT_DOTTED = %s;\n", mustJSON(ranges(func(r rune) bool { return unicode.Is(unicode.Soft_Dotted, r) })))
	fmt.Fprintf(&b, "export const CCC_ABOVE = %s;\n", mustJSON(ranges(func(r rune) bool { return norm.NFD.PropertiesString(string(r)).CCC() == 230 })))
	fmt.Fprintf(&b, "export const CCC_OTHER = %s;\n", mustJSON(ranges(func(r rune) bool {
		c := norm.NFD.PropertiesString(string(r)).CCC()
		return c != 0 && c != 230
	})))
	var coll []string
	for _, t := range collate.Supported() {
		if s := t.String(); !strings.Contains(s, "-u-") && s != "und" {
			coll = append(coll, s)
		}
	}
	fmt.Fprintf(&b, "export const COLLATIONS = %s;\n", mustJSON(coll))
	fmt.Fprintf(&b, "export const TIME_ZONES = %s;\n", mustJSON(d.timeZones))
	fmt.Fprintf(&b, "export const CURRENCIES = %s.split(' ');\n", mustJSON(strings.Join(d.currencies, " ")))
	return b.String()
}

// ranges lists the code points where f holds as [first, last] pairs,
// flattened.
func ranges(f func(rune) bool) []rune {
	var out []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF || !f(r) {
			continue
		}
		if n := len(out); n > 0 && out[n-1] == r-1 {
			out[n-1] = r
		} else {
			out = append(out, r, r)
		}
	}
	return out
}

// refreshDates brings a locale's date data (v, as FormatJS's file has it)
// to the CLDR release Node 20's ICU carries, from the cldr-dates-full
// package: the patterns joining a date to a time (data.glue), standard and
// "at time" (which FormatJS's data lacks: "10 марта 2024 г. в 06:30"), the
// date and time patterns, the pattern of every skeleton both have, and the
// day periods (a's AM and PM, B's names and the rules choosing them).
// (Not the interval patterns: FormatJS rejects some of CLDR 48's, en-CA's.) A locale cldr-dates-full lacks
// keeps FormatJS's data.
func refreshDates(dir, locale string, v any, periods map[string][]any) error {
	var doc struct {
		Main map[string]struct {
			Dates struct {
				Calendars struct {
					Gregorian struct {
						DateFormats     map[string]any `json:"dateFormats"`
						TimeFormats     map[string]any `json:"timeFormats"`
						DateTimeFormats struct {
							Full, Long, Medium, Short string
							AvailableFormats          map[string]any `json:"availableFormats"`
						} `json:"dateTimeFormats"`
						AtTime struct {
							Standard map[string]string `json:"standard"`
						} `json:"dateTimeFormats-atTime"`
						DayPeriods struct {
							Format map[string]map[string]string `json:"format"`
						} `json:"dayPeriods"`
						Days map[string]map[string]map[string]string `json:"days"`
					} `json:"gregorian"`
				} `json:"calendars"`
			} `json:"dates"`
		} `json:"main"`
	}
	if found, err := readLocaleJSON(dir, "cldr-dates-full", locale, "ca-gregorian.json", &doc); !found || err != nil {
		return err
	}
	m, ok := doc.Main[locale]
	if !ok {
		return fmt.Errorf("cldr-dates-full: no main.%s", locale)
	}
	g := m.Dates.Calendars.Gregorian
	data, _ := v.(map[string]any)["data"].(map[string]any)
	if data == nil {
		return fmt.Errorf("no data")
	}
	// FormatJS built its combined date-and-time skeletons with its own
	// dateTimeFormat, which data.js reads to take them apart: CLDR's goes
	// beside it, as glue.
	dtf := g.DateTimeFormats
	glue := map[string]any{}
	if dtf.Full != "" {
		glue["full"], glue["long"], glue["medium"], glue["short"] = dtf.Full, dtf.Long, dtf.Medium, dtf.Short
	}
	// ICU 78 joins a date to a time with the atTime variants
	// ("25.12.2024, 18:05:00" in az, whose standard pattern has no comma).
	for _, k := range []string{"full", "long", "medium", "short"} {
		if p, ok := g.AtTime.Standard[k]; ok {
			glue[k] = p
		}
	}
	if len(glue) > 0 {
		data["glue"] = glue
	}
	// A pattern with a numbering-system override ({"_value", "_numbers"})
	// stays FormatJS's.
	for key, src := range map[string]map[string]any{"dateFormat": g.DateFormats, "timeFormat": g.TimeFormats} {
		if len(src) == 0 {
			continue
		}
		dst, _ := data[key].(map[string]any)
		for _, k := range []string{"full", "long", "medium", "short"} {
			if p, ok := src[k].(string); ok && dst != nil {
				dst[k] = p
			}
		}
	}
	// A locale whose data names no hour cycle (ms) takes its short time
	// pattern's, as ICU does: h12 for "h:mm a".
	if hc, _ := data["hourCycle"].(string); hc == "" {
		tf, _ := data["timeFormat"].(map[string]any)
		short, _ := tf["short"].(string)
		for _, c := range short {
			if h, ok := map[rune]string{'h': "h12", 'H': "h23", 'K': "h11", 'k': "h24"}[c]; ok {
				data["hourCycle"] = h
				break
			}
		}
	}
	refreshDayPeriods(locale, data, g.DayPeriods.Format, periods)
	if names := standAloneWeekdays(g.Days); names != nil {
		data["weekdayStandalone"] = names
	}
	formats, _ := data["formats"].(map[string]any)
	greg, _ := formats["gregory"].(map[string]any)
	for sk, p := range dtf.AvailableFormats {
		if _, ok := greg[sk]; ok && !strings.Contains(sk, "-") {
			if ps, ok := p.(string); ok {
				greg[sk] = ps
			}
		}
	}
	return nil
}

// standAloneWeekdays returns a locale's stand-alone weekday names by
// FormatJS's widths (narrow, short, long; Sunday first) when CLDR's differ
// from the format names in some width ("sunnuntai" against "sunnuntaina"
// in fi, "So" against "So." in de), else nil. bundle.go's
// standAloneWeekday writes them for a pattern's c.
func standAloneWeekdays(days map[string]map[string]map[string]string) map[string]any {
	keys := []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	out := map[string]any{}
	differ := false
	for _, w := range [][2]string{{"narrow", "narrow"}, {"short", "abbreviated"}, {"long", "wide"}} {
		format, alone := days["format"][w[1]], days["stand-alone"][w[1]]
		names := make([]any, len(keys))
		for i, k := range keys {
			f, a := format[k], alone[k]
			if f == "" || a == "" {
				return nil
			}
			names[i] = a
			differ = differ || a != f
		}
		out[w[0]] = names
	}
	if !differ {
		return nil
	}
	return out
}

// refreshDayPeriods sets a locale's day periods to CLDR 48's: a's AM and
// PM (the abbreviated format names, "AM" in ko), B's names by width
// (FormatJS's narrow, short and long are CLDR's narrow, abbreviated and
// wide) and the rules choosing them. The rules are those of the locale's
// nearest ancestor in CLDR's dayPeriods.json, as ICU finds them: zh-Hant
// has no set of its own and takes zh's (清晨 at 6:30), where FormatJS's
// data fell back to AM and PM.
func refreshDayPeriods(locale string, data map[string]any, format map[string]map[string]string, periods map[string][]any) {
	if ab := format["abbreviated"]; ab["am"] != "" && ab["pm"] != "" {
		data["am"], data["pm"] = ab["am"], ab["pm"]
	}
	names := map[string]any{}
	for fj, cldr := range map[string]string{"narrow": "narrow", "short": "abbreviated", "long": "wide"} {
		if m := format[cldr]; len(m) > 0 {
			w := map[string]any{}
			for k, v := range m {
				w[k] = v
			}
			names[fj] = w
		}
	}
	if len(names) == 3 {
		data["dayPeriods"] = names
	}
	for l := locale; ; {
		if r, ok := periods[l]; ok {
			data["dayPeriodRules"] = r
			return
		}
		i := strings.LastIndexByte(l, '-')
		if i < 0 {
			break
		}
		l = l[:i]
	}
	data["dayPeriodRules"] = periods["und"]
}

// dayPeriodRules reads CLDR's day period rules (cldr-core's
// dayPeriods.json) by locale, as FormatJS's data writes them: a period
// from one time of day to another or at one, in milliseconds since
// midnight, sorted by name. Midnight is left out: ICU never names it for
// B (since ICU 57), it says "at night".
func dayPeriodRules(dir string) (map[string][]any, error) {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "cldr-core", "supplemental", "dayPeriods.json"))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Supplemental struct {
			Sets map[string]map[string]struct {
				At     string `json:"_at"`
				From   string `json:"_from"`
				Before string `json:"_before"`
			} `json:"dayPeriodRuleSet"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("dayPeriods.json: %w", err)
	}
	ms := func(hm string) (json.Number, error) {
		var h, m int
		if _, err := fmt.Sscanf(hm, "%d:%d", &h, &m); err != nil {
			return "", fmt.Errorf("dayPeriods.json: time %q: %w", hm, err)
		}
		return json.Number(fmt.Sprint((h*60 + m) * 60000)), nil
	}
	out := map[string][]any{}
	for locale, set := range doc.Supplemental.Sets {
		var rules []any
		for _, name := range slices.Sorted(maps.Keys(set)) {
			r := set[name]
			if name == "midnight" {
				continue
			}
			rule := map[string]any{"name": name}
			if r.At != "" {
				at, err := ms(r.At)
				if err != nil {
					return nil, err
				}
				rule["at"] = at
			} else {
				from, err := ms(r.From)
				if err != nil {
					return nil, err
				}
				before, err := ms(r.Before)
				if err != nil {
					return nil, err
				}
				rule["from"], rule["before"] = from, before
			}
			rules = append(rules, rule)
		}
		out[strings.ReplaceAll(locale, "_", "-")] = rules
	}
	if out["und"] == nil {
		return nil, fmt.Errorf("dayPeriods.json: no rules for und")
	}
	return out, nil
}

// relativeUnits are the units of Intl.RelativeTimeFormat, CLDR's date
// fields by the same names.
var relativeUnits = []string{"second", "minute", "hour", "day", "week", "month", "quarter", "year"}

// refreshRelative brings a locale's relative-time data (v, as FormatJS's
// file has it) to CLDR 48, from cldr-dates-full's dateFields.json: for
// each unit and width, the words for -2 to 2 ("Hôm qua" in vi) and the
// future and past patterns by plural category ("{0} gün öncə" in az). A
// locale or field cldr-dates-full lacks keeps FormatJS's.
func refreshRelative(dir, locale string, v any) error {
	var doc struct {
		Main map[string]struct {
			Dates struct {
				Fields map[string]map[string]any `json:"fields"`
			} `json:"dates"`
		} `json:"main"`
	}
	if found, err := readLocaleJSON(dir, "cldr-dates-full", locale, "dateFields.json", &doc); !found || err != nil {
		return err
	}
	m, ok := doc.Main[locale]
	if !ok {
		return fmt.Errorf("cldr-dates-full: no main.%s", locale)
	}
	data, _ := v.(map[string]any)["data"].(map[string]any)
	if data == nil {
		return fmt.Errorf("no data")
	}
	for _, unit := range relativeUnits {
		for _, width := range []string{"", "-short", "-narrow"} {
			field, ok := m.Dates.Fields[unit+width]
			if !ok {
				continue
			}
			entry := map[string]any{}
			for k, val := range field {
				switch {
				case strings.HasPrefix(k, "relative-type-"):
					entry[strings.TrimPrefix(k, "relative-type-")] = val
				case k == "relativeTime-type-future" || k == "relativeTime-type-past":
					pats, _ := val.(map[string]any)
					byCount := map[string]any{}
					for c, p := range pats {
						byCount[strings.TrimPrefix(c, "relativeTimePattern-count-")] = p
					}
					entry[strings.TrimPrefix(k, "relativeTime-type-")] = byCount
				}
			}
			if entry["future"] == nil || entry["past"] == nil {
				continue
			}
			data[unit+width] = entry
		}
	}
	return nil
}

// refreshNumbers brings a locale's number symbols and currency names (v,
// as FormatJS's file has it) to CLDR 48, from cldr-numbers-full: each
// numbering system's symbols the locale's numbers.json lists (fr-CH
// groups with U+202F, not FormatJS's apostrophe), the patterns joining a
// number to a currency's name by plural category, and each currency's
// names by plural category and its symbols (ro's "dolari americani" for
// every count of 20 and more). What cldr-numbers-full lacks stays
// FormatJS's.
func refreshNumbers(dir, locale string, v any) error {
	var numbers struct {
		Main map[string]struct {
			Numbers map[string]any `json:"numbers"`
		} `json:"main"`
	}
	var currencies struct {
		Main map[string]struct {
			Numbers struct {
				Currencies map[string]map[string]string `json:"currencies"`
			} `json:"numbers"`
		} `json:"main"`
	}
	for name, doc := range map[string]any{"numbers.json": &numbers, "currencies.json": &currencies} {
		if found, err := readLocaleJSON(dir, "cldr-numbers-full", locale, name, doc); !found || err != nil {
			return err
		}
	}
	data, _ := v.(map[string]any)["data"].(map[string]any)
	if data == nil {
		return fmt.Errorf("no data")
	}
	if nums, _ := data["numbers"].(map[string]any); nums != nil {
		symbols, _ := nums["symbols"].(map[string]any)
		for key, val := range numbers.Main[locale].Numbers {
			nu, ok := strings.CutPrefix(key, "symbols-numberSystem-")
			have, _ := symbols[nu].(map[string]any)
			src, _ := val.(map[string]any)
			if !ok || have == nil {
				continue
			}
			for k, s := range src {
				if _, known := have[k]; known {
					have[k] = s
				}
			}
		}
		// A currency's name follows the number by a pattern chosen by
		// plural category (ro: "{0} de {1}" for other, "{0} {1}" for one
		// and few); FormatJS keeps only the other one, unitPattern.
		// bundle.go makes the polyfill choose from unitPatterns.
		currency, _ := nums["currency"].(map[string]any)
		for key, val := range numbers.Main[locale].Numbers {
			nu, ok := strings.CutPrefix(key, "currencyFormats-numberSystem-")
			have, _ := currency[nu].(map[string]any)
			src, _ := val.(map[string]any)
			if !ok || have == nil {
				continue
			}
			byCount := map[string]any{}
			for k, p := range src {
				if count, ok := strings.CutPrefix(k, "unitPattern-count-"); ok {
					byCount[count] = p
				}
			}
			if p, ok := byCount["other"]; ok {
				have["unitPattern"] = p
				have["unitPatterns"] = byCount
			}
		}
	}
	have, _ := data["currencies"].(map[string]any)
	for code, src := range currencies.Main[locale].Numbers.Currencies {
		c, _ := have[code].(map[string]any)
		if c == nil {
			continue
		}
		if names, _ := c["displayName"].(map[string]any); names != nil {
			for k, s := range src {
				if count, ok := strings.CutPrefix(k, "displayName-count-"); ok {
					names[count] = s
				}
			}
		}
		if s, ok := src["symbol"]; ok {
			c["symbol"] = s
		}
		if s, ok := src["symbol-alt-narrow"]; ok {
			c["narrow"] = s
		}
	}
	return nil
}

// readLocaleJSON decodes a locale's file of a CLDR package (node_modules/
// PKG/main/LOCALE/FILE) into doc. A file the package lacks is not found
// and no error: the locale keeps FormatJS's data.
func readLocaleJSON(dir, pkg, locale, file string, doc any) (found bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "main", locale, file))
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, doc); err != nil {
		return false, fmt.Errorf("%s %s/%s: %w", pkg, locale, file, err)
	}
	return true, nil
}
