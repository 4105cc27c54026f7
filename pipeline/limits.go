package pipeline

import (
	"fmt"

	"github.com/ptchost/ptc/internal/jsontext"
	"github.com/ptchost/ptc/registry"
)

// The default argument limits (docs/ARCHITECTURE.md, "Limits").
const (
	// defaultArgumentBytes is the default of Config.ArgumentBytes: 1 MiB.
	defaultArgumentBytes = 1 << 20
	// defaultArgumentDepth is the default of Config.ArgumentDepth.
	defaultArgumentDepth = 64
)

// limitError is the cause of a call refused by an argument limit: its
// message is the model-facing sentence, and it matches its sentinel.
type limitError struct {
	msg      string
	sentinel error
}

func (e *limitError) Error() string { return e.msg }

func (e *limitError) Unwrap() error { return e.sentinel }

// checkArguments refuses raw arguments over the pipeline's size or depth
// limit, before anything parses them. It returns a [registry.Error] with
// [registry.ErrInvalidArguments], or nil.
func (p *Pipeline) checkArguments(name string, raw []byte) error {
	if len(raw) <= p.argShort {
		return nil // within the size limit, and too short to nest too deep
	}
	return p.checkLongArguments(name, raw)
}

func (p *Pipeline) checkLongArguments(name string, raw []byte) error {
	var le *limitError
	switch {
	case len(raw) > p.argBytes:
		le = &limitError{
			msg:      fmt.Sprintf("arguments are %d bytes, over the %d-byte limit", len(raw), p.argBytes),
			sentinel: ErrArgumentsTooLarge,
		}
	case deeper(raw, p.argDepth):
		le = &limitError{
			msg:      fmt.Sprintf("arguments nest deeper than the %d-level limit", p.argDepth),
			sentinel: ErrArgumentsTooDeep,
		}
	default:
		return nil
	}
	return &registry.Error{Kind: registry.ErrInvalidArguments, Tool: name, Err: fmt.Errorf("invalid arguments: %w", le)}
}

// deeper reports whether the JSON text b opens more than limit arrays and
// objects inside one another. It is a scan of the bytes, not a parse
// (jsontext.Depth): it stops at the first bracket over the limit, and
// malformed text is left to the parser.
func deeper(b []byte, limit int) bool {
	if len(b) <= limit {
		return false // too short to hold limit+1 brackets
	}
	return jsontext.Depth(b, limit+1) > limit
}
