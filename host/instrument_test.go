package host

import (
	"testing"

	"github.com/ptchost/ptc/guest/quickjs"
)

// BenchmarkInstrument is the fuel instrumentation of the QuickJS guest, part
// of every host.New (cold start).
func BenchmarkInstrument(b *testing.B) {
	g, err := quickjs.Find("")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, _, err := instrument(g.Wasm); err != nil {
			b.Fatal(err)
		}
	}
}
