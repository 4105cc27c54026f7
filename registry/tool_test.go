package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/registry"
)

type readArgs struct {
	Path   string   `json:"path"`
	Offset *float64 `json:"offset"`
	Limit  float64  `json:"limit"`
}

// readFile is the seed's read_file example carried over.
func readFile(t testing.TB) *registry.Tool {
	t.Helper()
	tool, err := registry.Define(registry.Spec[readArgs, string]{
		Name:        "read_file",
		Description: "Read a file from disk.",
		Parameters: registry.Object(
			registry.Required("path", registry.String().Describe("Absolute file path")),
			registry.Optional("offset", registry.Number()),
			registry.Optional("limit", registry.Number().WithDefault(100)),
		),
		Output: registry.Output[readArgs, string]{
			Schema: registry.String(),
			Render: func(_ readArgs, v string) []registry.Part { return []registry.Part{registry.TextPart(v)} },
		},
		Execute: func(ctx context.Context, a readArgs, _ *registry.Exec) (string, error) {
			return "contents of " + a.Path, ctx.Err()
		},
		TimeoutMs: 5000,
	})
	require.NoError(t, err)
	return tool
}

func noop[A any](context.Context, A, *registry.Exec) (any, error) { return nil, nil }

func TestDefine(t *testing.T) {
	tests := []struct {
		name string
		spec registry.Spec[json.RawMessage, any]
		ok   bool
	}{
		{"minimal", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage]}, true},
		{"mcp style name", registry.RawSpec{Name: "srv__tool-1", Execute: noop[json.RawMessage]}, true},
		{"empty name", registry.RawSpec{Execute: noop[json.RawMessage]}, false},
		{"name with space", registry.RawSpec{Name: "a b", Execute: noop[json.RawMessage]}, false},
		{"name too long", registry.RawSpec{Name: strings.Repeat("a", 65), Execute: noop[json.RawMessage]}, false},
		{"nil execute", registry.RawSpec{Name: "a"}, false},
		{"negative timeout", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage], TimeoutMs: -1}, false},
		{"non-object parameters", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage], Parameters: registry.String()}, false},
		{"bad parameter schema", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage], Parameters: registry.Object(registry.Optional("x", registry.OneOf()))}, false},
		{"bad output schema", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage], Output: registry.Output[json.RawMessage, any]{Schema: registry.OneOf()}}, false},
		{"raw schema that does not compile", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage], Parameters: mustRaw(t, `{"type":7}`)}, false},
		{"raw schema with external ref is refused", registry.RawSpec{Name: "a", Execute: noop[json.RawMessage], Parameters: mustRaw(t, `{"$ref":"file:///etc/passwd"}`)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool, err := registry.Define(tc.spec)
			if !tc.ok {
				assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.spec.Name, tool.Name())
		})
	}
}

// TestTool_Prepare covers "Model arguments are validated before execution;
// invalid input becomes a normal error result".
func TestTool_Prepare(t *testing.T) {
	tool := readFile(t)
	tests := []struct {
		name     string
		args     string
		path     string // first issue's path, if a schema violation
		keyword  string
		expected string
		syntax   bool // rejected before schema validation
	}{
		{name: "valid", args: `{"path":"/a","offset":1,"limit":2}`},
		{name: "valid, unknown property accepted by non-strict object", args: `{"path":"/a","extra":true}`},
		{name: "missing required", args: `{"offset":1}`, path: "", keyword: "required", expected: `property "path"`},
		{name: "wrong type", args: `{"path":7}`, path: "/path", keyword: "type", expected: "string"},
		{name: "root not an object", args: `[]`, path: "", keyword: "type", expected: "object"},
		{name: "duplicate key", args: `{"path":"/a","path":"/b"}`, syntax: true},
		{name: "duplicate key after unescaping", args: `{"path":"/a","p\u0061th":"/b"}`, syntax: true},
		{name: "malformed json", args: `{"path":`, syntax: true},
		{name: "trailing data", args: `{"path":"/a"} {}`, syntax: true},
		{name: "empty", args: ``, syntax: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			call, err := tool.Prepare(json.RawMessage(tc.args))
			if tc.keyword == "" && !tc.syntax {
				require.NoError(t, err)
				assert.Equal(t, tc.args, string(call.Arguments()))
				return
			}
			require.Error(t, err)
			var e *registry.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, registry.ErrInvalidArguments, e.Kind)
			assert.ErrorIs(t, err, registry.ErrInvalidArguments)
			assert.ErrorIs(t, err, registry.ErrInvalidArguments)
			assert.Equal(t, "read_file", e.Tool)
			if tc.syntax {
				assert.Empty(t, e.Issues)
				return
			}
			require.NotEmpty(t, e.Issues)
			assert.Equal(t, tc.path, e.Issues[0].Path)
			assert.Equal(t, tc.keyword, e.Issues[0].Keyword)
			assert.Equal(t, tc.expected, e.Issues[0].Expected)
			assert.NotEmpty(t, e.Issues[0].Message)
			assert.Contains(t, err.Error(), `tool "read_file": invalid arguments: at `)
		})
	}
}

func TestTool_Prepare_StrictRejectsUnknownProperties(t *testing.T) {
	tool := registry.MustDefine(registry.Spec[map[string]any, any]{
		Name:       "strict",
		Parameters: registry.Object(registry.Optional("a", registry.String())).Strict(),
		Execute:    noop[map[string]any],
	})
	_, err := tool.Prepare(json.RawMessage(`{"a":"x","b":1}`))
	var e *registry.Error
	require.ErrorAs(t, err, &e)
	require.Len(t, e.Issues, 1)
	assert.Equal(t, "additionalProperties", e.Issues[0].Keyword)
	assert.Equal(t, `no property "b"`, e.Issues[0].Expected)

	_, err = tool.Prepare(json.RawMessage(`{"a":"x"}`))
	assert.NoError(t, err)
}

func TestTool_Prepare_Kinds(t *testing.T) {
	tests := []struct {
		name   string
		schema *registry.Schema
		value  string
		ok     bool
	}{
		{"integer accepts 3", registry.Integer(), `3`, true},
		{"integer accepts 3.0 (JSON Schema)", registry.Integer(), `3.0`, true},
		{"integer rejects 3.5", registry.Integer(), `3.5`, false},
		{"integer accepts big exact", registry.Integer(), `123456789012345678901234567890`, true},
		{"number rejects string", registry.Number(), `"1"`, false},
		{"boolean", registry.Boolean(), `true`, true},
		{"null", registry.Null(), `null`, true},
		{"null rejects false", registry.Null(), `false`, false},
		{"enum accepts member", registry.String().WithEnum("a", "b"), `"b"`, true},
		{"enum rejects other", registry.String().WithEnum("a", "b"), `"c"`, false},
		{"numeric enum", registry.Number().WithEnum(1, 2), `2.0`, true},
		{"numeric enum rejects", registry.Number().WithEnum(1, 2), `3`, false},
		{"array items", registry.Array(registry.String()), `["a","b"]`, true},
		{"array items reject", registry.Array(registry.String()), `["a",1]`, false},
		{"json accepts anything", registry.JSON(), `{"x":[1,{"y":null}]}`, true},
		{"oneOf exactly one", registry.OneOf(registry.String(), registry.Integer()), `"x"`, true},
		{"oneOf none", registry.OneOf(registry.String(), registry.Integer()), `true`, false},
		{"oneOf more than one is rejected", registry.OneOf(registry.Number(), registry.Integer()), `1`, false},
		{"nested object", registry.Object(registry.Required("b", registry.Boolean())), `{"b":true}`, true},
		{"nested object missing", registry.Object(registry.Required("b", registry.Boolean())), `{}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool := registry.MustDefine(registry.RawSpec{
				Name:       "k",
				Parameters: registry.Object(registry.Required("v", tc.schema)),
				Execute:    noop[json.RawMessage],
			})
			err := tool.Validate(json.RawMessage(`{"v":` + tc.value + `}`))
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, registry.ErrInvalidArguments, "%v", err)
			}
		})
	}
}

func TestTool_Prepare_DefaultsFillTypedArgsOnly(t *testing.T) {
	tool := readFile(t)
	call, err := tool.Prepare(json.RawMessage(`{"path":"/a"}`))
	require.NoError(t, err)
	args := call.Args().(readArgs)
	assert.Equal(t, 100.0, args.Limit)
	assert.Nil(t, args.Offset)
	assert.Equal(t, `{"path":"/a"}`, string(call.Arguments()), "raw arguments stay as sent")
}

func TestTool_Schema_DoesNotLeakExecutionFields(t *testing.T) {
	tool := readFile(t)
	b, err := json.Marshal(tool.Schema())
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"read_file","description":"Read a file from disk.",
		"parameters":{"type":"object","properties":{"path":{"type":"string","description":"Absolute file path"},
		"offset":{"type":"number"},"limit":{"type":"number","default":100}},"required":["path"]}}`, string(b))
	assert.Equal(t, 5000, tool.TimeoutMs())
	assert.Equal(t, registry.KindString, tool.OutputSchema().Kind())
}

func TestTool_DeferLoadingPreserved(t *testing.T) {
	tool := registry.MustDefine(registry.RawSpec{Name: "lazy", DeferLoading: true, Execute: noop[json.RawMessage]})
	b, err := json.Marshal(tool.Schema())
	require.NoError(t, err)
	assert.Contains(t, string(b), `"deferLoading":true`)
	assert.True(t, tool.Schema().DeferLoading)
}

func TestCall_Execute(t *testing.T) {
	type args struct {
		N int `json:"n"`
	}
	tool := registry.MustDefine(registry.Spec[args, map[string]int]{
		Name:       "calc",
		Parameters: registry.Object(registry.Required("n", registry.Integer())),
		Execute: func(ctx context.Context, a args, exec *registry.Exec) (map[string]int, error) {
			if a.N < 0 {
				panic("negative")
			}
			if a.N == 0 {
				return nil, errors.New("zero")
			}
			if string(exec.Arguments) == "" {
				return nil, errors.New("no raw arguments")
			}
			return map[string]int{"double": 2 * a.N}, nil
		},
		ExecutionMode: func(a args) registry.Mode {
			if a.N > 10 {
				return registry.Parallel
			}
			return registry.Serial
		},
	})
	ctx := context.Background()

	call, err := tool.Prepare(json.RawMessage(`{"n":21}`))
	require.NoError(t, err)
	assert.Equal(t, registry.Parallel, call.Mode())
	v, err := call.Execute(ctx, registry.Exec{CallID: "c1"})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"double": 42}, v)
	content, err := call.Render(v)
	require.NoError(t, err)
	assert.Equal(t, []registry.Part{registry.TextPart("{\n  \"double\": 42\n}")}, content, "default render is indented JSON")
	_, err = call.Render("wrong type")
	assert.Error(t, err)

	call, err = tool.Prepare(json.RawMessage(`{"n":-1}`))
	require.NoError(t, err)
	assert.Equal(t, registry.Serial, call.Mode())
	_, err = call.Execute(ctx, registry.Exec{})
	assert.ErrorContains(t, err, `tool "calc": panic: negative`, "a panicking body is an error, not a crash")

	call, err = tool.Prepare(json.RawMessage(`{"n":0}`))
	require.NoError(t, err)
	_, err = call.Execute(ctx, registry.Exec{})
	assert.EqualError(t, err, "zero")
}

func TestCall_Hooks(t *testing.T) {
	type args struct {
		Q string `json:"q"`
	}
	tool := registry.MustDefine(registry.Spec[args, string]{
		Name:       "hooks",
		Parameters: registry.Object(registry.Required("q", registry.String())),
		Execute:    func(_ context.Context, a args, _ *registry.Exec) (string, error) { return a.Q, nil },
		ProjectContent: func(a args, v string) []registry.Part {
			return []registry.Part{registry.ImagePart("image/png", []byte(v))}
		},
		FinalizeContent: func(a args, c []registry.Part) []registry.Part {
			return append(c, registry.TextPart("final "+a.Q))
		},
		PresentCall: func(a args) any { return map[string]string{"title": a.Q} },
		PresentResult: func(a args, v string, c []registry.Part) any {
			return map[string]int{"parts": len(c)}
		},
	})
	call, err := tool.Prepare(json.RawMessage(`{"q":"x"}`))
	require.NoError(t, err)
	assert.True(t, tool.HasPresentation())

	projected, ok, err := call.ProjectContent("x")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []registry.Part{{Type: registry.PartImage, MimeType: "image/png", Data: []byte("x")}}, projected)
	assert.Equal(t, []registry.Part{registry.TextPart("final x")}, call.FinalizeContent(nil))
	pc, ok := call.PresentCall()
	assert.True(t, ok)
	assert.Equal(t, map[string]string{"title": "x"}, pc)
	pr, ok, err := call.PresentResult("x", projected)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, map[string]int{"parts": 1}, pr)

	plain := readFile(t)
	call, err = plain.Prepare(json.RawMessage(`{"path":"/p"}`))
	require.NoError(t, err)
	_, ok, _ = call.ProjectContent("v")
	assert.False(t, ok)
	in := []registry.Part{registry.TextPart("a")}
	assert.Equal(t, in, call.FinalizeContent(in))
	_, ok = call.PresentCall()
	assert.False(t, ok)
	assert.False(t, plain.HasPresentation())
}

func TestRawSpec_MCPTool(t *testing.T) {
	params := mustRaw(t, `{"type":"object","properties":{"q":{"type":"string","minLength":2}},"required":["q"],"additionalProperties":false}`)
	var got json.RawMessage
	tool := registry.MustDefine(registry.RawSpec{
		Name:       "srv__search",
		Parameters: params,
		Execute: func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
			got = a
			return "ok", nil
		},
	})
	call, err := tool.Prepare(json.RawMessage(`{"q":"hello"}`))
	require.NoError(t, err)
	v, err := call.Execute(context.Background(), registry.Exec{})
	require.NoError(t, err)
	assert.Equal(t, "ok", v)
	assert.Equal(t, `{"q":"hello"}`, string(got))
	content, err := call.Render(v)
	require.NoError(t, err)
	assert.Equal(t, []registry.Part{registry.TextPart("ok")}, content)

	for _, bad := range []string{`{"q":"h"}`, `{"q":"hello","x":1}`, `{}`} {
		assert.ErrorIs(t, tool.Validate(json.RawMessage(bad)), registry.ErrInvalidArguments, bad)
	}
	b, _ := json.Marshal(tool.Schema())
	assert.Contains(t, string(b), `"minLength":2`, "the server's schema is used as given")
}

// TestTool_Prepare_OwnsArguments: a prepared call shares no bytes with the
// caller, and a raw tool's decoded arguments share none with what the call
// records.
func TestTool_Prepare_OwnsArguments(t *testing.T) {
	tool := registry.MustDefine(registry.RawSpec{Name: "raw", Execute: noop[json.RawMessage]})
	raw := []byte(`{"a":1}`)
	call, err := tool.Prepare(raw)
	require.NoError(t, err)
	raw[2] = 'x'
	args := call.Args().(json.RawMessage)
	assert.Equal(t, `{"a":1}`, string(args), "the caller's later change")
	args[2] = 'y'
	assert.Equal(t, `{"a":1}`, string(call.Arguments()), "a change of the decoded arguments")
	assert.Equal(t, len(args), cap(args), "appending to the decoded arguments cannot reach the frozen copy")
}

type weatherValue struct {
	TempC float64 `json:"tempC"`
	Sky   string  `json:"sky,omitempty"`
}

func TestTool_ValidateOutput(t *testing.T) {
	out := registry.Object(registry.Required("tempC", registry.Number()), registry.Required("sky", registry.String()))
	tool := registry.MustDefine(registry.Spec[struct{}, weatherValue]{
		Name:    "weather",
		Output:  registry.Output[struct{}, weatherValue]{Schema: out},
		Execute: func(context.Context, struct{}, *registry.Exec) (weatherValue, error) { return weatherValue{}, nil },
	})
	tests := []struct {
		name   string
		value  any
		issues []string // "path keyword" of each issue; nil for a match
		err    string
	}{
		{"typed value", weatherValue{TempC: 1, Sky: "clear"}, nil, ""},
		{"typed value missing a property", weatherValue{TempC: 1}, []string{" required"}, `tool "weather" returned a result that does not match its output schema: at "" (root): missing property 'sky'`},
		{"raw JSON", json.RawMessage(`{"tempC":"hot","sky":"clear"}`), []string{"/tempC type"}, `at "/tempC": got string, want number`},
		{"not JSON", json.RawMessage(`{"tempC":1,"tempC":2,"sky":""}`), nil, `tool "weather" returned a result that is not JSON: invalid JSON`},
		{"not encodable", make(chan int), nil, `tool "weather" returned a result that is not JSON: json: unsupported type`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tool.ValidateOutput(tc.value)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, registry.ErrInvalidOutput)
			assert.ErrorContains(t, err, tc.err)
			var oe *registry.Error
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, registry.ErrInvalidOutput, oe.Kind)
			assert.Equal(t, "weather", oe.Tool)
			var got []string
			for _, is := range oe.Issues {
				got = append(got, is.Path+" "+is.Keyword)
			}
			assert.Equal(t, tc.issues, got)
		})
	}

	free := registry.MustDefine(registry.RawSpec{Name: "free", Execute: noop[json.RawMessage]})
	assert.NoError(t, free.ValidateOutput(make(chan int)), "without an output schema nothing is checked")

	_, err := registry.Define(registry.RawSpec{
		Name:    "bad",
		Output:  registry.Output[json.RawMessage, any]{Schema: mustRaw(t, `{"type":"nonsense"}`)},
		Execute: noop[json.RawMessage],
	})
	assert.ErrorIs(t, err, registry.ErrInvalidDefinition, "an output schema is compiled when the tool is defined")
}

// TestSpec_Parallel: Parallel makes every call Parallel; an ExecutionMode
// still decides when given; neither is Serial.
func TestSpec_Parallel(t *testing.T) {
	mode := func(parallel bool, em func(json.RawMessage) registry.Mode) registry.Mode {
		tool := registry.MustDefine(registry.RawSpec{
			Name:          "t",
			Parallel:      parallel,
			ExecutionMode: em,
			Execute:       func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return nil, nil },
		})
		call, err := tool.Prepare(json.RawMessage(`{}`))
		require.NoError(t, err)
		return call.Mode()
	}
	assert.Equal(t, registry.Parallel, mode(true, nil))
	assert.Equal(t, registry.Serial, mode(false, nil))
	assert.Equal(t, registry.Serial, mode(true, func(json.RawMessage) registry.Mode { return registry.Serial }))
}

// TestTool_Prepare_Messages: what the model reads of refused arguments.
func TestTool_Prepare_Messages(t *testing.T) {
	weather := registry.MustDefine(registry.RawSpec{
		Name:       "get_weather",
		Parameters: registry.Object(registry.Required("city", registry.String())),
		Execute:    func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return nil, nil },
	})
	_, err := weather.Prepare(json.RawMessage(`{"city":7}`))
	var e *registry.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, registry.ErrInvalidArguments, e.Kind)
	assert.Equal(t, "/city", e.Issues[0].Path)
	assert.Equal(t, "string", e.Issues[0].Expected)
	assert.EqualError(t, err, `tool "get_weather": invalid arguments: at "/city": got number, want string`)
	_, err = weather.Prepare(json.RawMessage(`{"city":"a","city":"b"}`))
	assert.EqualError(t, err, `tool "get_weather": invalid arguments: invalid JSON at offset 12: duplicate object key "city"`)
}

// TestTool_Call_DefaultRender: a typed tool's call gets its defaults, runs,
// and renders its value as indented JSON when it declares no Render.
func TestTool_Call_DefaultRender(t *testing.T) {
	type weatherArgs struct {
		City string `json:"city"`
		Unit string `json:"unit"`
	}
	weather := registry.MustDefine(registry.Spec[weatherArgs, map[string]any]{
		Name: "get_weather",
		Parameters: registry.Object(
			registry.Required("city", registry.String()),
			registry.Optional("unit", registry.String().WithEnum("c", "f").WithDefault("c")),
		),
		Execute: func(ctx context.Context, a weatherArgs, _ *registry.Exec) (map[string]any, error) {
			return map[string]any{"city": a.City, "temp": 21, "unit": a.Unit}, nil
		},
		Parallel: true,
	})
	call, err := weather.Prepare(json.RawMessage(`{"city":"Paris"}`))
	require.NoError(t, err)
	v, err := call.Execute(context.Background(), registry.Exec{CallID: "1"})
	require.NoError(t, err)
	content, err := call.Render(v)
	require.NoError(t, err)
	assert.Equal(t, registry.Parallel, call.Mode())
	assert.Equal(t, "{\n  \"city\": \"Paris\",\n  \"temp\": 21,\n  \"unit\": \"c\"\n}", registry.PlainText(content))
}
