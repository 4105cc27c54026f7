package host

import "bytes"

// wellFormed returns JSON text js with every escaped unpaired surrogate
// (\uD800–\uDFFF not part of a pair) replaced by U+FFFD itself, so that the
// JSON a guest sends (a program's return value, a subcall's arguments)
// follows the one rule docs/ARCHITECTURE.md fixes for text: one U+FFFD per unpaired
// surrogate. js must be valid JSON; it is returned as is, without
// copying, when it holds no such escape.
func wellFormed(js []byte) []byte {
	if !bytes.Contains(js, []byte(`\u`)) {
		return js
	}
	var out []byte
	done := 0 // js[:done] is in out
	for i := 0; i < len(js); i++ {
		if js[i] != '\\' || i+1 >= len(js) {
			continue
		}
		if js[i+1] != 'u' {
			i++ // skip the escaped character (it may be a backslash)
			continue
		}
		hi, ok := hex4(js, i+2)
		if !ok || hi < 0xD800 || hi > 0xDFFF {
			i += 5
			continue
		}
		if hi < 0xDC00 && i+11 < len(js) && js[i+6] == '\\' && js[i+7] == 'u' {
			if lo, ok := hex4(js, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				i += 11 // a pair
				continue
			}
		}
		out = append(out, js[done:i]...)
		out = append(out, "\uFFFD"...)
		done = i + 6
		i += 5
	}
	if done == 0 {
		return js
	}
	return append(out, js[done:]...)
}

// hex4 decodes the four hex digits at js[i:i+4].
func hex4(js []byte, i int) (rune, bool) {
	if i+4 > len(js) {
		return 0, false
	}
	var r rune
	for _, c := range js[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
