package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// schemaKind names the kind of a [Schema] node.
type schemaKind string

// The schema kinds. They are the seed's DSL kinds plus kindRaw for a JSON
// Schema document given verbatim (for example by an MCP server).
const (
	kindString  schemaKind = "string"
	kindNumber  schemaKind = "number"
	kindInteger schemaKind = "integer"
	kindBoolean schemaKind = "boolean"
	kindNull    schemaKind = "null"
	kindArray   schemaKind = "array"
	kindObject  schemaKind = "object"
	// kindJSON is the author-only "any JSON value" kind; it projects to an
	// unconstrained schema.
	kindJSON schemaKind = "json"
	// kindOneOf accepts a value that matches exactly one of its variants.
	kindOneOf schemaKind = "oneOf"
	// kindRaw is a JSON Schema document used as given; see [ParseJSONSchema].
	kindRaw schemaKind = "raw"
)

// Schema is one node of the schema DSL. Schemas are immutable: every
// modifier (Describe, WithEnum, WithDefault, Strict) returns a modified copy,
// so a Schema value can be shared freely between tools and goroutines.
//
// Build schemas with [String], [Number], [Integer], [Boolean], [Null],
// [Array], [Object], [JSON], [OneOf] or [ParseJSONSchema]. MarshalJSON
// projects it to its JSON Schema wire form, which is what everything else
// (validation, the SDK generator, MCP) reads.
type Schema struct {
	kind        schemaKind
	description string
	enum        []any
	def         any
	hasDef      bool
	items       *Schema
	props       []Property
	closed      bool
	variants    []*Schema
	raw         json.RawMessage
}

// Property is one named property of an object schema.
type Property struct {
	name     string
	schema   *Schema
	required bool
}

// Required returns a required object property.
func Required(name string, s *Schema) Property {
	return Property{name: name, schema: s, required: true}
}

// Optional returns an optional object property.
func Optional(name string, s *Schema) Property {
	return Property{name: name, schema: s}
}

// String returns a schema accepting any JSON string.
func String() *Schema { return &Schema{kind: kindString} }

// Number returns a schema accepting any JSON number.
func Number() *Schema { return &Schema{kind: kindNumber} }

// Integer returns a schema accepting a JSON number with no fractional part.
func Integer() *Schema { return &Schema{kind: kindInteger} }

// Boolean returns a schema accepting true or false.
func Boolean() *Schema { return &Schema{kind: kindBoolean} }

// Null returns a schema accepting only null.
func Null() *Schema { return &Schema{kind: kindNull} }

// JSON returns the author-only schema accepting any JSON value.
func JSON() *Schema { return &Schema{kind: kindJSON} }

// Array returns a schema accepting an array whose every element matches
// items; a nil items accepts any elements.
func Array(items *Schema) *Schema { return &Schema{kind: kindArray, items: items} }

// Object returns a schema accepting an object with the given properties, in
// the given order (the order is kept in the projection). Properties not
// listed are accepted unless the schema is made [Schema.Strict].
func Object(props ...Property) *Schema {
	return &Schema{kind: kindObject, props: slices.Clone(props)}
}

// OneOf returns a schema accepting a value that matches exactly one of the
// variants.
func OneOf(variants ...*Schema) *Schema {
	return &Schema{kind: kindOneOf, variants: slices.Clone(variants)}
}

// ParseJSONSchema returns a [kindRaw] schema holding the JSON Schema document
// doc, as an MCP server or a fixture file gives it. The document must be a
// JSON object or boolean without duplicate keys; it is compiled when a tool
// using it is defined.
func ParseJSONSchema(doc []byte) (*Schema, error) {
	v, err := parseJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("%w: json schema: %w", ErrInvalidDefinition, err)
	}
	switch v.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf("%w: json schema: root must be an object or a boolean", ErrInvalidDefinition)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, doc); err != nil {
		return nil, fmt.Errorf("%w: json schema: %w", ErrInvalidDefinition, err)
	}
	return &Schema{kind: kindRaw, raw: buf.Bytes()}, nil
}

func (s *Schema) clone() *Schema {
	c := *s
	return &c
}

// Describe returns a copy of s with the model-facing description d.
func (s *Schema) Describe(d string) *Schema {
	c := s.clone()
	c.description = d
	return c
}

// WithEnum returns a copy of s that accepts only the given values. Each value
// must be JSON-encodable.
func (s *Schema) WithEnum(values ...any) *Schema {
	c := s.clone()
	c.enum = slices.Clone(values)
	return c
}

// WithDefault returns a copy of s whose default is v. When an optional
// object property with a default is absent from the arguments, a typed tool
// receives the default in its decoded arguments; the raw arguments are left
// as the model sent them.
func (s *Schema) WithDefault(v any) *Schema {
	c := s.clone()
	c.def, c.hasDef = v, true
	return c
}

// Strict returns a copy of an object schema that rejects properties it does
// not list (additionalProperties: false). On other kinds it has no effect.
func (s *Schema) Strict() *Schema {
	c := s.clone()
	c.closed = s.kind == kindObject
	return c
}

// MarshalJSON projects the schema to JSON Schema (draft 2020-12). The output
// is deterministic: keys appear in a fixed order and object properties in
// declaration order, so the wire form of a tool never changes between
// requests.
func (s *Schema) MarshalJSON() ([]byte, error) {
	if err := s.check("", 0); err != nil {
		return nil, err
	}
	return s.appendJSON(nil)
}

// maxSchemaDepth bounds the nesting of DSL schemas.
const maxSchemaDepth = 64

// check reports the first structural problem of the schema tree.
func (s *Schema) check(at string, depth int) error {
	if s == nil {
		return fmt.Errorf("%w: schema%s is nil", ErrInvalidDefinition, at)
	}
	if depth > maxSchemaDepth {
		return fmt.Errorf("%w: schema%s nests deeper than %d", ErrInvalidDefinition, at, maxSchemaDepth)
	}
	switch s.kind {
	case kindString, kindNumber, kindInteger, kindBoolean, kindNull, kindJSON:
	case kindRaw:
		if len(s.raw) == 0 {
			return fmt.Errorf("%w: schema%s: empty raw schema", ErrInvalidDefinition, at)
		}
	case kindArray:
		if s.items != nil {
			if err := s.items.check(at+"/items", depth+1); err != nil {
				return err
			}
		}
	case kindObject:
		seen := make(map[string]bool, len(s.props))
		for _, p := range s.props {
			if seen[p.name] {
				return fmt.Errorf("%w: schema%s: duplicate property %q", ErrInvalidDefinition, at, p.name)
			}
			seen[p.name] = true
			if err := p.schema.check(at+"/properties/"+escapePointer(p.name), depth+1); err != nil {
				return err
			}
		}
	case kindOneOf:
		if len(s.variants) == 0 {
			return fmt.Errorf("%w: schema%s: oneOf needs at least one variant", ErrInvalidDefinition, at)
		}
		for i, v := range s.variants {
			if err := v.check(at+"/oneOf/"+strconv.Itoa(i), depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%w: schema%s: unknown kind %q", ErrInvalidDefinition, at, s.kind)
	}
	for _, v := range s.enum {
		if _, err := json.Marshal(v); err != nil {
			return fmt.Errorf("%w: schema%s: enum value: %w", ErrInvalidDefinition, at, err)
		}
	}
	if s.hasDef {
		if _, err := json.Marshal(s.def); err != nil {
			return fmt.Errorf("%w: schema%s: default: %w", ErrInvalidDefinition, at, err)
		}
	}
	return nil
}

func (s *Schema) appendJSON(b []byte) ([]byte, error) {
	if s.kind == kindRaw {
		return append(b, s.raw...), nil
	}
	b = append(b, '{')
	n := 0
	key := func(k string) {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = strconv.AppendQuote(b, k) // keys are ASCII identifiers
		b = append(b, ':')
	}
	var err error
	switch s.kind {
	case kindJSON, kindOneOf:
	default:
		key("type")
		b = strconv.AppendQuote(b, string(s.kind))
	}
	if s.description != "" {
		key("description")
		if b, err = appendValue(b, s.description); err != nil {
			return nil, err
		}
	}
	if s.enum != nil {
		key("enum")
		if b, err = appendValue(b, s.enum); err != nil {
			return nil, err
		}
	}
	if s.hasDef {
		key("default")
		if b, err = appendValue(b, s.def); err != nil {
			return nil, err
		}
	}
	switch s.kind {
	case kindArray:
		if s.items != nil {
			key("items")
			if b, err = s.items.appendJSON(b); err != nil {
				return nil, err
			}
		}
	case kindObject:
		key("properties")
		b = append(b, '{')
		var required []string
		for i, p := range s.props {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, p.name); err != nil {
				return nil, err
			}
			b = append(b, ':')
			if b, err = p.schema.appendJSON(b); err != nil {
				return nil, err
			}
			if p.required {
				required = append(required, p.name)
			}
		}
		b = append(b, '}')
		if len(required) > 0 {
			key("required")
			if b, err = appendValue(b, required); err != nil {
				return nil, err
			}
		}
		if s.closed {
			key("additionalProperties")
			b = append(b, "false"...)
		}
	case kindOneOf:
		key("oneOf")
		b = append(b, '[')
		for i, v := range s.variants {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = v.appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func appendValue(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}

// hasDefaults reports whether applying defaults can change a value.
func (s *Schema) hasDefaults() bool {
	switch s.kind {
	case kindObject:
		for _, p := range s.props {
			if p.schema.hasDef || p.schema.hasDefaults() {
				return true
			}
		}
	case kindArray:
		return s.items != nil && s.items.hasDefaults()
	}
	return false
}

// applyDefaults fills absent optional properties that have defaults, in
// place, in a value that already validated against s. oneOf branches are not
// entered: which branch matched is not known here.
func (s *Schema) applyDefaults(v any) any {
	switch s.kind {
	case kindObject:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for _, p := range s.props {
			if cur, ok := m[p.name]; ok {
				m[p.name] = p.schema.applyDefaults(cur)
			} else if p.schema.hasDef {
				m[p.name] = p.schema.def
			}
		}
	case kindArray:
		a, ok := v.([]any)
		if !ok || s.items == nil {
			return v
		}
		for i := range a {
			a[i] = s.items.applyDefaults(a[i])
		}
	}
	return v
}

func escapePointer(tok string) string {
	if !bytes.ContainsAny([]byte(tok), "~/") {
		return tok
	}
	var b []byte
	for i := 0; i < len(tok); i++ {
		switch tok[i] {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = append(b, tok[i])
		}
	}
	return string(b)
}
