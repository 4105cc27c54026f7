package sdkgen

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ptchost/ptc/registry"
)

// Tool is what the generator reads of one tool.
type Tool struct {
	// Name is the tool's real name, the one the JS method calls.
	Name string
	// Description is the model-facing description, written as the method's
	// doc comment.
	Description string
	// Parameters is the JSON Schema of the argument object; nil or invalid
	// JSON means an argument of type unknown.
	Parameters json.RawMessage
	// Output is the JSON Schema of the canonical value; nil means the
	// method returns Promise<unknown>.
	Output json.RawMessage
	// DeferLoading marks a tool the model should load lazily
	// ([registry.ToolSchema].DeferLoading): [TypeScriptWithin] declares it in
	// short, always.
	DeferLoading bool
}

// FromSchemas returns the generator input for the model-facing projections
// of a tool set (each [registry.Tool.Schema] of what
// [registry.Registry.Definitions] returns), in the same order. A ToolSchema carries no output schema, so every method returns
// Promise<unknown>; use [FromDefinitions] to type return values.
func FromSchemas(schemas []registry.ToolSchema) []Tool {
	out := make([]Tool, len(schemas))
	for i, s := range schemas {
		out[i] = Tool{Name: s.Name, Description: s.Description, Parameters: bytes.Clone(s.Parameters), DeferLoading: s.DeferLoading}
	}
	return out
}

// FromDefinitions returns the generator input for tool definitions (what
// [registry.Registry.Definitions] returns), in the same order, with each
// tool's declared output schema. Nil definitions are skipped.
func FromDefinitions(defs []*registry.Tool) []Tool {
	out := make([]Tool, 0, len(defs))
	for _, t := range defs {
		if t == nil {
			continue
		}
		s := t.Schema()
		tl := Tool{Name: s.Name, Description: s.Description, Parameters: s.Parameters, DeferLoading: s.DeferLoading}
		if o := t.OutputSchema(); o != nil {
			if b, err := o.MarshalJSON(); err == nil {
				tl.Output = b
			}
		}
		out = append(out, tl)
	}
	return out
}

// reserved lists the words a method may not be named: ECMAScript keywords,
// future and strict-mode reserved words, literals, and names that would be
// confusing or harmful as keys of the tools object.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		await break case catch class const continue debugger default delete do
		else enum export extends false finally for function if import in
		instanceof new null return super switch this throw true try typeof var
		void while with yield
		implements interface let package private protected public static
		arguments eval undefined NaN Infinity __proto__ then`) {
		m[w] = true
	}
	return m
}()

// IsIdentifier reports whether s is an ASCII JavaScript identifier
// ([A-Za-z_$][A-Za-z0-9_$]*) that is not a reserved word. Property names
// that are not are quoted in the TypeScript declarations.
func IsIdentifier(s string) bool {
	return isIdent(s) && !reserved[s]
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainName reports whether name is used as a method name unchanged.
func plainName(name string) bool {
	if name == "" || reserved[name] || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// mapName applies rules 1 to 3 of the package documentation.
func mapName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		s = "_"
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "_" + s
	}
	if reserved[s] {
		s += "_"
	}
	return s
}

// MethodNames returns the method name of each tool, index for index, by the
// mapping in the package documentation. The names are distinct, valid,
// non-reserved JavaScript identifiers.
func MethodNames(tools []Tool) []string {
	out := make([]string, len(tools))
	taken := make(map[string]bool, len(tools))
	for i, t := range tools {
		if plainName(t.Name) && !taken[t.Name] {
			out[i] = t.Name
			taken[t.Name] = true
		}
	}
	for i, t := range tools {
		if out[i] != "" {
			continue
		}
		base := mapName(t.Name)
		name := base
		for n := 2; taken[name]; n++ {
			name = base + "_" + strconv.Itoa(n)
		}
		out[i] = name
		taken[name] = true
	}
	return out
}

// JS returns the SDK prelude: a script that defines the global tools
// object (by the guest's __ptc_tools) over one method per tool, named by
// [MethodNames]. Each method takes one argument object and returns
// __ptc_call with the tool's real name and the arguments. The guest makes
// tools a Proxy: any other name the program calls (a misspelt tool)
// becomes a subcall of that name, which the executor answers with
// UNKNOWN_TOOL and the nearest names; tools.$search(query) and
// tools.$describe(name) answer from the declarations of [Declarations],
// passed as one JSON string the guest parses on first use.
func JS(tools []Tool) string {
	names := MethodNames(tools)
	decls := Declarations(tools)
	var b strings.Builder
	b.WriteString("(function () {\n")
	b.WriteString("  \"use strict\";\n")
	b.WriteString("  var call = globalThis.__ptc_call;\n")
	b.WriteString("  var tools = {")
	if len(tools) > 0 {
		b.WriteString("\n")
	}
	for i, t := range tools {
		b.WriteString("    ")
		b.WriteString(names[i])
		b.WriteString(": function (args) { return call(")
		b.WriteString(quote(t.Name))
		b.WriteString(", args); },\n")
	}
	if len(tools) > 0 {
		b.WriteString("  ")
	}
	b.WriteString("};\n")
	// [method, description, declaration] of each tool.
	docs := make([]byte, 0, 256)
	docs = append(docs, '[')
	for i, t := range tools {
		if i > 0 {
			docs = append(docs, ',')
		}
		docs = append(docs, '[')
		docs = appendQuote(docs, names[i])
		docs = append(docs, ',')
		docs = appendQuote(docs, strings.TrimSpace(t.Description))
		docs = append(docs, ',')
		docs = appendQuote(docs, dedent(decls[i]))
		docs = append(docs, ']')
	}
	docs = append(docs, ']')
	b.WriteString("  globalThis.__ptc_tools(tools, ")
	b.WriteString(quote(string(docs)))
	b.WriteString(");\n")
	b.WriteString("})();\n")
	return b.String()
}

// dedent removes the two spaces a declaration is indented by inside the
// tools object, and its trailing newline.
func dedent(decl string) string {
	lines := strings.Split(strings.TrimSuffix(decl, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}
