package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// noLoader refuses every external reference, so compiling a schema never
// touches the filesystem or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema reference %q is not allowed", url)
}

// compileSchema compiles a JSON Schema document once. url names it in
// validation errors.
func compileSchema(url string, doc []byte) (*jsonschema.Schema, error) {
	v, err := parseJSON(doc)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, v); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// validateArgs parses raw as JSON (rejecting duplicate keys) and validates
// it against sch (after trying the DSL checker fast, if any). It returns the
// parsed value, or an *Error of kind ErrInvalidArguments. It never panics on
// any input.
func validateArgs(tool string, fast *checker, sch *jsonschema.Schema, raw []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &Error{Kind: ErrInvalidArguments, Tool: tool, Err: fmt.Errorf("invalid arguments: validator panicked: %v", r)}
		}
	}()
	v, err = parseJSON(raw)
	if err != nil {
		return nil, &Error{Kind: ErrInvalidArguments, Tool: tool, Err: fmt.Errorf("invalid arguments: %w", err)}
	}
	issues, err := validate(fast, sch, v)
	if err != nil {
		return nil, &Error{Kind: ErrInvalidArguments, Tool: tool, Err: fmt.Errorf("invalid arguments: %w", err)}
	}
	if issues != nil {
		return nil, &Error{Kind: ErrInvalidArguments, Tool: tool, Issues: issues, Err: errors.New("invalid arguments")}
	}
	return v, nil
}

// validate checks the parsed value v against sch, after trying the DSL
// checker fast, if any. It returns the violations (nil when v is valid), or
// an error when the validator could not decide. Its callers recover from a
// panic of the validator.
func validate(fast *checker, sch *jsonschema.Schema, v any) (issues []Issue, err error) {
	if fast != nil && fast.check(v) == accept {
		return nil, nil
	}
	if err := sch.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, err
		}
		return issuesOf(ve), nil
	}
	return nil, nil
}

// issuesOf flattens a validation error tree to its leaves.
func issuesOf(ve *jsonschema.ValidationError) []Issue {
	var out []Issue
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		out = append(out, issueOf(e))
	}
	walk(ve)
	return out
}

func issueOf(e *jsonschema.ValidationError) Issue {
	is := Issue{
		Path:    pointer(e.InstanceLocation),
		Keyword: strings.Join(e.ErrorKind.KeywordPath(), "/"),
	}
	leaf := &jsonschema.ValidationError{SchemaURL: e.SchemaURL, InstanceLocation: e.InstanceLocation, ErrorKind: e.ErrorKind}
	if out := leaf.BasicOutput(); out != nil && out.Error != nil {
		is.Message = out.Error.String()
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		is.Expected = strings.Join(k.Want, " or ")
	case *kind.Required:
		is.Expected = "property " + quoteAll(k.Missing)
	case *kind.AdditionalProperties:
		is.Expected = "no property " + quoteAll(k.Properties)
	case *kind.Enum:
		if b, err := json.Marshal(k.Want); err == nil {
			is.Expected = "one of " + string(b)
		}
	case *kind.Const:
		if b, err := json.Marshal(k.Want); err == nil {
			is.Expected = string(b)
		}
	case *kind.OneOf:
		is.Expected = "exactly one oneOf variant"
	case *kind.FalseSchema:
		is.Expected = "nothing (false schema)"
	}
	if is.Message == "" {
		is.Message = "invalid value"
	}
	return is
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(escapePointer(t))
	}
	return sb.String()
}
