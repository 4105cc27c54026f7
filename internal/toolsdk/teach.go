package toolsdk

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/ptchost/ptc/internal/sdkgen"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// The messages a program's failed subcall carries are written for the
// model to fix its program (docs/ARCHITECTURE.md, "What the model sees"): they name
// methods as the program calls them (tools.NAME) and say what to write.

// maxListedTools is the most tools an UNKNOWN_TOOL message lists; with more,
// it points to tools.$search.
const maxListedTools = 20

// Teach rewrites the reason of a failed subcall of the program, when the
// failure is one the program can fix: an unknown tool, or arguments that
// are not what the tool takes.
func (s *SDK) Teach(call string, args json.RawMessage, o *pipeline.Outcome) string {
	var e *pipeline.Error
	if !errors.As(o.Err(), &e) {
		return ""
	}
	switch e.Code {
	case pipeline.CodeOf(registry.ErrUnknownTool):
		if s.index(call) < 0 {
			return s.unknownTool(call)
		}
	case pipeline.CodeOf(registry.ErrInvalidArguments):
		if i := s.index(call); i >= 0 {
			if m := s.badArguments(i, args, e); m != "" {
				return m
			}
		}
	}
	return e.Reason
}

// index is the position of the tool the program called by its real name,
// or -1.
func (s *SDK) index(name string) int {
	for i, t := range s.tools {
		if t.Name == name {
			return i
		}
	}
	return -1
}

func (s *SDK) methods() []string {
	s.namesOnce.Do(func() { s.names = sdkgen.MethodNames(s.tools) })
	return s.names
}

// unknownTool is "tools.NAME is not a tool; did you mean A, B or C?",
// then the tools there are, or where to look for them.
func (s *SDK) unknownTool(name string) string {
	names := s.methods()
	var b strings.Builder
	b.WriteString("tools.")
	b.WriteString(name)
	b.WriteString(" is not a tool")
	if near := nearest(name, names, 3); len(near) > 0 {
		b.WriteString("; did you mean ")
		for i, n := range near {
			if i > 0 {
				if i == len(near)-1 {
					b.WriteString(" or ")
				} else {
					b.WriteString(", ")
				}
			}
			b.WriteString(n)
		}
		b.WriteString("?")
	} else {
		b.WriteString(".")
	}
	switch {
	case len(names) == 0:
		b.WriteString(" There are no tools.")
	case len(names) <= maxListedTools:
		b.WriteString(" The tools are: ")
		b.WriteString(strings.Join(names, ", "))
		b.WriteString(".")
	default:
		b.WriteString(" Use tools.$search(query) to find tools by what they do.")
	}
	return b.String()
}

// badArguments explains arguments the tool refused: a non-object where it
// takes one argument object, or the schema's issues in the program's terms.
func (s *SDK) badArguments(i int, args json.RawMessage, err error) string {
	method := s.methods()[i]
	shape := strings.TrimSpace(sdkgen.Declarations(s.tools[i : i+1])[0])
	if strings.HasPrefix(shape, "/**") {
		if j := strings.Index(shape, "*/"); j >= 0 {
			shape = shape[j+2:] // the signature, without its doc comment
		}
	}
	shape = strings.Join(strings.Fields(shape), " ")
	if t := jsonType(args); t != "object" {
		return method + " takes one argument object: tools." + strings.TrimSuffix(shape, ";") + "; it was given " + t
	}
	var re *registry.Error
	if !errors.As(err, &re) || len(re.Issues) == 0 {
		return ""
	}
	props := schemaProperties(s.tools[i].Parameters)
	var parts []string
	for _, is := range re.Issues {
		parts = append(parts, issueText(is, props))
	}
	return method + ": " + strings.Join(parts, "; ")
}

// issueText says one schema issue as the program would fix it.
func issueText(is registry.Issue, props []string) string {
	where := ""
	if is.Path != "" {
		where = " in " + argsPath(is.Path)
	}
	switch {
	case strings.HasSuffix(is.Keyword, "required"):
		return "missing required " + is.Expected + where
	case strings.HasSuffix(is.Keyword, "additionalProperties"):
		name := strings.TrimPrefix(is.Expected, "no property ")
		msg := "unexpected property " + name + where
		if n, err := strconv.Unquote(name); err == nil && is.Path == "" {
			if near := nearest(n, props, 1); len(near) > 0 {
				msg += " (did you mean " + strconv.Quote(near[0]) + "?)"
			}
		}
		return msg
	}
	if is.Path == "" {
		return "args: " + is.Message
	}
	return argsPath(is.Path) + ": " + is.Message
}

// argsPath writes a JSON Pointer into the arguments as the program would
// reach it: "/items/0/price" is args.items[0].price.
func argsPath(ptr string) string {
	var b strings.Builder
	b.WriteString("args")
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
		} else if sdkgen.IsIdentifier(tok) {
			b.WriteString("." + tok)
		} else {
			b.WriteString("[" + strconv.Quote(tok) + "]")
		}
	}
	return b.String()
}

// schemaProperties lists the top-level properties of a JSON Schema.
func schemaProperties(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// jsonType names the JSON type of v as a program would ("a string").
func jsonType(v json.RawMessage) string {
	t := strings.TrimSpace(string(v))
	if t == "" {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "object"
	case '[':
		return "an array"
	case '"':
		return "a string " + abbreviate(t)
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func abbreviate(s string) string {
	if len(s) <= 40 {
		return "(" + s + ")"
	}
	return "(" + s[:37] + "...)"
}

// nearest returns up to n of names closest to name by edit distance, close
// enough to be a likely misspelling (or sharing a word with it), nearest
// first.
func nearest(name string, names []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	lname := strings.ToLower(name)
	for _, c := range names {
		lc := strings.ToLower(c)
		d := editDistance(lname, lc)
		limit := max(2, len(c)/3)
		if d <= limit || strings.Contains(lc, lname) || strings.Contains(lname, lc) || sharesWord(lname, lc) {
			cs = append(cs, cand{c, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	out := make([]string, 0, n)
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// sharesWord reports whether two snake_case or camelCase names share a
// word of four letters or more ("get_customer" and "find_customers").
func sharesWord(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	}
	for _, x := range split(a) {
		for _, y := range split(b) {
			if len(x) >= 4 && len(y) >= 4 && (strings.HasPrefix(x, y) || strings.HasPrefix(y, x)) {
				return true
			}
		}
	}
	return false
}

// editDistance is the Damerau–Levenshtein distance (with adjacent
// transpositions) of a and b, by bytes.
func editDistance(a, b string) int {
	if len(a) > 256 || len(b) > 256 {
		return max(len(a), len(b))
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
