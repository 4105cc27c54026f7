package jsontext

import (
	"strings"
	"testing"
)

func TestDepth(t *testing.T) {
	for _, c := range []struct {
		in           string
		limit, depth int
	}{
		{`1`, 10, 0},
		{`[[1],{"a":[2]}]`, 10, 3},
		{`["[[[[", "\"[[[", "\\"]`, 10, 1},
		{strings.Repeat("[", 100), 10, 10},
		{`["unterminated`, 10, 1},
		{`{"a":{"b":{}}}`, 2, 2},
	} {
		if got := Depth([]byte(c.in), c.limit); got != c.depth {
			t.Errorf("Depth(%q, %d) = %d, want %d", c.in, c.limit, got, c.depth)
		}
	}
}

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`{"a": 1}`, `{"a":1}`, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{`[1, 2]`, `[2, 1]`, false},
		{`{"a":1}`, `{"a":"1"}`, false},
	} {
		if got := Same([]byte(c.a), []byte(c.b)); got != c.same {
			t.Errorf("Same(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
