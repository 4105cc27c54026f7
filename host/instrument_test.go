package host

import (
	"testing"

	"github.com/ptchost/ptc/guest/quickjs"
)

// The real guest is instrumented as RATIONALE.md describes: its loops,
// a feedback vertex set of its call graph, and JS_CallInternal left to
// QuickJS's own interrupt counter (a rename upstream would silently cost
// speed, so it is checked here).
func TestInstrument_guest(t *testing.T) {
	wasm, err := quickjs.Wasm()
	if err != nil {
		t.Skip(err)
	}
	_, st, err := instrument(wasm)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", st)
	if st.Polling != 1 {
		t.Errorf("JS_CallInternal not found (Polling = %d): is the name section still in the guest?", st.Polling)
	}
	if st.Loops < 1000 || st.Entries == 0 {
		t.Errorf("too few checks: %+v", st)
	}
}
