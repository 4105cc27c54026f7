// Package toolcall is the seam through which package pipeline runs the
// tools of package registry: the execution side of a compiled tool and the
// prepared call it makes, which are the pipeline's machinery rather than
// part of the registry's public API.
//
// Package registry implements both interfaces and hands them out only
// through [github.com/ptchost/ptc/registry.Registry.Executable], the
// execution lookup. Since registry imports this package, this package
// cannot import registry: the type parameters stand for registry's own
// types, and are always instantiated with them (package pipeline names the
// instances once):
//
//   - T is *registry.Tool, the public handle of the tool;
//   - P is registry.Part, a piece of content;
//   - E is registry.Exec, what a tool body receives besides its arguments;
//   - M is registry.Mode, a call's execution mode.
package toolcall

import (
	"context"
	"encoding/json"
)

// Tool is the execution side of a compiled tool, as the execution lookup
// admitted it. Two lookups that admit the same registration return equal
// values.
type Tool[T, P, E, M any] interface {
	// Tool returns the tool's public handle.
	Tool() T
	// TimeoutMs returns the declared timeout in milliseconds (0: none).
	// The registry never enforces it.
	TimeoutMs() int
	// HasPresentation reports whether the tool declares PresentCall or
	// PresentResult.
	HasPresentation() bool
	// Prepare validates raw arguments, rejecting malformed JSON, duplicate
	// object keys and schema violations, then applies defaults and decodes
	// them into the tool's argument type. The error is a *registry.Error
	// of kind registry.ErrInvalidArguments; Prepare never panics on any
	// input.
	//
	// The call owns its arguments: it keeps a frozen copy of raw (what
	// [Call.Arguments] returns), and a tool whose arguments stay raw JSON
	// gets a second copy of its own, so neither the caller changing raw
	// afterwards nor anyone changing [Call.Args] changes what the call
	// records.
	Prepare(raw json.RawMessage) (Call[P, E, M], error)
	// ValidateOutput checks a value the tool returned against its declared
	// output schema: the value as JSON (a json.RawMessage as is, anything
	// else encoded with encoding/json) must match it. Without an output
	// schema every value passes, at no cost. The error is a
	// *registry.Error of kind registry.ErrInvalidOutput naming each
	// violation's path and what was expected there.
	ValidateOutput(value any) error
}

// Call is one prepared invocation of a tool: validated raw arguments and
// their decoded form. It is what the pipeline carries through its stages.
type Call[P, E, M any] interface {
	// Arguments returns a copy of the raw arguments as the model sent them.
	Arguments() json.RawMessage
	// Args returns the decoded arguments (of the spec's type A, defaults
	// applied): the ones the body receives. Callers must not modify them;
	// doing so cannot change Arguments.
	Args() any
	// Mode classifies the call with the tool's ExecutionMode; Serial when
	// the tool declares none.
	Mode() M
	// Execute runs the tool body with ctx and returns its canonical value.
	// A panic in the body is recovered and returned as an error. Timeouts
	// are not enforced here. When exec has no Arguments, the body receives
	// a copy of the call's own.
	Execute(ctx context.Context, exec E) (any, error)
	// Render turns a canonical value into content with the tool's output
	// declaration.
	Render(value any) ([]P, error)
	// DeferRender is Render for a caller that may never need the content,
	// such as a program's subcall whose content nobody reads: ok is false
	// when the tool declares its own Render, ProjectContent or
	// FinalizeContent (call those). Otherwise the content is the default
	// rendering of value, and DeferRender fails exactly when Render would;
	// it returns the content when it costs nothing (a string), else the
	// value as JSON, whose content DeferredContent makes later, identical
	// to Render's.
	DeferRender(value any) (content []P, raw json.RawMessage, ok bool, err error)
	// DeferredContent is the content of the value DeferRender returned as
	// raw JSON: one text part, laid out.
	DeferredContent(raw json.RawMessage) []P
	// ProjectContent returns the tool's execution-prepared content for
	// value and true, or nil and false when the tool declares no
	// ProjectContent.
	ProjectContent(value any) ([]P, bool, error)
	// FinalizeContent applies the tool's final content transform; without
	// one it returns content unchanged.
	FinalizeContent(content []P) []P
	// PresentCall returns the tool's call presentation descriptor and
	// true, or nil and false when the tool declares none.
	PresentCall() (any, bool)
	// PresentResult returns the tool's result presentation descriptor and
	// true, or nil and false when the tool declares none.
	PresentResult(value any, content []P) (any, bool, error)
}
