package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/ptchost/ptc/internal/toolcall"
)

// The execution side of a tool, which package pipeline reaches through
// [Registry.Executable] only: see package internal/toolcall.
var (
	_ toolcall.Tool[*Tool, Part, Exec, Mode] = (*executable)(nil)
	_ toolcall.Call[Part, Exec, Mode]        = (*call)(nil)
)

// executable is a tool as the execution lookup admits it. It is the same
// struct as [Tool], so converting between the two is free and a tool's
// executable is the same pointer every time.
type executable Tool

// Tool returns the tool's public handle.
func (x *executable) Tool() *Tool { return (*Tool)(x) }

// TimeoutMs returns the declared timeout in milliseconds (0: none).
func (x *executable) TimeoutMs() int { return x.timeoutMs }

// HasPresentation reports whether the tool declares PresentCall or
// PresentResult.
func (x *executable) HasPresentation() bool {
	return x.presentCall != nil || x.presentResult != nil
}

// Prepare validates, defaults and decodes raw arguments (see
// [toolcall.Tool]).
func (x *executable) Prepare(raw json.RawMessage) (toolcall.Call[Part, Exec, Mode], error) {
	c, err := (*Tool)(x).prepare(raw)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ValidateOutput checks a value against the output schema (see
// [toolcall.Tool]).
func (x *executable) ValidateOutput(value any) error {
	return (*Tool)(x).validateOutput(value)
}

// validateOutput checks a value the tool returned against its declared
// output schema: the value as JSON (a json.RawMessage as is, anything else
// encoded with encoding/json) must match it. Without an output schema every
// value passes, at no cost. The error is an [*Error] of kind
// [ErrInvalidOutput] naming each violation's path and what was expected
// there.
func (t *Tool) validateOutput(value any) (err error) {
	if t.outValidator == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = &Error{Kind: ErrInvalidOutput, Tool: t.name, Err: fmt.Errorf("validator panicked: %v", r)}
		}
	}()
	raw, ok := value.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(value)
		if err != nil {
			return &Error{Kind: ErrInvalidOutput, Tool: t.name, Err: err, notJSON: true}
		}
		raw = b
	}
	tree, err := parseJSON(raw)
	if err != nil {
		return &Error{Kind: ErrInvalidOutput, Tool: t.name, Err: err, notJSON: true}
	}
	issues, err := validate(t.outFast, t.outValidator, tree)
	if err != nil {
		return &Error{Kind: ErrInvalidOutput, Tool: t.name, Err: err}
	}
	if issues != nil {
		return &Error{Kind: ErrInvalidOutput, Tool: t.name, Issues: issues}
	}
	return nil
}

// prepare validates raw arguments, rejecting malformed JSON, duplicate
// object keys and schema violations, then applies defaults and decodes them
// into the tool's argument type. The error is an [*Error] of kind
// [ErrInvalidArguments]; prepare never panics on any input.
//
// The call owns its arguments: it keeps a frozen copy of raw (what
// call.Arguments returns), and a tool whose arguments stay raw JSON gets a
// second copy of its own, so neither the caller changing raw afterwards nor
// anyone changing call.Args changes what the call records.
func (t *Tool) prepare(raw json.RawMessage) (*call, error) {
	tree, err := validateArgs(t.name, t.fast, t.validator, raw)
	if err != nil {
		return nil, err
	}
	var filled []byte // raw arguments with defaults, for a raw-args tool
	if t.defaults != nil {
		if tree, filled, err = t.defaults.apply(t.params, tree, raw, t.rawArgs); err != nil {
			return nil, &Error{Kind: ErrInvalidArguments, Tool: t.name, Err: fmt.Errorf("apply defaults: %w", err)}
		}
	} else {
		tree = nil // decode straight from raw
	}
	frozen, own := raw, raw
	switch {
	case filled != nil:
		frozen, own = bytes.Clone(raw), filled
	case t.rawArgs:
		// One allocation for both copies.
		n := len(raw)
		buf := make([]byte, 2*n)
		frozen, own = buf[:n:n], buf[n:]
		copy(frozen, raw)
		copy(own, raw)
	default:
		frozen = bytes.Clone(raw) // decoding keeps no reference to raw
	}
	args, err := t.decode(own, tree)
	if err != nil {
		return nil, &Error{Kind: ErrInvalidArguments, Tool: t.name, Err: fmt.Errorf("decode arguments: %w", err)}
	}
	return &call{tool: t, raw: frozen, args: args}, nil
}

// call is one prepared invocation of a tool: validated raw arguments and
// their decoded form (see toolcall.Call, whose methods it implements).
type call struct {
	tool *Tool
	raw  json.RawMessage
	args any
}

// Arguments returns a copy of the raw arguments as the model sent them.
func (c *call) Arguments() json.RawMessage { return bytes.Clone(c.raw) }

// Args returns the decoded arguments (of the spec's type A, defaults
// applied): the ones the body receives. Callers must not modify them;
// doing so cannot change the Arguments.
func (c *call) Args() any { return c.args }

// Mode classifies the call with the tool's ExecutionMode; Serial when the
// tool declares none.
func (c *call) Mode() Mode {
	if c.tool.mode == nil {
		return Serial
	}
	return c.tool.mode(c.args)
}

// Execute runs the tool body with ctx and returns its canonical value. A
// panic in the body is recovered and returned as an error. Timeouts are not
// enforced here.
func (c *call) Execute(ctx context.Context, e Exec) (v any, err error) {
	if e.Arguments == nil {
		e.Arguments = c.Arguments()
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("tool %q: panic: %v", c.tool.name, r)
		}
	}()
	return c.tool.execute(ctx, c.args, &e)
}

// Render turns a canonical value into content with the tool's output
// declaration.
func (c *call) Render(value any) ([]Part, error) {
	return c.tool.render(c.args, value)
}

// DeferRender is Render for a caller that may never need the content, such
// as a program's subcall whose content nobody reads: ok is false when the
// tool declares its own Render, ProjectContent or FinalizeContent (call
// those). Otherwise the content is the default rendering of value, and
// DeferRender fails exactly when Render would; it returns the content when
// it costs nothing (a string), else the value as JSON, whose content
// DeferredContent makes later, identical to Render's.
func (c *call) DeferRender(value any) (content []Part, raw json.RawMessage, ok bool, err error) {
	if c.tool.deferRender == nil {
		return nil, nil, false, nil
	}
	content, raw, err = c.tool.deferRender(value)
	return content, raw, true, err
}

// DeferredContent is the content of the value DeferRender returned as raw
// JSON: one text part, laid out.
func (c *call) DeferredContent(raw json.RawMessage) []Part { return renderJSON(raw) }

// ProjectContent returns the tool's execution-prepared content for value and
// true, or nil and false when the tool declares no ProjectContent.
func (c *call) ProjectContent(value any) ([]Part, bool, error) {
	if c.tool.project == nil {
		return nil, false, nil
	}
	p, err := c.tool.project(c.args, value)
	return p, err == nil, err
}

// FinalizeContent applies the tool's final content transform; without one it
// returns content unchanged.
func (c *call) FinalizeContent(content []Part) []Part {
	if c.tool.finalize == nil {
		return content
	}
	return c.tool.finalize(c.args, content)
}

// PresentCall returns the tool's call presentation descriptor and true, or
// nil and false when the tool declares none.
func (c *call) PresentCall() (any, bool) {
	if c.tool.presentCall == nil {
		return nil, false
	}
	return c.tool.presentCall(c.args), true
}

// PresentResult returns the tool's result presentation descriptor and true,
// or nil and false when the tool declares none.
func (c *call) PresentResult(value any, content []Part) (any, bool, error) {
	if c.tool.presentResult == nil {
		return nil, false, nil
	}
	d, err := c.tool.presentResult(c.args, value, content)
	return d, err == nil, err
}
