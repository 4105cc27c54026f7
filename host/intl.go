package host

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The Intl bundle (guest/quickjs/intl, pack.go there) is the script, a NUL
// byte, and the locale data pack: one raw-DEFLATE entry per locale and
// constructor, which the guest asks for by number (intlData(k), the
// script import's id scriptCount + k) the first time a program uses that
// locale with that constructor. Nothing of it is in the snapshot, and a
// locale's data is decompressed only when some run asks for it.

const intlMagic = "PTCINTL1"

// errIntlPack reports a malformed pack (a bundle that passed its digest
// check cannot be; this guards the parser all the same).
var errIntlPack = errors.New("intl: malformed locale data pack")

// splitIntl splits a bundle into its script and its pack.
func splitIntl(b []byte) (script, pack []byte) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return b, nil
	}
	return b[:i], b[i+1:]
}

// intlPack reads entries of a pack, keeping the few most recently used
// decompressed (the guest asks for an entry's size and then its bytes).
type intlPack struct {
	data []byte
	n    int

	mu     sync.Mutex
	recent []intlEntry // most recent last
}

type intlEntry struct {
	k    int
	text []byte
}

// intlRecent is how many decompressed entries a pack keeps.
const intlRecent = 8

// maxIntlEntry bounds an entry's decompressed size.
const maxIntlEntry = 64 << 20

func parseIntlPack(b []byte) (*intlPack, error) {
	if len(b) < 12 || string(b[:8]) != intlMagic {
		return nil, errIntlPack
	}
	n := int(binary.LittleEndian.Uint32(b[8:]))
	if n > (len(b)-12)/12 {
		return nil, errIntlPack
	}
	return &intlPack{data: b, n: n}, nil
}

// entry returns the text of entry k: nil when k is out of range or the
// entry is empty.
func (p *intlPack) entry(k int) ([]byte, error) {
	if k < 0 || k >= p.n {
		return nil, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, e := range p.recent {
		if e.k == k {
			p.recent = append(append(p.recent[:i:i], p.recent[i+1:]...), e)
			return e.text, nil
		}
	}
	h := p.data[12+12*k:]
	off, size, raw := binary.LittleEndian.Uint32(h), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:])
	if size == 0 {
		return nil, nil
	}
	if uint64(off)+uint64(size) > uint64(len(p.data)) || raw > maxIntlEntry {
		return nil, errIntlPack
	}
	text := make([]byte, raw)
	r := flate.NewReader(bytes.NewReader(p.data[off : off+size]))
	if _, err := io.ReadFull(r, text); err != nil {
		return nil, fmt.Errorf("%w: entry %d: %w", errIntlPack, k, err)
	}
	if len(p.recent) >= intlRecent {
		p.recent = p.recent[1:]
	}
	p.recent = append(p.recent, intlEntry{k, text})
	return text, nil
}
