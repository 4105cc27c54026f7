package pipeline

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/ptchost/ptc/internal/content"
	"github.com/ptchost/ptc/registry"
)

// Outcome is the frozen final result of one call: the canonical value for
// programmatic callers and the rendered content for the model, or the
// failure ([Outcome.Err]). The call itself (its tool's name, its token) is
// [Outcome.Invocation]. It is immutable once returned and safe for
// concurrent reads.
type Outcome struct {
	inv      *Invocation
	err      *Error
	value    any
	content  []registry.Part
	context  []registry.Part
	duration time.Duration

	// rawContent, when set, is the value's JSON whose default rendering
	// is the content, made on first use (see Pipeline.stages).
	rawContent json.RawMessage
	render     sync.Once
}

// parts returns the content, rendering it first if it was deferred.
func (o *Outcome) parts() []registry.Part {
	if o.rawContent != nil {
		o.render.Do(func() { o.content = o.inv.call.DeferredContent(o.rawContent) })
	}
	return o.content
}

// Invocation returns the call the outcome belongs to.
func (o *Outcome) Invocation() *Invocation { return o.inv }

// Err returns the failure, an [*Error] (its Code, Reason and Info: use
// [errors.As], or [CodeOf] for the code), or nil on success.
func (o *Outcome) Err() error {
	if o.err == nil {
		return nil
	}
	return o.err
}

// Value returns the canonical value (nil on failure). Do not modify it.
func (o *Outcome) Value() any { return o.value }

// ValueJSON returns the canonical value as JSON: "null" on failure.
func (o *Outcome) ValueJSON() (json.RawMessage, error) {
	switch v := o.value.(type) {
	case json.RawMessage:
		return bytes.Clone(v), nil
	case nil:
		return json.RawMessage("null"), nil
	}
	if o.rawContent != nil {
		// The value's JSON, made when the content was deferred.
		return bytes.Clone(o.rawContent), nil
	}
	return json.Marshal(o.value)
}

// Content returns the model-facing content: the finalized content on
// success, exactly one text part "Error: <reason>" on failure. The slice is
// a copy.
func (o *Outcome) Content() []registry.Part {
	if o.err != nil {
		return []registry.Part{registry.TextPart("Error: " + o.err.Reason)}
	}
	return slices.Clone(o.parts())
}

// Images returns the image parts of the content, in order: copies, and
// nil (without allocating) when there are none, as on failure.
func (o *Outcome) Images() []registry.Part {
	if o.err != nil || o.rawContent != nil {
		return nil // a deferred rendering is one text part
	}
	return content.Images(o.content)
}

// PresentResult returns the descriptor the tool's PresentResult made of
// the successful result (its arguments, final value and finalized
// content): pure, JSON-encodable presentation metadata for host-local
// consumers, never shown to the model. It is nil on failure, when the tool
// declares no PresentResult, or when PresentResult failed or panicked. The
// call's own descriptor is [Invocation.PresentCall].
func (o *Outcome) PresentResult() any {
	if o.inv.present == nil {
		return nil
	}
	return o.inv.present.result
}

// Context returns the extra context parts post-execute listeners attached,
// in order; they go after the content. The slice is a copy.
func (o *Outcome) Context() []registry.Part { return slices.Clone(o.context) }

// Duration returns how long the call took through all stages.
func (o *Outcome) Duration() time.Duration { return o.duration }
