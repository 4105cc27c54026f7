package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// schemaFrom builds a DSL schema deterministically from fuzz bytes.
func schemaFrom(data []byte, depth int) (*Schema, []byte) {
	if len(data) == 0 {
		return String(), nil
	}
	b, data := data[0], data[1:]
	var s *Schema
	kinds := 9
	if depth > 4 {
		kinds = 6 // leaves only
	}
	switch int(b) % kinds {
	case 0:
		s = String()
	case 1:
		s = Number()
	case 2:
		s = Integer()
	case 3:
		s = Boolean()
	case 4:
		s = Null()
	case 5:
		s = JSON()
	case 6:
		var items *Schema
		if b&0x10 != 0 {
			items, data = schemaFrom(data, depth+1)
		}
		s = Array(items)
	case 7:
		n := int(b>>4) % 4
		var props []Property
		for i := range n {
			var ps *Schema
			ps, data = schemaFrom(data, depth+1)
			name := string(rune('a'+i)) + "~/\"é"[:i%4]
			if (b>>i)&1 == 1 {
				props = append(props, Required(name, ps))
			} else {
				props = append(props, Optional(name, ps))
			}
		}
		s = Object(props...)
		if b&0x08 != 0 {
			s = s.Strict()
		}
	case 8:
		n := 1 + int(b>>4)%3
		var vs []*Schema
		for range n {
			var v *Schema
			v, data = schemaFrom(data, depth+1)
			vs = append(vs, v)
		}
		s = OneOf(vs...)
	}
	if b&0x20 != 0 {
		s = s.Describe("d\"\n<" + string(data[:min(len(data), 3)]))
	}
	if b&0x40 != 0 && s.kind == KindString {
		s = s.WithEnum("x", "y\u2028")
	}
	if b&0x80 != 0 && s.kind == KindInteger {
		s = s.WithDefault(3)
	}
	return s, data
}

func FuzzSchemaProjection(f *testing.F) {
	for _, seed := range [][]byte{{0}, {7, 1, 2}, {0x97, 6, 0x16, 2, 8}, {0xf7, 0x28, 0x40, 0x82, 3}, {8, 0x18, 4}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _ := schemaFrom(data, 0)
		b1, err := s.MarshalJSON()
		if err != nil {
			t.Fatalf("projection of a well-formed DSL schema failed: %v", err)
		}
		b2, _ := s.MarshalJSON()
		if !bytes.Equal(b1, b2) {
			t.Fatalf("projection is not deterministic")
		}
		if !json.Valid(b1) {
			t.Fatalf("projection is not JSON: %s", b1)
		}
		if _, err := parseJSON(b1); err != nil {
			t.Fatalf("projection has duplicate keys or is invalid: %v: %s", err, b1)
		}
		if _, err := compileSchema("mem://fuzz.json", b1); err != nil {
			t.Fatalf("projection does not compile: %v: %s", err, b1)
		}
		raw, err := ParseJSONSchema(b1)
		if err != nil {
			t.Fatal(err)
		}
		if b3, _ := raw.MarshalJSON(); !bytes.Equal(b1, b3) {
			t.Fatalf("raw round trip changed the projection:\n%s\n%s", b1, b3)
		}
		if _, err := Define(RawSpec{Name: "f", Parameters: Object(Optional("v", s)), Execute: func(context.Context, json.RawMessage, *Exec) (any, error) { return nil, nil }}); err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzTools are the schemas FuzzValidate checks arguments against.
func fuzzTools(tb testing.TB) []*Tool {
	schemas := []*Schema{
		Object(
			Required("query", String()),
			Optional("limit", Integer()),
			Optional("exact", Boolean()),
			Optional("sort", String().WithEnum("relevance", "date")),
			Optional("tags", Array(String())),
		),
		Object(Required("v", OneOf(String(), Integer(), Null()))).Strict(),
		Object(Optional("n", Number().WithEnum(1, 2.5)), Optional("o", Object(Required("x", JSON())).Strict())),
		Object(Optional("a", Array(OneOf(Number(), Integer()))), Optional("d", Integer().WithDefault(7))),
	}
	var tools []*Tool
	for _, s := range schemas {
		tools = append(tools, MustDefine(RawSpec{Name: "t", Parameters: s, Execute: func(context.Context, json.RawMessage, *Exec) (any, error) { return nil, nil }}))
	}
	raw, err := ParseJSONSchema([]byte(`{"type":"object","properties":{"q":{"type":"string","minLength":2}},"additionalProperties":{"type":"integer"}}`))
	if err != nil {
		tb.Fatal(err)
	}
	tools = append(tools, MustDefine(RawSpec{Name: "raw", Parameters: raw, Execute: func(context.Context, json.RawMessage, *Exec) (any, error) { return nil, nil }}))
	return tools
}

func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{"query":"golang","limit":10,"exact":false,"sort":"date","tags":["a"]}`,
		`{"query":"x","query":"y"}`, `{"q\u0075ery":"x","query":"y"}`,
		`{"v":1.0}`, `{"v":"s"}`, `{"v":null,"w":1}`, `{"n":2.50}`, `{"o":{"x":[{}]}}`,
		`{"a":[1,1.5]}`, `{"q":"ab","z":3}`, `[]`, `"\ud800"`, `{"a":"\udc00\ud800x"}`,
		`1e999`, `-0`, `{"query":"\u00e9\t"}`, "{\"query\":\"\xff\"}", `{`, ``, `nul`,
	} {
		for i := range 5 {
			f.Add(uint8(i), []byte(seed))
		}
	}
	tools := fuzzTools(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tool := tools[int(which)%len(tools)]
		tree, perr := parseJSON(data)
		if perr == nil && !json.Valid(data) {
			t.Fatalf("parser accepted invalid JSON %q", data)
		}
		if perr != nil && json.Valid(data) && !errors.Is(perr, errDuplicateKey) && !bytes.Contains([]byte(perr.Error()), []byte("nesting too deep")) {
			t.Fatalf("parser rejected valid JSON %q: %v", data, perr)
		}
		if perr == nil && tool.fast != nil && tool.fast.check(tree) == accept {
			if err := tool.validator.Validate(tree); err != nil {
				t.Fatalf("fast checker accepted what JSON Schema rejects: %q: %v", data, err)
			}
		}
		call, err := tool.Prepare(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidArguments) {
				t.Fatalf("error without INVALID_ARGUMENTS: %v", err)
			}
			return
		}
		if err := tool.Validate(call.Arguments()); err != nil {
			t.Fatalf("accepted input does not re-validate: %v", err)
		}
		again, err := json.Marshal(tree)
		if err != nil {
			t.Fatal(err)
		}
		if err := tool.Validate(again); err != nil {
			t.Fatalf("re-encoded accepted input does not validate: %s: %v", again, err)
		}
	})
}
