package sdkgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// nodeKind is the kind of a parsed JSON value.
type nodeKind uint8

const (
	kNull nodeKind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// node is a JSON value that keeps object keys in document order.
type node struct {
	kind  nodeKind
	b     bool
	s     string // string value or number text
	keys  []string
	elems []*node // array elements or object values (parallel to keys)
}

// get returns the value of the first key k of an object node, or nil.
func (n *node) get(k string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for i, key := range n.keys {
		if key == k {
			return n.elems[i]
		}
	}
	return nil
}

// maxParseDepth bounds the nesting accepted by parseNode.
const maxParseDepth = 256

var errTooDeep = errors.New("sdkgen: json nests too deep")

// parseNode decodes one JSON document, keeping key order. Strings are
// unescaped as encoding/json does (invalid UTF-8 and lone surrogates become
// U+FFFD).
func parseNode(data []byte) (*node, error) {
	p := parser{src: data}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.src) {
		return nil, errSyntax
	}
	return n, nil
}

var errSyntax = errors.New("sdkgen: invalid json")

type parser struct {
	src []byte
	i   int
}

func (p *parser) ws() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) lit(word string) bool {
	if bytes.HasPrefix(p.src[p.i:], []byte(word)) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxParseDepth {
		return nil, errTooDeep
	}
	if p.i >= len(p.src) {
		return nil, errSyntax
	}
	switch c := p.src[p.i]; {
	case c == '{':
		p.i++
		n := &node{kind: kObject}
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return n, nil
		}
		for {
			p.ws()
			if p.i >= len(p.src) || p.src[p.i] != '"' {
				return nil, errSyntax
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.ws()
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				return nil, errSyntax
			}
			p.i++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.elems = append(n.elems, v)
			p.ws()
			if p.i >= len(p.src) {
				return nil, errSyntax
			}
			if p.src[p.i] == '}' {
				p.i++
				return n, nil
			}
			if p.src[p.i] != ',' {
				return nil, errSyntax
			}
			p.i++
		}
	case c == '[':
		p.i++
		n := &node{kind: kArray}
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return n, nil
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
			p.ws()
			if p.i >= len(p.src) {
				return nil, errSyntax
			}
			if p.src[p.i] == ']' {
				p.i++
				return n, nil
			}
			if p.src[p.i] != ',' {
				return nil, errSyntax
			}
			p.i++
		}
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &node{kind: kString, s: s}, nil
	case c == 't' && p.lit("true"):
		return &node{kind: kBool, b: true}, nil
	case c == 'f' && p.lit("false"):
		return &node{kind: kBool}, nil
	case c == 'n' && p.lit("null"):
		return &node{kind: kNull}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, errSyntax
}

func (p *parser) number() (*node, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.src[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.src) && p.src[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, errSyntax
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, errSyntax
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, errSyntax
		}
	}
	return &node{kind: kNumber, s: string(p.src[start:p.i])}, nil
}

// str reads a string literal starting at its opening quote.
func (p *parser) str() (string, error) {
	p.i++
	start := p.i
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '"' {
			raw := p.src[start:p.i]
			p.i++
			if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
				return string(raw), nil
			}
			var s string
			if err := json.Unmarshal(p.src[start-1:p.i], &s); err != nil {
				return "", errSyntax
			}
			return s, nil
		}
		if c < 0x20 {
			return "", errSyntax
		}
		if c == '\\' {
			p.i++
		}
		p.i++
	}
	return "", errSyntax
}

// quote returns s as a JSON string literal, which is also a valid
// JavaScript and TypeScript string literal. HTML characters are not escaped;
// control characters, U+2028 and U+2029 are, and invalid UTF-8 becomes
// U+FFFD.
func quote(s string) string {
	b := make([]byte, 0, len(s)+2)
	return string(appendQuote(b, s))
}

func appendQuote(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, "\\ufffd"...)
		case r == '\u2028':
			b = append(b, "\\u2028"...)
		case r == '\u2029':
			b = append(b, "\\u2029"...)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// compact returns the compact JSON text of n.
func (n *node) compact() string {
	var b []byte
	return string(n.appendJSON(b))
}

func (n *node) appendJSON(b []byte) []byte {
	switch n.kind {
	case kNull:
		return append(b, "null"...)
	case kBool:
		if n.b {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case kNumber:
		return append(b, n.s...)
	case kString:
		return appendQuote(b, n.s)
	case kArray:
		b = append(b, '[')
		for i, e := range n.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendJSON(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuote(b, k)
			b = append(b, ':')
			b = n.elems[i].appendJSON(b)
		}
		return append(b, '}')
	}
}
