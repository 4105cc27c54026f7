package sdkgen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ptchost/ptc/registry"
)

// balanced is a small sanity check of generated JS or TS: block comments
// and string literals are closed (and strings hold no raw line break), and
// (), [], {} and <> nest properly outside them.
func balanced(src string) error {
	pairs := map[byte]byte{')': '(', ']': '[', '}': '{', '>': '<'}
	var stack []byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '/':
			if i+1 < len(src) && src[i+1] == '*' {
				end := strings.Index(src[i+2:], "*/")
				if end < 0 {
					return fmt.Errorf("unclosed comment at %d", i)
				}
				i += 2 + end + 1
			}
		case '"', '\'':
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				switch src[j] {
				case '\\':
					j++
				case '\n', '\r':
					return fmt.Errorf("line break in string at %d", j)
				}
			}
			if j >= len(src) {
				return fmt.Errorf("unclosed string at %d", i)
			}
			if strings.ContainsAny(src[i:j], "\u2028\u2029") {
				return fmt.Errorf("raw line separator in string at %d", i)
			}
			i = j
		case '(', '[', '{', '<':
			stack = append(stack, c)
		case ')', ']', '}', '>':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
				return fmt.Errorf("unbalanced %q at %d", c, i)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed %q", stack)
	}
	return nil
}

func TestBalanced(t *testing.T) {
	for _, bad := range []string{"{", "(]", `"abc`, "/* x", "\"a\nb\"", "a>"} {
		if balanced(bad) == nil {
			t.Errorf("balanced(%q) = nil, want an error", bad)
		}
	}
	if err := balanced(`f({ "}": [1] /* ) */ }, '<')`); err != nil {
		t.Error(err)
	}
}

// benchTools returns n tools with a mix of schema shapes.
func benchTools(n int) []Tool {
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{
			Name:        fmt.Sprintf("tool-%d", i),
			Description: fmt.Sprintf("Tool number %d.\nIt does things.", i),
			Parameters: json.RawMessage(`{"type":"object","properties":{
				"query":{"type":"string","description":"What to look for"},
				"limit":{"type":"integer","default":10},
				"mode":{"enum":["fast","slow"]},
				"filter":{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"since":{"type":["string","null"]}}},
				"target":{"oneOf":[{"type":"string"},{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}]}
			},"required":["query"]}`),
			Output: json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"}}}},"next":{"type":["string","null"]}},"required":["items"]}`),
		}
	}
	return tools
}

func BenchmarkGenerate(b *testing.B) {
	tools := benchTools(200)
	b.Run("TypeScript/200", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = TypeScript(tools)
		}
	})
	b.Run("JS/200", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = JS(tools)
		}
	})
}

func FuzzGenerate(f *testing.F) {
	f.Add("get_weather", []byte(`{"type":"object","properties":{"city":{"type":"string","description":"City */ name"}},"required":["city"]}`), []byte(`{"type":"object","properties":{"tempC":{"type":"number"}}}`))
	f.Add("a-b", []byte(`{"oneOf":[{"enum":[1,"x",null]},{"type":["array","null"],"items":{"allOf":[{},true]}}]}`), []byte(`false`))
	f.Add("delete", []byte(`{"type":"object","additionalProperties":{"type":"object","properties":{"\u2028\"":{"const":"*/"}}}}`), []byte(`true`))
	f.Add("3d", []byte(`{"properties":{"x":{"properties":{"y":{"properties":{"z":{"items":{"items":{}}}}}}}}}`), []byte(nil))
	f.Fuzz(func(t *testing.T, name string, params, output []byte) {
		tool := Tool{Name: name, Description: name, Parameters: params, Output: output}
		if s, err := registry.ParseJSONSchema(params); err == nil {
			tool.Parameters, _ = s.MarshalJSON()
		}
		if len(output) == 0 {
			tool.Output = nil
		}
		if n, err := parseNode(params); (err == nil) != json.Valid(params) && err != errTooDeep {
			t.Fatalf("parseNode(%q): %v, json.Valid: %v", params, err, json.Valid(params))
		} else if err == nil {
			var want, got any
			if json.Unmarshal(params, &want) == nil && json.Unmarshal([]byte(n.compact()), &got) == nil && !reflect.DeepEqual(want, got) && !hasDupKeys(n) {
				t.Fatalf("parseNode(%q) round trip: %s", params, n.compact())
			}
		}
		tools := []Tool{tool, {Name: name}, {Name: "x", Parameters: output}}
		ts, js := TypeScript(tools), JS(tools)
		if ts != TypeScript(tools) || js != JS(tools) {
			t.Fatal("output is not deterministic")
		}
		if err := balanced(ts); err != nil {
			t.Fatalf("TypeScript: %v\n%s", err, ts)
		}
		if err := balanced(js); err != nil {
			t.Fatalf("JS: %v\n%s", err, js)
		}
		names := MethodNames(tools)
		seen := map[string]bool{}
		for _, n := range names {
			if !IsIdentifier(n) || seen[n] {
				t.Fatalf("bad method name %q in %q", n, names)
			}
			seen[n] = true
		}
	})
}

// hasDupKeys reports whether an object in n repeats a key (encoding/json
// keeps the last, parseNode's get the first).
func hasDupKeys(n *node) bool {
	seen := map[string]bool{}
	for _, k := range n.keys {
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	for _, e := range n.elems {
		if hasDupKeys(e) {
			return true
		}
	}
	return false
}
