package host

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// collators answers the guest's Intl.Collator and String.prototype.
// localeCompare (the collate import) with golang.org/x/text/collate, whose
// tables are CLDR's root collation and tailorings. It caches one set of
// x/text collators per locale and options for the run; like them, it is
// not safe for concurrent use.
//
// The options string is the compact form the guest's Intl.Collator builds
// (guest/quickjs/intl/entry.js, collatorOptions): the sensitivity's first
// letter — b(ase), a(ccent), c(ase) or v(ariant), the default — then any
// of n (numeric), U or L (caseFirst upper or lower), p (ignorePunctuation)
// and s (usage search). Unknown letters are ignored.
type collators struct {
	m map[collatorKey]*collator
}

type collatorKey struct{ locale, options string }

// collator is one resolved locale and options.
type collator struct {
	// main compares up to the sensitivity's level: primary for base and
	// case, secondary for accent, and for variant with a caseFirst;
	// tertiary otherwise.
	main *collate.Collator
	// tertiary, when set, settles what main finds equal once letter case
	// has been compared (variant with caseFirst).
	tertiary *collate.Collator
	// caseLevel compares letter case after main (sensitivity case, or
	// variant with caseFirst upper).
	caseLevel bool
	// upperFirst orders an upper-case letter before its lower case.
	upperFirst bool
	// ignorePunct drops punctuation and white space before comparing.
	ignorePunct bool
}

// compare returns -1, 0 or 1 as a sorts before, with or after b under the
// locale's collation and the options. An unknown or invalid locale falls
// back to en-US.
func (c *collators) compare(locale, options, a, b string) int {
	if a == b {
		return 0
	}
	k := collatorKey{locale, options}
	e := c.m[k]
	if e == nil {
		if c.m == nil {
			c.m = make(map[collatorKey]*collator)
		}
		e = newCollator(locale, options)
		c.m[k] = e
	}
	return e.compare(a, b)
}

func newCollator(locale, options string) *collator {
	tag, err := language.Parse(locale)
	if err != nil || tag == language.Und {
		tag = language.AmericanEnglish
	}
	sensitivity := byte('v')
	if options != "" {
		sensitivity = options[0]
	}
	var numeric, upper, lower, search bool
	e := &collator{}
	for i := 1; i < len(options); i++ {
		switch options[i] {
		case 'n':
			numeric = true
		case 'U':
			upper = true
		case 'L':
			lower = true
		case 'p':
			e.ignorePunct = true
		case 's':
			search = true
		}
	}
	if search {
		// x/text has no search collations. ICU's German one sorts ä as ae,
		// as the phonebook collation does; its Japanese one lacks the
		// JIS order of kanji, as root does. Elsewhere it differs from the
		// standard collation only for scripts outside the six locales
		// (Hangul, Arabic contractions).
		switch base, _ := tag.Base(); base.String() {
		case "de":
			tag = language.MustParse("de-u-co-phonebk")
		case "ja":
			tag = language.Und
		}
	}
	opts := []collate.Option{collate.OptionsFromTag(tag)}
	if numeric {
		opts = append(opts, collate.Numeric)
	}
	with := func(extra ...collate.Option) *collate.Collator {
		return collate.New(tag, append(extra, opts...)...)
	}
	switch sensitivity {
	case 'b':
		e.main = with(collate.IgnoreCase, collate.IgnoreDiacritics)
	case 'a':
		e.main = with(collate.IgnoreCase)
	case 'c':
		e.main = with(collate.IgnoreCase, collate.IgnoreDiacritics)
		e.caseLevel, e.upperFirst = true, upper
	default:
		if upper || lower {
			e.main = with(collate.IgnoreCase)
			e.tertiary = with()
			e.caseLevel, e.upperFirst = true, upper
		} else {
			e.main = with()
		}
	}
	return e
}

func (e *collator) compare(a, b string) int {
	if e.ignorePunct {
		a, b = dropPunct(a), dropPunct(b)
	}
	if r := e.main.CompareString(a, b); r != 0 || (!e.caseLevel && e.tertiary == nil) {
		return r
	}
	if e.caseLevel {
		r := compareCase(a, b)
		if e.upperFirst {
			r = -r
		}
		if r != 0 || e.tertiary == nil {
			return r
		}
	}
	return e.tertiary.CompareString(a, b)
}

// compareCase compares the case of the cased letters of two strings equal
// at the primary level, in order: lower case first. Strings whose cased
// letters do not pair up (an expansion such as ß and ss) compare equal.
func compareCase(a, b string) int {
	for {
		ca, na := nextCased(a)
		cb, nb := nextCased(b)
		if na < 0 || nb < 0 {
			return 0
		}
		if ca != cb {
			if ca {
				return 1
			}
			return -1
		}
		a, b = a[na:], b[nb:]
	}
}

// nextCased returns whether the first cased letter of s is upper case, and
// the index after it; the index is -1 when s has none. As in ICU, a small
// kana counts as lower case and the other kana as upper case.
func nextCased(s string) (upper bool, next int) {
	for i, r := range s {
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return true, i + utf8.RuneLen(r)
		case unicode.IsLower(r):
			return false, i + utf8.RuneLen(r)
		case unicode.In(r, unicode.Hiragana, unicode.Katakana) && unicode.IsLetter(r):
			return !strings.ContainsRune(smallKana, r), i + utf8.RuneLen(r)
		}
	}
	return false, -1
}

const smallKana = "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｬｭｮｯ"

// dropPunct removes what ICU's ignorePunctuation (alternate shifted, with
// the variable top at punctuation) ignores: white space and punctuation.
func dropPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
