package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/sdkgen"
	"github.com/ptchost/ptc/registry"
)

type (
	tagged struct {
		City   string `json:"city" jsonschema:"City name"`
		Unit   string `json:"unit,omitempty"`
		Days   int    `json:"days,omitzero"`
		Secret string `json:"-"`
		hidden int    // unexported: not a property
		Plain  bool
	}
	nullable struct {
		Limit *int     `json:"limit"`
		Tags  []string `json:"tags,omitempty"`
		Pair  [2]int   `json:"pair"`
	}
	base struct {
		ID string `json:"id"`
	}
	embeds struct {
		base
		Name string `json:"name"`
	}
	named struct {
		Base base `json:"base"`
	}
	unit     string
	withEnum struct {
		Unit unit `json:"unit,omitempty" jsonschema:"Temperature unit"`
	}
	withTime struct {
		At time.Time `json:"at"`
	}
)

var unitSchemas = &registry.InferOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[unit](): {Type: "string", Enum: []any{"c", "f"}, Default: json.RawMessage(`"c"`)},
}}

func TestSchemaFor(t *testing.T) {
	tests := []struct {
		name string
		fn   func(*registry.InferOptions) (*registry.Schema, error)
		opts *registry.InferOptions
		want string
	}{
		{"json and jsonschema tags", registry.SchemaFor[tagged], nil,
			`{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string"},"days":{"type":"integer"},"Plain":{"type":"boolean"}},"required":["city","Plain"],"additionalProperties":false}`},
		{"pointers and slices accept null", registry.SchemaFor[nullable], nil,
			`{"type":"object","properties":{"limit":{"type":["null","integer"]},"tags":{"type":["null","array"],"items":{"type":"string"}},"pair":{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2}},"required":["limit","pair"],"additionalProperties":false}`},
		{"embedded fields are promoted", registry.SchemaFor[embeds], nil,
			`{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}},"required":["id","name"],"additionalProperties":false}`},
		{"nested struct", registry.SchemaFor[named], nil,
			`{"type":"object","properties":{"base":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}},"required":["base"],"additionalProperties":false}`},
		{"enum and default from TypeSchemas", registry.SchemaFor[withEnum], unitSchemas,
			`{"type":"object","properties":{"unit":{"type":"string","description":"Temperature unit","default":"c","enum":["c","f"]}},"additionalProperties":false}`},
		{"time is a string", registry.SchemaFor[withTime], nil,
			`{"type":"object","properties":{"at":{"type":"string"}},"required":["at"],"additionalProperties":false}`},
		{"map", registry.SchemaFor[map[string]int], nil,
			`{"type":"object","additionalProperties":{"type":"integer"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.fn(tt.opts)
			require.NoError(t, err)
			assert.Equal(t, registry.KindRaw, s.Kind())
			assert.Equal(t, tt.want, string(s.Raw()))
		})
	}
}

var _ = tagged{hidden: 1}

func TestSchemaFor_unsupported(t *testing.T) {
	_, err := registry.SchemaFor[struct{ F func() }](nil)
	assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
	_, err = registry.SchemaFor[struct {
		D string `jsonschema:"enum=a"`
	}](nil)
	assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
}

type lookupArgs struct {
	SKU   string `json:"sku" jsonschema:"Stock keeping unit"`
	Count int    `json:"count,omitempty"`
	Unit  unit   `json:"unit,omitempty"`
}

type lookupResult struct {
	SKU     string `json:"sku"`
	InStock bool   `json:"inStock"`
	Unit    unit   `json:"unit"`
}

func lookupTool(t testing.TB) *registry.Tool {
	t.Helper()
	tool, err := registry.Infer(registry.Spec[lookupArgs, lookupResult]{
		Name:        "lookup",
		Description: "Look up stock.",
		Execute: func(_ context.Context, a lookupArgs, _ *registry.Exec) (lookupResult, error) {
			return lookupResult{SKU: a.SKU, InStock: a.Count < 5, Unit: a.Unit}, nil
		},
	}, unitSchemas)
	require.NoError(t, err)
	return tool
}

func TestInfer(t *testing.T) {
	tool := lookupTool(t)
	assert.Equal(t, `{"type":"object","properties":{"sku":{"type":"string","description":"Stock keeping unit"},"count":{"type":"integer"},"unit":{"type":"string","default":"c","enum":["c","f"]}},"required":["sku"],"additionalProperties":false}`,
		string(tool.Schema().Parameters))
	out, err := tool.OutputSchema().MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"sku":{"type":"string"},"inStock":{"type":"boolean"},"unit":{"type":"string","default":"c","enum":["c","f"]}},"required":["sku","inStock","unit"],"additionalProperties":false}`,
		string(out))

	tests := []struct {
		name, args string
		want       lookupArgs // when ok
		invalid    string     // a part of the error, when not
	}{
		{"required only", `{"sku":"A1"}`, lookupArgs{SKU: "A1", Unit: "c"}, ""},
		{"all", `{"sku":"A1","count":3,"unit":"f"}`, lookupArgs{SKU: "A1", Count: 3, Unit: "f"}, ""},
		{"missing required", `{"count":3}`, lookupArgs{}, "missing property 'sku'"},
		{"wrong type", `{"sku":1}`, lookupArgs{}, "/sku"},
		{"not in enum", `{"sku":"A1","unit":"k"}`, lookupArgs{}, "/unit"},
		{"unknown property", `{"sku":"A1","item":"x"}`, lookupArgs{}, "item"},
		{"not an integer", `{"sku":"A1","count":1.5}`, lookupArgs{}, "/count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := tool.Prepare(json.RawMessage(tt.args))
			if tt.invalid != "" {
				require.ErrorIs(t, err, registry.ErrInvalidArguments)
				assert.Contains(t, err.Error(), tt.invalid)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, call.Args())
			assert.Equal(t, tt.args, string(call.Arguments()))
			v, err := call.Execute(context.Background(), registry.Exec{})
			require.NoError(t, err)
			assert.NoError(t, tool.ValidateOutput(v))
		})
	}
}

// TestInfer_agreesWithMCP checks that a tool inferred here and one added to
// an MCP server with mcp.AddTool and the same types have the same schemas.
func TestInfer_agreesWithMCP(t *testing.T) {
	ctx := context.Background()
	type result struct {
		Items []lookupResult `json:"items"`
		Total int            `json:"total"`
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "lookup"}, func(context.Context, *mcp.CallToolRequest, tagged) (*mcp.CallToolResult, result, error) {
		return nil, result{}, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 1)
	in, err := json.Marshal(list.Tools[0].InputSchema)
	require.NoError(t, err)
	out, err := json.Marshal(list.Tools[0].OutputSchema)
	require.NoError(t, err)

	tool, err := registry.Infer(registry.Spec[tagged, result]{Name: "lookup", Execute: func(context.Context, tagged, *registry.Exec) (result, error) {
		return result{}, nil
	}}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, string(in), string(tool.Schema().Parameters))
	ours, err := tool.OutputSchema().MarshalJSON()
	require.NoError(t, err)
	assert.JSONEq(t, string(out), string(ours))
}

func TestInfer_types(t *testing.T) {
	exec := func(context.Context, any, *registry.Exec) (any, error) { return nil, nil }
	t.Run("any arguments are an empty object, any value has no schema", func(t *testing.T) {
		tool, err := registry.Infer(registry.Spec[any, any]{Name: "a", Execute: exec}, nil)
		require.NoError(t, err)
		assert.Equal(t, `{"type":"object","properties":{}}`, string(tool.Schema().Parameters))
		assert.Nil(t, tool.OutputSchema())
	})
	t.Run("pointer arguments infer the struct", func(t *testing.T) {
		tool, err := registry.Infer(registry.Spec[*base, string]{
			Name:    "p",
			Execute: func(_ context.Context, a *base, _ *registry.Exec) (string, error) { return a.ID, nil },
		}, nil)
		require.NoError(t, err)
		assert.Equal(t, `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`,
			string(tool.Schema().Parameters))
		out, _ := tool.OutputSchema().MarshalJSON()
		assert.Equal(t, `{"type":"string"}`, string(out))
	})
	t.Run("raw arguments need a schema", func(t *testing.T) {
		_, err := registry.Infer(registry.RawSpec{Name: "r", Execute: noop[json.RawMessage]}, nil)
		assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
	})
	t.Run("non-object arguments", func(t *testing.T) {
		_, err := registry.Infer(registry.Spec[[]string, any]{Name: "s", Execute: noop[[]string]}, nil)
		assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
		assert.ErrorContains(t, err, "want a struct or a map")
	})
	t.Run("a given schema is kept and checked", func(t *testing.T) {
		tool, err := registry.Infer(registry.Spec[base, any]{
			Name:       "g",
			Parameters: registry.Object(registry.Required("id", registry.String().Describe("given"))),
			Execute:    noop[base],
		}, nil)
		require.NoError(t, err)
		assert.Equal(t, registry.KindObject, tool.Parameters().Kind())
		_, err = registry.Infer(registry.Spec[base, any]{
			Name:       "g",
			Parameters: registry.Object(registry.Required("key", registry.String())),
			Execute:    noop[base],
		}, nil)
		assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
	})
	t.Run("unsupported field type", func(t *testing.T) {
		_, err := registry.Infer(registry.Spec[struct{ C chan int }, any]{Name: "c", Execute: noop[struct{ C chan int }]}, nil)
		assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
	})
}

type (
	skuArgs struct {
		SKU string `json:"sku"`
	}
	optionalArgs struct {
		SKU  string `json:"sku"`
		Note string `json:"note,omitempty"`
		Set  int    `json:"-"`
	}
	untagged struct {
		City string
	}
	promoted struct {
		base
		Name string `json:"name"`
	}
	selfDecoding struct {
		X string `json:"x"`
	}
)

func (s *selfDecoding) UnmarshalJSON(b []byte) error { return nil }

// defineWith defines a tool with arguments A and the given parameters.
func defineWith[A any](params *registry.Schema) error {
	_, err := registry.Define(registry.Spec[A, any]{Name: "t", Parameters: params, Execute: noop[A]})
	return err
}

func rawSchema(t *testing.T, doc string) *registry.Schema {
	t.Helper()
	s, err := registry.ParseJSONSchema([]byte(doc))
	require.NoError(t, err)
	return s
}

func TestDefine_fieldMismatch(t *testing.T) {
	str := registry.String()
	tests := []struct {
		name  string
		err   error
		names []string // what the error names
	}{
		{"property without a field", defineWith[skuArgs](registry.Object(registry.Required("item", str))), []string{`"item"`, `"sku"`}},
		{"raw property without a field", defineWith[skuArgs](rawSchema(t, `{"type":"object","properties":{"item":{"type":"string"}}}`)), []string{`"item"`, `"sku"`}},
		{"extra property", defineWith[skuArgs](registry.Object(registry.Required("sku", str), registry.Optional("qty", registry.Integer()))), []string{`"qty"`, `"sku"`}},
		{"required field not a property", defineWith[optionalArgs](registry.Object(registry.Optional("note", str))), []string{"SKU", `"sku"`, `"note"`}},
		{"no properties for a required field", defineWith[skuArgs](nil), []string{`"sku"`}},
		{"pointer to struct", defineWith[*skuArgs](registry.Object(registry.Required("item", str))), []string{`"item"`, `"sku"`}},
		{"promoted field", defineWith[promoted](registry.Object(registry.Required("name", str))), []string{`"id"`}},

		{"unexported, \"-\" and optional fields", defineWith[tagged](registry.Object(registry.Required("city", str), registry.Required("Plain", registry.Boolean()))), nil},
		{"match", defineWith[skuArgs](registry.Object(registry.Required("sku", str))), nil},
		{"optional field may be absent", defineWith[optionalArgs](registry.Object(registry.Required("sku", str))), nil},
		{"optional property of a required field", defineWith[optionalArgs](registry.Object(registry.Optional("sku", str), registry.Optional("note", str))), nil},
		{"case-insensitive as encoding/json", defineWith[untagged](registry.Object(registry.Required("city", str))), nil},
		{"promoted fields match", defineWith[promoted](registry.Object(registry.Required("id", str), registry.Required("name", str))), nil},
		{"raw schema without properties", defineWith[skuArgs](rawSchema(t, `{"type":"object"}`)), nil},
		{"map", defineWith[map[string]any](registry.Object(registry.Required("anything", str))), nil},
		{"raw message", defineWith[json.RawMessage](registry.Object(registry.Required("anything", str))), nil},
		{"self-decoding", defineWith[selfDecoding](registry.Object(registry.Required("y", str))), nil},
		{"empty struct", defineWith[struct{}](nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.names == nil {
				assert.NoError(t, tt.err)
				return
			}
			require.ErrorIs(t, tt.err, registry.ErrInvalidDefinition)
			for _, n := range tt.names {
				assert.Contains(t, tt.err.Error(), n)
			}
		})
	}
}

type rawDefaultArgs struct {
	Q     string `json:"q"`
	Limit int    `json:"limit,omitempty"`
	Opts  struct {
		Deep bool `json:"deep,omitempty"`
	} `json:"opts,omitzero"`
}

func TestTool_Prepare_rawSchemaDefaults(t *testing.T) {
	const top = `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","default":10},"mode":{"type":"string","default":"fast"}},"required":["q"]}`
	const nested = `{"type":"object","properties":{"q":{"type":"string"},"opts":{"type":"object","properties":{"deep":{"type":"boolean","default":true}}}}}`

	t.Run("typed", func(t *testing.T) {
		tool, err := registry.Define(registry.Spec[rawDefaultArgs, any]{
			Name:       "typed",
			Parameters: rawSchema(t, `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","default":10},"opts":{"type":"object","properties":{"deep":{"type":"boolean","default":true}}}},"required":["q"]}`),
			Execute:    noop[rawDefaultArgs],
		})
		require.NoError(t, err)
		for _, tt := range []struct {
			args string
			want rawDefaultArgs
		}{
			{`{"q":"a"}`, rawDefaultArgs{Q: "a", Limit: 10}},
			{`{"q":"a","limit":3,"opts":{}}`, rawDefaultArgs{Q: "a", Limit: 3, Opts: struct {
				Deep bool `json:"deep,omitempty"`
			}{Deep: true}}},
		} {
			call, err := tool.Prepare(json.RawMessage(tt.args))
			require.NoError(t, err)
			assert.Equal(t, tt.want, call.Args(), tt.args)
			assert.Equal(t, tt.args, string(call.Arguments()), "raw arguments stay as sent")
		}
	})

	tests := []struct {
		name, schema, args, want string
	}{
		{"appended", top, `{"q":"a"}`, `{"q":"a","limit":10,"mode":"fast"}`},
		{"model's bytes kept", top, ` { "q" : "a<>" , "mode":"slow" } `, ` { "q" : "a<>" , "mode":"slow" ,"limit":10} `},
		{"given values win", top, `{"q":"a","limit":1,"mode":"x"}`, `{"q":"a","limit":1,"mode":"x"}`},
		{"nested re-encodes", nested, `{"opts":{},"q":"<b>"}`, `{"opts":{"deep":true},"q":"<b>"}`},
		{"nested absent object", nested, `{"q":"c"}`, `{"q":"c"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got json.RawMessage
			tool, err := registry.Define(registry.RawSpec{
				Name:       "raw",
				Parameters: rawSchema(t, tt.schema),
				Execute: func(_ context.Context, a json.RawMessage, e *registry.Exec) (any, error) {
					got = a
					assert.Equal(t, tt.args, string(e.Arguments), "Exec.Arguments stay as sent")
					return nil, nil
				},
			})
			require.NoError(t, err)
			call, err := tool.Prepare(json.RawMessage(tt.args))
			require.NoError(t, err)
			_, err = call.Execute(context.Background(), registry.Exec{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, tt.args, string(call.Arguments()))
		})
	}

	t.Run("empty object", func(t *testing.T) {
		tool := registry.MustDefine(registry.RawSpec{
			Name:       "raw",
			Parameters: rawSchema(t, `{"type":"object","properties":{"limit":{"type":"integer","default":10}}}`),
			Execute:    noop[json.RawMessage],
		})
		call, err := tool.Prepare(json.RawMessage(`{ }`))
		require.NoError(t, err)
		assert.Equal(t, `{ "limit":10}`, string(call.Args().(json.RawMessage)))
	})

	t.Run("DSL schema on a raw tool", func(t *testing.T) {
		tool := registry.MustDefine(registry.RawSpec{
			Name:       "dsl",
			Parameters: registry.Object(registry.Optional("unit", registry.String().WithDefault("c"))),
			Execute:    noop[json.RawMessage],
		})
		call, err := tool.Prepare(json.RawMessage(`{}`))
		require.NoError(t, err)
		assert.Equal(t, `{"unit":"c"}`, string(call.Args().(json.RawMessage)))
	})
}

func ExampleInfer() {
	type Unit string
	type Args struct {
		City string `json:"city" jsonschema:"City name, e.g. Paris"`
		Unit Unit   `json:"unit,omitempty" jsonschema:"Temperature unit"`
		Days int    `json:"days,omitzero" jsonschema:"Days of forecast"`
	}
	type Forecast struct {
		TempC []float64 `json:"tempC"`
		Sky   string    `json:"sky,omitempty"`
	}
	weather, err := registry.Infer(registry.Spec[Args, Forecast]{
		Name:        "get_forecast",
		Description: "Forecast for a city.",
		Execute: func(_ context.Context, a Args, _ *registry.Exec) (Forecast, error) {
			return Forecast{TempC: make([]float64, a.Days+1)}, nil
		},
	}, &registry.InferOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// The tags cannot say a Unit is one of a few strings: the type does.
		reflect.TypeFor[Unit](): {Type: "string", Enum: []any{"c", "f"}, Default: json.RawMessage(`"c"`)},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(weather.Schema().Parameters))
	decl, _, _ := strings.Cut(sdkgen.TypeScript(sdkgen.FromDefinitions([]*registry.Tool{weather})), "declare class ToolError")
	fmt.Print(decl)

	call, _ := weather.Prepare(json.RawMessage(`{"city":"Paris"}`))
	fmt.Printf("%+v\n", call.Args())
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. Paris"},"unit":{"type":"string","description":"Temperature unit","default":"c","enum":["c","f"]},"days":{"type":"integer","description":"Days of forecast"}},"required":["city"],"additionalProperties":false}
	// declare const tools: {
	//   /** Forecast for a city. */
	//   get_forecast(args: {
	//     /** City name, e.g. Paris */ city: string;
	//     /** Temperature unit @default "c" */ unit?: "c" | "f";
	//     /** Days of forecast */ days?: number;
	//   }): Promise<{ tempC: null | number[]; sky?: string }>;
	// };
	// {City:Paris Unit:c Days:0}
}

func ExampleDefine_mismatch() {
	type Args struct {
		SKU string `json:"sku"`
	}
	_, err := registry.Define(registry.Spec[Args, any]{
		Name:       "stock",
		Parameters: registry.Object(registry.Required("item", registry.String())),
		Execute:    func(context.Context, Args, *registry.Exec) (any, error) { return nil, nil },
	})
	fmt.Println(errors.Is(err, registry.ErrInvalidDefinition))
	fmt.Println(strings.ReplaceAll(err.Error(), "registry_test.", ""))
	// Output:
	// true
	// invalid tool definition: tool "stock": parameter "item" matches no JSON field of Args (fields: "sku")
}

// A tool's arguments, written twice: as Go types for Infer, and in the DSL.
type twinLine struct {
	SKU  string   `json:"sku"`
	Qty  int      `json:"qty"`
	Tags []string `json:"tags,omitempty"`
}

type twinOrder struct {
	Customer string     `json:"customer"`
	Lines    []twinLine `json:"lines"`
	Note     string     `json:"note,omitempty"`
}

// TestInfer_dslTwin: with OpenObjects and NonNullSlices, an inferred tool
// accepts and rejects exactly what its DSL twin does; without them, it is
// stricter (closed objects) and looser (null slices), as documented.
func TestInfer_dslTwin(t *testing.T) {
	exec := func(context.Context, twinOrder, *registry.Exec) (any, error) { return nil, nil }
	inferred, err := registry.Infer(registry.Spec[twinOrder, any]{Name: "order", Execute: exec},
		&registry.InferOptions{OpenObjects: true, NonNullSlices: true})
	require.NoError(t, err)
	defaults, err := registry.Infer(registry.Spec[twinOrder, any]{Name: "order", Execute: exec}, nil)
	require.NoError(t, err)
	dsl, err := registry.Define(registry.Spec[twinOrder, any]{Name: "order", Execute: exec,
		Parameters: registry.Object(
			registry.Required("customer", registry.String()),
			registry.Required("lines", registry.Array(registry.Object(
				registry.Required("sku", registry.String()),
				registry.Required("qty", registry.Integer()),
				registry.Optional("tags", registry.Array(registry.String())),
			))),
			registry.Optional("note", registry.String()),
		)})
	require.NoError(t, err)

	for _, c := range []struct {
		args string
		ok   bool
	}{
		{`{"customer": "a", "lines": []}`, true},
		{`{"customer": "a", "lines": [{"sku": "x", "qty": 2}], "note": "n"}`, true},
		{`{"customer": "a", "lines": [{"sku": "x", "qty": 2, "tags": ["t"]}]}`, true},
		{`{"customer": "a", "lines": [], "extra": 1}`, true},
		{`{"customer": "a", "lines": [{"sku": "x", "qty": 2, "extra": true}]}`, true},
		{`{"customer": "a", "lines": null}`, false},
		{`{"customer": "a", "lines": [{"sku": "x", "qty": 2, "tags": null}]}`, false},
		{`{"customer": "a"}`, false},
		{`{"customer": 1, "lines": []}`, false},
		{`{"customer": "a", "lines": [{"sku": "x", "qty": 2.5}]}`, false},
		{`{"customer": "a", "lines": [{"sku": "x"}]}`, false},
		{`[]`, false},
	} {
		dslErr := dsl.Validate(json.RawMessage(c.args))
		infErr := inferred.Validate(json.RawMessage(c.args))
		assert.Equal(t, c.ok, dslErr == nil, "DSL %s: %v", c.args, dslErr)
		assert.Equal(t, dslErr == nil, infErr == nil, "inferred vs DSL on %s: %v / %v", c.args, infErr, dslErr)
	}
	// The defaults: closed objects, nullable slices.
	assert.Error(t, defaults.Validate(json.RawMessage(`{"customer": "a", "lines": [], "extra": 1}`)))
	assert.NoError(t, defaults.Validate(json.RawMessage(`{"customer": "a", "lines": null}`)))
}
