package durable

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

// ErrCorrupt is matched by every error decoding what a store holds.
var ErrCorrupt = errors.New("the run store holds an unreadable run")

// version is the version of the encodings this package writes and reads.
const version = 1

// Fingerprint names what a run depends on; a resume of a run whose
// fingerprint differs is refused.
type Fingerprint struct {
	// Guest is the guest module's sha256.
	Guest string `json:"guest"`
	// Prelude is the sha256 of the SDK the program saw (its JavaScript).
	Prelude string `json:"prelude"`
	// Program is the sha256 of the program.
	Program string `json:"program"`
	// Tools is the sha256 of the schemas of the tools the program may call.
	Tools string `json:"tools"`
}

// Diff names what differs between f (stored) and now, or "" when nothing does.
func (f Fingerprint) Diff(now Fingerprint) string {
	switch {
	case f.Program != now.Program:
		return fmt.Sprintf("the program (sha256 %.12s…, now %.12s…)", f.Program, now.Program)
	case f.Tools != now.Tools:
		return fmt.Sprintf("the tools' schemas (sha256 %.12s…, now %.12s…)", f.Tools, now.Tools)
	case f.Prelude != now.Prelude:
		return fmt.Sprintf("the SDK the program sees (sha256 %.12s…, now %.12s…)", f.Prelude, now.Prelude)
	case f.Guest != now.Guest:
		return fmt.Sprintf("the guest (sha256 %.12s…, now %.12s…)", f.Guest, now.Guest)
	}
	return ""
}

// Header is what a durable run stores before it starts.
type Header struct {
	Fingerprint Fingerprint
	// Agent is the scope the run ran in.
	Agent registry.Scope
	// Program is the program the run runs.
	Program string
	// Seed seeds its random source.
	Seed [32]byte
	// Limits are its limits.
	Limits host.Limits
	// Virtual, Start and CallTime are a deterministic run's clock.
	Virtual  bool
	Start    time.Time
	CallTime time.Duration
	// Declarations, DeclarationBytes and Tools are the SDK the program
	// saw, as a recording holds them (a stored run can be replayed).
	Declarations     string
	DeclarationBytes int
	Tools            []recording.Tool
}

type wireHeader struct {
	Version     int              `json:"version"`
	Fingerprint Fingerprint      `json:"fingerprint"`
	Agent       registry.Scope   `json:"agent"`
	Program     string           `json:"program"`
	Seed        string           `json:"seed"`
	Limits      host.Limits      `json:"limits"`
	Virtual     bool             `json:"virtual,omitempty"`
	Start       time.Time        `json:"start"`
	CallTime    time.Duration    `json:"callTime,omitempty"`
	Decls       string           `json:"declarations,omitempty"`
	DeclBytes   int              `json:"declarationBytes,omitempty"`
	Tools       []recording.Tool `json:"tools,omitempty"`
}

// decode unmarshals what (a header, call or result) from b into w, and
// checks its version (*v, in w).
func decode(b []byte, what string, w any, v *int) error {
	if err := json.Unmarshal(b, w); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
	}
	if *v != version {
		return fmt.Errorf("%w: %s version %d; this ptc reads version %d", ErrCorrupt, what, *v, version)
	}
	return nil
}

// EncodeHeader encodes h.
func EncodeHeader(h *Header) []byte {
	b, _ := json.Marshal(wireHeader{Version: version, Fingerprint: h.Fingerprint, Agent: h.Agent, Program: h.Program,
		Seed: hex.EncodeToString(h.Seed[:]), Limits: h.Limits, Virtual: h.Virtual, Start: h.Start, CallTime: h.CallTime,
		Decls: h.Declarations, DeclBytes: h.DeclarationBytes, Tools: h.Tools})
	return b
}

// DecodeHeader decodes what EncodeHeader wrote.
func DecodeHeader(b []byte) (*Header, error) {
	var w wireHeader
	if err := decode(b, "header", &w, &w.Version); err != nil {
		return nil, err
	}
	seed, err := hex.DecodeString(w.Seed)
	if err != nil || len(seed) != 32 {
		return nil, fmt.Errorf("%w: header: seed is not 32 bytes in hex", ErrCorrupt)
	}
	if err := w.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrCorrupt, err)
	}
	h := &Header{Fingerprint: w.Fingerprint, Agent: w.Agent, Program: w.Program, Limits: w.Limits, Virtual: w.Virtual, Start: w.Start, CallTime: w.CallTime,
		Declarations: w.Decls, DeclarationBytes: w.DeclBytes, Tools: w.Tools}
	copy(h.Seed[:], seed)
	return h, nil
}

// A call as stored.
type wireCall struct {
	Version   int                 `json:"version"`
	Seq       int                 `json:"seq"`
	Tool      string              `json:"tool"`
	Arguments json.RawMessage     `json:"arguments,omitempty"`
	Done      bool                `json:"done,omitempty"`
	OK        bool                `json:"ok,omitempty"`
	Value     json.RawMessage     `json:"value,omitempty"`
	Code      string              `json:"code,omitempty"`
	Message   string              `json:"message,omitempty"`
	Info      *pipeline.ErrorInfo `json:"info,omitempty"`
	Content   []registry.Part     `json:"content,omitempty"`
	Context   []registry.Part     `json:"context,omitempty"`
	Took      int64               `json:"tookNs,omitempty"`
}

// EncodeCall encodes a subcall, started (Done false) or settled.
func EncodeCall(c recording.Call) []byte {
	b, err := json.Marshal(wireCall{Version: version, Seq: c.Seq, Tool: c.Tool, Arguments: c.Arguments, Done: c.Done, OK: c.OK, Value: c.Value,
		Code: c.Code, Message: c.Message, Info: c.Info, Content: c.Content, Context: c.Context, Took: c.Took})
	if err != nil {
		// Only arguments or a value that is not JSON (a hostile guest's)
		// fail to encode: store the call without them.
		b, _ = json.Marshal(wireCall{Version: version, Seq: c.Seq, Tool: c.Tool, Done: c.Done, Code: c.Code, Message: c.Message})
	}
	return b
}

// DecodeCall decodes what EncodeCall wrote.
func DecodeCall(b []byte) (recording.Call, error) {
	var w wireCall
	if err := decode(b, "call", &w, &w.Version); err != nil {
		return recording.Call{}, err
	}
	if w.Seq < 1 {
		return recording.Call{}, fmt.Errorf("%w: call number %d", ErrCorrupt, w.Seq)
	}
	if w.Took < 0 {
		return recording.Call{}, fmt.Errorf("%w: call %d: negative duration", ErrCorrupt, w.Seq)
	}
	return recording.Call{Seq: w.Seq, Tool: w.Tool, Arguments: w.Arguments, Done: w.Done, OK: w.OK, Value: w.Value,
		Code: w.Code, Message: w.Message, Info: w.Info, Content: w.Content, Context: w.Context, Took: w.Took}, nil
}

// Trace chunks are binary: a version byte, then a flag byte (1: the
// chunk opens the trace and holds its start), the start's Unix
// nanoseconds (varint) when flagged, the count of readings and each
// reading as a varint delta from the previous one (the first from 0),
// then the count of waits and each wait (uvarint).

// EncodeTrace encodes a trace chunk: readings and waits after those of
// the chunks before it; start, when not zero, opens the trace.
func EncodeTrace(start time.Time, reads []int64, waits []int) []byte {
	b := make([]byte, 0, 4+len(reads)*2+len(waits))
	b = append(b, version)
	if start.IsZero() {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = binary.AppendVarint(b, start.UnixNano())
	}
	b = binary.AppendUvarint(b, uint64(len(reads)))
	last := int64(0)
	for _, r := range reads {
		b = binary.AppendVarint(b, r-last)
		last = r
	}
	b = binary.AppendUvarint(b, uint64(len(waits)))
	for _, w := range waits {
		b = binary.AppendUvarint(b, uint64(w))
	}
	return b
}

// claim reports whether a chunk's count n can be true of the bytes rest
// left (each item takes at least one): a count that claims more is
// corrupt, and is refused before anything is allocated for it.
func claim(n uint64, rest []byte) bool { return n <= uint64(len(rest)) }

// DecodeTrace decodes what EncodeTrace wrote; start is zero unless the
// chunk opens the trace.
func DecodeTrace(b []byte) (start time.Time, reads []int64, waits []int, err error) {
	bad := func(what string) (time.Time, []int64, []int, error) {
		return time.Time{}, nil, nil, fmt.Errorf("%w: trace chunk: %s", ErrCorrupt, what)
	}
	if len(b) < 2 || b[0] != version || b[1] > 1 {
		return bad("bad version or flags")
	}
	opens := b[1] == 1
	b = b[2:]
	if opens {
		ns, k := binary.Varint(b)
		if k <= 0 {
			return bad("bad start")
		}
		start, b = time.Unix(0, ns).UTC(), b[k:]
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || !claim(n, b[k:]) {
		return bad("bad reading count")
	}
	b = b[k:]
	reads = make([]int64, n)
	last := int64(0)
	for i := range reads {
		d, k := binary.Varint(b)
		if k <= 0 {
			return bad("truncated readings")
		}
		last += d
		reads[i], b = last, b[k:]
	}
	n, k = binary.Uvarint(b)
	if k <= 0 || !claim(n, b[k:]) {
		return bad("bad wait count")
	}
	b = b[k:]
	waits = make([]int, n)
	for i := range waits {
		w, k := binary.Uvarint(b)
		if k <= 0 || w > 1<<31 {
			return bad("bad wait")
		}
		waits[i], b = int(w), b[k:]
	}
	if len(b) != 0 {
		return bad("trailing bytes")
	}
	return start, reads, waits, nil
}

// Result is a durable run's final result, as the caller received it.
type Result struct {
	Content      []registry.Part
	IsError      bool
	Code         string // the run_code call's failure code
	Run          *host.Outcome
	Subcalls     []Subcall
	Continuation []byte
	Pending      *recording.PendingAsk
}

// Subcall is one of the run's subcalls, as Result reports it.
type Subcall struct {
	N         int             `json:"n"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	OK        bool            `json:"ok,omitempty"`
	Code      string          `json:"code,omitempty"`
	Received  bool            `json:"received,omitempty"`
}

type wireOutcome struct {
	Kind        host.Kind       `json:"kind"`
	Message     string          `json:"message,omitempty"`
	Stack       string          `json:"stack,omitempty"`
	Output      []string        `json:"output,omitempty"`
	ReturnValue json.RawMessage `json:"returnValue,omitempty"`
	ReturnText  string          `json:"returnText,omitempty"`
	Subcalls    int             `json:"subcalls,omitempty"`
	Received    []int           `json:"received,omitempty"`
	MemoryBytes uint64          `json:"memoryBytes,omitempty"`
	Duration    time.Duration   `json:"durationNs,omitempty"`
	Parks       int             `json:"parks,omitempty"`
}

type wireResult struct {
	Version      int                   `json:"version"`
	Content      []registry.Part       `json:"content"`
	IsError      bool                  `json:"isError,omitempty"`
	Code         string                `json:"code,omitempty"`
	Run          *wireOutcome          `json:"run,omitempty"`
	Subcalls     []Subcall             `json:"subcalls,omitempty"`
	Continuation string                `json:"continuation,omitempty"`
	Pending      *recording.PendingAsk `json:"pending,omitempty"`
}

// EncodeResult encodes r.
func EncodeResult(r *Result) []byte {
	w := wireResult{Version: version, Content: r.Content, IsError: r.IsError, Code: r.Code, Subcalls: r.Subcalls, Pending: r.Pending}
	if len(r.Continuation) > 0 {
		w.Continuation = base64.StdEncoding.EncodeToString(r.Continuation)
	}
	if o := r.Run; o != nil {
		w.Run = &wireOutcome{Kind: o.Kind, Message: o.Message, Stack: o.Stack, Output: o.Output, ReturnValue: o.ReturnValue, ReturnText: o.ReturnText,
			Subcalls: o.Subcalls, Received: o.Received, MemoryBytes: o.MemoryBytes, Duration: o.Duration, Parks: o.Parks}
	}
	b, err := json.Marshal(w)
	if err != nil {
		// A pending ask's arguments that are not JSON: drop them.
		w.Pending = nil
		b, _ = json.Marshal(w)
	}
	return b
}

// DecodeResult decodes what EncodeResult wrote.
func DecodeResult(b []byte) (*Result, error) {
	var w wireResult
	if err := decode(b, "result", &w, &w.Version); err != nil {
		return nil, err
	}
	r := &Result{Content: w.Content, IsError: w.IsError, Code: w.Code, Subcalls: w.Subcalls, Pending: w.Pending}
	if w.Continuation != "" {
		c, err := base64.StdEncoding.DecodeString(w.Continuation)
		if err != nil {
			return nil, fmt.Errorf("%w: result: continuation: %w", ErrCorrupt, err)
		}
		r.Continuation = c
	}
	if o := w.Run; o != nil {
		r.Run = &host.Outcome{Kind: o.Kind, Message: o.Message, Stack: o.Stack, Output: o.Output, ReturnValue: o.ReturnValue, ReturnText: o.ReturnText,
			Subcalls: o.Subcalls, Received: o.Received, MemoryBytes: o.MemoryBytes, Duration: o.Duration, Parks: o.Parks}
	}
	return r, nil
}
