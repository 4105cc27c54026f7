package recording

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Version is the version of the recording format this package writes.
// Decode reads this version and refuses any other, naming it. The format is documented by testdata/recording.schema.json.
const Version = 1

// ErrUnusable is matched by every error of a recording or continuation
// that cannot be used: unreadable, of another format version, altered
// (its declarations do not match their digest, its signature does not
// verify), or made for other tools.
var ErrUnusable = errors.New("ptc: unusable recording")

// Recording is everything a run depended on and what it produced: the
// program, the SDK it saw, its limits, clock and seed, each subcall with
// its answer and timing, and the result. Replaying it (Executor.Replay)
// runs the program again with every subcall answered from it and gives
// the same bytes. Recordings come back on Result.Recording when
// RunOptions.Record asks for them; their JSON form (MarshalJSON) is
// versioned and stores each image's bytes once, by sha256.
type Recording struct {
	// Version is the format version, Version.
	Version int
	// Program is the program as the model wrote it.
	Program string
	// Declarations are the TypeScript declarations the program's SDK was
	// generated with, as run_code's description showed them, and
	// DeclarationsSHA256 their sha256 (hex).
	Declarations       string
	DeclarationsSHA256 string
	// DeclarationBytes is the budget the declarations were fitted to.
	DeclarationBytes int
	// Tools are the tools the SDK offered.
	Tools []Tool
	// Limits are the run's limits.
	Limits host.Limits
	// Start is the wall-clock instant of the run's clock reading 0;
	// Virtual reports a deterministic run's virtual clock. Reads and Waits
	// are the run's trace: every clock reading the program made, and the
	// subcall each of its waits delivered (0 for none).
	Start   time.Time
	Virtual bool
	Reads   []int64
	Waits   []int
	// Seed seeds the run's random source (Math.random and crypto).
	Seed [32]byte
	// Calls are the program's subcalls in issue order.
	Calls []Call
	// Kind is the run's outcome kind (host.Kind, or "suspended").
	Kind host.Kind
	// Content and IsError are the run_code result as the model saw it.
	Content []registry.Part
	IsError bool
}

// Tool is a tool the recorded program's SDK offered.
type Tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	Parameters   json.RawMessage `json:"parameters,omitempty"`
	Output       json.RawMessage `json:"output,omitempty"`
	DeferLoading bool            `json:"deferLoading,omitempty"`
}

// Call is one recorded subcall.
type Call struct {
	// Seq numbers the calls from 1 in issue order.
	Seq int
	// Tool and Arguments are the call as the program made it.
	Tool      string
	Arguments json.RawMessage
	// Done reports that the call came back before the run ended; a call
	// still running when it ended has no outcome.
	Done bool
	// At is the clock reading when the call started and Took how long it
	// took, in nanoseconds (the time held by an approver excluded).
	At, Took int64
	// OK reports success; Value is then the value the program received.
	OK    bool
	Value json.RawMessage
	// Code and Message are the ToolError the program's promise rejected
	// with, when not OK.
	Code, Message string
	// Info is the structured detail a denying policy attached beside the
	// reason (pipeline.ErrorInfo), when there was one. The program never
	// sees it; durable projections keep it.
	Info *pipeline.ErrorInfo
	// Content is the tool's content and Context the parts post-execute
	// listeners attached: those of a received call reach the result.
	Content, Context []registry.Part
	// Received reports that the program took the result before the run
	// ended.
	Received bool
}

// maxRecordedNS bounds a recorded time: a week.
const maxRecordedNS = int64(7 * 24 * time.Hour)

// DeclarationsDigest is the hex sha256 of declarations, as
// Recording.DeclarationsSHA256 holds it.
func DeclarationsDigest(decls string) string {
	sum := sha256.Sum256([]byte(decls))
	return hex.EncodeToString(sum[:])
}

// The JSON form.
type (
	wireRecording struct {
		Version            int                  `json:"version"`
		Program            string               `json:"program"`
		Declarations       string               `json:"declarations"`
		DeclarationsSHA256 string               `json:"declarationsSha256"`
		DeclarationBytes   int                  `json:"declarationBytes"`
		Tools              []Tool               `json:"tools"`
		Limits             wireLimits           `json:"limits"`
		Clock              wireClock            `json:"clock"`
		Seed               string               `json:"seed"`
		Calls              []wireCall           `json:"calls"`
		Result             wireResult           `json:"result"`
		Images             map[string]wireImage `json:"images,omitempty"`
	}
	wireLimits struct {
		TimeoutNS     int64  `json:"timeoutNs"`
		MemoryBytes   uint64 `json:"memoryBytes"`
		SourceBytes   int    `json:"sourceBytes"`
		StackBytes    int    `json:"stackBytes"`
		OutputBytes   int    `json:"outputBytes"`
		Subcalls      int    `json:"subcalls"`
		InFlight      int    `json:"inFlight"`
		ResultBytes   int    `json:"resultBytes"`
		ErrorBytes    int    `json:"errorBytes"`
		ArgumentBytes int    `json:"argumentBytes"`
		ArgumentDepth int    `json:"argumentDepth"`
		Timers        int    `json:"timers"`
	}
	wireClock struct {
		Start   time.Time `json:"start"`
		Virtual bool      `json:"virtual"`
		Reads   []int64   `json:"reads"`
		Waits   []int     `json:"waits"`
	}
	wireCall struct {
		Seq       int               `json:"seq"`
		Tool      string            `json:"tool"`
		Arguments json.RawMessage   `json:"arguments"`
		Done      bool              `json:"done"`
		At        int64             `json:"atNs"`
		Took      int64             `json:"tookNs"`
		OK        bool              `json:"ok"`
		Value     json.RawMessage   `json:"value,omitempty"`
		Error     *wireError        `json:"error,omitempty"`
		Content   []json.RawMessage `json:"content,omitempty"`
		Context   []json.RawMessage `json:"context,omitempty"`
		Received  bool              `json:"received"`
	}
	wireError struct {
		Code    string              `json:"code"`
		Message string              `json:"message"`
		Info    *pipeline.ErrorInfo `json:"info,omitempty"`
	}
	wireResult struct {
		Kind    string            `json:"kind"`
		IsError bool              `json:"isError"`
		Content []json.RawMessage `json:"content"`
	}
	wireImage struct {
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	}
	wireImageRef struct {
		Type     string `json:"type"`
		MimeType string `json:"mimeType"`
		SHA256   string `json:"sha256"`
	}
)

// MarshalJSON writes the versioned JSON form: parts in their MCP form,
// except that an image's data is replaced by its sha256 and stored once in
// "images".
func (r *Recording) MarshalJSON() ([]byte, error) {
	w := wireRecording{
		Version: r.Version, Program: r.Program,
		Declarations: r.Declarations, DeclarationsSHA256: r.DeclarationsSHA256, DeclarationBytes: r.DeclarationBytes,
		Tools:  r.Tools,
		Limits: limitsToWire(r.Limits),
		Clock:  wireClock{Start: r.Start, Virtual: r.Virtual, Reads: r.Reads, Waits: r.Waits},
		Seed:   hex.EncodeToString(r.Seed[:]),
		Calls:  make([]wireCall, len(r.Calls)),
		Images: map[string]wireImage{},
	}
	if w.Tools == nil {
		w.Tools = []Tool{}
	}
	if w.Clock.Reads == nil {
		w.Clock.Reads = []int64{}
	}
	if w.Clock.Waits == nil {
		w.Clock.Waits = []int{}
	}
	parts := func(ps []registry.Part) ([]json.RawMessage, error) {
		var out []json.RawMessage
		for _, p := range ps {
			if p.Type == registry.PartImage {
				sum := sha256.Sum256(p.Data)
				h := hex.EncodeToString(sum[:])
				w.Images[h] = wireImage{MimeType: p.MimeType, Data: base64.StdEncoding.EncodeToString(p.Data)}
				b, err := json.Marshal(wireImageRef{Type: "image", MimeType: p.MimeType, SHA256: h})
				if err != nil {
					return nil, err
				}
				out = append(out, b)
				continue
			}
			b, err := p.MarshalJSON()
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
		return out, nil
	}
	var err error
	for i, c := range r.Calls {
		wc := wireCall{Seq: c.Seq, Tool: c.Tool, Arguments: c.Arguments, Done: c.Done, At: c.At, Took: c.Took, OK: c.OK, Value: c.Value, Received: c.Received}
		if c.Done && !c.OK {
			wc.Error = &wireError{Code: c.Code, Message: c.Message, Info: c.Info}
		}
		if wc.Content, err = parts(c.Content); err != nil {
			return nil, err
		}
		if wc.Context, err = parts(c.Context); err != nil {
			return nil, err
		}
		w.Calls[i] = wc
	}
	w.Result = wireResult{Kind: string(r.Kind), IsError: r.IsError}
	if w.Result.Content, err = parts(r.Content); err != nil {
		return nil, err
	}
	if w.Result.Content == nil {
		w.Result.Content = []json.RawMessage{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads the JSON form; see Decode, which also
// checks the version and the declarations' digest.
func (r *Recording) UnmarshalJSON(b []byte) error {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	if head.Version == nil {
		return fmt.Errorf("%w: no format version: not a ptc recording", ErrUnusable)
	}
	if *head.Version != Version {
		return fmt.Errorf("%w: format version %d; this ptc reads version %d only", ErrUnusable, *head.Version, Version)
	}
	var w wireRecording
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	seed, err := hex.DecodeString(w.Seed)
	if err != nil || len(seed) != 32 {
		return fmt.Errorf("%w: seed is not 32 bytes in hex", ErrUnusable)
	}
	out := Recording{
		Version: w.Version, Program: w.Program,
		Declarations: w.Declarations, DeclarationsSHA256: w.DeclarationsSHA256, DeclarationBytes: w.DeclarationBytes,
		Tools: w.Tools, Limits: limitsFromWire(w.Limits),
		Start: w.Clock.Start, Virtual: w.Clock.Virtual, Reads: w.Clock.Reads, Waits: w.Clock.Waits,
		Kind: host.Kind(w.Result.Kind), IsError: w.Result.IsError,
		Calls: make([]Call, len(w.Calls)),
	}
	copy(out.Seed[:], seed)
	parts := func(raw []json.RawMessage) ([]registry.Part, error) {
		var ps []registry.Part
		for _, m := range raw {
			var ref wireImageRef
			if err := json.Unmarshal(m, &ref); err == nil && ref.Type == "image" && ref.SHA256 != "" {
				img, ok := w.Images[ref.SHA256]
				if !ok {
					return nil, fmt.Errorf("image %s is not in images", ref.SHA256)
				}
				data, err := base64.StdEncoding.DecodeString(img.Data)
				if err != nil {
					return nil, fmt.Errorf("image %s: %w", ref.SHA256, err)
				}
				if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != ref.SHA256 {
					return nil, fmt.Errorf("image %s: its bytes do not match its sha256", ref.SHA256)
				}
				ps = append(ps, registry.ImagePart(ref.MimeType, data))
				continue
			}
			var p registry.Part
			if err := p.UnmarshalJSON(m); err != nil {
				return nil, err
			}
			ps = append(ps, p)
		}
		return ps, nil
	}
	for i, c := range w.Calls {
		if c.Seq != i+1 {
			return fmt.Errorf("%w: call %d has seq %d; calls are numbered from 1 in order", ErrUnusable, i+1, c.Seq)
		}
		if c.Done && len(c.Arguments) > 0 && !json.Valid(c.Arguments) {
			return fmt.Errorf("%w: call %d: arguments are not JSON", ErrUnusable, c.Seq)
		}
		rc := Call{Seq: c.Seq, Tool: c.Tool, Arguments: compact(c.Arguments), Done: c.Done, At: c.At, Took: c.Took, OK: c.OK, Value: compact(c.Value), Received: c.Received}
		if c.Error != nil {
			rc.Code, rc.Message, rc.Info = c.Error.Code, c.Error.Message, c.Error.Info
		}
		if rc.Content, err = parts(c.Content); err != nil {
			return fmt.Errorf("%w: call %d: content: %w", ErrUnusable, c.Seq, err)
		}
		if rc.Context, err = parts(c.Context); err != nil {
			return fmt.Errorf("%w: call %d: context: %w", ErrUnusable, c.Seq, err)
		}
		out.Calls[i] = rc
	}
	if out.Content, err = parts(w.Result.Content); err != nil {
		return fmt.Errorf("%w: result content: %w", ErrUnusable, err)
	}
	*r = out
	return nil
}

// compact is a JSON document without insignificant space, as the program
// sent it or received it (a recording may have been indented).
func compact(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return b
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

// Decode reads a recording's JSON form and checks that it can be
// replayed: its format version is Version and its declarations
// match their digest. Its errors match ErrUnusable.
func Decode(b []byte) (*Recording, error) {
	var r Recording
	if err := json.Unmarshal(b, &r); err != nil {
		if errors.Is(err, ErrUnusable) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// check refuses a recording that was altered where no replay could tell:
// its declarations no longer match their digest, or its limits are invalid.
// Check reports whether the recording can be replayed: its declarations
// match their digest, and its limits and times are in range. Its errors
// match ErrUnusable. Decode checks what it decodes.
func (r *Recording) Check() error {
	if DeclarationsDigest(r.Declarations) != r.DeclarationsSHA256 {
		return fmt.Errorf("%w: its declarations do not match their sha256 %q: the recording was altered", ErrUnusable, r.DeclarationsSHA256)
	}
	if err := r.Limits.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	if r.Limits.Subcalls > 0 && len(r.Calls) > r.Limits.Subcalls {
		return fmt.Errorf("%w: %d calls, over its subcall limit of %d", ErrUnusable, len(r.Calls), r.Limits.Subcalls)
	}
	for _, c := range r.Calls {
		if c.At < 0 || c.Took < 0 || c.At > maxRecordedNS || c.Took > maxRecordedNS {
			return fmt.Errorf("%w: call %d: its time (atNs %d, tookNs %d) is out of range", ErrUnusable, c.Seq, c.At, c.Took)
		}
	}
	return nil
}

func limitsToWire(l host.Limits) wireLimits {
	return wireLimits{
		TimeoutNS: int64(l.Timeout), MemoryBytes: l.MemoryBytes, SourceBytes: l.SourceBytes, StackBytes: l.StackBytes,
		OutputBytes: l.OutputBytes, Subcalls: l.Subcalls, InFlight: l.InFlight, ResultBytes: l.ResultBytes,
		ErrorBytes: l.ErrorBytes, ArgumentBytes: l.ArgumentBytes, ArgumentDepth: l.ArgumentDepth, Timers: l.Timers,
	}
}

func limitsFromWire(w wireLimits) host.Limits {
	return host.Limits{
		Timeout: time.Duration(w.TimeoutNS), MemoryBytes: w.MemoryBytes, SourceBytes: w.SourceBytes, StackBytes: w.StackBytes,
		OutputBytes: w.OutputBytes, Subcalls: w.Subcalls, InFlight: w.InFlight, ResultBytes: w.ResultBytes,
		ErrorBytes: w.ErrorBytes, ArgumentBytes: w.ArgumentBytes, ArgumentDepth: w.ArgumentDepth, Timers: w.Timers,
	}
}
