package pipeline

import (
	"context"
	"fmt"
	"time"
)

// TimeoutPolicy returns a wrapper that does nothing: every pipeline
// enforces each tool's declared TimeoutMs ([registry.Spec.TimeoutMs], an
// MCP mount's CallTimeout) outside its wrappers — the body's context is
// cancelled when the deadline passes, and the call fails with
// TOOL_TIMEOUT (even if the body, ignoring its context, still returned a
// value). It remains so that code written when the policy had to be
// installed ([Pipeline.Wrap]) keeps compiling and behaving the same.
func TimeoutPolicy() Wrapper {
	return func(ctx context.Context, _ *Invocation, next func(context.Context) (any, error)) (any, error) {
		return next(ctx)
	}
}

// declaredTimeout runs next (the wrappers and the body) within the tool's
// declared timeout of ms milliseconds.
func declaredTimeout(ctx context.Context, inv *Invocation, ms int, next func(context.Context) (any, error)) (any, error) {
	d := time.Duration(ms) * time.Millisecond
	tctx, cancel := context.WithTimeoutCause(ctx, d, ErrToolTimeout)
	defer cancel()
	v, err := next(tctx)
	// The cause is ErrToolTimeout only if the deadline passed before the
	// caller's context was done: then the timeout owns the outcome, even
	// if the caller cancelled afterwards.
	if context.Cause(tctx) == ErrToolTimeout {
		return nil, &Error{Code: codeToolTimeout, Tool: inv.Name(),
			Reason: fmt.Sprintf("tool %q timed out after %v", inv.Name(), d),
			Err:    ErrToolTimeout}
	}
	return v, err
}
