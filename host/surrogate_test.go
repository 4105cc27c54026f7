package host

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestWellFormed(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"plain"`, `"plain"`},
		{`"\ud800"`, "\"\uFFFD\""},
		{`"\uDFFF"`, "\"\uFFFD\""},
		{`"\ud83d\ude00"`, `"\ud83d\ude00"`},                 // a pair stays
		{`"\ud83d\ud83d\ude00"`, "\"\uFFFD\\ud83d\\ude00\""}, // lone high, then a pair
		{`"\ude00\ud83d"`, "\"\uFFFD\uFFFD\""},               // reversed: both lone
		{`"\\ud800"`, `"\\ud800"`},                           // an escaped backslash, not an escape
		{`{"\udc00":["\u0041","x\ud800y"]}`, "{\"\uFFFD\":[\"\\u0041\",\"x\uFFFDy\"]}"},
		{`"\ud800\u0041"`, "\"\uFFFD\\u0041\""},
	} {
		if got := string(wellFormed([]byte(c.in))); got != c.want {
			t.Errorf("wellFormed(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// FuzzWellFormed: the result is valid JSON that decodes to what the input
// decodes to (Go's decoder also reads an unpaired surrogate as U+FFFD).
func FuzzWellFormed(f *testing.F) {
	for _, s := range []string{`"\ud800"`, `["\udc00\ud800\udc00", {"\ud83d": 1}]`, `"\\\ud800"`, `1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		out := wellFormed([]byte(in))
		if !json.Valid(out) {
			t.Fatalf("invalid JSON from %q: %q", in, out)
		}
		var a, b any
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%q decodes to %#v, %q to %#v", in, a, out, b)
		}
	})
}
