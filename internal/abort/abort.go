package abort

import (
	"context"
	"errors"
	"time"
)

// ErrShutdown is the cancellation cause that ends a run because its host
// or executor shut down; the root package exports it as ptc.ErrShutdown.
var ErrShutdown = errors.New("the executor shut down")

// The messages of an aborted run: the caller's deadline or cancellation,
// or a shutdown, is never attributed to the program's own time limit.
const (
	Deadline   = "the caller's deadline passed"
	Cancelled  = "cancelled by the caller"
	Shutdown   = "the executor shut down"
	NotStarted = "cancelled before it started"
)

// Message says why ctx ended, for a run that started or not.
func Message(ctx context.Context, started bool) string {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, ErrShutdown):
		return Shutdown
	case !started:
		return NotStarted
	case errors.Is(cause, context.DeadlineExceeded):
		return Deadline
	default:
		return Cancelled
	}
}

// Cause is why ctx ended: its cause, or DeadlineExceeded once its deadline
// passed (the host stops a run at the caller's deadline by its own timer,
// which may fire before the context's); nil while it runs on.
func Cause(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}
