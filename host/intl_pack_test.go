package host

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"testing"
)

// makePack builds a pack (intl.go) of the given entry texts; an empty
// text is an empty entry.
func makePack(t testing.TB, texts ...string) []byte {
	t.Helper()
	head := make([]byte, 12+12*len(texts))
	copy(head, intlMagic)
	binary.LittleEndian.PutUint32(head[8:], uint32(len(texts)))
	var body bytes.Buffer
	for i, s := range texts {
		if s == "" {
			continue
		}
		off := len(head) + body.Len()
		w, err := flate.NewWriter(&body, flate.BestSpeed)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(s))
		_ = w.Close()
		e := head[12+12*i:]
		binary.LittleEndian.PutUint32(e, uint32(off))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(head)+body.Len()-off))
		binary.LittleEndian.PutUint32(e[8:], uint32(len(s)))
	}
	return append(head, body.Bytes()...)
}

func TestIntlPack(t *testing.T) {
	texts := []string{`{"locale":"en"}`, "", `{"locale":"ru"}`, `{"a":1}`, `{"b":2}`, `{"c":3}`, `{"d":4}`, `{"e":5}`, `{"f":6}`, `{"g":7}`, `{"h":8}`}
	p, err := parseIntlPack(makePack(t, texts...))
	if err != nil {
		t.Fatal(err)
	}
	// Twice over, so that entries leave the recent list and come back.
	for range 2 {
		for k := -2; k < len(texts)+2; k++ {
			got, err := p.entry(k)
			if err != nil {
				t.Fatalf("entry %d: %v", k, err)
			}
			want := ""
			if k >= 0 && k < len(texts) {
				want = texts[k]
			}
			if string(got) != want {
				t.Errorf("entry %d = %q, want %q", k, got, want)
			}
		}
	}
	if len(p.recent) > intlRecent {
		t.Errorf("%d entries kept, want at most %d", len(p.recent), intlRecent)
	}
}

func TestIntlPack_malformed(t *testing.T) {
	good := makePack(t, `{"locale":"en"}`)
	for name, b := range map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("PTCINTL0"), good[8:]...),
		"count":     binary.LittleEndian.AppendUint32([]byte(intlMagic), 1000),
		"truncated": good[:20],
	} {
		if _, err := parseIntlPack(b); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	// An entry pointing past the pack, or whose data is not DEFLATE.
	bad := bytes.Clone(good)
	binary.LittleEndian.PutUint32(bad[12:], 1<<30)
	p, err := parseIntlPack(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.entry(0); err == nil {
		t.Error("entry past the pack: no error")
	}
	bad = bytes.Clone(good)
	binary.LittleEndian.PutUint32(bad[20:], 1<<20) // raw size larger than the data
	p, _ = parseIntlPack(bad)
	if _, err := p.entry(0); err == nil {
		t.Error("short entry: no error")
	}
}

// FuzzIntlPack: any bytes, any entry number; never a panic.
func FuzzIntlPack(f *testing.F) {
	f.Add(makePack(f, `{"locale":"en"}`, "", `{}`), 0)
	f.Add(makePack(f, `x`), 5)
	f.Add([]byte(intlMagic+"\x01\x00\x00\x00\x0c\x00\x00\x00\xff\xff\xff\xff\x10\x00\x00\x00"), 0)
	f.Fuzz(func(t *testing.T, b []byte, k int) {
		p, err := parseIntlPack(b)
		if err != nil {
			return
		}
		_, _ = p.entry(k)
		_, _ = p.entry(k)
	})
}

// TestIntl_scriptIDs asks the host for scripts by every kind of id a
// guest can pass: the scripts, the locale data entries, and ids past
// them or negative, which have nothing.
func TestIntl_scriptIDs(t *testing.T) {
	h := newIntlHost(t)
	if h.script(scriptIntl) == nil {
		t.Fatal("no Intl bundle")
	}
	for _, id := range []int32{-1, -1 << 31, 1<<31 - 1, scriptCount + 1<<20} {
		if b := h.script(id); b != nil {
			t.Errorf("script(%d) = %d bytes, want none", id, len(b))
		}
	}
	n := h.scripts.intlPack.n
	found, tried := 0, 0
	for k := 0; k < n; k += 7 { // a sample: all of them is 70 MB of JSON
		tried++
		if b := h.script(int32(scriptCount + k)); b != nil {
			found++
			if b[0] != '{' {
				t.Fatalf("entry %d does not start as JSON: %.20q", k, b)
			}
		}
	}
	if found < tried/2 {
		t.Errorf("%d of %d entries have data", found, tried)
	}
}
