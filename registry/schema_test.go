package registry_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/registry"
)

func TestSchema_MarshalJSON(t *testing.T) {
	tests := []struct {
		name   string
		schema *registry.Schema
		want   string
	}{
		{"string", registry.String(), `{"type":"string"}`},
		{"number", registry.Number(), `{"type":"number"}`},
		{"integer", registry.Integer(), `{"type":"integer"}`},
		{"boolean", registry.Boolean(), `{"type":"boolean"}`},
		{"null", registry.Null(), `{"type":"null"}`},
		{"json is unconstrained", registry.JSON().Describe("anything"), `{"description":"anything"}`},
		{"array", registry.Array(registry.Integer()), `{"type":"array","items":{"type":"integer"}}`},
		{"array of anything", registry.Array(nil), `{"type":"array"}`},
		{"description enum default", registry.String().Describe("unit").WithEnum("c", "f").WithDefault("c"),
			`{"type":"string","description":"unit","enum":["c","f"],"default":"c"}`},
		{"object keeps declaration order, required", registry.Object(
			registry.Required("path", registry.String().Describe("Absolute file path")),
			registry.Optional("offset", registry.Number()),
			registry.Optional("limit", registry.Number()),
		), `{"type":"object","properties":{"path":{"type":"string","description":"Absolute file path"},"offset":{"type":"number"},"limit":{"type":"number"}},"required":["path"]}`},
		{"strict object rejects unknown", registry.Object().Strict(), `{"type":"object","properties":{},"additionalProperties":false}`},
		{"strict on non-object is a no-op", registry.String().Strict(), `{"type":"string"}`},
		{"oneOf", registry.OneOf(registry.String(), registry.Null()), `{"oneOf":[{"type":"string"},{"type":"null"}]}`},
		{"raw passes through compacted", mustRaw(t, `{ "type": "object", "properties": {"q": {"type":"string"}} }`),
			`{"type":"object","properties":{"q":{"type":"string"}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.schema)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
			assert.Equal(t, tc.want, string(got), "key order is fixed")
		})
	}
}

func mustRaw(t *testing.T, doc string) *registry.Schema {
	t.Helper()
	s, err := registry.ParseJSONSchema([]byte(doc))
	require.NoError(t, err)
	return s
}

func TestSchema_Accessors(t *testing.T) {
	s := registry.Object(
		registry.Required("city", registry.String().Describe("City").WithEnum("Paris")),
		registry.Optional("days", registry.Array(registry.Integer()).WithDefault([]int{1})),
		registry.Optional("when", registry.OneOf(registry.String(), registry.Null())),
	).Strict().Describe("args")

	assert.Equal(t, registry.KindObject, s.Kind())
	assert.Equal(t, "args", s.Description())
	assert.True(t, s.Closed())
	props := s.Properties()
	require.Len(t, props, 3)
	assert.Equal(t, "city", props[0].Name())
	assert.True(t, props[0].Required())
	assert.False(t, props[1].Required())
	assert.Equal(t, []any{"Paris"}, props[0].Schema().Enum())
	assert.Equal(t, registry.KindArray, props[1].Schema().Kind())
	assert.Equal(t, registry.KindInteger, props[1].Schema().Items().Kind())
	def, ok := props[1].Schema().Default()
	assert.True(t, ok)
	assert.Equal(t, []int{1}, def)
	assert.Len(t, props[2].Schema().Variants(), 2)
	_, ok = props[0].Schema().Default()
	assert.False(t, ok)
	assert.Nil(t, s.Raw())
}

func TestSchema_Immutable(t *testing.T) {
	base := registry.String()
	described := base.Describe("x")
	assert.Equal(t, "", base.Description(), "modifiers return copies")
	assert.Equal(t, "x", described.Description())

	o := registry.Object(registry.Optional("a", base))
	props := o.Properties()
	props[0] = registry.Optional("b", base)
	assert.Equal(t, "a", o.Properties()[0].Name(), "accessors return copies")
}

func TestSchema_MarshalJSON_Invalid(t *testing.T) {
	tests := []struct {
		name   string
		schema *registry.Schema
	}{
		{"duplicate property", registry.Object(registry.Optional("a", registry.String()), registry.Optional("a", registry.Number()))},
		{"nil property schema", registry.Object(registry.Optional("a", nil))},
		{"empty oneOf", registry.OneOf()},
		{"unencodable enum", registry.String().WithEnum(func() {})},
		{"unencodable default", registry.String().WithDefault(make(chan int))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.schema.MarshalJSON()
			require.Error(t, err)
			assert.True(t, errors.Is(err, registry.ErrInvalidDefinition), "%v", err)
		})
	}
}

func TestParseJSONSchema(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		ok   bool
	}{
		{"object", `{"type":"object"}`, true},
		{"boolean", `true`, true},
		{"duplicate key", `{"type":"object","type":"string"}`, false},
		{"not json", `{`, false},
		{"array root", `[]`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := registry.ParseJSONSchema([]byte(tc.doc))
			if !tc.ok {
				assert.ErrorIs(t, err, registry.ErrInvalidDefinition)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, registry.KindRaw, s.Kind())
		})
	}
}
