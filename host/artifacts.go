package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
)

// artifacts keeps what New derives from the guest on every start, the
// bytecode of the guest's scripts (and of the Intl bundle on first use),
// in the compilation cache's directory, so that a later process reads it
// instead of compiling it again (about 85 of New's 165 ms with a warm
// compilation cache). A file is named by the sha256 of everything
// it derives from, and ends with the sha256 of its contents: a file that
// does not match is ignored and written again. They are trusted as
// wazero's own cache beside them is, which holds machine code.
type artifacts struct {
	dir string // "" when there is no cache directory
}

// key names the artifact derived from parts.
func artifactKey(kind string, parts ...[]byte) string {
	h := sha256.New()
	h.Write([]byte(kind))
	for _, p := range parts {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	return "ptc-" + kind + "-" + hex.EncodeToString(h.Sum(nil)[:16]) + ".bin"
}

// load returns the artifact key names, when it is there and whole.
func (a artifacts) load(key string) ([]byte, bool) {
	if a.dir == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(a.dir, key))
	if err != nil || len(b) < sha256.Size {
		return nil, false
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return body, true
}

// store writes the artifact key names; failures only cost the next start
// the work again.
func (a artifacts) store(key string, body []byte) {
	if a.dir == "" {
		return
	}
	if err := os.MkdirAll(a.dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(a.dir, key+".*.tmp")
	if err != nil {
		return
	}
	sum := sha256.Sum256(body)
	_, werr := f.Write(append(bytes.Clone(body), sum[:]...))
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(a.dir, key)) != nil {
		_ = os.Remove(f.Name())
	}
}

// frame joins byte strings into one artifact and unframe splits it.
func frame(parts [][]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
		b = append(b, p...)
	}
	return b
}

func unframe(b []byte, n int) ([][]byte, bool) {
	out := make([][]byte, 0, n)
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, false
		}
		l := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(l) > uint64(len(b)) {
			return nil, false
		}
		out = append(out, b[:l])
		b = b[l:]
	}
	return out, len(out) == n
}

// compileCached is compile, through the artifacts: the bytecode depends on
// the guest module and the sources only.
func (h *Host) compileCached(ctx context.Context, srcs ...[]byte) ([][]byte, error) {
	key := artifactKey("bytecode", append([][]byte{h.guestSum[:]}, srcs...)...)
	if b, ok := h.artifacts.load(key); ok {
		if codes, ok := unframe(b, len(srcs)); ok {
			return codes, nil
		}
	}
	codes, err := h.compile(ctx, srcs...)
	if err != nil {
		return nil, err
	}
	h.artifacts.store(key, frame(codes))
	return codes, nil
}
