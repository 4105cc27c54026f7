package runner

import (
	"bytes"
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/sdkgen"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

// Settlement is what a run's session adds to its result: the recording,
// a suspended run's continuation, a replay's divergence.
type Settlement struct {
	// Recording is the run's recording, when the plan asked for it (and
	// for every suspended run).
	Recording *recording.Recording
	// Pending and Continuation are a suspended run's ask and what resumes
	// it.
	Pending      *recording.PendingAsk
	Continuation []byte
	// Divergence is where a replay left its recording; nil when it did not.
	Divergence *recording.Divergence
	// Failure, when set, is the content that replaces the result's: the
	// run was suspended and its continuation could not be sealed.
	Failure string
}

// Settle returns what the run's session adds to a result whose content is
// content (isError: a failed call); the zero Settlement for a run without
// a session or that never ran.
func (r *Report) Settle(content []registry.Part, isError bool) Settlement {
	r.mu.Lock()
	out, s := r.run, r.session
	r.mu.Unlock()
	if out == nil || s == nil {
		return Settlement{} // no session, or the program never ran
	}
	var st Settlement
	pending := s.pending()
	if out.Kind != host.KindSuspended {
		pending = nil // the run ended otherwise before the ask could suspend it
	}
	var rec *recording.Recording
	if s.plan.records() {
		rec = s.recording(out)
		rec.Content, rec.IsError = content, isError
		if s.plan.Record || pending != nil {
			st.Recording = rec
		}
	}
	if pending != nil {
		c, err := seal(s.plan.Key, rec, pending, s.agent)
		if err != nil {
			out.Kind = host.KindInternal
			st.Failure = "Error: code run failed (internal): " + err.Error()
			return st
		}
		st.Pending, st.Continuation = pending, c
	}
	if s.plan.Src != nil && !s.plan.Resume {
		st.Divergence = s.compare(out, content, rec)
	}
	return st
}

// compare finds where a replay left the recording.
func (s *session) compare(run *host.Outcome, content []registry.Part, got *recording.Recording) *recording.Divergence {
	s.mu.Lock()
	d := s.divergence
	s.mu.Unlock()
	src := s.plan.Src
	contentDiff := func() string {
		return LineDiff(registry.PlainText(src.Content), registry.PlainText(content))
	}
	if d != nil {
		c := *d
		c.Diff = contentDiff()
		return &c
	}
	kind := run.Kind
	if kind != src.Kind {
		return &recording.Divergence{Reason: fmt.Sprintf("the run ended %s; the recorded one ended %s", kind, src.Kind), Diff: contentDiff()}
	}
	if n := len(got.Calls); n < len(src.Calls) && settledByItself(kind) {
		rc := src.Calls[n]
		return &recording.Divergence{Call: rc.Seq, Expected: &recording.CallDesc{Tool: rc.Tool, Arguments: rc.Arguments},
			Reason: "the recording has a call the program never made"}
	}
	if settledByItself(kind) && !sameContent(src.Content, content) {
		return &recording.Divergence{Reason: "the content differs from the recorded content", Diff: contentDiff()}
	}
	return nil
}

// settledByItself reports whether a run of this kind ended by what the
// program did, not by a limit of time or memory or by its caller: only
// such runs are compared byte for byte.
func settledByItself(k host.Kind) bool {
	return k != host.KindTimeout && k != host.KindAborted && k != host.KindMemory
}

// sameContent compares two contents in their JSON form, image bytes
// included.
func sameContent(a, b []registry.Part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, err1 := a[i].MarshalJSON()
		y, err2 := b[i].MarshalJSON()
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// LineDiff shows how b differs from a, line by line: the lines both share
// at the start and the end once (at most three of each as context), the
// rest of a with "-", the rest of b with "+". Empty when they are equal.
func LineDiff(a, b string) string {
	if a == b {
		return ""
	}
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var out strings.Builder
	for _, l := range x[max(0, pre-3):pre] {
		out.WriteString("  " + l + "\n")
	}
	for _, l := range x[pre : len(x)-suf] {
		out.WriteString("- " + l + "\n")
	}
	for _, l := range y[pre : len(y)-suf] {
		out.WriteString("+ " + l + "\n")
	}
	for _, l := range x[len(x)-suf : min(len(x), len(x)-suf+3)] {
		out.WriteString("  " + l + "\n")
	}
	return out.String()
}

// continuation is a suspended run: its recording so far and the call
// whose ask suspended it. ID tells two continuations apart.
type continuation struct {
	ID        string               `json:"id"`
	Recording json.RawMessage      `json:"recording"`
	Pending   recording.PendingAsk `json:"pending"`
	// Agent is the scope the run was suspended in.
	Agent registry.Scope `json:"agent"`
}

// seal encodes a continuation and signs it: base64url(JSON) "."
// base64url(HMAC-SHA256(key, JSON)).
func seal(key []byte, rec *recording.Recording, p *recording.PendingAsk, agent registry.Scope) ([]byte, error) {
	var id [16]byte
	_, _ = crand.Read(id[:])
	rb, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encode the continuation: %w", err)
	}
	payload, err := json.Marshal(continuation{ID: hex.EncodeToString(id[:]), Recording: rb, Pending: *p, Agent: agent})
	if err != nil {
		return nil, fmt.Errorf("encode the continuation: %w", err)
	}
	enc := base64.RawURLEncoding
	out := make([]byte, 0, enc.EncodedLen(len(payload))+1+enc.EncodedLen(sha256.Size))
	out = enc.AppendEncode(out, payload)
	out = append(out, '.')
	return enc.AppendEncode(out, mac(key, payload)), nil
}

func mac(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// Continuation is a suspended run as Unseal decodes it: its recording so
// far, the call whose ask suspended it, the agent scope it ran in, and
// the ID that tells two continuations apart.
type Continuation struct {
	ID        string
	Recording *recording.Recording
	Pending   recording.PendingAsk
	Agent     registry.Scope
}

// Unseal verifies a continuation's signature with key and decodes it.
// Its errors match recording.ErrUnusable.
func Unseal(key, c []byte) (*Continuation, error) {
	if len(key) == 0 {
		return nil, fmt.Errorf("%w: no Config.ContinuationKey to verify the continuation with", recording.ErrUnusable)
	}
	i := bytes.IndexByte(c, '.')
	if i < 0 {
		return nil, fmt.Errorf("%w: not a continuation", recording.ErrUnusable)
	}
	enc := base64.RawURLEncoding.Strict()
	payload, err1 := enc.AppendDecode(nil, c[:i])
	sig, err2 := enc.AppendDecode(nil, c[i+1:])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%w: not a continuation", recording.ErrUnusable)
	}
	if !hmac.Equal(sig, mac(key, payload)) {
		return nil, fmt.Errorf("%w: the continuation's signature does not verify: it was altered, or signed with another key", recording.ErrUnusable)
	}
	var k continuation
	if err := json.Unmarshal(payload, &k); err != nil {
		return nil, fmt.Errorf("%w: %w", recording.ErrUnusable, err)
	}
	rec, err := recording.Decode(k.Recording)
	if err != nil {
		return nil, err
	}
	if k.Pending.Call < 1 || k.Pending.Call > len(rec.Calls) {
		return nil, fmt.Errorf("%w: the pending call %d is not in the recording", recording.ErrUnusable, k.Pending.Call)
	}
	return &Continuation{ID: k.ID, Recording: rec, Pending: k.Pending, Agent: k.Agent}, nil
}

// Spent remembers the continuations an executor resumed, the oldest
// forgotten past spentMax.
type Spent struct {
	mu    sync.Mutex
	seen  map[string]struct{}
	order []string
}

const spentMax = 1 << 16

// Add reports whether id is new, and remembers it.
func (s *Spent) Add(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.seen[id]; ok {
		return false
	}
	if s.seen == nil {
		s.seen = make(map[string]struct{})
	}
	if len(s.order) == spentMax {
		delete(s.seen, s.order[0])
		s.order = s.order[1:]
	}
	s.seen[id] = struct{}{}
	s.order = append(s.order, id)
	return true
}

// pending is the ask that suspended the run, if any.
func (s *session) pending() *recording.PendingAsk {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.suspended
}

// suspendedText is the content of a suspended run, for a caller that
// shows it instead of resuming.
func (s *session) suspendedText() string {
	p := s.pending()
	return "code run failed (suspended): the call tools." + p.Tool + " (call " + fmt.Sprint(p.Call) + ") waits for approval: " + p.Question
}

// SDKOf is the SDK a recording's program saw, made again from its tools.
func SDKOf(rec *recording.Recording) *toolsdk.SDK {
	tools := make([]sdkgen.Tool, len(rec.Tools))
	for i, t := range rec.Tools {
		tools[i] = sdkgen.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Output: t.Output, DeferLoading: t.DeferLoading}
	}
	return toolsdk.New(tools, rec.DeclarationBytes)
}
