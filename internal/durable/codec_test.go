package durable

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
	"github.com/ptchost/ptc/runstore"
)

func TestCodec_roundTrip(t *testing.T) {
	h := &Header{Fingerprint: Fingerprint{Guest: "g", Prelude: "p", Program: "x", Tools: "t"}, Agent: registry.Scope{Agent: "a"},
		Program: "return 1", Seed: [32]byte{1, 2, 3}, Limits: host.Limits{}.WithDefaults(), Virtual: true,
		Start: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), CallTime: time.Millisecond}
	got, err := DecodeHeader(EncodeHeader(h))
	require.NoError(t, err)
	assert.Equal(t, h, got)

	c := recording.Call{Seq: 3, Tool: "t", Arguments: json.RawMessage(`{"a":1}`), Done: true, OK: false, Code: "DENIED", Message: "no",
		Info: &pipeline.ErrorInfo{Name: "N", Code: "C"}, Content: []registry.Part{registry.TextPart("x"), registry.ImagePart("image/png", []byte{0x89, 'P'})}, Took: 5}
	back, err := DecodeCall(EncodeCall(c))
	require.NoError(t, err)
	assert.Equal(t, c, back)

	start := time.Unix(0, 1_700_000_000_123_456_789).UTC()
	reads, waits := []int64{5, 3, 1 << 40, 1<<40 + 7}, []int{0, 2, 1}
	s, r, w, err := DecodeTrace(EncodeTrace(start, reads, waits))
	require.NoError(t, err)
	assert.Equal(t, start, s)
	assert.Equal(t, reads, r)
	assert.Equal(t, waits, w)
	s, r, w, err = DecodeTrace(EncodeTrace(time.Time{}, nil, nil))
	require.NoError(t, err)
	assert.True(t, s.IsZero())
	assert.Empty(t, r)
	assert.Empty(t, w)

	res := &Result{Content: []registry.Part{registry.TextPart("Error: x")}, IsError: true, Code: "TOOL_FAILED",
		Run:      &host.Outcome{Kind: host.KindException, Message: "m", Output: []string{"a"}, ReturnValue: json.RawMessage(`1`), Subcalls: 2, Received: []int{1}, Duration: time.Second},
		Subcalls: []Subcall{{N: 1, Tool: "t", Arguments: json.RawMessage(`{}`), OK: true, Received: true}}, Continuation: []byte{0, 1, 2},
		Pending: &recording.PendingAsk{Call: 2, Tool: "t", Arguments: json.RawMessage(`{}`), Question: "q?"}}
	rb, err := DecodeResult(EncodeResult(res))
	require.NoError(t, err)
	assert.Equal(t, res, rb)
}

func TestAssemble(t *testing.T) {
	h := EncodeHeader(&Header{Program: "p", Limits: host.Limits{}.WithDefaults()})
	start := time.Unix(100, 0).UTC()
	run := &runstore.Run{ID: "r", Header: h,
		Trace: [][]byte{EncodeTrace(start, []int64{1, 2}, []int{0}), EncodeTrace(time.Time{}, []int64{3}, []int{1})},
		Calls: []runstore.Entry{
			{Seq: 1, Settled: true, Data: EncodeCall(recording.Call{Seq: 1, Tool: "a", Done: true, OK: true, Value: json.RawMessage(`1`)})},
			{Seq: 2, Data: EncodeCall(recording.Call{Seq: 2, Tool: "b"})},
			{Seq: 3, Settled: true, Data: EncodeCall(recording.Call{Seq: 3, Tool: "c"})},
		}}
	st, err := Assemble(run)
	require.NoError(t, err)
	assert.Equal(t, start, st.Recording.Start)
	assert.Equal(t, []int64{1, 2, 3}, st.Recording.Reads)
	assert.Equal(t, []int{0, 1}, st.Recording.Waits)
	assert.Equal(t, 3, st.Reads)
	assert.Equal(t, []bool{true, false, false}, []bool{st.Recording.Calls[0].Done, st.Recording.Calls[1].Done, st.Recording.Calls[2].Done})
	assert.Equal(t, map[int]bool{3: true}, st.Unmade)
	assert.Nil(t, st.Result)

	run.Calls[1].Seq = 5
	_, err = Assemble(run)
	assert.ErrorIs(t, err, ErrCorrupt)
}

// FuzzDecode: whatever a store hands back, decoding never panics, and
// what decodes encodes to what decodes the same.
func FuzzDecode(f *testing.F) {
	f.Add(EncodeHeader(&Header{Program: "p", Limits: host.Limits{}.WithDefaults()}))
	f.Add(EncodeCall(recording.Call{Seq: 1, Tool: "t", Done: true, Value: json.RawMessage(`{"a":[1]}`)}))
	f.Add(EncodeTrace(time.Unix(1, 2), []int64{1, -5, 1 << 50}, []int{0, 3}))
	f.Add(EncodeResult(&Result{Content: []registry.Part{registry.TextPart("x")}, Run: &host.Outcome{Kind: host.KindOK}}))
	f.Add([]byte{1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		if h, err := DecodeHeader(b); err == nil {
			again, err := DecodeHeader(EncodeHeader(h))
			require.NoError(t, err)
			assert.Equal(t, h.Program, again.Program)
		} else {
			assert.True(t, errors.Is(err, ErrCorrupt))
		}
		if c, err := DecodeCall(b); err == nil {
			_, err := DecodeCall(EncodeCall(c))
			require.NoError(t, err)
		} else {
			assert.True(t, errors.Is(err, ErrCorrupt))
		}
		if s, r, w, err := DecodeTrace(b); err == nil {
			s2, r2, w2, err := DecodeTrace(EncodeTrace(s, r, w))
			require.NoError(t, err)
			assert.Equal(t, s.UnixNano(), s2.UnixNano())
			assert.Equal(t, len(r), len(r2))
			assert.Equal(t, w, w2)
		} else {
			assert.True(t, errors.Is(err, ErrCorrupt))
		}
		if r, err := DecodeResult(b); err == nil {
			_, err := DecodeResult(EncodeResult(r))
			require.NoError(t, err)
		} else {
			assert.True(t, errors.Is(err, ErrCorrupt))
		}
		_, _ = Assemble(&runstore.Run{Header: b, Trace: [][]byte{b}, Calls: []runstore.Entry{{Seq: 1, Data: b}}, Result: b})
	})
}
