package sdkgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tscPath is the TypeScript compiler `make tsc` installs from the pinned
// internal/sdkgen/tsc/package-lock.json; PTC_TSC overrides it.
func tscPath(t *testing.T) string {
	if p := os.Getenv("PTC_TSC"); p != "" {
		return p
	}
	p, err := filepath.Abs(filepath.Join("tsc", "node_modules", ".bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skip("tsc is not installed (run make tsc, which needs npm): the declarations are checked by the balance test only")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: tsc cannot run")
	}
	return p
}

// TestTypeScript_tsc compiles a corpus of generated declarations with the
// real TypeScript compiler in strict mode: handcrafted edge cases and a few
// hundred random schemas (fixed seed). Each file is a module, so every
// `declare const tools` is checked on its own.
func TestTypeScript_tsc(t *testing.T) {
	tsc := tscPath(t)
	dir := t.TempDir()
	var files []string
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for i, tools := range tscCorpus() {
		write(fmt.Sprintf("case_%03d.ts", i), TypeScript(tools)+"export {};\n")
	}
	// The declarations are usable as well as valid: a program typed
	// against them compiles.
	weather := []Tool{{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"units":{"enum":["metric","imperial"]}},"required":["city"]}`),
		Output:      json.RawMessage(`{"type":"object","properties":{"tempC":{"type":"number"},"sky":{"type":"string"}},"required":["tempC","sky"]}`),
	}, {Name: "ping"}}
	write("use.ts", TypeScript(weather)+`
export async function main(): Promise<string> {
  const w = await tools.get_weather({ city: "Paris", units: "metric" });
  const t: number = w.tempC;
  await tools.ping();
  try { await tools.get_weather({ city: "x" }); } catch (e) { if (e instanceof ToolError) return e.code + e.tool; }
  return w.sky + t;
}
`)
	// Fitted declarations (TypeScriptWithin) are valid too, and a program
	// calls a tool declared in short and looks it up.
	for i, budget := range []int{-1, 0, 2000, 32 << 10} {
		write(fmt.Sprintf("fitted_%d.ts", i), TypeScriptWithin(realisticTools(300), budget)+"export {};\n")
	}
	short := []Tool{weather[0], {Name: "send-mail", Description: "Sends a mail.", DeferLoading: true}}
	write("use_fitted.ts", TypeScriptWithin(short, -1)+`
export async function main(): Promise<string> {
  const hits = await tools.$search("mail", 3);
  const decl: string = await tools.$describe(hits[0].name);
  await tools.send_mail({ to: "a@example.com" });
  await tools.send_mail();
  const w = await tools.get_weather({ city: "Paris" });
  return decl + hits[0].name + hits[0].description + w.tempC;
}
`)
	// Shared types are declared once and type the methods that use them.
	big := json.RawMessage(bigArgs)
	content := json.RawMessage(`{"type":"object","properties":{"content":{"type":"string"}},"required":["content"]}`)
	var shared []Tool
	for _, n := range []string{"fs__read_file", "fs__read_text_file", "fs__a", "fs__b", "fs__c", "fs__d", "fs__e", "fs__f"} {
		shared = append(shared, Tool{Name: n, Parameters: big, Output: content})
	}
	sharedTS := TypeScript(shared)
	if a := aliases(sharedTS); len(a) != 2 {
		t.Fatalf("aliases %q:\n%s", a, sharedTS)
	}
	write("use_shared.ts", sharedTS+`
export async function main(): Promise<string> {
  const a: FsArgs = { path: "x", head: 3 };
  const r: FsResult = await tools.fs__read_file(a);
  const s = await tools.fs__f({ path: "y" });
  return r.content + s.content;
}
`)
	args := append([]string{"--noEmit", "--strict", "--target", "es2022", "--lib", "es2022", "--pretty", "false"}, files...)
	out, err := exec.Command(tsc, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	// As a script (global scope, as run_code's description shows them), an
	// alias never clashes with a type of the library.
	lib := []Tool{{Name: "iterator_a", Output: big}, {Name: "iterator_b", Output: big}}
	script := filepath.Join(dir, "script.ts")
	if err := os.WriteFile(script, []byte(TypeScript(lib)+"const x: IteratorResult<number> = { value: 1 };\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args = append(args[:len(args)-len(files)], script)
	if out, err := exec.Command(tsc, args...).CombinedOutput(); err != nil {
		t.Fatalf("tsc (script): %v\n%s", err, out)
	}
}

// tscCorpus is the set of tool lists TestTypeScript_tsc compiles.
func tscCorpus() [][]Tool {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	corpus := [][]Tool{
		{{Name: "get_weather", Description: "City */ weather", Parameters: raw(`{"type":"object","properties":{"city":{"type":"string","description":"City */ name"}},"required":["city"]}`)}},
		{{Name: "a-b", Parameters: raw(`{"oneOf":[{"enum":[1,"x",null]},{"type":["array","null"],"items":{"allOf":[{},true]}}]}`)}, {Name: "a_b"}, {Name: "delete"}, {Name: "3d"}},
		{{Name: "weird", Parameters: raw(`{"type":"object","properties":{"a-b":{"type":"string"},"":{"type":"number"},"1x":{},"constructor":{"type":"boolean"},"__proto__":{"type":"null"},"*/":{"const":"*/"},"\"q\"":{"enum":["\u2028","\\","'"]},"日本":{"type":"integer"}},"required":["a-b","missing"]}`)}},
		{{Name: "refs", Parameters: raw(`{"type":"object","$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"number"}}}},"properties":{"list":{"$ref":"#/$defs/node"},"remote":{"$ref":"https://example.invalid/x"}}}`)}},
		{{Name: "maps", Parameters: raw(`{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}`), Output: raw(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`)}},
		{{Name: "never", Parameters: raw(`false`), Output: raw(`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"number"}}}]}`)}},
		{{Name: "defaults", Parameters: raw(`{"type":"object","properties":{"n":{"type":"integer","default":3,"description":"count\nsecond line"},"s":{"type":"string","default":"*/ end"}}}`)}},
		{},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n := 1 + r.IntN(4)
		var tools []Tool
		for j := range n {
			tools = append(tools, Tool{
				Name:        pick(r, toolNames) + fmt.Sprint(j%2),
				Description: pick(r, texts),
				Parameters:  mustJSON(randSchema(r, 0, true)),
				Output:      mustJSON(randSchema(r, 0, false)),
			})
		}
		corpus = append(corpus, tools)
	}
	return corpus
}

var (
	toolNames = []string{"get", "delete", "a-b", "3d", "class", "x.y", "__proto__", "constructor", "eval", "tool name", "日本"}
	texts     = []string{"", "plain", "has */ close", "line\nbreak", "quote \" and \\ back", "\u2028 sep", "@param x"}
	propNames = []string{"a", "b-c", "", "1x", "constructor", "__proto__", "*/", "\"q\"", "日本", "with space", "toString"}
)

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// randSchema returns a random JSON Schema mixing the keywords sdkgen maps.
func randSchema(r *rand.Rand, depth int, object bool) any {
	if object || (depth < 4 && r.IntN(3) == 0) {
		props := map[string]any{}
		var order []string
		for range r.IntN(4) {
			k := pick(r, propNames)
			if _, ok := props[k]; !ok {
				order = append(order, k)
			}
			props[k] = randSchema(r, depth+1, false)
		}
		s := map[string]any{"type": "object", "properties": props}
		if len(order) > 0 && r.IntN(2) == 0 {
			s["required"] = order[:1+r.IntN(len(order))]
		}
		switch r.IntN(4) {
		case 0:
			s["additionalProperties"] = true
		case 1:
			s["additionalProperties"] = randSchema(r, depth+1, false)
		case 2:
			s["additionalProperties"] = false
		}
		if r.IntN(3) == 0 {
			s["description"] = pick(r, texts)
		}
		return s
	}
	switch r.IntN(12) {
	case 0:
		return map[string]any{"type": "string", "description": pick(r, texts)}
	case 1:
		return map[string]any{"type": "number", "default": r.IntN(10)}
	case 2:
		return map[string]any{"type": "integer"}
	case 3:
		return map[string]any{"type": "boolean"}
	case 4:
		return map[string]any{"type": "null"}
	case 5:
		if depth > 4 {
			return true
		}
		return map[string]any{"type": "array", "items": randSchema(r, depth+1, false)}
	case 6:
		return map[string]any{"enum": []any{pick(r, texts), 1.5, nil, true}}
	case 7:
		return map[string]any{"const": pick(r, texts)}
	case 8:
		if depth > 4 {
			return false
		}
		return map[string]any{pick(r, []string{"oneOf", "anyOf", "allOf"}): []any{randSchema(r, depth+1, false), randSchema(r, depth+1, false)}}
	case 9:
		return map[string]any{"type": []any{"string", "null"}}
	case 10:
		return map[string]any{}
	default:
		return r.IntN(2) == 0
	}
}

func TestTSCCorpus_stable(t *testing.T) {
	a, b := tscCorpus(), tscCorpus()
	if len(a) != len(b) || TypeScript(a[len(a)-1]) != TypeScript(b[len(b)-1]) {
		t.Fatal("corpus is not deterministic")
	}
	for _, tools := range a {
		if err := balanced(TypeScript(tools)); err != nil && !strings.Contains(err.Error(), "never") {
			t.Fatal(err)
		}
	}
}
