package jsonindent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestLayout(t *testing.T) {
	long := `"` + strings.Repeat("x", 70) + `"`
	for _, c := range []struct{ name, in, want string }{
		{"scalar", `"plain"`, `"plain"`},
		{"flat array", `[1,2,3]`, `[1, 2, 3]`},
		{"flat object", `{"a":1,"b":"x"}`, `{"a": 1, "b": "x"}`},
		{"empty containers stay", `{"a":[],"b":{}}`, `{"a": [], "b": {}}`},
		{"fits", `{"a":[1,2],"b":{"c":null}}`, `{"a": [1, 2], "b": {"c": null}}`},
		{"rows on one line each", `[{"id":1,"name":"a"},{"id":2,"name":"b"}]`, `[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]`},
		{"flat but long stays on one line", `[` + long + `,` + long + `]`, `[` + long + `, ` + long + `]`},
		{"too wide breaks", `{"rows":[{"id":1,"text":` + long + `}],"n":1}`,
			"{\n  \"rows\": [\n    {\"id\": 1, \"text\": " + long + "}\n  ],\n  \"n\": 1\n}"},
		{"strings with separators", `[{"a":"x,y:z"},{"b":"\"]"}]`, `[{"a": "x,y:z"}, {"b": "\"]"}]`},
		{"whitespace in input", "[ 1 , { \"a\" : [ 2 ] } ]", `[1, {"a": [2]}]`},
	} {
		got, err := Layout([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("%s: Layout(%s) =\n%s\n(%v); want\n%s", c.name, c.in, got, err, c.want)
		}
	}
}

func TestLayout_width(t *testing.T) {
	// A member breaks exactly when its one-line form passes column 80.
	for _, n := range []int{60, 61, 62} {
		v := `{"k":[{"s":"` + strings.Repeat("x", n) + `"}]}`
		got, _ := Layout([]byte(v))
		for _, line := range strings.Split(string(got), "\n") {
			if len([]rune(line)) > Width && strings.Contains(line, "[") {
				t.Errorf("n=%d: line over %d columns: %s", n, Width, line)
			}
		}
	}
}

func FuzzLayout(f *testing.F) {
	f.Add(`{"a":[{"b":"\"]"}],"c":[[],{}]}`)
	f.Add(`[1,[2,[3,[4]]]]`)
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Layout([]byte(s))
		if (err == nil) != json.Valid([]byte(s)) {
			t.Fatalf("err %v for %q", err, s)
		}
		if err != nil {
			return
		}
		// Layout only adds whitespace.
		var x, y bytes.Buffer
		if json.Compact(&x, []byte(s)) != nil || json.Compact(&y, out) != nil || x.String() != y.String() {
			t.Fatalf("value changed: %q -> %q", s, out)
		}
	})
}
