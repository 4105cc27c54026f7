package sdkgen

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptchost/ptc/registry"
)

// tsOf returns the generated type of schema as an output type.
func tsOf(t *testing.T, schema string) string {
	t.Helper()
	n := parseSchema([]byte(schema))
	s, _ := newGen(n).typeOf(n, 0)
	return s
}

func TestTypeScript_types(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"string", `{"type":"string"}`, "string"},
		{"integer", `{"type":"integer"}`, "number"},
		{"number", `{"type":"number"}`, "number"},
		{"boolean", `{"type":"boolean"}`, "boolean"},
		{"null", `{"type":"null"}`, "null"},
		{"true", `true`, "unknown"},
		{"false", `false`, "never"},
		{"empty", `{}`, "unknown"},
		{"ref unresolved", `{"$ref":"#/$defs/x"}`, "unknown"},
		{"ref remote", `{"$ref":"https://example.com/s.json"}`, "unknown"},
		{"ref", `{"type":"object","properties":{"p":{"$ref":"#/$defs/pt"}},"$defs":{"pt":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`, "{ p?: { x: number } }"},
		{"ref escaped", `{"$ref":"#/$defs/a~1b~0c","$defs":{"a/b~c":{"type":"string"}}}`, "string"},
		{"ref array index", `{"$ref":"#/$defs/l/1","$defs":{"l":[{"type":"string"},{"type":"null"}]}}`, "null"},
		{"ref and description", `{"$ref":"#/$defs/s","description":"d","$defs":{"s":{"enum":["a"]}}}`, `"a"`},
		{"type list", `{"type":["string","null"]}`, "string | null"},
		{"array", `{"type":"array","items":{"type":"string"}}`, "string[]"},
		{"array any", `{"type":"array"}`, "unknown[]"},
		{"array of union", `{"type":"array","items":{"type":["string","number"]}}`, "(string | number)[]"},
		{"nested array", `{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`, "number[][]"},
		{"enum", `{"type":"string","enum":["a","b"]}`, `"a" | "b"`},
		{"enum mixed", `{"enum":[1,"x",true,null]}`, `1 | "x" | true | null`},
		{"enum object", `{"enum":[{"a":1}]}`, "unknown"},
		{"enum empty", `{"enum":[]}`, "never"},
		{"const", `{"const":"x"}`, `"x"`},
		{"oneOf", `{"oneOf":[{"type":"string"},{"type":"number"}]}`, "string | number"},
		{"oneOf dedup", `{"oneOf":[{"type":"string"},{"type":"string"}]}`, "string"},
		{"anyOf unknown", `{"anyOf":[{"type":"string"},{}]}`, "unknown"},
		{"allOf", `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"}}}]}`, "{ a: string } & { b?: number }"},
		{"object", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}`, "{ a: string; b?: number }"},
		{"object empty", `{"type":"object"}`, "{}"},
		{"object closed", `{"type":"object","additionalProperties":false}`, "{}"},
		{"object open", `{"type":"object","additionalProperties":true}`, "{ [key: string]: unknown }"},
		{"object map", `{"type":"object","additionalProperties":{"type":"number"}}`, "{ [key: string]: number }"},
		{"object props and map", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":{"type":"number"}}`, "{ a: string; [key: string]: unknown }"},
		{"object implied", `{"properties":{"x":{"type":"null"}}}`, "{ x?: null }"},
		{"quoted keys", `{"type":"object","properties":{"a-b":{"type":"string"},"1x":{"type":"string"},"ok$":{"type":"string"}}}`, `{ "a-b"?: string; "1x"?: string; ok$?: string }`},
		{"key order kept", `{"type":"object","properties":{"z":{},"a":{}}}`, "{ z?: unknown; a?: unknown }"},
		{"nested", `{"type":"object","properties":{"o":{"type":"object","properties":{"p":{"type":"boolean"}},"required":["p"]}},"required":["o"]}`, "{ o: { p: boolean } }"},
		{"oneOf in array", `{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"null"}]}}`, "(string | null)[]"},
		{"type and oneOf", `{"type":"object","properties":{"k":{"type":"string"}},"oneOf":[{"required":["k"]},{"type":"object"}]}`, "{ k?: string } & ({ k: unknown } | {})"},
		{"unknown type", `{"type":"date"}`, "unknown"},
		{"not json", `{"type":`, "unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tsOf(t, tc.schema); got != tc.want {
				t.Errorf("type of %s\n got: %s\nwant: %s", tc.schema, got, tc.want)
			}
		})
	}
}

func TestTypeScript_docs(t *testing.T) {
	schema := `{"type":"object","properties":{
		"a":{"type":"string","description":"One line"},
		"b":{"type":"string","description":"Two\nlines */ here"},
		"c":{"type":"integer","default":3},
		"d":{"type":"string","description":"  "},
		"e":{"type":"boolean","description":"Dry run","default":false},
		"f":{"type":"boolean","description":"Two\nlines","default":true},
		"g":{"type":"array","items":{"type":"string"},"default":[]},
		"h":{"type":"array","default":["x"]},
		"i":{"type":"string","default":""},
		"j":{"type":["boolean","null"],"default":false},
		"k":{"type":"string","description":"A description long enough that it and its member do not fit together on one line of the declarations"}},"required":["a"]}`
	got := tsOf(t, schema)
	// A one-line doc comment shares its member's line when both fit in
	// lineWidth; a default that omission means anyway (false, []) is not
	// shown.
	want := `{
  /** One line */ a: string;
  /**
   * Two
   * lines *\/ here
   */
  b?: string;
  /** @default 3 */ c?: number;
  d?: string;
  /** Dry run */ e?: boolean;
  /**
   * Two
   * lines
   * @default true
   */
  f?: boolean;
  g?: string[];
  /** @default ["x"] */ h?: unknown[];
  /** @default "" */ i?: string;
  /** @default false */ j?: boolean | null;
  /** A description long enough that it and its member do not fit together on one line of the declarations */
  k?: string;
}`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTypeScript_tools(t *testing.T) {
	tools := []Tool{
		{Name: "noargs", Description: "Ends */ early.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
		{Name: "my-tool", Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`), Output: json.RawMessage(`{"type":"array","items":{"type":"string"}}`)},
		{Name: "raw", Parameters: nil},
	}
	got := TypeScript(tools)
	want := `declare const tools: {
  /** Ends *\/ early. */
  noargs(args?: {}): Promise<unknown>;
  /** Calls the tool "my-tool". */
  my_tool(args: { q: string }): Promise<string[]>;
  raw(args?: unknown): Promise<unknown>;
};
` + toolErrorDecl
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTypeScript_empty(t *testing.T) {
	if got, want := TypeScript(nil), "declare const tools: {};\n"+toolErrorDecl; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := JS(nil); !strings.Contains(got, "var tools = {};") {
		t.Errorf("JS(nil) = %q", got)
	}
}

func TestMethodNames(t *testing.T) {
	tests := []struct {
		name  string
		tools []string
		want  []string
	}{
		{"plain", []string{"a", "get_weather", "X9"}, []string{"a", "get_weather", "X9"}},
		{"dash", []string{"web-search"}, []string{"web_search"}},
		{"leading digit", []string{"3d"}, []string{"_3d"}},
		{"reserved", []string{"delete", "class", "await", "__proto__", "undefined", "then"}, []string{"delete_", "class_", "await_", "__proto___", "undefined_", "then_"}},
		{"empty", []string{""}, []string{"_"}},
		{"unicode", []string{"héllo", "日本"}, []string{"h_llo", "__"}},
		{"dollar", []string{"a$b"}, []string{"a_b"}},
		{"plain wins collision", []string{"a-b", "a_b"}, []string{"a_b_2", "a_b"}},
		{"collisions in order", []string{"a-b", "a.b", "a b"}, []string{"a_b", "a_b_2", "a_b_3"}},
		{"suffix taken", []string{"a-b", "a_b", "a_b_2"}, []string{"a_b_3", "a_b", "a_b_2"}},
		{"reserved collision", []string{"delete", "delete_"}, []string{"delete__2", "delete_"}},
		{"duplicate real names", []string{"x", "x"}, []string{"x", "x_2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tools := make([]Tool, len(tc.tools))
			for i, n := range tc.tools {
				tools[i] = Tool{Name: n}
			}
			got := MethodNames(tools)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("MethodNames(%q) = %q, want %q", tc.tools, got, tc.want)
			}
			seen := map[string]bool{}
			for _, n := range got {
				if !IsIdentifier(n) || seen[n] {
					t.Errorf("name %q is not a fresh identifier", n)
				}
				seen[n] = true
			}
		})
	}
}

func TestJS_realNames(t *testing.T) {
	js := JS([]Tool{{Name: "srv__do-it"}, {Name: "class"}, {Name: "q\"u\u2028"}})
	for _, want := range []string{
		`srv__do_it: function (args) { return call("srv__do-it", args); },`,
		`class_: function (args) { return call("class", args); },`,
		`q_u_: function (args) { return call("q\"u\u2028", args); },`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("JS lacks %s:\n%s", want, js)
		}
	}
	if err := balanced(js); err != nil {
		t.Error(err)
	}
}

func TestFromDefinitions_dsl(t *testing.T) {
	tool := registry.MustDefine(registry.Spec[json.RawMessage, any]{
		Name: "dsl",
		Parameters: registry.Object(
			registry.Required("mode", registry.String().WithEnum("fast", "slow").Describe("Speed")),
			registry.Optional("tags", registry.Array(registry.String())),
			registry.Optional("pick", registry.OneOf(registry.Integer(), registry.Null())),
			registry.Optional("any", registry.JSON()),
			registry.Optional("opts", registry.Object(registry.Optional("deep", registry.Boolean().WithDefault(true))).Strict()),
		),
		Output:  registry.Output[json.RawMessage, any]{Schema: registry.OneOf(registry.String(), registry.Array(registry.Number()))},
		Execute: func(_ context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) { return nil, nil },
	})
	got := TypeScript(FromDefinitions([]*registry.Tool{nil, tool}))
	want := `declare const tools: {
  dsl(args: {
    /** Speed */ mode: "fast" | "slow";
    tags?: string[];
    pick?: number | null;
    any?: unknown;
    opts?: { /** @default true */ deep?: boolean };
  }): Promise<string | number[]>;
};
` + toolErrorDecl
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestGenerate_stable(t *testing.T) {
	tools := benchTools(50)
	ts, js := TypeScript(tools), JS(tools)
	for range 20 {
		if TypeScript(tools) != ts || JS(tools) != js {
			t.Fatal("output changed between runs")
		}
	}
	if err := balanced(ts); err != nil {
		t.Error(err)
	}
	if err := balanced(js); err != nil {
		t.Error(err)
	}
}

// A list of repeated types at every level once took time exponential in
// the depth (found by FuzzGenerate).
func TestTypeScript_repeatedTypesRegression(t *testing.T) {
	s := `{"type":"string"}`
	for range 24 {
		s = `{"type":["object","object","object","array"],"items":{},"properties":{"a":` + s + `}}`
	}
	done := make(chan string)
	go func() { done <- TypeScript([]Tool{{Name: "t", Parameters: json.RawMessage(s)}}) }()
	select {
	case out := <-done:
		if err := balanced(out); err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("generation did not finish in 10s")
	}
}

func TestTypeScript_refBudget(t *testing.T) {
	// Two references per level double the work at every level; the visit
	// budget keeps the output bounded.
	s := `{"$ref":"#/$defs/a","$defs":{"a":{"type":"object","properties":{"x":{"$ref":"#/$defs/a"},"y":{"$ref":"#/$defs/a"}}}}}`
	start := time.Now()
	out := TypeScript([]Tool{{Name: "t", Parameters: json.RawMessage(s)}})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if len(out) > 64<<20 {
		t.Errorf("output is %d bytes", len(out))
	}
	if err := balanced(out); err != nil {
		t.Error(err)
	}
	if !strings.Contains(out, "x?: unknown") {
		t.Error("recursion was not cut to unknown")
	}
}

func TestGenerate_hammer(t *testing.T) {
	tools := benchTools(20)
	ts, js := TypeScript(tools), JS(tools)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				if TypeScript(tools) != ts || JS(tools) != js {
					t.Error("concurrent generation differs")
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestTypeScript_defaultsShownWhereApplied: @default marks a default the
// registry fills in (a property of the arguments, through properties and
// items), not one in a result type or under oneOf/anyOf/allOf/$ref.
func TestTypeScript_defaultsShownWhereApplied(t *testing.T) {
	got := TypeScript([]Tool{{
		Name:       "t",
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","default":3},"v":{"oneOf":[{"type":"object","properties":{"k":{"type":"string","default":"x"}}},{"type":"string"}]}}}`),
		Output:     json.RawMessage(`{"type":"object","properties":{"unit":{"type":"string","default":"piece"}}}`),
	}})
	if !strings.Contains(got, "@default 3") || strings.Contains(got, `@default "x"`) || strings.Contains(got, `@default "piece"`) {
		t.Fatalf("@default where no default is applied, or missing where one is:\n%s", got)
	}
}
