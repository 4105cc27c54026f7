package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ptchost/ptc/internal/jsonindent"
)

// Mode says whether a call may run concurrently with other calls of a batch.
type Mode int

const (
	// Serial calls run alone, in batch order. It is the zero value and the
	// mode of a tool that declares no classifier.
	Serial Mode = iota
	// Parallel calls may run concurrently with other parallel calls.
	Parallel
)

// Exec is what a tool body receives besides its context and arguments.
// Cancellation is not here: it is the ctx passed to the body.
type Exec struct {
	// CallID is the opaque correlation token of the call.
	CallID string
	// Agent is the scope of the calling agent; the zero Scope for
	// standalone service calls.
	Agent Scope
	// Arguments are the raw arguments exactly as the model sent them: a
	// copy of the call's own, which the body may keep or change.
	Arguments json.RawMessage
	// IdempotencyKey identifies the call across tries: the same on every
	// try of one subcall of one durable run (ptc.Config.Store: the run ID
	// and the call's number), also when nothing failed; "" outside a
	// durable run. A tool with side effects may pass it to the service it
	// calls so that a repeated try takes effect once.
	IdempotencyKey string
}

// Output declares a tool's canonical value: its schema (read by sdkgen to
// type the SDK's return values, and enforced) and the render function that
// turns the value into model-facing content.
type Output[A, V any] struct {
	// Schema describes the canonical value; nil means any JSON value. The
	// pipeline validates every value the tool returns against it: a value
	// that does not match fails the call, with an [*Error] of kind
	// [ErrInvalidOutput].
	Schema *Schema
	// Render turns a canonical value into content. When nil, a string value
	// renders as one text part and any other value as its indented JSON.
	Render func(args A, value V) []Part
}

// Spec is the author's description of a tool with arguments decoded into A
// and a canonical value of type V. A is decoded with encoding/json after the
// arguments validated against Parameters (and absent properties got their
// defaults), so with [Define] the author writes both a Go struct (with json
// tags) and its schema, which Define checks against each other; [Infer]
// derives the schemas from A and V instead. V must be JSON-encodable.
//
// Only Name, Description and Parameters (and DeferLoading) reach the model;
// everything else stays on the Go side.
type Spec[A, V any] struct {
	// Name is the model-facing name: 1 to 64 of [A-Za-z0-9_-].
	Name string
	// Description is the model-facing description.
	Description string
	// Parameters is the argument schema. It must be an object schema (or a
	// raw JSON Schema); nil means an object with no declared properties.
	Parameters *Schema
	// Output declares the canonical value.
	Output Output[A, V]
	// Execute runs the tool. It must observe ctx and return only the
	// declared value. Required.
	Execute func(ctx context.Context, args A, exec *Exec) (V, error)
	// TimeoutMs is the declared timeout in milliseconds; 0 means none. It is
	// declarative only: the pipeline's timeout wrapper enforces it.
	TimeoutMs int
	// ExecutionMode classifies a call as Parallel or Serial; nil means
	// Serial, or Parallel when the Parallel field is set.
	ExecutionMode func(args A) Mode
	// Parallel, when set and ExecutionMode is nil, makes every call of the
	// tool Parallel: the common case of a tool without side effects on
	// what other calls read.
	Parallel bool
	// ProjectContent, when set, installs execution-prepared content in
	// place of the rendered output, before post-execute policies run.
	ProjectContent func(args A, value V) []Part
	// FinalizeContent, when set, is the final content transform, applied
	// after post-execute policies.
	FinalizeContent func(args A, content []Part) []Part
	// PresentCall returns a pure, JSON-encodable presentation descriptor of
	// the call for host-local consumers (a tool card, a transcript); it
	// never reaches the model. The pipeline calls it once, when the call
	// is prepared.
	PresentCall func(args A) any
	// PresentResult returns a pure, JSON-encodable presentation descriptor
	// of a successful result (its final value and finalized content) for
	// host-local consumers; it never reaches the model. The pipeline calls
	// it once, after the content is finalized.
	PresentResult func(args A, value V, content []Part) any
	// DeferLoading asks the provider to load the definition lazily; it is
	// preserved in the projected [ToolSchema].
	DeferLoading bool
	// Callers says who may call the tool: the model directly, programs,
	// or both. The zero value keeps each executor's default (programs in
	// PTC mode, the model in native mode).
	Callers Callers
	// Idempotent declares that calling the tool again with the same
	// arguments and the same Exec.IdempotencyKey has no effect beyond the
	// first call's (a read, or a write the tool deduplicates by the key).
	// A durable run (ptc.Config.Store) whose process stopped while a call
	// of this tool was in flight makes the call again when it resumes;
	// a call of any other tool is settled UNAVAILABLE instead.
	Idempotent bool
}

// RawSpec is the spec of a tool whose arguments stay raw JSON, such as a tool
// mounted from an MCP server with the server's input schema (use
// [ParseJSONSchema] for Parameters). The arguments passed to Execute are the
// validated bytes as the model sent them, with the members for absent
// properties that have a default appended; when the schema declares a
// default below the top level, they are the arguments re-encoded with the
// defaults (object keys then in sorted order). [Exec.Arguments] and
// the arguments the pipeline records stay as the model sent them.
type RawSpec = Spec[json.RawMessage, any]

// Tool is a compiled tool definition. It is immutable and safe for
// concurrent use; register it in any number of scopes with
// [Registry.Register].
type Tool struct {
	name         string
	description  string
	params       *Schema
	output       *Schema
	wire         json.RawMessage
	validator    *jsonschema.Schema
	fast         *checker
	outValidator *jsonschema.Schema // nil when no output schema is declared
	outFast      *checker
	defaults     *defaults // nil when no default can apply
	timeoutMs    int
	deferLoading bool
	callers      Callers
	idempotent   bool
	rawArgs      bool // the arguments stay raw JSON (A is json.RawMessage)

	decode        func(raw []byte, tree any) (any, error)
	execute       func(ctx context.Context, args any, exec *Exec) (any, error)
	mode          func(args any) Mode
	render        func(args, value any) ([]Part, error)
	deferRender   func(value any) ([]Part, json.RawMessage, error) // nil when the tool renders its own content
	project       func(args, value any) ([]Part, error)
	finalize      func(args any, content []Part) []Part
	presentCall   func(args any) any
	presentResult func(args, value any, content []Part) (any, error)
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Define compiles spec into a [Tool]. It checks the name and the schemas,
// projects the parameter schema to JSON Schema and compiles it for
// validation, once. Errors wrap [ErrInvalidDefinition].
//
// When A is a struct (or a pointer to one) and the parameter schema lists
// properties (a DSL object, or a raw schema with "properties"), Define
// refuses a schema that does not match A's JSON fields, naming both:
//
//   - a property that no field decodes (a property "item" beside a field
//     tagged "sku"): the model's value would be dropped;
//   - a field that is required in Go terms (no omitempty or omitzero) but
//     is not a property: the model is never told to send it. Tag such a
//     field omitempty if it may stay zero, or json:"-" if the model never
//     sets it.
//
// Properties match fields as encoding/json matches keys: exactly, else
// ignoring case. Whether a property is required in the schema is the
// schema's business and is not compared. Maps, json.RawMessage, interfaces
// and types that implement json.Unmarshaler or encoding.TextUnmarshaler are
// not checked, nor are nested objects.
func Define[A, V any](spec Spec[A, V]) (*Tool, error) {
	if !nameRE.MatchString(spec.Name) {
		return nil, fmt.Errorf("%w: tool name %q must be 1 to 64 of [A-Za-z0-9_-]", ErrInvalidDefinition, spec.Name)
	}
	if spec.Execute == nil {
		return nil, fmt.Errorf("%w: tool %q: Execute is nil", ErrInvalidDefinition, spec.Name)
	}
	if spec.TimeoutMs < 0 {
		return nil, fmt.Errorf("%w: tool %q: negative TimeoutMs", ErrInvalidDefinition, spec.Name)
	}
	params := spec.Parameters
	if params == nil {
		params = Object()
	}
	if k := params.kind; k != kindObject && k != kindRaw {
		return nil, fmt.Errorf("%w: tool %q: parameters must be an object schema, not %s", ErrInvalidDefinition, spec.Name, k)
	}
	wire, err := params.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("tool %q: parameters: %w", spec.Name, err)
	}
	if err := checkFields(spec.Name, reflect.TypeFor[A](), params); err != nil {
		return nil, err
	}
	sch, err := compileSchema("mem://tools/"+spec.Name+"/parameters.json", wire)
	if err != nil {
		return nil, fmt.Errorf("%w: tool %q: compile parameters: %w", ErrInvalidDefinition, spec.Name, err)
	}
	var outSch *jsonschema.Schema
	if spec.Output.Schema != nil {
		outWire, err := spec.Output.Schema.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("tool %q: output: %w", spec.Name, err)
		}
		if outSch, err = compileSchema("mem://tools/"+spec.Name+"/output.json", outWire); err != nil {
			return nil, fmt.Errorf("%w: tool %q: compile output schema: %w", ErrInvalidDefinition, spec.Name, err)
		}
	}
	t := &Tool{
		name:         spec.Name,
		description:  spec.Description,
		params:       params,
		output:       spec.Output.Schema,
		wire:         wire,
		validator:    sch,
		fast:         newChecker(params),
		outValidator: outSch,
		outFast:      newChecker(spec.Output.Schema),
		defaults:     newDefaults(params),
		timeoutMs:    spec.TimeoutMs,
		deferLoading: spec.DeferLoading,
		callers:      spec.Callers,
		idempotent:   spec.Idempotent,
	}
	bindSpec(t, spec)
	return t, nil
}

// MustDefine is like [Define] but panics on error. It is for definitions
// fixed at compile time, such as package-level tools in tests.
func MustDefine[A, V any](spec Spec[A, V]) *Tool {
	t, err := Define(spec)
	if err != nil {
		panic(err)
	}
	return t
}

// bindSpec wraps the typed functions of spec behind the untyped Tool fields.
func bindSpec[A, V any](t *Tool, spec Spec[A, V]) {
	name := spec.Name
	var zeroA A
	_, t.rawArgs = any(&zeroA).(*json.RawMessage)
	t.decode = func(raw []byte, tree any) (any, error) {
		var a A
		if p, ok := any(&a).(*json.RawMessage); ok {
			*p = json.RawMessage(raw)
			return a, nil
		}
		if tree != nil {
			b, err := json.Marshal(tree)
			if err != nil {
				return nil, err
			}
			raw = b
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, err
		}
		return a, nil
	}
	t.execute = func(ctx context.Context, args any, exec *Exec) (any, error) {
		return spec.Execute(ctx, args.(A), exec)
	}
	switch f := spec.ExecutionMode; {
	case f != nil:
		t.mode = func(args any) Mode { return f(args.(A)) }
	case spec.Parallel:
		t.mode = func(any) Mode { return Parallel }
	}
	value := func(v any) (V, error) {
		if x, ok := v.(V); ok {
			return x, nil
		}
		var zero V
		if v == nil {
			// A nil interface stands for the zero value of V (for example a
			// nil slice or pointer returned by Execute).
			return zero, nil
		}
		return zero, fmt.Errorf("tool %q: value of type %T, want %T", name, v, zero)
	}
	render := spec.Output.Render
	t.render = func(args, v any) ([]Part, error) {
		x, err := value(v)
		if err != nil {
			return nil, err
		}
		if render != nil {
			return render(args.(A), x), nil
		}
		return defaultRender(x)
	}
	if render == nil && spec.ProjectContent == nil && spec.FinalizeContent == nil {
		t.deferRender = func(v any) ([]Part, json.RawMessage, error) {
			x, err := value(v)
			if err != nil {
				return nil, nil, err
			}
			return deferDefault(x)
		}
	}
	if f := spec.ProjectContent; f != nil {
		t.project = func(args, v any) ([]Part, error) {
			x, err := value(v)
			if err != nil {
				return nil, err
			}
			return f(args.(A), x), nil
		}
	}
	if f := spec.FinalizeContent; f != nil {
		t.finalize = func(args any, content []Part) []Part { return f(args.(A), content) }
	}
	if f := spec.PresentCall; f != nil {
		t.presentCall = func(args any) any { return f(args.(A)) }
	}
	if f := spec.PresentResult; f != nil {
		t.presentResult = func(args, v any, content []Part) (any, error) {
			x, err := value(v)
			if err != nil {
				return nil, err
			}
			return f(args.(A), x, content), nil
		}
	}
}

// defaultRender is the content of a tool that declares no Render: the text
// of a string, else the value as JSON, laid out.
func defaultRender(v any) ([]Part, error) {
	content, raw, err := deferDefault(v)
	if err != nil || content != nil {
		return content, err
	}
	return renderJSON(raw), nil
}

// deferDefault does the part of the default rendering that can fail: a
// string renders to itself at once; any other value is returned as valid
// JSON, which renderJSON lays out without failing.
func deferDefault(v any) ([]Part, json.RawMessage, error) {
	switch x := v.(type) {
	case string:
		return []Part{TextPart(x)}, nil, nil
	case json.RawMessage:
		if !json.Valid(x) {
			_, err := jsonindent.Indent(x) // its error says where
			return nil, nil, fmt.Errorf("render value: %w", err)
		}
		// A copy: the tool may reuse its buffer once it has returned,
		// and the content is made from these bytes later.
		return nil, bytes.Clone(x), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("render value: %w", err)
	}
	return nil, b, nil
}

// renderJSON is the default content of a value whose JSON is raw (valid
// JSON, as the deferred rendering returns it): one text part, laid out.
func renderJSON(raw json.RawMessage) []Part {
	b, err := jsonindent.Indent(raw)
	if err != nil {
		// Not valid JSON after all: show it as it is.
		return []Part{TextPart(string(raw))}
	}
	return []Part{TextPart(string(b))}
}

// Name returns the model-facing name.
func (t *Tool) Name() string { return t.name }

// OutputSchema returns the declared schema of the canonical value, or nil.
func (t *Tool) OutputSchema() *Schema { return t.output }

// Callers says who may call the tool (see [Spec.Callers]).
func (t *Tool) Callers() Callers { return t.callers }

// Idempotent reports whether the tool declared its calls idempotent (see
// [Spec.Idempotent]).
func (t *Tool) Idempotent() bool { return t.idempotent }

// ToolSchema is the model-facing projection of a tool: what goes on the wire.
// It never contains the output declaration, execute function, content hooks,
// timeout or presentation callbacks.
type ToolSchema struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Parameters   json.RawMessage `json:"parameters"`
	DeferLoading bool            `json:"deferLoading,omitempty"`
}

// Schema returns the tool's model-facing projection: its name, description,
// parameter schema (a copy) and whether it asks to be loaded lazily.
func (t *Tool) Schema() ToolSchema {
	return ToolSchema{
		Name:         t.name,
		Description:  t.description,
		Parameters:   bytes.Clone(t.wire),
		DeferLoading: t.deferLoading,
	}
}

// defaults is how a tool fills the absent properties of its arguments with
// the defaults its parameter schema declares. The DSL's object and array
// schemas and a raw schema's "properties" and "items" (at any depth) are
// followed; "$ref", "oneOf", "anyOf", "allOf" and conditionals are not.
type defaults struct {
	raw    *defaultNode // for a raw schema; nil for the DSL, which applies its own
	top    []topDefault // the top-level properties with a default
	nested bool         // a default below the top level may apply
}

// topDefault is a top-level property with a default, encoded as a member.
type topDefault struct {
	name   string
	member []byte // "name":value
}

// defaultNode is the part of a raw schema that holds defaults.
type defaultNode struct {
	props []defaultProp // sorted by name
	items *defaultNode
}

type defaultProp struct {
	name string
	def  any // the parsed default, when has
	has  bool
	sub  *defaultNode
}

// newDefaults returns how defaults apply for params, or nil when none can.
func newDefaults(params *Schema) *defaults {
	d := &defaults{}
	add := func(name string, v any) {
		k, err1 := json.Marshal(name)
		b, err2 := json.Marshal(v)
		if err1 == nil && err2 == nil { // checked by MarshalJSON for the DSL
			d.top = append(d.top, topDefault{name: name, member: append(append(k, ':'), b...)})
		}
	}
	switch params.kind {
	case kindObject:
		if !params.hasDefaults() {
			return nil
		}
		for _, p := range params.props {
			if p.schema.hasDef {
				add(p.name, p.schema.def)
			}
			d.nested = d.nested || p.schema.hasDefaults()
		}
	case kindRaw:
		doc, err := parseJSON(params.raw)
		if err != nil {
			return nil
		}
		if d.raw = rawDefaults(doc, 0); d.raw == nil {
			return nil
		}
		for _, p := range d.raw.props {
			if p.has {
				add(p.name, p.def)
			}
			d.nested = d.nested || p.sub != nil
		}
		d.nested = d.nested || d.raw.items != nil
	default:
		return nil
	}
	return d
}

// rawDefaults returns the defaults of the raw schema document doc, or nil
// when it has none.
func rawDefaults(doc any, depth int) *defaultNode {
	m, ok := doc.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return nil
	}
	n := &defaultNode{}
	if props, ok := m["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			ps, _ := props[name].(map[string]any)
			def, has := ps["default"]
			sub := rawDefaults(ps, depth+1)
			if has || sub != nil {
				n.props = append(n.props, defaultProp{name: name, def: def, has: has, sub: sub})
			}
		}
	}
	n.items = rawDefaults(m["items"], depth+1)
	if len(n.props) == 0 && n.items == nil {
		return nil
	}
	return n
}

// apply fills absent properties, in place, in a value that validated
// against the schema.
func (n *defaultNode) apply(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for _, p := range n.props {
			if cur, ok := x[p.name]; ok {
				if p.sub != nil {
					x[p.name] = p.sub.apply(cur)
				}
			} else if p.has {
				x[p.name] = p.def
			}
		}
	case []any:
		if n.items != nil {
			for i := range x {
				x[i] = n.items.apply(x[i])
			}
		}
	}
	return v
}

// apply fills the defaults into tree, the parsed arguments raw, in place.
// For a tool whose arguments stay raw JSON it also returns the arguments
// with the defaults as JSON, or nil when none was absent: raw with the
// absent top-level members appended when only top-level defaults exist,
// else tree re-encoded (object keys then sorted).
func (d *defaults) apply(params *Schema, tree any, raw []byte, rawArgs bool) (any, []byte, error) {
	var missing []topDefault
	if rawArgs && !d.nested {
		if m, ok := tree.(map[string]any); ok {
			for _, td := range d.top {
				if _, ok := m[td.name]; !ok {
					missing = append(missing, td)
				}
			}
		}
	}
	if d.raw != nil {
		tree = d.raw.apply(tree)
	} else {
		tree = params.applyDefaults(tree)
	}
	switch {
	case !rawArgs:
		return tree, nil, nil
	case d.nested:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tree); err != nil {
			return nil, nil, err
		}
		return tree, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
	case len(missing) == 0:
		return tree, nil, nil
	}
	// raw is a JSON object (tree is a map): insert before its closing brace.
	end := bytes.LastIndexByte(raw, '}')
	empty := len(bytes.TrimSpace(raw[bytes.IndexByte(raw, '{')+1:end])) == 0
	n := len(raw)
	for _, td := range missing {
		n += len(td.member) + 1
	}
	out := append(make([]byte, 0, n), raw[:end]...)
	for i, td := range missing {
		if i > 0 || !empty {
			out = append(out, ',')
		}
		out = append(out, td.member...)
	}
	return tree, append(out, raw[end:]...), nil
}
