package pipeline

import (
	"context"
	"fmt"
	"time"
)

// TimeoutPolicy returns the execute wrapper that enforces a tool's declared
// TimeoutMs ([registry.Spec.TimeoutMs]): the body's context is cancelled
// when the deadline passes, and the call fails with TOOL_TIMEOUT (even
// if the body, ignoring its context, still returned a value). Tools that
// declare no timeout pass through. Install it with [Pipeline.Wrap].
func TimeoutPolicy() Wrapper {
	return func(ctx context.Context, inv *Invocation, next func(context.Context) (any, error)) (any, error) {
		ms := 0
		if inv.tool != nil {
			ms = inv.tool.TimeoutMs()
		}
		if ms <= 0 {
			return next(ctx)
		}
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
}
