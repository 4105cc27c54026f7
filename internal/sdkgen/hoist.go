package sdkgen

import (
	"strconv"
	"strings"
)

// minAliasSaving is the fewest bytes a type alias must save to be
// declared: naming a type costs the reader a look-up, worth it only when
// it spares repeating at least a line.
const minAliasSaving = 40

// libTypes are the global types of TypeScript's ECMAScript library whose
// names an alias could take ("...Args", "...Result"); aliases never do, so
// that the declarations hold as a script too.
var libTypes = map[string]bool{
	"IteratorResult": true, "IteratorYieldResult": true, "IteratorReturnResult": true,
	"PromiseSettledResult": true, "PromiseFulfilledResult": true, "PromiseRejectedResult": true,
}

// shared is one argument or result type printed by several methods.
type shared struct {
	text    string
	methods []string // the methods that use it, in order, repeated per use
	args    bool     // some method takes it as its argument
	result  bool     // some method returns it
	uses    int
	name    string // its alias, or "" when written out
}

// hoist returns the declarations of the methods sigs[i] for which use is
// nil or use[i] is true (the others are ""), index for index, and the type
// aliases they use. A type that is the whole argument or result type of
// several of those methods (or both of one) is declared once, in order of
// first use, as
//
//	type NAME = TYPE;
//
// when that saves at least minAliasSaving bytes over writing it out at
// each use. NAME is the words common to the start of the methods' names
// (split at "_"; when they have none, the words of the first one's name),
// each capitalised, followed by "Args" when every use is an argument type,
// "Result" when every use is a result type, "Type" otherwise; a name
// already taken gets the first free suffix 2, 3, ... ("fs__read_file" and
// "fs__read_text_file" share FsReadArgs; "a__x" and "b__y" share AXArgs).
func hoist(sigs []sig, use []bool) (decls []string, aliases string) {
	byText := map[string]*shared{}
	var order []*shared
	note := func(text, method string, args bool) {
		if text == "unknown" {
			return
		}
		sh := byText[text]
		if sh == nil {
			sh = &shared{text: text}
			byText[text] = sh
			order = append(order, sh)
		}
		sh.uses++
		sh.methods = append(sh.methods, method)
		sh.args = sh.args || args
		sh.result = sh.result || !args
	}
	for i, s := range sigs {
		if use == nil || use[i] {
			note(s.args, s.method, true)
			note(s.result, s.method, false)
		}
	}
	taken := map[string]bool{"ToolError": true, "Tool": true}
	var b strings.Builder
	for _, sh := range order {
		if sh.uses < 2 {
			continue
		}
		name := aliasName(sh, taken)
		decl := "type " + name + " = " + sh.text + ";\n"
		if sh.uses*(len(indent(sh.text, "  "))-len(name))-len(decl) < minAliasSaving {
			continue
		}
		taken[name] = true
		sh.name = name
		b.WriteString(decl)
	}
	decls = make([]string, len(sigs))
	for i, s := range sigs {
		if use == nil || use[i] {
			decls[i] = s.decl(aliasOf(byText, s.args), aliasOf(byText, s.result))
		}
	}
	return decls, b.String()
}

// aliasOf returns the alias of the type text, or text when it has none.
func aliasOf(byText map[string]*shared, text string) string {
	if sh := byText[text]; sh != nil && sh.name != "" {
		return sh.name
	}
	return text
}

// aliasName names the shared type sh, as [hoist] says, with a name not in
// taken.
func aliasName(sh *shared, taken map[string]bool) string {
	words := strings.Split(sh.methods[0], "_")
	first := words
	for _, m := range sh.methods[1:] {
		ws := strings.Split(m, "_")
		n := 0
		for n < len(words) && n < len(ws) && words[n] == ws[n] {
			n++
		}
		words = words[:n]
	}
	if strings.Join(words, "") == "" {
		words = first // nothing in common: named after its first user
	}
	var b strings.Builder
	for _, w := range words {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]))
			b.WriteString(w[1:])
		}
	}
	switch {
	case !sh.result:
		b.WriteString("Args")
	case !sh.args:
		b.WriteString("Result")
	default:
		b.WriteString("Type")
	}
	base := b.String()
	if base[0] >= '0' && base[0] <= '9' {
		base = "T" + base
	}
	name := base
	for n := 2; taken[name] || libTypes[name]; n++ {
		name = base + strconv.Itoa(n)
	}
	return name
}
