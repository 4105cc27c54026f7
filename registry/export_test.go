package registry

import (
	"bytes"
	"encoding/json"
	"slices"
)

// The schema's read accessors and kinds, for this package's tests only:
// nothing outside the package walks a Schema (it reads its JSON Schema).

// Kind is a schema node's kind.
type Kind = schemaKind

// The schema kinds.
const (
	KindString  = kindString
	KindNumber  = kindNumber
	KindInteger = kindInteger
	KindBoolean = kindBoolean
	KindNull    = kindNull
	KindArray   = kindArray
	KindObject  = kindObject
	KindJSON    = kindJSON
	KindOneOf   = kindOneOf
	KindRaw     = kindRaw
)

// Kind returns the node's kind.
func (s *Schema) Kind() schemaKind { return s.kind }

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

// Raw returns a copy of a kindRaw schema's compact JSON document, or nil.
func (s *Schema) Raw() json.RawMessage { return bytes.Clone(s.raw) }

// Name returns the property's name.
func (p Property) Name() string { return p.name }

// Schema returns the property's value schema.
func (p Property) Schema() *Schema { return p.schema }

// Required reports whether the property must be present.
func (p Property) Required() bool { return p.required }

// The execution side of a tool, which package pipeline reaches through
// Registry.Executable (see internal/toolcall), with its concrete types, and
// what else only this package reads, for this package's tests.

// Call is a prepared call.
type Call = call

// Prepare is the execution side's Prepare, returning the concrete call.
func (t *Tool) Prepare(raw json.RawMessage) (*Call, error) { return t.prepare(raw) }

// Validate checks raw arguments against the parameter schema without
// decoding them.
func (t *Tool) Validate(raw json.RawMessage) error {
	_, err := validateArgs(t.name, t.fast, t.validator, raw)
	return err
}

// ValidateOutput is the execution side's ValidateOutput.
func (t *Tool) ValidateOutput(value any) error { return t.validateOutput(value) }

// Parameters returns the parameter schema.
func (t *Tool) Parameters() *Schema { return t.params }

// TimeoutMs is the execution side's TimeoutMs.
func (t *Tool) TimeoutMs() int { return (*executable)(t).TimeoutMs() }

// HasPresentation is the execution side's HasPresentation.
func (t *Tool) HasPresentation() bool { return (*executable)(t).HasPresentation() }

// Names returns the admitted tool names in registration order.
func (s *ToolSet) Names() []string {
	out := make([]string, len(s.tools))
	for i, e := range s.tools {
		out[i] = e.tool.name
	}
	return out
}

// Step returns the step the set was resolved for.
func (s *ToolSet) Step() Step { return s.step }

// The sentinels wrapped for the host's mistakes.
var (
	ErrConditional     = errConditional
	ErrToolSetDisposed = errToolSetDisposed
	ErrInvalidScope    = errInvalidScope
)
