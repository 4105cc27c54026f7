package host

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// collationTable is testdata/intl/collation.json, written by
// testdata/intl/gen.js from Node 20 (ICU 78, CLDR 48).
type collationTable struct {
	Sorts []struct {
		Locale, Options string
		Input, Expected []string
	}
	Pairs []struct {
		Locale, Options, A, B string
		Expected              int
	}
}

func readCollationTable(t *testing.T) collationTable {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "intl", "collation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab collationTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	return tab
}

// collationKnown lists where x/text's collation (CLDR 23 tables, Unicode
// 6.2) is known to differ from ICU 78's: comparisons involving these
// strings, in these locales (all when nil), are reported, not failed.
var collationKnown = []struct {
	locales []string
	strs    []string
	why     string
}{
	{nil, []string{"🥰", "🫠"}, "characters assigned after Unicode 6.2 get implicit weights after every script in x/text; ICU 78 sorts them among the emoji"},
	{[]string{"ja-JP"}, []string{"ｰ"}, "x/text's ja tailoring (CLDR 23) puts the half-width prolonged sound mark before the iteration marks ゝ ヽ; CLDR 48 after"},
	{[]string{"ja-JP"}, []string{"α", "ω", "Ω", "ж", "я", "Я", "א", "ع", "한"}, "ICU's ja collation reorders scripts (Latin, Kana, Han, then the rest); x/text cannot reorder scripts, so Greek, Cyrillic, Hebrew, Arabic and Hangul sort before Kana and Han"},
}

// known returns why comparisons of the strings in locale are known to
// differ from Node, or "".
func known(locale string, strs ...string) string {
	for _, k := range collationKnown {
		if k.locales != nil && !slices.Contains(k.locales, locale) {
			continue
		}
		for _, s := range strs {
			if slices.Contains(k.strs, s) {
				return k.why
			}
		}
	}
	return ""
}

// withoutKnown drops the strings whose order is known to differ.
func withoutKnown(locale string, strs []string) []string {
	return slices.DeleteFunc(slices.Clone(strs), func(s string) bool { return known(locale, s) != "" })
}

func TestCollators_compareMatchesNode(t *testing.T) {
	tab := readCollationTable(t)
	var c collators
	bad, n := 0, 0
	for _, p := range tab.Pairs {
		n++
		got := c.compare(p.Locale, p.Options, p.A, p.B)
		if got == p.Expected {
			continue
		}
		if why := known(p.Locale, p.A, p.B); why != "" {
			t.Logf("known difference: %s %q %q %q: %s", p.Locale, p.Options, p.A, p.B, why)
			continue
		}
		bad++
		t.Errorf("compare(%q, %q, %q, %q) = %d, Node says %d", p.Locale, p.Options, p.A, p.B, got, p.Expected)
	}
	t.Logf("%d/%d pairs match", n-bad, n)
}

func TestCollators_sortMatchesNode(t *testing.T) {
	tab := readCollationTable(t)
	var c collators
	exact, bad := 0, 0
	for _, s := range tab.Sorts {
		got := slices.Clone(s.Input)
		slices.SortStableFunc(got, func(a, b string) int { return c.compare(s.Locale, s.Options, a, b) })
		if slices.Equal(got, s.Expected) {
			exact++
			continue
		}
		if slices.Equal(withoutKnown(s.Locale, got), withoutKnown(s.Locale, s.Expected)) {
			continue
		}
		bad++
		t.Errorf("sort %s %q:\n got  %s\n want %s", s.Locale, s.Options, strings.Join(got, " "), strings.Join(s.Expected, " "))
	}
	t.Logf("%d/%d sorts match exactly, %d more but for the known differences", exact, len(tab.Sorts), len(tab.Sorts)-exact-bad)
}

func TestCollators_fallbacks(t *testing.T) {
	var c collators
	for _, loc := range []string{"", "not a tag", "zz", "en-US-u-kn-true"} {
		if got := c.compare(loc, "v", "a", "b"); got != -1 {
			t.Errorf("compare(%q, v, a, b) = %d", loc, got)
		}
	}
	// A -u- extension in the locale applies too.
	if got := c.compare("en-u-kn-true", "v", "a10", "a9"); got != 1 {
		t.Errorf("numeric from the tag: %d", got)
	}
	if got := c.compare("en", "vn", "a10", "a9"); got != 1 {
		t.Errorf("numeric from the options: %d", got)
	}
	if got := c.compare("en", "", "b", "a"); got != 1 {
		t.Errorf("empty options: %d", got)
	}
}

func BenchmarkCollators_compare(b *testing.B) {
	var c collators
	for b.Loop() {
		c.compare("de", "v", "Straße", "Strasse")
	}
}
