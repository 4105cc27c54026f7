package jsonindent

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIndent(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":[1,2],"s":"[{\"x"}`, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"s\": \"[{\\\"x\"\n}"},
		{`"plain"`, `"plain"`},
		{strings.Repeat("[", 40) + strings.Repeat("]", 40), strings.Repeat("[", 40) + strings.Repeat("]", 40)},
		{"[ 1 , 2 ]", "[\n  1,\n  2\n]"},
	} {
		got, err := Indent([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("Indent(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := Indent([]byte("{")); err == nil {
		t.Error("invalid JSON accepted")
	}
}

// A 10 000-deep array used to become 200 MB of indentation.
func TestIndent_deepStaysSmall(t *testing.T) {
	src := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	got, err := Indent([]byte(src))
	if err != nil || len(got) != len(src) {
		t.Fatalf("%d bytes, %v", len(got), err)
	}
}

func FuzzIndent(f *testing.F) {
	f.Add(`{"a":[{"b":"\"]"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Indent([]byte(s))
		if (err == nil) != json.Valid([]byte(s)) {
			t.Fatalf("err %v for %q", err, s)
		}
		if err == nil && !json.Valid(out) {
			t.Fatalf("invalid output for %q", s)
		}
	})
}
