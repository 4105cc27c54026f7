package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptchost/ptc/guest/quickjs"
)

// intlWired is the switch to flip when the guest loads its Intl bundle by
// itself (lazily, on first use) and the host answers the collate import
// with collators: the cases then run as plain programs, Collator and
// localeCompare included, through the real import. Until then each run
// gets the bundle as its prelude, installed with a JavaScript stand-in for
// native.collate that answers from a table the test computes with
// collators (see runIntlCases).
const intlWired = true

// intlKnown lists the conformance cases known to differ from Node 20, with
// the reason. A listed case that starts to match fails the test, so the
// list stays true.
var intlKnown = map[string]string{
	"dtf.formatRange.months.ja-JP": "ICU 78 formats a ja range of long-month dates as 2024/03/10～2024/12/25 (its interval fallback widens M to MM); FormatJS uses CLDR's y年M月d日～M月d日",
	"dtf.tzName.generic":           "FormatJS's data has no generic zone names (Pacific Time, PT); it writes the GMT offset",
	"dtf.ja.calendar":              "the japanese calendar is not bundled (the Gregorian is, and the buddhist and persian ones where a locale defaults to them); ja-u-ca-japanese formats Gregorian years (西暦2024年)",
}

// knownDifferences returns intlKnown and testdata/intl/known.json (the
// cases of the many-locale table known to differ, each with its reason).
func knownDifferences(tb testing.TB) map[string]string {
	tb.Helper()
	known := maps.Clone(intlKnown)
	b, err := os.ReadFile(repoFile("testdata", "intl", "known.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var more map[string]string
	if err := json.Unmarshal(b, &more); err != nil {
		tb.Fatalf("known.json: %v", err)
	}
	for k, v := range more {
		if _, dup := known[k]; dup {
			tb.Fatalf("known.json: %s is listed twice", k)
		}
		known[k] = v
	}
	return known
}

type intlCase struct {
	Name     string          `json:"name"`
	Code     string          `json:"code"`
	Expected json.RawMessage `json:"expected"`
}

// repoFile is a path from the repository root.
func repoFile(parts ...string) string {
	return filepath.Join(append([]string{".."}, parts...)...)
}

func intlBundle(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile(repoFile("guest", "quickjs", "intl.js"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func intlCases(tb testing.TB) []intlCase {
	tb.Helper()
	b, err := os.ReadFile(repoFile("testdata", "intl", "cases.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var cs []intlCase
	if err := json.Unmarshal(b, &cs); err != nil {
		tb.Fatal(err)
	}
	return cs
}

var (
	intlHostOnce sync.Once
	intlHost     *Host
	intlHostErr  error
)

// newIntlHost returns a host over the real guest shared by this file's
// tests, skipping when the guest is not built.
func newIntlHost(tb testing.TB) *Host {
	tb.Helper()
	intlHostOnce.Do(func() { intlHost, intlHostErr = New(context.Background(), Config{}) })
	if errors.Is(intlHostErr, quickjs.ErrNotBuilt) {
		tb.Skip("guest not built: run make guest")
	}
	if intlHostErr != nil {
		tb.Fatal(intlHostErr)
	}
	return intlHost
}

// collateStandIn is native.collate for a guest whose host has no collate
// import yet. It answers from globalThis.__collateRanks, which the program
// sets: for each locale and options, the rank of each string in the order
// collators gives them; it records every comparison it cannot answer.
const collateStandIn = `{collate(a, b, locale, options) {
	const g = globalThis.__collateRanks?.[locale + "\u0000" + options];
	if (g !== undefined && Object.hasOwn(g, a) && Object.hasOwn(g, b)) return Math.sign(g[a] - g[b]);
	(globalThis.__collateMisses ??= []).push([locale, options, a, b]);
	return a < b ? -1 : a > b ? 1 : 0;
}}`

// intlPrelude is the prelude each run gets until the guest is wired.
func intlPrelude(bundle string) string {
	if intlWired {
		return ""
	}
	return "(" + strings.TrimSpace(bundle) + ")(" + collateStandIn + ");"
}

// casesProgram runs cases and returns, for those whose result differs
// from the expected one, [name, result as JSON or the exception].
func casesProgram(cs []intlCase, ranks map[string]map[string]int) string {
	var b strings.Builder
	if !intlWired {
		r, _ := json.Marshal(ranks)
		b.WriteString("globalThis.__collateRanks = ")
		b.Write(r)
		b.WriteString(";\nglobalThis.__collateMisses = [];\n")
	}
	b.WriteString("const cases = [\n")
	for _, c := range cs {
		name, _ := json.Marshal(c.Name)
		code, _ := json.Marshal(c.Code)
		var want bytes.Buffer
		if err := json.Compact(&want, c.Expected); err != nil {
			panic(err)
		}
		b.WriteString("[" + string(name) + ", " + string(code) + ", " + want.String() + "],\n")
	}
	b.WriteString(`];
const mismatches = [];
for (const [name, code, want] of cases) {
	let got;
	try {
		got = JSON.stringify(new Function(code)());
	} catch (e) {
		got = "throws " + (e && e.name) + ": " + (e && e.message);
	}
	if (got !== JSON.stringify(want)) mismatches.push([name, got]);
}
return {mismatches, misses: globalThis.__collateMisses ?? []};
`)
	return b.String()
}

type casesResult struct {
	Mismatches [][2]string `json:"mismatches"`
	Misses     [][4]string `json:"misses"`
}

// runIntlCases runs the cases in the guest, in programs of at most about
// 100 KiB, and returns the name and result of each that did not match.
// Until the guest is wired, Collator cases run again as long as they
// compare strings the stand-in has no rank for, each time with the ranks
// collators gives all the strings seen so far.
func runIntlCases(t *testing.T, h *Host, prelude string, cs []intlCase) map[string]string {
	t.Helper()
	var cmp collators
	seen := map[[2]string]map[string]bool{} // locale and options → strings
	ranks := map[string]map[string]int{}
	bad := map[string]string{}
	pending := cs
	for pass := 1; len(pending) > 0; pass++ {
		if pass > 4 {
			t.Fatalf("Collator cases still compare new strings after %d passes", pass-1)
		}
		var again []intlCase
		missed := false
		for len(pending) > 0 {
			n, size := 0, 0
			for n < len(pending) && size < 100<<10 {
				size += len(pending[n].Code) + len(pending[n].Expected) + 64
				n++
			}
			chunk := pending[:n]
			pending = pending[n:]
			out := h.Run(context.Background(), Program{Prelude: prelude, Source: casesProgram(chunk, ranks), Limits: Limits{SourceBytes: 8 << 20, Timeout: 5 * time.Minute, MemoryBytes: 512 << 20}})
			if out.Kind != KindOK {
				t.Fatalf("cases %s…: %s\n%s", chunk[0].Name, out.Text(), out.Stack)
			}
			var res casesResult
			if err := json.Unmarshal(out.ReturnValue, &res); err != nil {
				t.Fatalf("cases %s…: %v", chunk[0].Name, err)
			}
			for _, m := range res.Mismatches {
				bad[m[0]] = m[1]
			}
			if len(res.Misses) == 0 {
				continue
			}
			missed = true
			for _, m := range res.Misses {
				k := [2]string{m[0], m[1]}
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				seen[k][m[2]], seen[k][m[3]] = true, true
			}
			for _, c := range chunk {
				if strings.HasPrefix(c.Name, "collate.") {
					delete(bad, c.Name)
					again = append(again, c)
				}
			}
		}
		if missed {
			for k, set := range seen {
				strs := slices.Collect(maps.Keys(set))
				slices.SortFunc(strs, func(a, b string) int { return cmp.compare(k[0], k[1], a, b) })
				r := map[string]int{}
				for i, s := range strs {
					r[s] = i
					if i > 0 && cmp.compare(k[0], k[1], strs[i-1], s) == 0 {
						r[s] = r[strs[i-1]]
					}
				}
				ranks[k[0]+"\x00"+k[1]] = r
			}
		}
		pending = again
	}
	return bad
}

// TestIntl_conformance runs testdata/intl/cases.json (Node 20's output, by
// testdata/intl/gen.js) in the guest.
func TestIntl_conformance(t *testing.T) {
	bundle := intlBundle(t)
	h := newIntlHost(t)
	cs := intlCases(t)
	bad := runIntlCases(t, h, intlPrelude(bundle), cs)
	known := knownDifferences(t)
	names := map[string]bool{}
	for _, c := range cs {
		names[c.Name] = true
	}
	for k := range known {
		if !names[k] {
			t.Errorf("known difference %s is not a case", k)
		}
	}
	want := map[string]string{}
	for _, c := range cs {
		var b bytes.Buffer
		_ = json.Compact(&b, c.Expected)
		want[c.Name] = b.String()
	}
	matched, failed := 0, 0
	for _, c := range cs {
		got, mismatched := bad[c.Name]
		why, isKnown := known[c.Name]
		switch {
		case !mismatched && isKnown:
			failed++
			t.Errorf("%s: now matches Node; remove it from intlKnown or known.json", c.Name)
		case !mismatched:
			matched++
		case isKnown:
			t.Logf("known difference %s: %s\n  node  %s\n  guest %s", c.Name, why, want[c.Name], got)
		default:
			failed++
			t.Errorf("%s:\n  code  %s\n  node  %s\n  guest %s", c.Name, c.Code, want[c.Name], got)
		}
	}
	t.Logf("%d/%d cases match Node 20 (%d known differences)", matched, len(cs), len(known))
}

// TestIntl_install checks the bundle's contract: evaluating it defines
// nothing and completes with install(native); install puts Intl on
// globalThis as a non-enumerable, writable, configurable property.
func TestIntl_install(t *testing.T) {
	bundle := intlBundle(t)
	h := newIntlHost(t)
	script, packBytes := splitIntl([]byte(bundle))
	pack, err := parseIntlPack(packBytes)
	if err != nil {
		t.Fatal(err)
	}
	// The prelude's intlData answers with the entries of the locale en.
	en := map[string]string{}
	for k := range pack.n {
		text, err := pack.entry(k)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasSuffix(text, []byte(`"locale":"en"}`)) {
			en[strconv.Itoa(k)] = string(text)
		}
	}
	if len(en) < 5 {
		t.Fatalf("%d entries of en", len(en))
	}
	enJSON, _ := json.Marshal(en)
	prelude := "globalThis.__install = (" + strings.TrimSpace(string(script)) + ");\nglobalThis.__en = " + string(enJSON) + ";"
	// Once the guest loads Intl by itself, Intl exists before install.
	before := "typeof Intl"
	if intlWired {
		before = `"undefined"`
	}
	out := h.Run(context.Background(), Program{Prelude: prelude, Source: `
		const before = [typeof __install, __install.name, __install.length, ` + before + `];
		__install({collate: (a, b) => (a < b ? -1 : a > b ? 1 : 0), intlData: (k) => __en[k], timeZone: "Asia/Tokyo"});
		const d = Object.getOwnPropertyDescriptor(globalThis, "Intl");
		return [before, [d.enumerable, d.writable, d.configurable],
			new Intl.DateTimeFormat().resolvedOptions().timeZone,
			new Date(Date.UTC(2024, 0, 1)).toLocaleString(),
			["b", "a"].sort(new Intl.Collator().compare)];`})
	if out.Kind != KindOK {
		t.Fatalf("%s\n%s", out.Text(), out.Stack)
	}
	const want = `[["function","install",1,"undefined"],[false,true,true],"Asia/Tokyo","1/1/2024, 9:00:00 AM",["a","b"]]`
	if got := string(out.ReturnValue); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestIntl_toLocaleCache checks that the formatters toLocale* keep give
// what fresh ones would: options read through a getter, or inherited from
// Object.prototype, are not cached; an invalid option still throws.
func TestIntl_toLocaleCache(t *testing.T) {
	bundle := intlBundle(t)
	h := newIntlHost(t)
	out := h.Run(context.Background(), Program{Prelude: intlPrelude(bundle), Source: `
		const eur = () => (5).toLocaleString("en-US", {style: "currency", currency: "EUR"});
		const r = [eur(), eur()];
		r.push((5).toLocaleString("en-US", {style: "currency", currency: "EUR", get currencyDisplay() { return "code"; }}));
		Object.prototype.currencyDisplay = "name";
		try { r.push(eur()); } finally { delete Object.prototype.currencyDisplay; }
		r.push(eur());
		for (let i = 0; i < 2; i++) {
			try { r.push((5).toLocaleString("en-US", {style: "currency", currency: "EUR\u0000", currencyDisplay: "code"})); } catch (e) { r.push(e.name); }
		}
		r.push(new Date(0).toLocaleDateString("de-DE", {month: "long", timeZone: "Asia/Tokyo"}));
		try { new Date(0).toLocaleDateString("de-DE", {timeZone: "Mars/Base"}); } catch (e) { r.push(e.name); }
		r.push(new Date(NaN).toLocaleString("en-US", {timeZone: "Mars/Base"}));
		return r;`})
	if out.Kind != KindOK {
		t.Fatalf("%s\n%s", out.Text(), out.Stack)
	}
	const want = "[\"€5.00\",\"€5.00\",\"EUR\u00a05.00\",\"5.00 euros\",\"€5.00\",\"RangeError\",\"RangeError\",\"Januar\",\"RangeError\",\"Invalid Date\"]"
	if got := string(out.ReturnValue); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// BenchmarkIntl_firstUse measures what a program's first use of Intl costs,
// timed in the guest: loading the bundle's script (install), then the
// first number format (en and de data), a date format in another locale
// (ru: its date, number and plural data), and one more locale (en-IN);
// and the growth of the guest's linear memory over an empty run. It
// reports the bundle's parts: the script and the locale data pack.
func BenchmarkIntl_firstUse(b *testing.B) {
	bundle := intlBundle(b)
	script, pack := splitIntl([]byte(bundle))
	h := newIntlHost(b)
	src := `const t0 = performance.now();
		Intl;
		const t1 = performance.now();
		(1234.5).toLocaleString("de");
		const t2 = performance.now();
		new Date(0).toLocaleString("ru");
		const t3 = performance.now();
		new Intl.NumberFormat("en-IN").format(1234567.891);
		const t4 = performance.now();
		return [t1 - t0, t2 - t1, t3 - t2, t4 - t3];`
	var install, number, date, other, mem float64
	for b.Loop() {
		empty := h.Run(context.Background(), Program{Source: "return 0"})
		out := h.Run(context.Background(), Program{Source: src})
		if out.Kind != KindOK {
			b.Fatalf("%s\n%s", out.Text(), out.Stack)
		}
		var ms [4]float64
		if err := json.Unmarshal(out.ReturnValue, &ms); err != nil {
			b.Fatal(err)
		}
		install += ms[0]
		number += ms[1]
		date += ms[2]
		other += ms[3]
		mem = float64(out.MemoryBytes) - float64(empty.MemoryBytes)
	}
	n := float64(b.N)
	b.ReportMetric(float64(len(script)), "script-bytes")
	b.ReportMetric(float64(len(pack)), "pack-bytes")
	b.ReportMetric(install/n, "install-ms")
	b.ReportMetric(number/n, "first-number-de-ms")
	b.ReportMetric(date/n, "first-date-ru-ms")
	b.ReportMetric(other/n, "first-number-en-IN-ms")
	b.ReportMetric(mem, "memory-growth-bytes")
}

// BenchmarkIntl_calls measures single calls in the guest, timed by loops
// inside it (guest-ns/op), after the bundle is installed.
func BenchmarkIntl_calls(b *testing.B) {
	bundle := intlBundle(b)
	h := newIntlHost(b)
	prelude := intlPrelude(bundle)
	d := "new Date(Date.UTC(2024, 2, 10, 6, 30))"
	for _, bc := range []struct{ name, setup, call string }{
		{"NumberFormat.format/currency", "const nf = new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'});", "nf.format(i * 1.25)"},
		{"toLocaleString/currency", "", "(i * 1.25).toLocaleString('de-DE', {style: 'currency', currency: 'EUR'})"},
		{"toLocaleString/default", "", "(i * 1.25).toLocaleString()"},
		{"DateTimeFormat.format/dateStyle", "const f = new Intl.DateTimeFormat('en-GB', {dateStyle: 'long', timeStyle: 'short'}); const d = " + d + ";", "f.format(d)"},
		{"toLocaleDateString/default", "const d = " + d + ";", "d.toLocaleDateString()"},
		{"toLocaleDateString/options", "const d = " + d + ";", "d.toLocaleDateString('fr-FR', {weekday: 'long', month: 'long', day: 'numeric', timeZone: 'Europe/Berlin'})"},
		{"new NumberFormat", "", "new Intl.NumberFormat('ja-JP', {notation: 'compact'})"},
		{"PluralRules.select", "const p = new Intl.PluralRules('en-US', {type: 'ordinal'});", "p.select(i)"},
		{"RelativeTimeFormat.format", "const r = new Intl.RelativeTimeFormat('es-ES', {numeric: 'auto'});", "r.format(i % 7 - 3, 'day')"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			src := bc.setup + `
				{ const i = 0; ` + bc.call + `; } // the first call loads the locale's data
				let n = 1, ms = 0;
				for (;;) {
					const t0 = Date.now();
					for (let i = 0; i < n; i++) ` + bc.call + `;
					ms = Date.now() - t0;
					if (ms >= 200) break;
					n *= 2;
				}
				return ms * 1e6 / n;`
			var ns float64
			for b.Loop() {
				out := h.Run(context.Background(), Program{Prelude: prelude, Source: src})
				if out.Kind != KindOK {
					b.Fatalf("%s\n%s", out.Text(), out.Stack)
				}
				v, _ := strconv.ParseFloat(string(out.ReturnValue), 64)
				ns += v
			}
			b.ReportMetric(ns/float64(b.N), "guest-ns/op")
		})
	}
}
