package jsontext

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Depth is how deeply JSON text b nests arrays and objects, counted up to
// limit: the scan stops at the first bracket that reaches limit and
// returns limit. Brackets inside strings (escapes included) do not count;
// for malformed text (an unterminated string, unbalanced brackets) the
// result is what the scan saw and the parser has the last word.
func Depth(b []byte, limit int) int {
	d, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return deepest
			}
			i = end
		case '[', '{':
			if d++; d > deepest {
				if deepest = d; deepest >= limit {
					return limit
				}
			}
		case ']', '}':
			d--
		}
	}
	return deepest
}

// stringEnd returns the index of the quote that closes the JSON string
// opening at b[start], or -1 if there is none.
func stringEnd(b []byte, start int) int {
	i := start
	for {
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return -1
		}
		i += 1 + j
		// The quote is escaped when an odd number of backslashes precede
		// it. Each run is counted once: runs end at the quotes between them.
		n := 0
		for k := i - 1; k > start && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
}

// Same reports whether two JSON documents are the same: the same
// bytes once compacted (the program's arguments are JSON.stringify's,
// whose member order is the program's), or the same values once decoded,
// since an encoder may have escaped characters another did not.
func Same(a, b []byte) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes()) {
		return true
	}
	va, ea := decodeJSON(a)
	vb, eb := decodeJSON(b)
	return ea == nil && eb == nil && reflect.DeepEqual(va, vb)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
