package sdkgen

import (
	"slices"
	"strconv"
	"strings"
)

// maxTypeDepth bounds the nesting of generated types; deeper schemas are
// declared unknown.
const maxTypeDepth = 24

// inlineWidth is the longest object type printed on one line.
const inlineWidth = 72

// lineWidth is the longest line in which a member of a type literal
// follows its one-line doc comment (counted from the type literal's own
// indentation); a longer doc comment goes on the line before.
const lineWidth = 100

// Type precedences, loosest first, to know when to parenthesise.
const (
	precUnion = iota
	precInter
	precPrimary
)

// toolErrorDecl declares the guest's ToolError class.
const toolErrorDecl = `declare class ToolError extends Error {
  name: "ToolError";
  /** The pipeline error code, such as "DENIED" or "TOOL_FAILED". */ code: string;
  /** The tool's real name. */ tool: string;
}
`

// TypeScript returns the declarations of the tools object (one method per
// tool, named by [MethodNames], in input order) and of the ToolError class,
// as they go into run_code's description. An argument or result type that
// several methods share, when naming it saves bytes, is declared once
// before the tools object as a type alias (see [hoist]).
func TypeScript(tools []Tool) string {
	sigs := signatures(tools)
	decls, aliases := hoist(sigs, nil)
	return typeScript(aliases, decls)
}

// typeScript wraps the method declarations decls in the tools object,
// after the type aliases they use, and adds the ToolError class.
func typeScript(aliases string, decls []string) string {
	var b strings.Builder
	b.WriteString(aliases)
	b.WriteString("declare const tools: {")
	if len(decls) > 0 {
		b.WriteString("\n")
	}
	for _, d := range decls {
		b.WriteString(d)
	}
	b.WriteString("};\n")
	b.WriteString(toolErrorDecl)
	return b.String()
}

// Declarations returns the declaration of each tool's method, index for
// index, as it appears inside the tools object of [TypeScript] but with
// every type written out (no aliases), so that each stands alone: its doc
// comment and its signature, indented by two spaces, ending in ";\n".
func Declarations(tools []Tool) []string {
	sigs := signatures(tools)
	out := make([]string, len(sigs))
	for i, s := range sigs {
		out[i] = s.decl(s.args, s.result)
	}
	return out
}

// sig is one tool's declaration in parts: its doc comment's paragraphs,
// its method name, whether the argument object may be omitted, and its
// argument and result types, printed at the left margin.
type sig struct {
	doc          []string
	method       string
	optional     bool
	args, result string
}

// signatures returns the parts of each tool's declaration, index for index.
func signatures(tools []Tool) []sig {
	names := MethodNames(tools)
	out := make([]sig, len(tools))
	for i, t := range tools {
		s := sig{method: names[i]}
		params := parseSchema(t.Parameters)
		if d := strings.TrimSpace(t.Description); d != "" {
			s.doc = append(s.doc, d)
		}
		if names[i] != t.Name {
			note := "Calls the tool " + quote(t.Name) + "."
			switch d := strings.TrimSpace(t.Description); {
			case d == "":
				s.doc = []string{note}
			case len(splitLines(d)) > 1:
				s.doc = append(s.doc, note)
			case strings.HasSuffix(d, ".") || strings.HasSuffix(d, "!") || strings.HasSuffix(d, "?"):
				s.doc = []string{d + " " + note} // a one-line description keeps its line
			default:
				s.doc = []string{d + ". " + note}
			}
		}
		s.optional = len(t.Parameters) == 0 || argsOptional(params)
		s.args, _ = newGen(params).typeOf(params, 0)
		s.result = "unknown"
		if t.Output != nil {
			out := parseSchema(t.Output)
			og := newGen(out)
			og.output = true
			s.result, _ = og.typeOf(out, 0)
		}
		out[i] = s
	}
	return out
}

// decl returns the method's declaration inside the tools object with the
// argument type args and the result type result (printed at the left
// margin).
func (s sig) decl(args, result string) string {
	var b strings.Builder
	writeDoc(&b, "  ", s.doc)
	b.WriteString("  ")
	b.WriteString(s.method)
	b.WriteString("(args")
	if s.optional {
		b.WriteString("?")
	}
	b.WriteString(": ")
	b.WriteString(indent(args, "  "))
	b.WriteString("): Promise<")
	b.WriteString(indent(result, "  "))
	b.WriteString(">;\n")
	return b.String()
}

// indent indents every line of s but the first by ind.
func indent(s, ind string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\n"+ind)
}

// parseSchema parses a JSON Schema document; nil when it is not JSON.
func parseSchema(raw []byte) *node {
	if len(raw) == 0 {
		return nil
	}
	n, err := parseNode(raw)
	if err != nil {
		return nil
	}
	return n
}

// argsOptional reports whether a call may omit the argument object: the
// schema is a plain object schema with no required property. (A tool with
// no parameter schema at all takes optional arguments too.)
func argsOptional(n *node) bool {
	if n == nil || n.kind != kObject {
		return false
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "const", "enum", "$ref", "not"} {
		if n.get(k) != nil {
			return false
		}
	}
	if t := n.get("type"); t == nil || t.kind != kString || t.s != "object" {
		return false
	}
	r := n.get("required")
	return r == nil || r.kind != kArray || len(r.elems) == 0
}

// writeDoc writes a doc comment holding the paragraphs docs, or nothing.
func writeDoc(b *strings.Builder, ind string, docs []string) {
	var lines []string
	for _, d := range docs {
		for _, l := range splitLines(d) {
			lines = append(lines, strings.TrimRight(strings.ReplaceAll(l, "*/", "*\\/"), " \t"))
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return
	}
	// A one-line description and its @default tag share a line.
	if len(lines) == 2 && lines[0] != "" && strings.HasPrefix(lines[1], "@default ") {
		lines = []string{lines[0] + " " + lines[1]}
	}
	if len(lines) == 1 {
		b.WriteString(ind + "/** " + lines[0] + " */\n")
		return
	}
	b.WriteString(ind + "/**\n")
	for _, l := range lines {
		if l == "" {
			b.WriteString(ind + " *\n")
		} else {
			b.WriteString(ind + " * " + l + "\n")
		}
	}
	b.WriteString(ind + " */\n")
}

// splitLines splits s at every JavaScript line terminator.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.Map(func(r rune) rune {
		switch r {
		case '\r', '\u2028', '\u2029':
			return '\n'
		}
		return r
	}, s), "\n")
}

// maxVisits bounds the schema nodes rendered for one type, so that $refs
// used many times cannot blow the output up; the rest is unknown.
const maxVisits = 10000

// gen renders the types of one schema document.
type gen struct {
	root   *node
	budget int
	// branch counts the $ref, oneOf, anyOf and allOf levels being rendered,
	// and output is set for a result type: defaults there are not applied
	// (the registry fills in those of properties reached through
	// properties and items only), so no @default is shown.
	branch int
	output bool
}

func newGen(root *node) *gen { return &gen{root: root, budget: maxVisits} }

// resolve returns the node a local $ref ("#" or "#/json/pointer") points
// at in the document, or nil.
func (g *gen) resolve(ref string) *node {
	if ref == "#" {
		return g.root
	}
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	n := g.root
	for tok := range strings.SplitSeq(rest, "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case n == nil:
			return nil
		case n.kind == kObject:
			n = n.get(tok)
		case n.kind == kArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.elems) {
				return nil
			}
			n = n.elems[i]
		default:
			return nil
		}
	}
	return n
}

// typeOf returns the TypeScript type of the schema n, printed for
// indentation ind, and its precedence. An object type goes on one line
// when none of its members is documented and it fits in inlineWidth.
func (g *gen) typeOf(n *node, depth int) (string, int) {
	g.budget--
	if n == nil || depth > maxTypeDepth || g.budget < 0 {
		return "unknown", precPrimary
	}
	switch n.kind {
	case kBool:
		if n.b {
			return "unknown", precPrimary
		}
		return "never", precPrimary
	case kObject:
	default:
		return "unknown", precPrimary
	}
	if c := n.get("const"); c != nil {
		if lit, ok := literal(c); ok {
			return lit, precPrimary
		}
		return "unknown", precPrimary
	}
	if e := n.get("enum"); e != nil && e.kind == kArray {
		var lits []string
		for _, v := range e.elems {
			lit, ok := literal(v)
			if !ok {
				return "unknown", precPrimary
			}
			lits = append(lits, lit)
		}
		return union(lits)
	}
	var conj []string
	var precs []int
	add := func(s string, p int) {
		if s == "unknown" {
			return
		}
		conj = append(conj, s)
		precs = append(precs, p)
	}
	add(g.baseType(n, depth))
	g.branch++
	defer func() { g.branch-- }()
	if r := n.get("$ref"); r != nil && r.kind == kString {
		add(g.typeOf(g.resolve(r.s), depth+1))
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if v := n.get(k); v != nil && v.kind == kArray {
			var alts []string
			for _, a := range v.elems {
				s, p := g.typeOf(a, depth+1)
				alts = append(alts, paren(s, p, precInter))
			}
			if len(alts) == 0 {
				add("never", precPrimary)
			} else {
				add(union(alts))
			}
		}
	}
	if v := n.get("allOf"); v != nil && v.kind == kArray {
		for _, a := range v.elems {
			add(g.typeOf(a, depth+1))
		}
	}
	switch len(conj) {
	case 0:
		return "unknown", precPrimary
	case 1:
		return conj[0], precs[0]
	}
	var parts []string
	seen := map[string]bool{}
	for i, c := range conj {
		s := paren(c, precs[i], precInter)
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	if len(parts) == 1 {
		return parts[0], precPrimary
	}
	return strings.Join(parts, " & "), precInter
}

// paren parenthesises s when its precedence p is looser than want.
func paren(s string, p, want int) string {
	if p < want {
		return "(" + s + ")"
	}
	return s
}

// union joins distinct alternatives; unknown absorbs the others.
func union(alts []string) (string, int) {
	var out []string
	seen := map[string]bool{}
	for _, a := range alts {
		if a == "unknown" {
			return "unknown", precPrimary
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	switch len(out) {
	case 0:
		return "never", precPrimary
	case 1:
		return out[0], precPrimary
	}
	return strings.Join(out, " | "), precUnion
}

// literal returns the TypeScript literal type of a scalar JSON value.
func literal(v *node) (string, bool) {
	switch v.kind {
	case kNull:
		return "null", true
	case kBool, kNumber:
		return v.compact(), true
	case kString:
		return quote(v.s), true
	}
	return "", false
}

// baseType is the type given by the "type" keyword, or by the shape
// keywords when it is absent.
func (g *gen) baseType(n *node, depth int) (string, int) {
	var types []string
	switch t := n.get("type"); {
	case t == nil:
		switch {
		case n.get("properties") != nil || n.get("additionalProperties") != nil || n.get("required") != nil:
			types = []string{"object"}
		case n.get("items") != nil:
			types = []string{"array"}
		}
	case t.kind == kString:
		types = []string{t.s}
	case t.kind == kArray:
		for _, e := range t.elems {
			if e.kind != kString {
				return "unknown", precPrimary
			}
			types = append(types, e.s)
		}
	}
	if len(types) == 0 {
		return "unknown", precPrimary
	}
	var alts []string
	for i, t := range types {
		if slices.Contains(types[:i], t) || t == "integer" && slices.Contains(types[:i], "number") || t == "number" && slices.Contains(types[:i], "integer") {
			continue // each shape is rendered once: no blow-up on repeated types
		}
		var s string
		switch t {
		case "string":
			s = "string"
		case "number", "integer":
			s = "number"
		case "boolean":
			s = "boolean"
		case "null":
			s = "null"
		case "array":
			s = g.arrayType(n, depth)
		case "object":
			s = g.objectType(n, depth)
		default:
			s = "unknown"
		}
		alts = append(alts, s)
	}
	return union(alts)
}

func (g *gen) arrayType(n *node, depth int) string {
	items := n.get("items")
	if items == nil || items.kind != kObject && items.kind != kBool {
		return "unknown[]"
	}
	s, p := g.typeOf(items, depth+1)
	return paren(s, p, precPrimary) + "[]"
}

// field is one member of an object type literal.
type field struct {
	doc  []string
	text string
}

func (g *gen) objectType(n *node, depth int) string {
	const inner = "  "
	required := map[string]bool{}
	if r := n.get("required"); r != nil && r.kind == kArray {
		for _, e := range r.elems {
			if e.kind == kString {
				required[e.s] = true
			}
		}
	}
	var fields []field
	hasDoc := false
	seen := map[string]bool{}
	if p := n.get("properties"); p != nil && p.kind == kObject {
		for i, name := range p.keys {
			if seen[name] {
				continue
			}
			seen[name] = true
			ps := p.elems[i]
			var f field
			if ps.kind == kObject {
				if d := ps.get("description"); d != nil && d.kind == kString {
					if t := strings.TrimSpace(d.s); t != "" {
						f.doc = append(f.doc, t)
					}
				}
				if d := ps.get("default"); d != nil && g.branch == 0 && !g.output && !omissionDefault(ps, d) {
					f.doc = append(f.doc, "@default "+d.compact())
				}
			}
			hasDoc = hasDoc || len(f.doc) > 0
			key := name
			if !isIdent(name) {
				key = quote(name)
			}
			if !required[name] {
				key += "?"
			}
			t, _ := g.typeOf(ps, depth+1)
			f.text = key + ": " + t
			fields = append(fields, f)
		}
	}
	if r := n.get("required"); r != nil && r.kind == kArray {
		for _, e := range r.elems {
			if e.kind != kString || seen[e.s] {
				continue
			}
			seen[e.s] = true
			key := e.s
			if !isIdent(key) {
				key = quote(key)
			}
			fields = append(fields, field{text: key + ": unknown"})
		}
	}
	if ap := n.get("additionalProperties"); ap != nil && (ap.kind == kObject || ap.kind == kBool && ap.b) {
		t := "unknown"
		if len(fields) == 0 {
			t, _ = g.typeOf(ap, depth+1)
		}
		fields = append(fields, field{text: "[key: string]: " + t})
	}
	if len(fields) == 0 {
		return "{}"
	}
	// Each member as it would go on one line: its one-line doc comment,
	// if any, before it; "" when it does not fit on one line.
	lines := make([]string, len(fields))
	inline := true
	for i, f := range fields {
		if strings.Contains(f.text, "\n") {
			inline = false
			continue
		}
		var doc strings.Builder
		writeDoc(&doc, "", f.doc)
		switch d := doc.String(); strings.Count(d, "\n") {
		case 0:
			lines[i] = f.text
		case 1:
			lines[i] = strings.TrimSuffix(d, "\n") + " " + f.text
		default:
			inline = false
		}
	}
	if inline {
		if s := "{ " + strings.Join(lines, "; ") + " }"; len(s) <= inlineWidth {
			return s
		}
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i, f := range fields {
		if l := lines[i]; l != "" && len(inner)+len(l)+1 <= lineWidth {
			b.WriteString(inner + l + ";\n") // a one-line doc shares its member's line
			continue
		}
		writeDoc(&b, inner, f.doc)
		b.WriteString(inner + indent(f.text, inner) + ";\n")
	}
	b.WriteString("}")
	return b.String()
}

// omissionDefault reports whether d, the default of the property schema
// ps, is what leaving the property out means anyway, so that a @default tag
// would tell the reader nothing: false for a boolean, [] for an array.
func omissionDefault(ps, d *node) bool {
	t := ps.get("type")
	if t == nil || t.kind != kString {
		return false
	}
	switch {
	case t.s == "boolean":
		return d.kind == kBool && !d.b
	case t.s == "array":
		return d.kind == kArray && len(d.elems) == 0
	}
	return false
}
