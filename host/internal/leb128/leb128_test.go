package leb128

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// TestAppend checks the encoders against the WebAssembly spec's examples
// and, for unsigned values, against encoding/binary's uvarint (the same
// encoding).
func TestAppend(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want []byte
	}{
		{0, []byte{0x00}},
		{2, []byte{0x02}},
		{-2, []byte{0x7e}},
		{63, []byte{0x3f}},
		{64, []byte{0xc0, 0x00}},
		{-64, []byte{0x40}},
		{-65, []byte{0xbf, 0x7f}},
		{127, []byte{0xff, 0x00}},
		{-128, []byte{0x80, 0x7f}},
		{624485, []byte{0xe5, 0x8e, 0x26}},
		{-123456, []byte{0xc0, 0xbb, 0x78}},
	} {
		if got := AppendSigned(nil, c.v); !bytes.Equal(got, c.want) {
			t.Errorf("AppendSigned(%d) = %x, want %x", c.v, got, c.want)
		}
	}
	for _, v := range []uint64{0, 1, 127, 128, 300, 624485, math.MaxUint32, math.MaxUint64} {
		if got, want := AppendUnsigned([]byte{0xaa}, v), binary.AppendUvarint([]byte{0xaa}, v); !bytes.Equal(got, want) {
			t.Errorf("AppendUnsigned(%d) = %x, want %x", v, got, want)
		}
	}
}
