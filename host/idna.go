package host

import (
	"errors"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// The domain_to_ascii import: the URL Standard's "domain to ASCII" with
// beStrict false, which the guest's URL parser asks for when a host holds a
// non-ASCII code point or "xn--" (any other host is only lowercased, as the
// standard allows). It is UTS #46 ToASCII with CheckHyphens false,
// CheckBidi true, CheckJoiners true, UseSTD3ASCIIRules false,
// Transitional_Processing false and VerifyDnsLength false, done by
// golang.org/x/net/idna, and the checks of UTS #46 that x/net/idna's
// options cannot express, done here (checkACELabels).

// maxDomainBytes bounds the domain the guest may pass (UTF-8 bytes). The
// standard has no limit; DNS names have at most 253 bytes. The mapping is
// linear in the input (it can grow it elevenfold) and takes about a
// millisecond for this much.
const maxDomainBytes = 16 << 10

// maxLabelRunes bounds a label to be encoded in Punycode (code points).
// x/net/idna decodes no longer label ("xn--" and up to 1,024 code points'
// worth of Punycode), so that every host the guest produces can be parsed
// again, none longer is encoded either. DNS labels have at most 63 bytes.
const maxLabelRunes = 1024

// maxPunycodeWork bounds the work of Punycode's encoder, which for each
// label is the product of the number of distinct non-ASCII code points and
// the label's length in code points: quadratic, and done by the host while
// the guest waits. This much is about 6 ms: a label of 1,000 distinct
// ideographs fits, and so do many labels of 1,000 copies of one letter.
const maxPunycodeWork = 1 << 20

// What domain_to_ascii answers instead of a length.
const (
	domainInvalid = -1 // not a valid domain
	domainTooLong = -2 // over maxDomainBytes or maxPunycodeWork
)

var (
	errDomainTooLong   = errors.New("domain longer than the host accepts")
	errDomainInvalid   = errors.New("domain is not valid under UTS #46")
	errDomainTooCostly = errors.New("domain's Punycode encoding would take too long")
)

// uts46 is UTS #46 processing as the URL Standard's domain to ASCII asks.
// MapForLookup gives the mapping, NFC and the validity criteria (and turns
// on CheckHyphens, CheckJoiners and UseSTD3ASCIIRules, two of which the
// options after it turn off again).
var uts46 = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.StrictDomainName(false),
	idna.Transitional(false),
	idna.VerifyDNSLength(false),
)

// domainToASCII returns the URL Standard's domain to ASCII of domain (beStrict
// false), or an error when the domain is not valid or over the host's
// bounds. It never panics, whatever the bytes.
func domainToASCII(domain string) (string, error) {
	if len(domain) > maxDomainBytes {
		return "", errDomainTooLong
	}
	if !utf8.ValidString(domain) {
		// The guest passes well-formed strings; an ill-formed one holds no
		// valid domain.
		return "", errDomainInvalid
	}
	mapped := mapDomain(domain)
	if !checkACELabels(mapped) {
		return "", errDomainInvalid
	}
	if err := checkPunycodeWork(mapped); err != nil {
		return "", err
	}
	ascii, err := uts46.ToASCII(domain)
	if err != nil || ascii == "" {
		return "", errDomainInvalid
	}
	return ascii, nil
}

// mapDomain returns the domain after UTS #46's mapping step (mapped, ignored
// and deviation code points handled, then NFC), before any label is decoded
// from Punycode. x/net/idna does not give it out: its ToUnicode decodes
// every label that starts with "xn--". So each label is given a leading "0"
// first, which maps to itself, joins nothing under NFC and keeps every
// label from starting with "xn--", and the zeros are taken off after.
// A label ends at a code point that maps to a full stop; those are
// labelSeparators (TestIDNA_labelSeparators checks every code point).
func mapDomain(domain string) string {
	var b strings.Builder
	b.Grow(len(domain) + 8)
	b.WriteByte('0')
	for _, r := range domain {
		b.WriteRune(r)
		if strings.ContainsRune(labelSeparators, r) {
			b.WriteByte('0')
		}
	}
	// The mapped string comes back whatever the errors: the validity of the
	// domain is decided by ToASCII.
	zeroed, _ := uts46.ToUnicode(b.String())
	labels := strings.Split(zeroed, ".")
	for i, l := range labels {
		labels[i] = strings.TrimPrefix(l, "0")
	}
	return strings.Join(labels, ".")
}

// labelSeparators are the code points UTS #46 maps to U+002E FULL STOP.
const labelSeparators = ".\u3002\uff0e\uff61"

// checkACELabels applies to the labels of the mapped domain that start with
// "xn--" the checks of UTS #46 (revision 31, Unicode 15.1) that
// x/net/idna lacks: the rest of the label must be ASCII and must decode to
// a non-empty label, and, CheckHyphens being false, the decoded label must
// not itself start with "xn--" (validity criterion 4). x/net/idna turns
// "xn--" into an empty label and keeps non-ASCII in the part before the
// last hyphen.
func checkACELabels(mapped string) bool {
	for l := range strings.SplitSeq(mapped, ".") {
		if !strings.HasPrefix(l, "xn--") {
			continue
		}
		if l == "xn--" || !isASCII(l) {
			return false
		}
		u, err := idna.Punycode.ToUnicode(l)
		if err != nil || u == "" || strings.HasPrefix(u, "xn--") {
			return false
		}
	}
	return true
}

// checkPunycodeWork bounds the labels of the mapped domain that are to be
// encoded in Punycode (the non-ASCII ones): each to maxLabelRunes, and the
// work of encoding them all to maxPunycodeWork, the work of one being its
// distinct non-ASCII code points times its length.
func checkPunycodeWork(mapped string) error {
	work := 0
	seen := make(map[rune]struct{})
	for l := range strings.SplitSeq(mapped, ".") {
		if isASCII(l) {
			continue
		}
		clear(seen)
		n := 0
		for _, r := range l {
			n++
			if r >= utf8.RuneSelf {
				seen[r] = struct{}{}
			}
		}
		if n > maxLabelRunes {
			return errDomainTooLong
		}
		if work += len(seen) * n; work > maxPunycodeWork {
			return errDomainTooCostly
		}
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
