package host

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestImage_encoding: an image read back from its artifact is the image,
// whatever the fresh memory under its chunks.
func TestImage_encoding(t *testing.T) {
	fresh := bytes.Repeat([]byte{7}, 64<<10)
	snap := make([]byte, 128<<10)
	copy(snap, fresh)
	copy(snap[100:], "changed")
	copy(snap[70000:], "grown")
	img := newImage(fresh, snap)
	got, ok := decodeImage(fresh, encodeImage(img))
	if !ok || !bytes.Equal(got.whole(), snap) || got.size != img.size || len(got.chunks) != len(img.chunks) || !bytes.Equal(got.data, img.data) {
		t.Fatalf("decoded %v, chunks %v, want %v", ok, got, img.chunks)
	}
	enc := encodeImage(img)
	for _, bad := range [][]byte{nil, enc[:len(enc)-1], append(bytes.Clone(enc), 0)} {
		if _, ok := decodeImage(fresh, bad); ok {
			t.Fatalf("decoded a damaged artifact of %d bytes", len(bad))
		}
	}
}

// FuzzDecodeImage: no input panics decodeImage, and what it accepts has
// the size it says and the fresh memory outside its chunks.
func FuzzDecodeImage(f *testing.F) {
	fresh := bytes.Repeat([]byte{7}, 64<<10)
	snap := append(bytes.Clone(fresh), make([]byte, 64<<10)...)
	snap[5] = 1
	f.Add(encodeImage(newImage(fresh, snap)))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		img, ok := decodeImage(fresh, b)
		if !ok {
			return
		}
		if int(img.size) < len(fresh) || img.size%(64<<10) != 0 {
			t.Fatalf("size %d", img.size)
		}
		n := 0
		for _, c := range img.chunks {
			if c.off > c.end || c.end > img.size {
				t.Fatalf("chunk %v out of %d bytes", c, img.size)
			}
			n += int(c.end - c.off)
		}
		if n != len(img.data) {
			t.Fatalf("%d bytes of chunks, %d of data", n, len(img.data))
		}
		if m := img.whole(); len(m) != int(img.size) {
			t.Fatalf("whole memory of %d bytes, size %d", len(m), img.size)
		}
	})
}

// TestExecutableID: the running test binary has a Go build ID (on Linux),
// the key of the instrumented guest kept beside the compilation cache.
func TestExecutableID(t *testing.T) {
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		t.Skip("no /proc/self/exe")
	}
	id := executableID()
	if len(id) < 20 || !strings.Contains(id, "/") {
		t.Fatalf("executableID() = %q, want a Go build ID", id)
	}
}

// TestArtifacts_prune: storing an artifact keeps the newest keepPerKind of
// its kind (and always itself), and leaves other kinds alone.
func TestArtifacts_prune(t *testing.T) {
	a := artifacts{dir: t.TempDir()}
	a.store(artifactKey("other", []byte("x")), []byte("other"))
	var keys []string
	for i := range keepPerKind + 3 {
		k := artifactKey("instrumented", []byte{byte(i)})
		keys = append(keys, k)
		a.store(k, []byte{byte(i)})
		old := time.Now().Add(time.Duration(i-100) * time.Minute) // older first
		if err := os.Chtimes(filepath.Join(a.dir, k), old, old); err != nil {
			t.Fatal(err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(a.dir, "ptc-instrumented-*.bin"))
	if len(left) != keepPerKind {
		t.Fatalf("%d instrumented artifacts left, want %d", len(left), keepPerKind)
	}
	if _, ok := a.load(keys[len(keys)-1]); !ok {
		t.Fatal("the newest artifact was removed")
	}
	if _, ok := a.load(keys[0]); ok {
		t.Fatal("the oldest artifact was kept")
	}
	if _, ok := a.load(artifactKey("other", []byte("x"))); !ok {
		t.Fatal("an artifact of another kind was removed")
	}
}
