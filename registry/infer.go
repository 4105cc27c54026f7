package registry

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Infer is like [Define] but infers the schemas the spec leaves nil from
// the Go types, as the MCP Go SDK's mcp.AddTool does, with the same library
// (github.com/google/jsonschema-go), so a tool defined here and one added to
// an MCP server with the same types have the same schemas:
//
//   - Parameters, when nil, is the schema of A (of its element type when A
//     is a pointer). A must be a struct or a map with string keys, so that
//     the schema is an object; use [Define] with [ParseJSONSchema] for a
//     [RawSpec].
//   - Output.Schema, when nil, is the schema of V, unless V is an interface
//     type (such as any) or json.RawMessage, whose values have no schema.
//
// A struct's properties are its JSON fields in field order, named by their
// json tags; a field is required unless its tag says omitempty or omitzero;
// a jsonschema tag is the property's description; the object rejects
// properties it does not list (unless opts.OpenObjects). A pointer or a
// slice also accepts null (a slice not with opts.NonNullSlices). A type the
// struct tags cannot describe, such as a string with a fixed set of values,
// gets its schema from opts.TypeSchemas, keyed by type: for example
// {Type: "string", Enum: []any{"c", "f"}}. opts may be nil.
//
// The inferred schemas are raw JSON Schema documents ([kindRaw]): the
// projection, sdkgen's declarations and validation read them as they read
// any other JSON Schema. A schema the spec gives is used as given, and
// checked against A as [Define] checks it. Errors wrap
// [ErrInvalidDefinition].
func Infer[A, V any](spec Spec[A, V], opts *InferOptions) (*Tool, error) {
	if spec.Parameters == nil {
		t := reflect.TypeFor[A]()
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case t == rawMessageType:
			return nil, fmt.Errorf("%w: tool %q: cannot infer parameters of json.RawMessage; give Parameters", ErrInvalidDefinition, spec.Name)
		case t.Kind() == reflect.Interface:
			spec.Parameters = Object()
		case t.Kind() != reflect.Struct && t.Kind() != reflect.Map:
			return nil, fmt.Errorf("%w: tool %q: cannot infer parameters of %s: want a struct or a map", ErrInvalidDefinition, spec.Name, t)
		default:
			s, err := schemaFor(t, opts)
			if err != nil {
				return nil, fmt.Errorf("tool %q: infer parameters: %w", spec.Name, err)
			}
			spec.Parameters = s
		}
	}
	if spec.Output.Schema == nil {
		t := reflect.TypeFor[V]()
		if t.Kind() != reflect.Interface && t != rawMessageType {
			s, err := schemaFor(t, opts)
			if err != nil {
				return nil, fmt.Errorf("tool %q: infer output schema: %w", spec.Name, err)
			}
			spec.Output.Schema = s
		}
	}
	return Define(spec)
}

// MustInfer is like [Infer] but panics on error.
func MustInfer[A, V any](spec Spec[A, V], opts *InferOptions) *Tool {
	t, err := Infer(spec, opts)
	if err != nil {
		panic(err)
	}
	return t
}

// SchemaFor returns the JSON Schema of the Go type T as [Infer] infers it,
// as a [kindRaw] schema. opts may be nil. Errors wrap [ErrInvalidDefinition].
func SchemaFor[T any](opts *InferOptions) (*Schema, error) {
	return schemaFor(reflect.TypeFor[T](), opts)
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// InferOptions tune what [Infer] and [SchemaFor] infer; nil or the zero
// value infers as the MCP Go SDK's mcp.AddTool does. With OpenObjects and
// NonNullSlices, an inferred schema accepts what the DSL's [Object] (not
// [Schema.Strict]) and [Array] accept, so a tool can move from the DSL to
// inference without changing what it takes.
type InferOptions struct {
	// TypeSchemas gives the schemas of types the struct tags cannot
	// describe, keyed by type.
	TypeSchemas map[reflect.Type]*jsonschema.Schema
	// OpenObjects leaves every inferred struct's object open: it accepts
	// properties it does not list.
	OpenObjects bool
	// NonNullSlices makes every slice (and pointer to a slice) accept
	// arrays only, not null.
	NonNullSlices bool
}

func schemaFor(t reflect.Type, opts *InferOptions) (*Schema, error) {
	var o InferOptions
	if opts != nil {
		o = *opts
	}
	js, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: o.TypeSchemas})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidDefinition, err)
	}
	if o.OpenObjects || o.NonNullSlices {
		js = loosen(js, o, 0)
	}
	doc, err := json.Marshal(js)
	if err != nil {
		return nil, fmt.Errorf("%w: schema of %s: %w", ErrInvalidDefinition, t, err)
	}
	return ParseJSONSchema(doc)
}

// loosen returns js with inferred objects opened and slices made
// non-null as o asks; the schemas of TypeSchemas are left as given, since
// ForType copies them in (loosen works on a clone).
func loosen(js *jsonschema.Schema, o InferOptions, depth int) *jsonschema.Schema {
	if js == nil || depth > 64 {
		return js
	}
	js = js.CloneSchemas()
	var walk func(s *jsonschema.Schema, depth int)
	walk = func(s *jsonschema.Schema, depth int) {
		if s == nil || depth > 64 {
			return
		}
		if o.OpenObjects && s.Type == "object" && s.Properties != nil && isFalse(s.AdditionalProperties) {
			s.AdditionalProperties = nil
		}
		if o.NonNullSlices && slices.Equal(s.Types, []string{"null", "array"}) {
			s.Types, s.Type = nil, "array"
		}
		for _, p := range s.Properties {
			walk(p, depth+1)
		}
		walk(s.Items, depth+1)
		walk(s.AdditionalProperties, depth+1)
		for _, d := range s.Defs {
			walk(d, depth+1)
		}
		for _, l := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
			for _, x := range l {
				walk(x, depth+1)
			}
		}
	}
	walk(js, depth)
	return js
}

// isFalse reports whether s is the schema that accepts nothing, as
// jsonschema-go writes additionalProperties of a struct.
func isFalse(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	b, err := json.Marshal(s)
	return err == nil && string(b) == "false"
}

// jsonField is one JSON field of a struct, as encoding/json names it.
type jsonField struct {
	name     string // the JSON name
	goName   string // the Go field name, for messages
	optional bool   // tagged omitempty or omitzero

	depth     int  // embedding depth
	tagged    bool // named by a json tag
	cancelled bool // another field of the same name and rank hides both
}

// jsonFields returns the JSON fields of the struct type t, as encoding/json
// decodes them: exported fields, named by their json tags, without those
// tagged "-", with the fields of untagged embedded structs promoted. ok is
// false when t is not a struct or decodes itself (json.Unmarshaler or
// encoding.TextUnmarshaler), so that its fields say nothing about the
// JSON it accepts.
func jsonFields(t reflect.Type) (fields []jsonField, ok bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || decodesItself(t) {
		return nil, false
	}
	// hidden holds the index paths of embedded fields whose own fields are
	// not promoted: tagged with a name, or not structs.
	var hidden [][]int
	seen := map[string]int{}
	for _, f := range reflect.VisibleFields(t) {
		if slices.ContainsFunc(hidden, func(p []int) bool { return hasPrefix(f.Index, p) }) {
			continue
		}
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if hasTag && tag == "-" {
			hidden = append(hidden, f.Index)
			continue
		}
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if name == "" && ft.Kind() == reflect.Struct {
				if decodesItself(ft) {
					// An embedded decoder swallows the whole object.
					return nil, false
				}
				continue // its fields are promoted
			}
			hidden = append(hidden, f.Index)
			if !f.IsExported() && name == "" {
				continue
			}
		} else if !f.IsExported() {
			continue
		}
		tagged := name != ""
		if !tagged {
			name = f.Name
		}
		jf := jsonField{name: name, goName: f.Name, depth: len(f.Index), tagged: tagged}
		for o := range strings.SplitSeq(opts, ",") {
			if o == "omitempty" || o == "omitzero" {
				jf.optional = true
			}
		}
		i, dup := seen[name]
		if !dup {
			seen[name] = len(fields)
			fields = append(fields, jf)
			continue
		}
		// encoding/json's rule: the shallowest field wins, then the tagged
		// one; two equal candidates cancel each other.
		old := &fields[i]
		switch {
		case jf.depth < old.depth || jf.depth == old.depth && jf.tagged && !old.tagged:
			*old = jf
		case jf.depth == old.depth && jf.tagged == old.tagged:
			old.cancelled = true
		}
	}
	return slices.DeleteFunc(fields, func(f jsonField) bool { return f.cancelled }), true
}

func hasPrefix(index, prefix []int) bool {
	return len(index) > len(prefix) && slices.Equal(index[:len(prefix)], prefix)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
)

func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(unmarshalerType) || p.Implements(unmarshalerType) ||
		t.Implements(textUnmarshalerType) || p.Implements(textUnmarshalerType)
}

// schemaProperties returns the property names of an object schema (in
// declaration order for the DSL, sorted for a raw schema) and true; false
// when the schema lists no properties: a DSL schema of another kind, or a
// raw schema without a "properties" object.
func schemaProperties(s *Schema) ([]string, bool) {
	switch s.kind {
	case kindObject:
		names := make([]string, len(s.props))
		for i, p := range s.props {
			names[i] = p.name
		}
		return names, true
	case kindRaw:
		v, err := parseJSON(s.raw)
		if err != nil {
			return nil, false
		}
		m, _ := v.(map[string]any)
		props, ok := m["properties"].(map[string]any)
		if !ok {
			return nil, false
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(names)
		return names, true
	}
	return nil, false
}

// checkFields refuses a parameter schema whose properties do not match the
// JSON fields of the argument type a: a property no field decodes (its
// value would be dropped), or a field without omitempty/omitzero that the
// schema does not list (the model is never told to send it). A property
// matches a field as encoding/json matches them: by the exact name, else
// ignoring case. Types that are not structs, or that decode themselves,
// and schemas that list no properties are not checked.
func checkFields(tool string, a reflect.Type, params *Schema) error {
	fields, ok := jsonFields(a)
	if !ok {
		return nil
	}
	props, ok := schemaProperties(params)
	if !ok {
		return nil
	}
	matched := make([]bool, len(fields))
	for _, p := range props {
		i := slices.IndexFunc(fields, func(f jsonField) bool { return f.name == p })
		if i < 0 {
			i = slices.IndexFunc(fields, func(f jsonField) bool { return strings.EqualFold(f.name, p) })
		}
		if i < 0 {
			return fmt.Errorf("%w: tool %q: parameter %q matches no JSON field of %s (fields: %s)",
				ErrInvalidDefinition, tool, p, a, fieldList(fields))
		}
		matched[i] = true
	}
	for i, f := range fields {
		if !matched[i] && !f.optional {
			return fmt.Errorf("%w: tool %q: field %s (JSON %q) of %s is not a parameter (parameters: %s); add the property, tag the field omitempty, or json:\"-\"",
				ErrInvalidDefinition, tool, f.goName, f.name, a, quoteAll(props))
		}
	}
	return nil
}

func fieldList(fields []jsonField) string {
	if len(fields) == 0 {
		return "none"
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return quoteAll(names)
}
