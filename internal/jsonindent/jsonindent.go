package jsonindent

import (
	"bytes"
	"encoding/json"

	"github.com/ptchost/ptc/internal/jsontext"
)

// MaxDepth and MaxBytes bound what Indent indents: a value nested deeper
// than MaxDepth, or whose indented form could exceed MaxBytes, is written
// compactly instead.
const (
	MaxDepth = 32
	MaxBytes = 8 << 20
)

// Indent returns valid JSON text src indented by two spaces per level, or
// compact when indenting it would be unbounded (see MaxDepth). It fails
// only when src is not valid JSON.
func Indent(src []byte) ([]byte, error) {
	var buf bytes.Buffer
	d := jsontext.Depth(src, MaxDepth+1)
	if d <= MaxDepth && len(src)*(2*d+1) <= MaxBytes {
		if err := json.Indent(&buf, src, "", "  "); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if err := json.Compact(&buf, src); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
