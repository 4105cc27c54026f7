package host

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ptchost/ptc/internal/jsonindent"
)

// Kind classifies how a run ended. The failure kinds are the KIND strings
// docs/ARCHITECTURE.md fixes for the model-facing content.
type Kind string

// The kinds of run outcome.
const (
	KindOK           Kind = "ok"
	KindSyntax       Kind = "syntax"
	KindException    Kind = "exception"
	KindTimeout      Kind = "timeout"
	KindMemory       Kind = "memory"
	KindAborted      Kind = "aborted"
	KindOutputLimit  Kind = "output_limit"
	KindSubcallLimit Kind = "subcall_limit"
	KindInternal     Kind = "internal"
	// KindSuspended is the kind of a run its executor suspended for an
	// approval: never Run's own, never shown to the model.
	KindSuspended Kind = "suspended"
)

// truncationMarker is the line appended to captured output cut at the limit.
const truncationMarker = "[output truncated]"

// Outcome is the structured result of one run.
type Outcome struct {
	// Kind is KindOK on success, else the failure kind.
	Kind Kind
	// Message describes the failure; empty on success.
	Message string
	// Stack is the JS stack of an exception, when there is one.
	Stack string
	// Output holds the captured console lines in call order.
	Output []string
	// ReturnValue is the program's return value as compact JSON, or nil
	// when the program returned undefined (or failed). A value JSON
	// cannot hold as it is (a Map, a BigInt, a cycle) is converted as
	// docs/ARCHITECTURE.md says, and ReturnText holds how the model sees it.
	ReturnValue json.RawMessage
	// ReturnText is Node's util.inspect of a return value JSON does not
	// represent as it is, without elision; empty otherwise.
	ReturnText string
	// Subcalls counts the subcalls the program started.
	Subcalls int
	// Received lists, by Call.Seq and in order, the subcalls whose results
	// (values or errors) the program received before the run ended; a call
	// the program never awaited, or that was still running at the end, is
	// not in it.
	Received []int
	// MemoryBytes is the peak size of the guest's linear memory.
	MemoryBytes uint64
	// Duration is the wall time of the run, instantiation included.
	Duration time.Duration
	// Parks counts the times the run parked while it waited for its
	// subcalls (Config.ParkAfter).
	Parks int

	// resultBytes bounds the rendered return value in Text.
	resultBytes int
}

// OK reports whether the program succeeded.
func (o *Outcome) OK() bool { return o.Kind == KindOK }

// Text renders the outcome as the model sees it (docs/ARCHITECTURE.md, "What the model
// sees"): on success the printed lines and then the return value (a string
// as is, anything else as JSON indented by two spaces), or a fixed line when
// both are empty; on failure "Error: code run failed (KIND): MESSAGE" and,
// when lines were printed, a blank line, "Captured output:" and the lines.
func (o *Outcome) Text() string {
	var b strings.Builder
	if o.Kind != KindOK {
		b.WriteString("Error: code run failed (")
		b.WriteString(string(o.Kind))
		b.WriteString("): ")
		b.WriteString(o.Message)
		if len(o.Output) > 0 {
			b.WriteString("\n\nCaptured output:")
			for _, l := range o.Output {
				b.WriteByte('\n')
				b.WriteString(l)
			}
		}
		return b.String()
	}
	for i, l := range o.Output {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	if rv := o.displayValue(); rv != "" || o.ReturnValue != nil {
		if len(o.Output) > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(rv)
	}
	if b.Len() == 0 {
		return "(run_code completed with no output)"
	}
	return b.String()
}

// displayValue is the return value as the model sees it, cut at the
// run's ResultBytes (docs/ARCHITECTURE.md: the run still succeeds).
func (o *Outcome) displayValue() string {
	s := o.renderValue()
	if o.resultBytes <= 0 || len(s) <= o.resultBytes {
		return s
	}
	cut := o.resultBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n[return value truncated: " + strconv.Itoa(len(s)-cut) + " more bytes]"
}

func (o *Outcome) renderValue() string {
	if o.ReturnText != "" {
		return o.ReturnText
	}
	if o.ReturnValue == nil {
		return ""
	}
	if len(o.ReturnValue) > 0 && o.ReturnValue[0] == '"' {
		var s string
		if err := json.Unmarshal(o.ReturnValue, &s); err == nil {
			return s
		}
	}
	b, err := jsonindent.Layout(o.ReturnValue)
	if err != nil {
		return string(o.ReturnValue)
	}
	return string(b)
}
