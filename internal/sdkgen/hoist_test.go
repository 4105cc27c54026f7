package sdkgen

import (
	"encoding/json"
	"strings"
	"testing"
)

// bigArgs is an argument schema long enough that two methods sharing it
// are worth an alias.
const bigArgs = `{"type":"object","properties":{"path":{"type":"string"},` +
	`"head":{"type":"integer","description":"If provided, returns only the first N lines of the file"},` +
	`"tail":{"type":"integer","description":"If provided, returns only the last N lines of the file"}},"required":["path"]}`

// aliases returns the names of the type aliases declared before the tools
// object in ts, in order.
func aliases(ts string) []string {
	var out []string
	head, _, _ := strings.Cut(ts, "declare const tools")
	for l := range strings.SplitSeq(head, "\n") {
		if name, ok := strings.CutPrefix(l, "type "); ok {
			name, _, _ = strings.Cut(name, " ")
			out = append(out, name)
		}
	}
	return out
}

func TestTypeScript_sharedTypes(t *testing.T) {
	big := json.RawMessage(bigArgs)
	small := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	content := json.RawMessage(`{"type":"object","properties":{"content":{"type":"string"}},"required":["content"]}`)
	many := func(prefix string, n int, params, output json.RawMessage) []Tool {
		var out []Tool
		for i := range n {
			out = append(out, Tool{Name: prefix + string(rune('a'+i)), Parameters: params, Output: output})
		}
		return out
	}
	tests := []struct {
		name  string
		tools []Tool
		want  []string
	}{
		{"common prefix", []Tool{{Name: "fs__read_file", Parameters: big}, {Name: "fs__read_text_file", Parameters: big}}, []string{"FsReadArgs"}},
		{"result", many("fs__x_", 8, nil, content), []string{"FsXResult"}},
		{"too few uses to save bytes", many("fs__x_", 3, nil, content), nil},
		{"short type", many("fs__x_", 8, small, nil), nil},
		{"nothing in common", []Tool{{Name: "a__x", Parameters: big}, {Name: "b__y", Parameters: big}}, []string{"AXArgs"}},
		{"argument and result", []Tool{{Name: "echo", Parameters: big, Output: big}}, []string{"EchoType"}},
		{"library name avoided", []Tool{{Name: "iterator_a", Output: big}, {Name: "iterator_b", Output: big}}, []string{"IteratorResult2"}},
		{"leading digit", []Tool{{Name: "3d_a", Parameters: big}, {Name: "3d_b", Parameters: big}}, []string{"T3dArgs"}},
		{"taken names get a suffix", []Tool{
			{Name: "fs__a", Parameters: big}, {Name: "fs__b", Parameters: big},
			{Name: "fs__c", Parameters: json.RawMessage(strings.Replace(bigArgs, "path", "file", 1))}, {Name: "fs__d", Parameters: json.RawMessage(strings.Replace(bigArgs, "path", "file", 1))},
		}, []string{"FsArgs", "FsArgs2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := TypeScript(tc.tools)
			if got := aliases(ts); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("aliases %q, want %q:\n%s", got, tc.want, ts)
			}
			// Declared once, used in place of the type, and never longer
			// than the declarations written out.
			var out strings.Builder
			for _, d := range Declarations(tc.tools) {
				out.WriteString(d)
			}
			plain := typeScript("", []string{out.String()})
			if len(tc.want) == 0 && ts != plain || len(tc.want) > 0 && len(ts) >= len(plain) {
				t.Errorf("with aliases %d bytes, written out %d:\n%s", len(ts), len(plain), ts)
			}
			for _, a := range tc.want {
				if strings.Count(ts, "type "+a+" = ") != 1 || strings.Count(ts, a) < 3 {
					t.Errorf("alias %s not declared once and used twice:\n%s", a, ts)
				}
			}
			if err := balanced(ts); err != nil {
				t.Error(err)
			}
		})
	}
}

// Declarations (what tools.$describe answers) stand alone: they never name
// an alias.
func TestDeclarations_noAliases(t *testing.T) {
	tools := []Tool{{Name: "fs__read_file", Parameters: json.RawMessage(bigArgs)}, {Name: "fs__read_text_file", Parameters: json.RawMessage(bigArgs)}}
	if a := aliases(TypeScript(tools)); len(a) != 1 {
		t.Fatalf("aliases %q", a)
	}
	for _, d := range Declarations(tools) {
		if strings.Contains(d, "FsReadArgs") || !strings.Contains(d, "tail?: number;") {
			t.Errorf("declaration does not stand alone:\n%s", d)
		}
	}
}

// TypeScriptWithin declares the aliases its fully declared tools share,
// and only those.
func TestTypeScriptWithin_sharedTypes(t *testing.T) {
	big := json.RawMessage(bigArgs)
	tools := []Tool{{Name: "fs__read_file", Parameters: big}, {Name: "fs__read_text_file", Parameters: big}, {Name: "fs__read_more", Parameters: big, DeferLoading: true}}
	got := TypeScriptWithin(tools, -1)
	if a := aliases(got); len(a) != 1 || a[0] != "FsReadArgs" || !strings.Contains(got, "fs__read_text_file(args: FsReadArgs)") {
		t.Errorf("aliases %q:\n%s", a, got)
	}
	tools[1].DeferLoading = true
	if a := aliases(TypeScriptWithin(tools, -1)); len(a) != 0 {
		t.Errorf("one tool in full, aliases %q", a)
	}
}
