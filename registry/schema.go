package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Kind names the kind of a [Schema] node.
type Kind string

// The schema kinds. They are the seed's DSL kinds plus [KindRaw] for a JSON
// Schema document given verbatim (for example by an MCP server).
const (
	KindString  Kind = "string"
	KindNumber  Kind = "number"
	KindInteger Kind = "integer"
	KindBoolean Kind = "boolean"
	KindNull    Kind = "null"
	KindArray   Kind = "array"
	KindObject  Kind = "object"
	// KindJSON is the author-only "any JSON value" kind; it projects to an
	// unconstrained schema.
	KindJSON Kind = "json"
	// KindOneOf accepts a value that matches exactly one of its variants.
	KindOneOf Kind = "oneOf"
	// KindRaw is a JSON Schema document used as given; see [ParseJSONSchema].
	KindRaw Kind = "raw"
)

// Schema is one node of the schema DSL. Schemas are immutable: every
// modifier (Describe, WithEnum, WithDefault, Strict) returns a modified copy,
// so a Schema value can be shared freely between tools and goroutines.
//
// Build schemas with [String], [Number], [Integer], [Boolean], [Null],
// [Array], [Object], [JSON], [OneOf] or [ParseJSONSchema]. The read
// accessors (Kind, Description, Enum, Default, Items, Properties, Closed,
// Variants, Raw) let generators such as sdkgen walk a schema; MarshalJSON
// projects it to its JSON Schema wire form.
type Schema struct {
	kind        Kind
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

// Name returns the property's name.
func (p Property) Name() string { return p.name }

// Schema returns the property's value schema.
func (p Property) Schema() *Schema { return p.schema }

// Required reports whether the property must be present.
func (p Property) Required() bool { return p.required }

// String returns a schema accepting any JSON string.
func String() *Schema { return &Schema{kind: KindString} }

// Number returns a schema accepting any JSON number.
func Number() *Schema { return &Schema{kind: KindNumber} }

// Integer returns a schema accepting a JSON number with no fractional part.
func Integer() *Schema { return &Schema{kind: KindInteger} }

// Boolean returns a schema accepting true or false.
func Boolean() *Schema { return &Schema{kind: KindBoolean} }

// Null returns a schema accepting only null.
func Null() *Schema { return &Schema{kind: KindNull} }

// JSON returns the author-only schema accepting any JSON value.
func JSON() *Schema { return &Schema{kind: KindJSON} }

// Array returns a schema accepting an array whose every element matches
// items; a nil items accepts any elements.
func Array(items *Schema) *Schema { return &Schema{kind: KindArray, items: items} }

// Object returns a schema accepting an object with the given properties, in
// the given order (the order is kept in the projection). Properties not
// listed are accepted unless the schema is made [Schema.Strict].
func Object(props ...Property) *Schema {
	return &Schema{kind: KindObject, props: slices.Clone(props)}
}

// OneOf returns a schema accepting a value that matches exactly one of the
// variants.
func OneOf(variants ...*Schema) *Schema {
	return &Schema{kind: KindOneOf, variants: slices.Clone(variants)}
}

// ParseJSONSchema returns a [KindRaw] schema holding the JSON Schema document
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
	return &Schema{kind: KindRaw, raw: buf.Bytes()}, nil
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
	c.closed = s.kind == KindObject
	return c
}

// Kind returns the node's kind.
func (s *Schema) Kind() Kind { return s.kind }

// Description returns the model-facing description, or "".
func (s *Schema) Description() string { return s.description }

// Enum returns a copy of the allowed values, or nil when any value of the
// kind is allowed.
func (s *Schema) Enum() []any { return slices.Clone(s.enum) }

// Default returns the default value and whether one was set.
func (s *Schema) Default() (any, bool) { return s.def, s.hasDef }

// Items returns an array schema's element schema; nil means any element.
func (s *Schema) Items() *Schema { return s.items }

// Properties returns a copy of an object schema's properties in declaration
// order.
func (s *Schema) Properties() []Property { return slices.Clone(s.props) }

// Closed reports whether an object schema rejects unlisted properties.
func (s *Schema) Closed() bool { return s.closed }

// Variants returns a copy of a oneOf schema's variants.
func (s *Schema) Variants() []*Schema { return slices.Clone(s.variants) }

// Raw returns a copy of a [KindRaw] schema's compact JSON document, or nil.
func (s *Schema) Raw() json.RawMessage { return bytes.Clone(s.raw) }

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
	case KindString, KindNumber, KindInteger, KindBoolean, KindNull, KindJSON:
	case KindRaw:
		if len(s.raw) == 0 {
			return fmt.Errorf("%w: schema%s: empty raw schema", ErrInvalidDefinition, at)
		}
	case KindArray:
		if s.items != nil {
			if err := s.items.check(at+"/items", depth+1); err != nil {
				return err
			}
		}
	case KindObject:
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
	case KindOneOf:
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
	if s.kind == KindRaw {
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
	case KindJSON, KindOneOf:
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
	case KindArray:
		if s.items != nil {
			key("items")
			if b, err = s.items.appendJSON(b); err != nil {
				return nil, err
			}
		}
	case KindObject:
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
	case KindOneOf:
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
	case KindObject:
		for _, p := range s.props {
			if p.schema.hasDef || p.schema.hasDefaults() {
				return true
			}
		}
	case KindArray:
		return s.items != nil && s.items.hasDefaults()
	}
	return false
}

// applyDefaults fills absent optional properties that have defaults, in
// place, in a value that already validated against s. oneOf branches are not
// entered: which branch matched is not known here.
func (s *Schema) applyDefaults(v any) any {
	switch s.kind {
	case KindObject:
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
	case KindArray:
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
