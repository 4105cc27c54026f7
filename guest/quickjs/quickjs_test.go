package quickjs

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"
)

// TestFiles_digests holds the committed guest to the digests recorded
// beside it: make guest writes both, and a change to one alone is a
// mistake (make guest-check compares both with a rebuild).
func TestFiles_digests(t *testing.T) {
	for _, name := range []string{"ptc-quickjs.wasm", "intl.js"} {
		b, err := fs.ReadFile(Files(), name)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := fs.ReadFile(Files(), name+".sha256")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(rec))
		if len(f) != 2 || f[1] != name {
			t.Fatalf("%s.sha256 = %q, want sha256sum's line for %s", name, rec, name)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != f[0] {
			t.Errorf("%s: sha256 %s, recorded %s: run make guest and commit both", name, got, f[0])
		}
	}
}
