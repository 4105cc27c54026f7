package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting of argument documents.
const maxJSONDepth = 512

// errDuplicateKey is wrapped by parse errors for a repeated object key.
var errDuplicateKey = errors.New("duplicate object key")

// syntaxError is a JSON parse failure at a byte offset.
type syntaxError struct {
	offset int
	msg    string
	err    error
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.offset, e.msg)
}

func (e *syntaxError) Unwrap() error { return e.err }

// parseJSON decodes one JSON document into the generic form the validator
// reads: map[string]any, []any, string, json.Number, bool and nil. Unlike
// encoding/json it rejects duplicate object keys (compared after unescaping),
// and it keeps numbers exact. Invalid UTF-8 in strings is replaced by U+FFFD,
// as encoding/json does.
func parseJSON(data []byte) (any, error) {
	// One conversion up front: keys, unescaped strings and numbers are then
	// substrings of src and cost no allocation of their own.
	p := parser{data: data, src: string(data)}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.data) {
		return nil, p.fail("unexpected data after top-level value")
	}
	return v, nil
}

type parser struct {
	data []byte
	src  string // string(data)
	i    int
}

func (p *parser) fail(msg string) error {
	return &syntaxError{offset: p.i, msg: msg}
}

func (p *parser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.i >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	default:
		return nil, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (p *parser) literal(lit string) error {
	if len(p.data)-p.i < len(lit) || string(p.data[p.i:p.i+len(lit)]) != lit {
		return p.fail("invalid literal")
	}
	p.i += len(lit)
	return nil
}

func (p *parser) object(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.fail("nesting too deep")
	}
	p.i++ // '{'
	m := make(map[string]any)
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.fail("expected object key")
		}
		at := p.i
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, &syntaxError{offset: at, msg: fmt.Sprintf("duplicate object key %q", k), err: errDuplicateKey}
		}
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.fail("expected ':' after object key")
		}
		p.i++
		p.ws()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.fail("unexpected end of input in object")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, nil
		default:
			return nil, p.fail("expected ',' or '}' in object")
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.fail("nesting too deep")
	}
	p.i++ // '['
	a := []any{}
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		p.ws()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.fail("unexpected end of input in array")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, nil
		default:
			return nil, p.fail("expected ',' or ']' in array")
		}
	}
}

func (p *parser) number() (any, error) {
	start := p.i
	d := p.data
	if d[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(d) && d[p.i] == '0':
		p.i++
	case p.i < len(d) && d[p.i] >= '1' && d[p.i] <= '9':
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	default:
		return nil, p.fail("invalid number")
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if p.i >= len(d) || d[p.i] < '0' || d[p.i] > '9' {
			return nil, p.fail("invalid number: digit expected after '.'")
		}
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if p.i >= len(d) || d[p.i] < '0' || d[p.i] > '9' {
			return nil, p.fail("invalid number: digit expected in exponent")
		}
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	}
	return json.Number(p.src[start:p.i]), nil
}

func (p *parser) string() (string, error) {
	p.i++ // opening quote
	start := p.i
	d := p.data
	// Fast path: no escapes, ASCII only.
	for p.i < len(d) {
		c := d[p.i]
		if c == '"' {
			s := p.src[start:p.i]
			p.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	buf := make([]byte, 0, p.i-start+16)
	buf = append(buf, d[start:p.i]...)
	for p.i < len(d) {
		c := d[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c == '\\':
			p.i++
			if p.i >= len(d) {
				return "", p.fail("unexpected end of input in string escape")
			}
			switch e := d[p.i]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
				p.i++
			case 'b':
				buf = append(buf, '\b')
				p.i++
			case 'f':
				buf = append(buf, '\f')
				p.i++
			case 'n':
				buf = append(buf, '\n')
				p.i++
			case 'r':
				buf = append(buf, '\r')
				p.i++
			case 't':
				buf = append(buf, '\t')
				p.i++
			case 'u':
				p.i++
				r, ok := p.hex4()
				if !ok {
					return "", p.fail("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(utf8.RuneError)
					if p.i+1 < len(d) && d[p.i] == '\\' && d[p.i+1] == 'u' {
						save := p.i
						p.i += 2
						lo, ok := p.hex4()
						if !ok {
							return "", p.fail("invalid \\u escape")
						}
						if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
							r2 = dec
						} else {
							p.i = save // lone surrogate; reread the next escape on its own
						}
					}
					r = r2
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", p.fail("invalid escape character " + strconv.QuoteRune(rune(e)))
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(d[p.i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d[p.i:p.i+size]...)
			}
			p.i += size
		}
	}
	return "", p.fail("unexpected end of input in string")
}

func (p *parser) hex4() (rune, bool) {
	if len(p.data)-p.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}
