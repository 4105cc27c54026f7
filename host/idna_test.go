package host

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestDomainToASCII(t *testing.T) {
	distinct := func(from rune, n int) string {
		var b strings.Builder
		for r := from; r < from+rune(n); r++ {
			b.WriteRune(r)
		}
		return b.String()
	}
	for _, c := range []struct {
		name, in, want string
		err            error
	}{
		{"lowercased", "EXAMPLE.com", "example.com", nil},
		{"non-ASCII", "Bücher.de", "xn--bcher-kva.de", nil},
		{"already Punycode", "xn--bcher-kva.de", "xn--bcher-kva.de", nil},
		{"uppercase ACE prefix", "XN--BCHER-KVA.de", "xn--bcher-kva.de", nil},
		{"ZWJ after virama", "ශ්\u200dරී", "xn--10cl1a0b660p", nil},
		{"ZWNJ between joining letters", "نامه\u200cای", "xn--mgba3gch31f060k", nil},
		{"ZWJ without context", "a\u200db", "", errDomainInvalid},
		{"ZWJ alone", "\u200d.example", "", errDomainInvalid},
		{"U+1680 disallowed", "a\u1680b", "", errDomainInvalid},
		{"U+2FF0 disallowed", "look\u2ff0out.net", "", errDomainInvalid},
		{"Bidi rule", "\u064aa", "", errDomainInvalid},
		{"RTL label", "\u05d0\u05d1.com", "xn--4dbc.com", nil},
		{"deviation ß kept", "faß.de", "xn--fa-hia.de", nil},
		{"ignored code point", "a\u00adb", "ab", nil},
		{"full stops mapped", "a\u3002b\uff0ec\uff61d", "a.b.c.d", nil},
		{"hyphens not checked", "-x.ab--c.x-", "-x.ab--c.x-", nil},
		{"no DNS length check", strings.Repeat("ü", 100), "xn--tda" + strings.Repeat("a", 99), nil},
		{"empty labels kept", "a..ü.", "a..xn--tda.", nil},
		{"STD3 off: _ and = kept", "a_b=c", "a_b=c", nil},
		{"U+FFFD", "\ufffd.com", "", errDomainInvalid},
		{"empty", "", "", errDomainInvalid},
		{"only ignored", "\u00ad", "", errDomainInvalid},
		{"not UTF-8", "a\xffb", "", errDomainInvalid},
		{"invalid Punycode", "xn--a.com", "", errDomainInvalid},
		{"xn-- alone", "xn--", "", errDomainInvalid},
		{"xn-- alone, last", "a.xn--", "", errDomainInvalid},
		{"xn-- alone beside non-ASCII", "xn--.münchen", "", errDomainInvalid},
		{"xn-- alone, mapped from fullwidth", "ｘｎ－－.com", "", errDomainInvalid},
		{"Punycode decoding to ASCII", "xn--abc-.com", "", errDomainInvalid},
		{"non-ASCII in an ACE label", "xn--ü-abc.com", "", errDomainInvalid},
		{"ACE label decoding to xn--", "xn--xn---3ra.com", "", errDomainInvalid},
		{"over the byte bound", strings.Repeat("ü", maxDomainBytes/2+1), "", errDomainTooLong},
		{"over the Punycode work bound", distinct(0x4e00, 800) + "." + distinct(0x6000, 800), "", errDomainTooCostly},
		{"within the Punycode work bound", distinct(0x4e00, 1000) + ".a", "", nil},
		{"long but cheap", strings.Repeat(strings.Repeat("é", 1000)+".", 7), strings.Repeat("xn--9ca"+strings.Repeat("a", 999)+".", 7), nil},
		{"label over the code point bound", strings.Repeat("l", maxLabelRunes) + "ü", "", errDomainTooLong},
		{"ASCII label over it", strings.Repeat("l", 5000), strings.Repeat("l", 5000), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := domainToASCII(c.in)
			if c.err != nil {
				require.ErrorIs(t, err, c.err)
				return
			}
			require.NoError(t, err)
			if c.want != "" {
				require.Equal(t, c.want, got)
			}
		})
	}
}

// TestDomainToASCII_bounds: the worst inputs within the bounds take
// milliseconds (the sanity bound here is far above what was measured).
func TestDomainToASCII_bounds(t *testing.T) {
	var many strings.Builder
	for r := rune(0x4e00); many.Len() < maxDomainBytes-3; r++ {
		many.WriteRune(r)
	}
	var fit strings.Builder
	for r := rune(0x4e00); fit.Len() < 3*1000; r++ {
		fit.WriteRune(r)
	}
	for _, in := range []string{
		many.String(), // refused by the work bound, after mapping
		fit.String(),  // 1,000 distinct ideographs: encoded
		strings.Repeat("\ufdfa", maxDomainBytes/3), // mapped elevenfold
		strings.Repeat("é", maxDomainBytes/2),
		strings.Repeat(strings.Repeat("é", maxLabelRunes)+".", maxDomainBytes/2/(maxLabelRunes+1)),
		strings.Repeat("xn--zca.", maxDomainBytes/8),
	} {
		start := time.Now()
		_, _ = domainToASCII(in)
		require.Less(t, time.Since(start), time.Second)
	}
}

// TestIDNA_labelSeparators checks labelSeparators against every code point:
// those and only those map to a full stop under uts46.
func TestIDNA_labelSeparators(t *testing.T) {
	var found []rune
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0xd800 && r < 0xe000 {
			continue
		}
		u, _ := uts46.ToUnicode("0" + string(r))
		if strings.Contains(u[1:], ".") || r == '.' {
			found = append(found, r)
		}
	}
	require.Equal(t, []rune(labelSeparators), found)
}

// TestMapDomain: the mapped domain is what ToUnicode gives when no label is
// Punycode, and keeps "xn--" labels as they are.
func TestMapDomain(t *testing.T) {
	for _, in := range []string{"Bücher.DE", "a\u3002B\uff0e\u0301c", "ẞ.\u00ad.", "\ufdfa", "..", ""} {
		want, _ := uts46.ToUnicode(in)
		require.Equal(t, want, mapDomain(in), "%q", in)
	}
	require.Equal(t, "xn--.xn--zca.münchen", mapDomain("XN--.Xn--ZCA.MÜNCHEN"))
	require.Equal(t, "xn--\u00e1.b", mapDomain("ｘｎ－－a\u0301\u3002b"))
}

// FuzzDomainToASCII: any bytes give an ASCII domain or one of the errors,
// never a panic; a domain's ASCII form is its own ASCII form.
func FuzzDomainToASCII(f *testing.F) {
	for _, s := range []string{"Bücher.de", "ශ්\u200dරී", "نامه\u200cای", "xn--zca", "xn--", "a..b.", "\u3002", "xn--a-ecp.ß", "\xff", "a\u1680b", "ｘｎ－－"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := domainToASCII(in)
		if err != nil {
			if !errors.Is(err, errDomainInvalid) && !errors.Is(err, errDomainTooLong) && !errors.Is(err, errDomainTooCostly) {
				t.Fatalf("%q: unexpected error %v", in, err)
			}
			return
		}
		if got == "" || !isASCII(got) {
			t.Fatalf("%q: %q is not a non-empty ASCII domain", in, got)
		}
		again, err := domainToASCII(got)
		if err != nil || again != got {
			t.Fatalf("%q: %q, then %q, %v", in, got, again, err)
		}
	})
}
