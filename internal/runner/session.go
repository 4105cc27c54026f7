package runner

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/admit"
	"github.com/ptchost/ptc/internal/jsontext"
	"github.com/ptchost/ptc/internal/runhook"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

// Plan is what a batch's runs do beyond running: the options, and for a
// replay or a resume the recording they follow.
type Plan struct {
	// Record keeps the run's recording (Settlement.Recording).
	Record bool
	// Deterministic, when set, makes the run reproducible.
	Deterministic *Deterministic
	// SuspendAsks suspends the run when a subcall's policy asks for
	// approval; Key signs the continuation.
	SuspendAsks bool
	Key         []byte
	// Src, when set, is the recording a replay or resume follows, and SDK
	// the SDK its program sees.
	Src *recording.Recording
	SDK *toolsdk.SDK
	// Program replaces Src.Program (a replay with an edited program).
	Program string
	// Live names the tools a replay calls live.
	Live map[string]bool
	// Resume: Pending is the call whose ask Decision answers.
	Resume   bool
	Pending  int
	Decision pipeline.Answer
	// Seed, when set, seeds a run that follows no recording and is not
	// deterministic (a durable run stores its seed before it starts).
	Seed *[32]byte
	// Journal, when set, makes the run durable: every call is written
	// ahead of its dispatch and its outcome after (see Journal). RunID
	// names the run: a subcall's idempotency key is RunID/seq.
	Journal Journal
	RunID   string
	// Stored counts the calls of Src the store holds already (a durable
	// resume); the calls a durable run answers from Src beyond them (a
	// continuation's) are written to the journal as settled.
	Stored int
	// Unmade are the calls of Src the store holds as never made (cut
	// before their dispatch): a durable resume makes them.
	Unmade map[int]bool
	// Idempotent reports whether a tool's calls may be made again; a
	// durable resume (Src, Resume and Journal) makes again a call that
	// was started and never settled only for such tools, and settles any
	// other UNAVAILABLE.
	Idempotent func(tool string) bool
}

// A Journal makes a run durable (ptc.Config.Store).
type Journal interface {
	// Started is called on the run's goroutine as the program starts
	// call c (not yet dispatched), with the run's trace so far.
	Started(c recording.Call, trace *runhook.Trace)
	// Durable returns once call seq's start is stored, or why it cannot
	// be; the call is not dispatched before.
	Durable(ctx context.Context, seq int) error
	// Settled records the outcome of a call the run started (c.Done), or
	// that it was never made (not c.Done: cut before its dispatch).
	Settled(c recording.Call)
}

// Deterministic is a reproducible run's clock and seed (see
// ptc.Deterministic; Start is set).
type Deterministic struct {
	Start    time.Time
	Seed     uint64
	CallTime time.Duration
}

// session is one run's recording, replay and suspension state.
type session struct {
	plan  *Plan
	rep   *Report
	sdk   *toolsdk.SDK
	seed  [32]byte
	order *admit.Queue // the run's admission order, which answered calls skip
	agent registry.Scope
	// source and limits are the program the run ran and its limits.
	source string
	limits host.Limits
	// bound ends the calls a suspension lets finish: the batch's context,
	// within the run's time limit.
	bound context.Context

	// trace receives the run's trace when it keeps its recording.
	trace *runhook.Trace

	mu         sync.Mutex
	divergence *recording.Divergence
	suspended  *recording.PendingAsk
}

// SeedBytes expands a deterministic seed into the random source's key.
func SeedBytes(n uint64) [32]byte {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:8], n)
	return b
}

func newSession(pl *Plan, rep *Report, s *toolsdk.SDK) *session {
	ss := &session{plan: pl, rep: rep, sdk: s}
	switch {
	case pl.Src != nil:
		ss.seed = pl.Src.Seed
	case pl.Deterministic != nil:
		ss.seed = SeedBytes(pl.Deterministic.Seed)
	case pl.Seed != nil:
		ss.seed = *pl.Seed
	default:
		_, _ = crand.Read(ss.seed[:])
	}
	return ss
}

// active reports whether the run needs a session at all.
func (pl *Plan) active() bool {
	return pl != nil && (pl.Src != nil || pl.Record || pl.Deterministic != nil || pl.SuspendAsks || pl.Journal != nil)
}

// records reports whether the run keeps its recording.
func (pl *Plan) records() bool {
	return pl.Src != nil || pl.Record || pl.SuspendAsks || pl.Journal != nil
}

// configure sets up the host program (clock, random source) and returns
// the run's hooks: its trace, and the answers of a replay or resume.
func (s *session) configure(p *host.Program) *runhook.Hooks {
	pl := s.plan
	hooks := &runhook.Hooks{}
	p.Random = rand.NewChaCha8(s.seed)
	if pl.records() {
		s.trace = &runhook.Trace{}
		hooks.Record = s.trace
	}
	if d := pl.Deterministic; d != nil {
		p.Virtual, p.Start, p.CallTime = true, d.Start, d.CallTime
	}
	if src := pl.Src; src != nil {
		p.Virtual = src.Virtual
		p.Start = src.Start
		hooks.Replay = &runhook.Trace{Start: src.Start, Reads: src.Reads, Waits: src.Waits}
		// A replay of a run cut while it waited ends where it was cut.
		hooks.Replay.Cut = !pl.Resume && (src.Kind == host.KindTimeout || src.Kind == host.KindAborted)
		if hooks.Replay.Cut {
			// It ends as the recorded run did.
			hooks.Cut = &runhook.End{Kind: string(src.Kind), Message: recordedMessage(src)}
		}
		hooks.Answer = s
		p.Dispatcher = &heldBack{inner: p.Dispatcher, s: s}
	}
	if pl.Journal != nil {
		// Every call passes the Answerer, on the run's goroutine, where
		// its start is written ahead with the trace so far.
		hooks.Answer = s
	}
	return hooks
}

// Answer implements runhook.Answerer for a replay or a resume: each call
// must be the recorded one; a completed recorded call is answered from the
// recording, unless the replay calls its tool live or it is the call a
// resume answers the ask of.
func (s *session) Answer(seq int, name string, args json.RawMessage) (runhook.Answer, bool, error) {
	pl := s.plan
	src := pl.Src
	if src == nil {
		s.started(seq, name, args)
		return runhook.Answer{}, false, nil
	}
	if seq > len(src.Calls) {
		if pl.Resume {
			s.started(seq, name, args)
			return runhook.Answer{}, false, nil
		}
		if src.Kind == host.KindTimeout || src.Kind == host.KindAborted {
			// The recorded run was cut before it made this call (a
			// deadline can pass before the first wait): the replay ends
			// here, as the recorded run did.
			return runhook.Answer{}, false, runhook.ErrCut
		}
		return runhook.Answer{}, false, s.diverge(&recording.Divergence{Call: seq, Actual: &recording.CallDesc{Tool: name, Arguments: args},
			Reason: "the program made a call the recording does not have"})
	}
	rc := src.Calls[seq-1]
	if rc.Tool != name || !jsontext.Same(rc.Arguments, args) {
		return runhook.Answer{}, false, s.diverge(&recording.Divergence{Call: seq,
			Expected: &recording.CallDesc{Tool: rc.Tool, Arguments: rc.Arguments},
			Actual:   &recording.CallDesc{Tool: name, Arguments: args},
			Reason:   "the program's call differs from the recorded one"})
	}
	if !rc.Done && pl.Journal != nil && seq <= pl.Stored && !pl.Unmade[seq] && (pl.Idempotent == nil || !pl.Idempotent(name)) {
		// Started, never settled, by a process that stopped: the tool may
		// or may not have acted, and may not be called again.
		return s.unavailable(seq, name, args), true, nil
	}
	if !rc.Done || pl.Live[rc.Tool] || (pl.Resume && seq == pl.Pending) {
		s.started(seq, name, args)
		return runhook.Answer{}, false, nil
	}
	sc := Call{N: seq, Tool: name, Arguments: args, OK: rc.OK, content: rc.Content, context: rc.Context}
	a := runhook.Answer{Value: rc.Value, Took: time.Duration(rc.Took)}
	if !rc.OK {
		sc.Code = rc.Code
		a = runhook.Answer{Failed: true, Code: rc.Code, Message: rc.Message, Took: time.Duration(rc.Took)}
	}
	sc.value, sc.message, sc.info = rc.Value, rc.Message, rc.Info
	s.rep.add(sc)
	s.order.Skip(seq)
	if pl.Journal != nil && seq > pl.Stored {
		// Answered from a continuation: the store has it from now on.
		s.started(seq, name, args)
		pl.Journal.Settled(rc)
	}
	return a, true, nil
}

// started writes call seq ahead of its dispatch, in a durable run.
func (s *session) started(seq int, name string, args json.RawMessage) {
	if j := s.plan.Journal; j != nil {
		j.Started(recording.Call{Seq: seq, Tool: name, Arguments: args}, s.trace)
	}
}

// Unavailable is the message of a durable run's call whose outcome is
// unknown: the process running it stopped before it answered.
const Unavailable = "the process running this call stopped before the tool answered; the tool may or may not have acted, and it was not called again (it is not idempotent)"

// unavailable settles call seq UNAVAILABLE (see Unavailable).
func (s *session) unavailable(seq int, name string, args json.RawMessage) runhook.Answer {
	code := pipeline.CodeOf(pipeline.ErrUnavailable)
	s.rep.add(Call{N: seq, Tool: name, Arguments: args, Code: code, message: Unavailable})
	s.order.Skip(seq)
	s.plan.Journal.Settled(recording.Call{Seq: seq, Tool: name, Arguments: args, Done: true, Code: code, Message: Unavailable})
	return runhook.Answer{Failed: true, Code: code, Message: Unavailable}
}

// diverge records the first divergence and returns the error that ends
// the run.
func (s *session) diverge(d *recording.Divergence) error {
	s.mu.Lock()
	if s.divergence == nil {
		s.divergence = d
	}
	s.mu.Unlock()
	return fmt.Errorf("replay diverged at call %d: %s", d.Call, d.Reason)
}

// heldBack dispatches the calls a replay does not answer: those of tools
// called live go through the pipeline; a recorded call that never came
// back in the recorded run never comes back in the replay either. A
// resume dispatches every call it does not answer.
type heldBack struct {
	inner host.Dispatcher
	s     *session
}

func (h *heldBack) Dispatch(ctx context.Context, c host.Call) host.Reply {
	pl := h.s.plan
	if pl.Resume || c.Seq > len(pl.Src.Calls) || pl.Live[c.Name] {
		return h.inner.Dispatch(ctx, c)
	}
	h.s.order.Skip(c.Seq)
	<-ctx.Done()
	code := pipeline.CodeOf(pipeline.ErrAborted)
	h.s.rep.add(Call{N: c.Seq, Tool: c.Name, Arguments: c.Args, Code: code})
	return host.Reply{Err: &host.CallError{Code: code, Message: "the run ended before the call came back"}}
}

// approver is the batch's approver as the session's runs use it: a
// resume answers its pending call's ask with the decision; with
// SuspendAsks, any other ask suspends the run; otherwise the batch's
// approver answers, and the time it takes does not count against the
// program's time limit (runhook.Hold).
func (s *session) approver(batch pipeline.Approver) pipeline.Approver {
	pl := s.plan
	return func(ctx context.Context, inv *pipeline.Invocation, question string) (pipeline.Answer, error) {
		seq, _ := strconv.Atoi(inv.CallID())
		if pl.Resume && seq == pl.Pending {
			return pl.Decision, nil
		}
		if pl.SuspendAsks {
			s.mu.Lock()
			first := s.suspended == nil
			if first {
				s.suspended = &recording.PendingAsk{Call: seq, Tool: inv.Name(), Arguments: inv.Arguments(), Question: question}
			}
			s.mu.Unlock()
			if first {
				runhook.EndRun(ctx, runhook.End{Kind: string(host.KindSuspended)})
			}
			return pipeline.Answer{}, errSuspending
		}
		if batch == nil {
			return pipeline.Answer{}, errNoApprover
		}
		release := runhook.Hold(ctx)
		defer release()
		return batch(ctx, inv, question)
	}
}

// shield gives a call that is running a context that the run's end
// cancels, unless the run was suspended: then the call finishes (within
// the batch's context and the run's time limit) and its result goes into
// the continuation, so that the resume does not make it again.
func (s *session) shield(ctx context.Context) (context.Context, func()) {
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop1 := context.AfterFunc(ctx, func() {
		if s.pending() == nil {
			cancel(context.Cause(ctx))
		}
	})
	stop2 := context.AfterFunc(s.bound, func() { cancel(context.Cause(s.bound)) })
	return cctx, func() {
		stop1()
		stop2()
		cancel(nil)
	}
}

var (
	errSuspending = fmt.Errorf("the run is suspended for approval")
	errNoApprover = fmt.Errorf("approval required and no approver is available")
)

// RecordedTools are the tools of sdk as a recording (and a durable run's
// header) holds them.
func RecordedTools(sdk *toolsdk.SDK) []recording.Tool {
	tools := make([]recording.Tool, len(sdk.Tools()))
	for i, t := range sdk.Tools() {
		tools[i] = recording.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Output: t.Output, DeferLoading: t.DeferLoading}
	}
	return tools
}

// recording assembles the run's recording from its outcome; the result
// fields are filled when the content is (see Executor.result).
func (s *session) recording(out *host.Outcome) *recording.Recording {
	tools := RecordedTools(s.sdk)
	decls := s.sdk.TypeScript()
	rec := &recording.Recording{
		Version: recording.Version, Program: s.source,
		Declarations: decls, DeclarationsSHA256: recording.DeclarationsDigest(decls), DeclarationBytes: s.sdk.Budget(),
		Tools: tools, Limits: s.limits, Seed: s.seed, Kind: out.Kind,
	}
	if tr := s.trace; tr != nil {
		rec.Start, rec.Reads, rec.Waits = tr.Start, tr.Reads, tr.Waits
	}
	rec.Virtual = s.plan.Deterministic != nil || (s.plan.Src != nil && s.plan.Src.Virtual)
	timing := map[int]runhook.CallTiming{}
	if s.trace != nil {
		for _, c := range s.trace.Calls {
			timing[c.Seq] = c
		}
	}
	received := map[int]bool{}
	for _, seq := range out.Received {
		received[seq] = true
	}
	s.rep.mu.Lock()
	subcalls := slices.Clone(s.rep.calls)
	s.rep.mu.Unlock()
	slices.SortFunc(subcalls, func(a, b Call) int { return a.N - b.N })
	s.mu.Lock()
	pending := 0
	if s.suspended != nil {
		pending = s.suspended.Call
	}
	s.mu.Unlock()
	bySeq := map[int]Call{}
	for _, sc := range subcalls {
		bySeq[sc.N] = sc
	}
	last := 0
	if n := len(subcalls); n > 0 {
		last = subcalls[n-1].N
	}
	for seq := 1; seq <= last; seq++ {
		sc, ok := bySeq[seq]
		if !ok {
			// Only a hostile guest's call with arguments that are not JSON
			// is unnumbered; a gap is never expected.
			rec.Calls = append(rec.Calls, recording.Call{Seq: seq})
			continue
		}
		rc := recording.Call{Seq: seq, Tool: sc.Tool, Arguments: sc.Arguments, OK: sc.OK, Received: received[seq],
			Value: sc.value, Code: sc.Code, Message: sc.message, Info: sc.info, Content: sc.Parts(), Context: sc.Context()}
		if sc.Outcome != nil {
			rc.Info = errorInfo(sc.Outcome.Err())
		}
		// A call cut by the run's end (or the ask that suspended it) did
		// not finish: a replay holds it back, a resume makes it again.
		// A result the program received is part of what it did, whatever it was.
		rc.Done = rc.Received || (seq != pending && sc.Code != pipeline.CodeOf(pipeline.ErrAborted) && sc.Code != pipeline.CodeOf(pipeline.ErrAbortedBeforeDispatch))
		if t, ok := timing[seq]; ok {
			rc.At, rc.Took = t.At, t.Took
		} else if sc.Outcome != nil {
			rc.Took = int64(sc.Outcome.Duration())
		}
		if !rc.Done {
			rc.OK, rc.Value, rc.Code, rc.Message, rc.Info, rc.Content, rc.Context = false, nil, "", "", nil, nil, nil
		}
		rec.Calls = append(rec.Calls, rc)
	}
	return rec
}
