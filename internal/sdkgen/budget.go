package sdkgen

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// searchDecl declares the guest's tools.$search and tools.$describe. It
// goes into the tools object only when some tools are declared in short:
// those are the ones the model looks up.
const searchDecl = `  /** Finds tools by the words of their names and descriptions, best match first: at most limit (default 10), each with the first line of its description. */
  $search(query: string, limit?: number): Promise<{ name: string; description: string }[]>;
  /** The full declaration (argument and result types) of the method name. */
  $describe(name: string): Promise<string>;
`

// shortHead introduces the tools declared in short.
const shortHead = `  // Declared in short (name and first sentence): call them like the others, after
  // await tools.$describe("NAME") for the argument and result types.
`

// shortType declares the type of the tools declared in short.
const shortType = `/** A tool declared in short: await tools.$describe(name) gives its full declaration. */
type Tool = (args?: object) => Promise<unknown>;
`

// maxSentence is the longest description a short declaration carries, in
// bytes; a longer first sentence is cut at a word and ends in "…".
const maxSentence = 120

// Fitting levels of one tool in [TypeScriptWithin].
const (
	levelFull  = iota // its full declaration
	levelShort        // one line: name and first sentence
	levelNone         // not listed, only counted
)

// TypeScriptWithin returns the declarations of [TypeScript] fitted to
// maxBytes bytes (negative: no limit). When every tool's full declaration
// fits and no tool has DeferLoading, it is exactly TypeScript(tools).
// Otherwise some tools are declared in short, on one line each after the
// fully declared ones, as
//
//	name: Tool; // First sentence of its description.
//
// under a comment that says to call them like the others, after
// tools.$describe(name) for their full declaration; the tools object then
// also declares $search and $describe, and the type Tool (one optional
// argument object, a Promise of unknown) is declared after it.
//
// Which tools are declared in full depends only on the tools, their order
// and maxBytes: a tool with DeferLoading is always short; the others start
// short and, in input order, each whose full declaration still fits within
// maxBytes gets it (a declaration too long to fit does not keep a later,
// smaller one short). When even the short lines do not all fit, the tools
// whose line would not fit, in input order, are not listed, and a last
// comment counts them and points to tools.$search. The result never
// exceeds maxBytes unless the fixed parts (the tools object, the comments,
// $search, $describe, Tool and ToolError) alone do; when that leaves it no
// shorter than TypeScript(tools) and no tool has DeferLoading, it is
// TypeScript(tools).
//
// Programs can still call every tool: the prelude of [JS] is the same, and
// its $search and $describe answer with full declarations.
func TypeScriptWithin(tools []Tool, maxBytes int) string {
	sigs := signatures(tools)
	deferred := false
	for _, t := range tools {
		deferred = deferred || t.DeferLoading
	}
	var ts string
	if !deferred {
		ts = typeScript("", nil)
		if len(tools) > 0 {
			decls, aliases := hoist(sigs, nil)
			ts = typeScript(aliases, decls)
		}
		if maxBytes < 0 || len(ts) <= maxBytes || len(tools) == 0 {
			return ts
		}
	}
	// Tools are fitted by their declarations written out; the aliases
	// shared by those declared in full only make the result shorter.
	full := make([]string, len(sigs))
	for i, s := range sigs {
		full[i] = s.decl(s.args, s.result)
	}
	if maxBytes < 0 {
		maxBytes = math.MaxInt
	}
	names := MethodNames(tools)
	short := make([]string, len(tools))
	for i, t := range tools {
		short[i] = shortDecl(names[i], t)
	}
	level := make([]int, len(tools))
	const open, tail = "declare const tools: {\n", "};\n"
	// shortHead and shortType are written only with a short line, but
	// always counted.
	fixed := len(open) + len(searchDecl) + len(shortHead) + len(tail) + len(shortType) + len(toolErrorDecl)
	cost := fixed
	for i := range tools {
		level[i] = levelShort
		cost += len(short[i])
	}
	if cost > maxBytes {
		// Not even the short lines fit: list those that do, count the rest.
		// The count is reserved at its widest.
		cost = fixed + len(omittedLine(len(tools)))
		for i := range tools {
			if cost+len(short[i]) <= maxBytes {
				cost += len(short[i])
			} else {
				level[i] = levelNone
			}
		}
	} else {
		for i, t := range tools {
			if !t.DeferLoading && cost-len(short[i])+len(full[i]) <= maxBytes {
				cost += len(full[i]) - len(short[i])
				level[i] = levelFull
			}
		}
	}

	inFull := make([]bool, len(tools))
	for i := range tools {
		inFull[i] = level[i] == levelFull
	}
	decls, aliases := hoist(sigs, inFull)
	var b strings.Builder
	b.Grow(cost)
	b.WriteString(aliases)
	b.WriteString(open)
	for i, d := range decls {
		if inFull[i] {
			b.WriteString(d)
		}
	}
	b.WriteString(searchDecl)
	omitted, head := 0, false
	for i, s := range short {
		switch level[i] {
		case levelShort:
			if !head {
				b.WriteString(shortHead)
				head = true
			}
			b.WriteString(s)
		case levelNone:
			omitted++
		}
	}
	if omitted > 0 {
		b.WriteString(omittedLine(omitted))
	}
	b.WriteString(tail)
	if head {
		b.WriteString(shortType)
	}
	b.WriteString(toolErrorDecl)
	if !deferred && b.Len() >= len(ts) {
		return ts // a budget below the fixed parts: the full text is shorter
	}
	return b.String()
}

// shortDecl is a tool's one-line declaration: its method, of the untyped
// shortType, and the first sentence of its description.
func shortDecl(method string, t Tool) string {
	var b strings.Builder
	b.WriteString("  ")
	b.WriteString(method)
	b.WriteString(": Tool;")
	if s := FirstSentence(t.Description, maxSentence); s != "" {
		b.WriteString(" // ")
		b.WriteString(s)
	}
	b.WriteString("\n")
	return b.String()
}

// omittedLine is the comment counting n tools that are not listed.
func omittedLine(n int) string {
	if n == 1 {
		return `  // 1 more tool is not listed here: await tools.$search("words") finds it.` + "\n"
	}
	return "  // " + strconv.Itoa(n) + ` more tools are not listed here: await tools.$search("words") finds them.` + "\n"
}

// abbreviations end in a period without ending a sentence.
var abbreviations = map[string]bool{"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "cf.": true}

// FirstSentence returns the first sentence of a description on one line:
// the text up to the first blank line and, within it, up to the first word
// ending in '.', '!' or '?' (not "e.g." and the like), with every run of
// white space, line terminators included, written as one space. Past
// maxBytes it is cut after the last whole word that fits and ends in "…"
// (a first word longer than that is cut at a character). The result never
// holds a line terminator, so it fits in a // comment.
func FirstSentence(desc string, maxBytes int) string {
	var words []string
paragraph:
	for _, l := range splitLines(desc) {
		ws := strings.Fields(l)
		if len(ws) == 0 {
			if len(words) > 0 {
				break // a blank line ends the first paragraph
			}
			continue
		}
		for _, w := range ws {
			words = append(words, w)
			if end := w[len(w)-1]; (end == '.' || end == '!' || end == '?') && !abbreviations[strings.ToLower(w)] {
				break paragraph
			}
		}
	}
	s := strings.Join(words, " ")
	if len(s) <= maxBytes {
		return s
	}
	const ellipsis = "…"
	keep := ""
	for _, w := range words {
		next := w
		if keep != "" {
			next = keep + " " + w
		}
		if len(next)+len(ellipsis) > maxBytes {
			break
		}
		keep = next
	}
	if keep == "" {
		cut := max(maxBytes-len(ellipsis), 0)
		for cut > 0 && !utf8.RuneStart(words[0][cut]) {
			cut--
		}
		keep = words[0][:cut]
	}
	return keep + ellipsis
}
