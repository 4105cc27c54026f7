package sdkgen

import (
	"bytes"
	"encoding/json"
	"errors"
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

// parseNode decodes one JSON document, keeping key order.
func parseNode(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("sdkgen: trailing data after json value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder, depth int) (*node, error) {
	if depth > maxParseDepth {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kNull}, nil
	case bool:
		return &node{kind: kBool, b: t}, nil
	case json.Number:
		return &node{kind: kNumber, s: string(t)}, nil
	case string:
		return &node{kind: kString, s: t}, nil
	case json.Delim:
		switch t {
		case '[':
			n := &node{kind: kArray}
			for dec.More() {
				e, err := decodeNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return n, nil
		case '{':
			n := &node{kind: kObject}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("sdkgen: object key is not a string")
				}
				v, err := decodeNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k)
				n.elems = append(n.elems, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return n, nil
		}
	}
	return nil, errors.New("sdkgen: unexpected json token")
}

// quote returns s as a JSON string literal, which is also a valid
// JavaScript and TypeScript string literal. HTML characters are not escaped;
// U+2028 and U+2029 are.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
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
		return append(b, quote(n.s)...)
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
			b = append(b, quote(k)...)
			b = append(b, ':')
			b = n.elems[i].appendJSON(b)
		}
		return append(b, '}')
	}
}
