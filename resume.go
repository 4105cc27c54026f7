package ptc

import (
	"bytes"
	"context"
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// KindSuspended is the outcome kind of a run suspended for an approval
// (RunOptions.SuspendAsks): never shown to the model; resume it.
const KindSuspended host.Kind = "suspended"

var (
	// ErrSuspended: the run waits for an approval; Result.Continuation
	// resumes it (Resume).
	ErrSuspended = errors.New("ptc: suspended for approval")
	// ErrResumed: the continuation was resumed before, by this executor.
	ErrResumed = errors.New("ptc: continuation already resumed")
)

// continuation is a suspended run: its recording so far and the call
// whose ask suspended it. ID tells two continuations apart.
type continuation struct {
	ID        string          `json:"id"`
	Recording json.RawMessage `json:"recording"`
	Pending   PendingAsk      `json:"pending"`
	// Agent is the scope the run was suspended in.
	Agent registry.Scope `json:"agent"`
}

// seal encodes a continuation and signs it: base64url(JSON) "."
// base64url(HMAC-SHA256(key, JSON)).
func (e *Executor) seal(rec *Recording, p *PendingAsk, agent registry.Scope) ([]byte, error) {
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
	return enc.AppendEncode(out, e.mac(payload)), nil
}

func (e *Executor) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, e.key)
	m.Write(payload)
	return m.Sum(nil)
}

// unseal verifies a continuation's signature and decodes it.
func (e *Executor) unseal(c []byte) (*continuation, *Recording, error) {
	if len(e.key) == 0 {
		return nil, nil, fmt.Errorf("%w: no Config.ContinuationKey to verify the continuation with", ErrRecording)
	}
	i := bytes.IndexByte(c, '.')
	if i < 0 {
		return nil, nil, fmt.Errorf("%w: not a continuation", ErrRecording)
	}
	enc := base64.RawURLEncoding.Strict()
	payload, err1 := enc.AppendDecode(nil, c[:i])
	sig, err2 := enc.AppendDecode(nil, c[i+1:])
	if err1 != nil || err2 != nil {
		return nil, nil, fmt.Errorf("%w: not a continuation", ErrRecording)
	}
	if !hmac.Equal(sig, e.mac(payload)) {
		return nil, nil, fmt.Errorf("%w: the continuation's signature does not verify: it was altered, or signed with another key", ErrRecording)
	}
	var k continuation
	if err := json.Unmarshal(payload, &k); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrRecording, err)
	}
	rec, err := DecodeRecording(k.Recording)
	if err != nil {
		return nil, nil, err
	}
	if k.Pending.Call < 1 || k.Pending.Call > len(rec.Calls) {
		return nil, nil, fmt.Errorf("%w: the pending call %d is not in the recording", ErrRecording, k.Pending.Call)
	}
	return &k, rec, nil
}

// Resume continues a suspended run (Result.Continuation) with the
// decision on the ask that suspended it: the program runs again from the
// start, its calls up to the suspension answered from the continuation's
// recording on its clock (no tool is called twice: a call cut by the
// suspension is made again), and goes on live from the pending call,
// which runs if the decision approves it and rejects with DENIED if not.
// A later ask suspends the run again (opts.SuspendAsks) or goes to no
// approver (b.Approver; none: ASK_UNANSWERED). b is the environment the
// run resumes in, as the suspended batch had it: its Agent (which must be
// the one the run was suspended in), ToolSet, Approver and Log; its Calls
// are ignored. The tools must be those the run saw: when the declarations
// differ, Resume refuses. The run has the recording's limits, its time
// limit counted afresh. A continuation resumes once per executor: the
// second Resume returns ErrResumed (an executor remembers the last 65,536
// it resumed; a fleet of executors sharing a key cannot know, so callers
// resuming across processes must keep their own record). Errors match
// ErrRecording, ErrResumed, or are the options'.
func (e *Executor) Resume(ctx context.Context, b pipeline.Batch, cont []byte, decision pipeline.Answer, opts RunOptions) (*Result, error) {
	if err := e.checkOptions(opts); err != nil {
		return nil, err
	}
	k, rec, err := e.unseal(cont)
	if err != nil {
		return nil, err
	}
	if k.Agent != b.Agent {
		return nil, fmt.Errorf("%w: the run was suspended for agent scope %q, not %q", ErrRecording, k.Agent, b.Agent)
	}
	s := e.sdks.Get(b.Agent, b.ToolSet)
	if now := declarationsDigest(s.TypeScript()); now != rec.DeclarationsSHA256 {
		return nil, fmt.Errorf("%w: the tools changed since the run was suspended (declarations sha256 %.12s…, now %.12s…): run the program again", ErrRecording, rec.DeclarationsSHA256, now)
	}
	if !e.spent.add(k.ID) {
		return nil, ErrResumed
	}
	pl := &plan{opts: opts, src: rec, sdk: s, resume: true, pending: k.Pending.Call, decision: decision}
	b.Calls = []pipeline.RawCall{runCodeCall(rec.Program)}
	return e.executePlan(ctx, b, rec.Limits.WithDefaults(), pl)[0], nil
}

// spentSet remembers the continuations an executor resumed, the oldest
// forgotten past spentMax.
type spentSet struct {
	mu    sync.Mutex
	seen  map[string]struct{}
	order []string
}

const spentMax = 1 << 16

// add reports whether id is new, and remembers it.
func (s *spentSet) add(id string) bool {
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
func (s *session) pending() *PendingAsk {
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
