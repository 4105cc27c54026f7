package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// depthOf is the reference: the nesting depth of valid JSON, from
// encoding/json's tokens.
func depthOf(t testing.TB, b []byte) (int, bool) {
	t.Helper()
	if !json.Valid(b) {
		return 0, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	depth, most := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return most, true
		}
		if err != nil {
			return 0, false
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
			most = max(most, depth)
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
}

// FuzzDeeper checks the byte scan against a parse for every valid JSON
// text and every limit.
func FuzzDeeper(f *testing.F) {
	for _, s := range []string{
		`{}`, `[[]]`, `{"a":[1,{"b":"[["}]}`, `"\"[["`, `["\\",[[]]]`, `["\\\"[",[]]`,
		`{"a":"\u005c"}`, `[[[[[[[[[[]]]]]]]]]]`, `{"[":{"{":[]}}`, `"unterminated [[[`,
	} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		if limit < 0 || limit > 100 {
			return
		}
		got := deeper(b, limit) // never panics, whatever b is
		want, ok := depthOf(t, b)
		if ok && got != (want > limit) {
			t.Fatalf("deeper(%q, %d) = %v; the text nests %d levels", b, limit, got, want)
		}
	})
}
