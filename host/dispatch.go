package host

import (
	"context"
	"encoding/json"
)

// Dispatcher serves a program's subcalls. Dispatch is called for each
// subcall with a context that is cancelled when the run ends; it must
// honour that context and return. A call runs on a goroutine of its own,
// except that a call the program waits for while no other is outstanding
// (the common sequential await) is served on the goroutine running the
// program, which is blocked on it anyway. Dispatch may be called
// concurrently, up to the run's in-flight limit, and calls may reach it in
// any order: Call.Seq gives the order the program issued them. Every call
// the program started reaches Dispatch (unless the executor's replay
// answered it from a recording): one whose run ended while it waited for
// an in-flight slot comes at once, with its cancelled context.
type Dispatcher interface {
	Dispatch(ctx context.Context, call Call) Reply
}

// dispatcherFunc adapts a function to a Dispatcher.
type dispatcherFunc func(ctx context.Context, call Call) Reply

// Dispatch calls f.
func (f dispatcherFunc) Dispatch(ctx context.Context, call Call) Reply {
	return f(ctx, call)
}

// Call is one subcall as the program issued it.
type Call struct {
	// Seq numbers the run's subcalls from 1, without gaps, in the order
	// the program started them. (Only a hostile guest's call with
	// arguments that are not JSON is failed by the host unnumbered.)
	Seq int
	// Name is the tool name the program called, made valid UTF-8 and cut
	// to 256 bytes (at a character boundary, with "…" appended).
	Name string
	// Args are the call's arguments: valid JSON, as the program's
	// JSON.stringify produced them.
	Args json.RawMessage
}

// Reply is the result of one subcall: a JSON value on success, or an error
// with a code (a pipeline error code, for instance) and a message. The
// program sees a failed reply as a rejected promise with a ToolError.
type Reply struct {
	// Value is the canonical result as JSON; empty means null.
	Value json.RawMessage
	// Err, when set, fails the subcall.
	Err *CallError
}

// CallError is a failed subcall as the program sees it: the rejection's
// ToolError carries both fields.
type CallError struct {
	// Code is the machine-readable code, a pipeline error code for
	// instance (ToolError.code).
	Code string
	// Message is the human-readable reason (ToolError.message).
	Message string
}

// Error implements error.
func (e *CallError) Error() string { return e.Code + ": " + e.Message }

// noTools is the dispatcher used when a run has none.
var noTools = dispatcherFunc(func(_ context.Context, call Call) Reply {
	return Reply{Err: &CallError{Code: "UNKNOWN_TOOL", Message: "unknown tool: " + call.Name}}
})

// envelope encodes a reply as the guest's settle function expects it: a
// value up to limit bytes of JSON, an error message cut at errLimit bytes.
func envelope(r Reply, limit, errLimit int) []byte {
	if r.Err == nil {
		v := r.Value
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		if len(v) > limit {
			return errEnvelope("TOOL_FAILED", "tool result is "+itoa(len(v))+" bytes, over the "+itoa(limit)+"-byte limit")
		}
		if !json.Valid(v) {
			return errEnvelope("TOOL_FAILED", "tool result is not valid JSON")
		}
		b := make([]byte, 0, len(v)+20)
		b = append(b, `{"ok":true,"value":`...)
		b = append(b, v...)
		return append(b, '}')
	}
	return errEnvelope(r.Err.Code, cutError(r.Err.Message, errLimit))
}

func errEnvelope(code, msg string) []byte {
	b, _ := json.Marshal(struct {
		OK      bool   `json:"ok"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}{false, code, msg})
	return b
}
