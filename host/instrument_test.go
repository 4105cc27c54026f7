package host

import (
	"testing"

	"github.com/ptchost/ptc/internal/guestfile"
)

// BenchmarkInstrument is the fuel instrumentation of the QuickJS guest, part
// of every host.New (cold start).
func BenchmarkInstrument(b *testing.B) {
	g, err := guestfile.Find("")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, _, err := instrument(g.Wasm); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInstrument_followsStack: the QuickJS guest's stack is followed (its
// layout passes fuel's checks), so a recycled instance's reset copies back
// only the stack a run used.
func TestInstrument_followsStack(t *testing.T) {
	g, err := guestfile.Find("")
	if err != nil {
		t.Skip(err)
	}
	_, st, err := instrument(g.Wasm)
	if err != nil {
		t.Fatal(err)
	}
	if st.StackWrites < 1000 {
		t.Fatalf("%d stack pointer writes followed; the guest's stack is not followed", st.StackWrites)
	}
}
