package recording

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Divergence is where a replay stopped doing what was recorded.
type Divergence struct {
	// Call is the first divergent call's number (ptc.Subcall.N); 0 when the
	// calls matched and the rest did not.
	Call int
	// Expected is the recorded call (nil when the program made a call the
	// recording does not have), Actual the program's (nil when the program
	// never made the recorded call).
	Expected, Actual *CallDesc
	// Reason says what diverged.
	Reason string
	// Diff shows the recorded and the replayed content (or declarations)
	// line by line: "-" recorded, "+" replayed.
	Diff string
}

// CallDesc is a call as a divergence shows it.
type CallDesc struct {
	Tool      string
	Arguments json.RawMessage
}

// String returns the call as the program wrote it: tools.NAME(ARGS).
func (c *CallDesc) String() string { return "tools." + c.Tool + "(" + string(c.Arguments) + ")" }

// String describes the divergence in a few lines.
func (d *Divergence) String() string {
	var b strings.Builder
	if d.Call > 0 {
		fmt.Fprintf(&b, "call %d: %s\n", d.Call, d.Reason)
		if d.Expected != nil {
			fmt.Fprintf(&b, "  recorded: %s\n", d.Expected)
		} else {
			b.WriteString("  recorded: (no such call)\n")
		}
		if d.Actual != nil {
			fmt.Fprintf(&b, "  replayed: %s\n", d.Actual)
		} else {
			b.WriteString("  replayed: (the program never made it)\n")
		}
	} else {
		b.WriteString(d.Reason + "\n")
	}
	if d.Diff != "" {
		b.WriteString(d.Diff)
	}
	return b.String()
}

// PendingAsk is the call whose ask suspended a run.
type PendingAsk struct {
	// Call is the call's number in the program (ptc.Subcall.N).
	Call int `json:"call"`
	// Tool and Arguments are the call.
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	// Question is the policy's reason for asking.
	Question string `json:"question"`
}
