package registry

import (
	"encoding/json"
	"strings"
)

// The registry validates with the compiled JSON Schema. For schemas built
// with the DSL it first runs a direct checker compiled from the DSL tree:
// when the checker accepts a value, the value is valid and the JSON Schema
// validator is skipped; on anything else (a violation, or a case the checker
// does not decide, such as a non-string enum or a number like 1.0 against
// integer) the JSON Schema validator decides and reports the issues. So the
// checker only has to be sound when it accepts; FuzzValidate checks that
// against the JSON Schema validator.

type verdict uint8

const (
	accept verdict = iota
	reject
	unsure
)

type checker struct {
	kind     schemaKind
	enum     map[string]struct{} // string-only enum
	enumAny  bool                // enum with non-string values: undecided
	items    *checker
	props    []propChecker
	closed   bool
	variants []*checker
}

type propChecker struct {
	name     string
	required bool
	c        *checker
}

// newChecker compiles a DSL schema; it returns nil for raw schemas.
func newChecker(s *Schema) *checker {
	if s == nil || s.kind == kindRaw {
		return nil
	}
	c := &checker{kind: s.kind, closed: s.closed}
	if s.enum != nil {
		c.enum = make(map[string]struct{}, len(s.enum))
		for _, v := range s.enum {
			str, ok := v.(string)
			if !ok {
				c.enum, c.enumAny = nil, true
				break
			}
			c.enum[str] = struct{}{}
		}
	}
	if s.items != nil {
		if c.items = newChecker(s.items); c.items == nil {
			return nil
		}
	}
	for _, p := range s.props {
		pc := newChecker(p.schema)
		if pc == nil {
			return nil
		}
		c.props = append(c.props, propChecker{name: p.name, required: p.required, c: pc})
	}
	for _, v := range s.variants {
		vc := newChecker(v)
		if vc == nil {
			return nil
		}
		c.variants = append(c.variants, vc)
	}
	return c
}

func (c *checker) check(v any) verdict {
	switch c.kind {
	case kindString:
		s, ok := v.(string)
		if !ok {
			return reject
		}
		if c.enum != nil {
			if _, ok := c.enum[s]; !ok {
				return reject
			}
		}
	case kindNumber:
		if _, ok := v.(json.Number); !ok {
			return reject
		}
	case kindInteger:
		n, ok := v.(json.Number)
		if !ok {
			return reject
		}
		if strings.ContainsAny(string(n), ".eE") {
			return unsure
		}
	case kindBoolean:
		if _, ok := v.(bool); !ok {
			return reject
		}
	case kindNull:
		if v != nil {
			return reject
		}
	case kindJSON:
	case kindArray:
		a, ok := v.([]any)
		if !ok {
			return reject
		}
		if c.items != nil {
			for _, x := range a {
				if r := c.items.check(x); r != accept {
					return r
				}
			}
		}
	case kindObject:
		m, ok := v.(map[string]any)
		if !ok {
			return reject
		}
		known := 0
		for i := range c.props {
			p := &c.props[i]
			x, ok := m[p.name]
			if !ok {
				if p.required {
					return reject
				}
				continue
			}
			known++
			if r := p.c.check(x); r != accept {
				return r
			}
		}
		if c.closed && known != len(m) {
			return reject
		}
	case kindOneOf:
		matched := 0
		for _, vc := range c.variants {
			switch vc.check(v) {
			case accept:
				matched++
			case unsure:
				return unsure
			}
		}
		if matched != 1 {
			return reject
		}
	default:
		return unsure
	}
	if c.enumAny {
		return unsure
	}
	if c.enum != nil && c.kind != kindString {
		// A string enum on a non-string kind: only a string could match.
		if s, ok := v.(string); !ok {
			return reject
		} else if _, ok := c.enum[s]; !ok {
			return reject
		}
	}
	return accept
}
