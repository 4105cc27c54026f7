package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// artifacts keeps what New derives from the guest on every start, the
// bytecode of the guest's scripts (and of the Intl bundle on first use)
// and the snapshot of the initialised guest, in the compilation cache's
// directory, so that a later process reads it
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
	if a.dir == "" || key == "" {
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
		return
	}
	a.prune(key)
}

// keepPerKind bounds the artifacts of one kind: keys that hold a build ID
// change with every build of the program, and nothing else removes the
// files of older builds.
const keepPerKind = 4

// prune removes the oldest artifacts of key's kind beyond keepPerKind. A
// process still using one it removed has read it already; a later one
// derives it again.
func (a artifacts) prune(key string) {
	kind := key[:strings.LastIndexByte(key, '-')+1] // "ptc-<kind>-"
	names, err := filepath.Glob(filepath.Join(a.dir, kind+"*.bin"))
	if err != nil || len(names) <= keepPerKind {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	files := make([]file, 0, len(names))
	for _, n := range names {
		if st, err := os.Stat(n); err == nil {
			files = append(files, file{n, st.ModTime()})
		}
	}
	slices.SortFunc(files, func(x, y file) int { return y.mod.Compare(x.mod) })
	for _, f := range files[min(keepPerKind, len(files)):] {
		if filepath.Base(f.name) != key {
			_ = os.Remove(f.name)
		}
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

// snapshotCached is takeSnapshot through the artifacts, which keep the
// chunks where the snapshot differs from h.fresh (about a tenth of it;
// most of memory is the zeroed stack). What ptc_init gets from the host is
// this program's code, so the key holds its build ID (see
// instrumentCached) with the guest and the scripts' bytecode.
func (h *Host) snapshotCached(ctx context.Context) (*image, error) {
	code := h.scripts.code
	id := h.exeID
	key := artifactKey("snapshot", []byte(id), h.guestSum[:], code[scriptBootstrap], code[scriptInspect], code[scriptWeb])
	if id == "" || h.artifacts.dir == "" {
		key = "" // not kept
	}
	h.baseKey = key
	if b, ok := h.artifacts.load(key); ok {
		if img, ok := decodeImage(h.fresh, b); ok {
			return img, nil
		}
	}
	snap, err := h.takeSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	img := newImage(h.fresh, snap)
	if h.artifacts.dir != "" && key != "" {
		h.artifacts.store(key, encodeImage(img))
	}
	return img, nil
}

// preludeImageCached is buildPreludeImage through the artifacts: the
// image after a prelude (the generated SDK of a tool set) derives from the
// base image and the prelude's source only, so a later process with the
// same tools starts from it instead of evaluating the prelude again (about
// a tenth of a cold start). The image that also holds the Intl pack is
// not kept: it is large, and only a program using Intl pays for it.
func (h *Host) preludeImageCached(ctx context.Context, src string) (*image, error) {
	key := ""
	if h.baseKey != "" && !strings.HasSuffix(src, intlWarmup) {
		key = artifactKey("prelude", []byte(h.baseKey), []byte(src))
	}
	if b, ok := h.artifacts.load(key); ok {
		if img, ok := decodeImage(h.fresh, b); ok {
			return img, nil
		}
	}
	img, err := h.buildPreludeImage(ctx, src)
	if err == nil && key != "" {
		h.artifacts.store(key, encodeImage(img))
	}
	return img, err
}

// encodeImage frames an image's size, its chunks' bounds and their bytes.
func encodeImage(img *image) []byte {
	bounds := binary.LittleEndian.AppendUint64(nil, uint64(img.size))
	for _, c := range img.chunks {
		bounds = binary.LittleEndian.AppendUint32(bounds, c.off)
		bounds = binary.LittleEndian.AppendUint32(bounds, c.end)
	}
	return frame([][]byte{bounds, img.data})
}

// decodeImage rebuilds an image from fresh and encodeImage's framing,
// checking every bound. The image keeps b's chunk bytes; its whole memory
// is made from fresh on first use.
func decodeImage(fresh, b []byte) (*image, bool) {
	parts, ok := unframe(b, 2)
	if !ok || len(parts[0]) < 8 || (len(parts[0])-8)%8 != 0 {
		return nil, false
	}
	bounds, data := parts[0], parts[1]
	size := binary.LittleEndian.Uint64(bounds)
	// ptc_init grows memory by a few hundred KiB: a larger size is damage.
	if size < uint64(len(fresh)) || size > uint64(len(fresh))+64<<20 || size%(64<<10) != 0 {
		return nil, false
	}
	chunks := make([]chunk, 0, (len(bounds)-8)/8)
	rest := data
	for i := 8; i < len(bounds); i += 8 {
		c := chunk{binary.LittleEndian.Uint32(bounds[i:]), binary.LittleEndian.Uint32(bounds[i+4:])}
		n := int(c.end) - int(c.off)
		if c.off > c.end || uint64(c.end) > size || n > len(rest) {
			return nil, false
		}
		rest = rest[n:]
		chunks = append(chunks, c)
	}
	if len(rest) != 0 {
		return nil, false
	}
	img := &image{size: uint32(size), chunks: chunks, data: data}
	img.whole = sync.OnceValue(func() []byte {
		mem := make([]byte, size)
		copy(mem, fresh)
		d := data
		for _, c := range chunks {
			n := copy(mem[c.off:c.end], d)
			d = d[n:]
		}
		return mem
	})
	return img, true
}

// instrumentCached is instrument through the artifacts. The instrumented
// module depends on the guest and on this program's own code (package
// fuel, the options), so its key holds the Go build ID of the running
// executable: any rebuild instruments again. Where that ID cannot be read
// (it is read through /proc/self/exe, the running file even when its path
// now names another), nothing is kept.
func (h *Host) instrumentCached(wasm []byte) ([]byte, error) {
	id := h.exeID
	if h.artifacts.dir == "" || id == "" {
		out, _, err := instrument(wasm)
		return out, err
	}
	key := artifactKey("instrumented", h.guestSum[:], []byte(id))
	if b, ok := h.artifacts.load(key); ok {
		return b, nil
	}
	out, _, err := instrument(wasm)
	if err == nil {
		h.artifacts.store(key, out)
	}
	return out, err
}

// executableID returns the Go build ID of the running executable on
// Linux (the ELF note .note.go.buildid), or "".
func executableID() string {
	f, err := elf.Open("/proc/self/exe")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	b, err := s.Data()
	if err != nil || len(b) < 16 {
		return ""
	}
	namesz, descsz, typ := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	if namesz != 4 || typ != 4 || string(b[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(b)-16) {
		return ""
	}
	return string(b[16 : 16+descsz])
}
