package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/ptchost/ptc/host/internal/typescript"
	"github.com/ptchost/ptc/internal/abort"
	"github.com/ptchost/ptc/internal/runhook"
)

// stopReason says why the host asked the guest to stop.
type stopReason int32

const (
	stopNone     stopReason = iota
	stopTimeout             // the program's own time limit
	stopDeadline            // the caller's deadline
	stopCancel              // the caller cancelled
	stopShutdown            // the host or executor shut down
	stopOutputLimit
	stopSubcallLimit
	stopFault
	stopEnded // the Answerer or runhook.EndRun ended the run
)

// Outcome kinds the guest reports through finish; keep in sync with glue.c.
const (
	guestOK        = 0
	guestSyntax    = 1
	guestException = 2
	guestStopped   = 3
	guestDeadlock  = 4
	guestInternal  = 5
	guestMemory    = 6 // reported just before the guest traps
)

// completion is a finished subcall waiting to be delivered to the guest.
type completion struct {
	id   int32
	seq  int
	at   int64 // the clock reading when the call started (timed runs)
	took int64 // how long it took, in ns (timed runs)
	env  []byte
}

// deferredCall is a started subcall not yet handed to a goroutine; see
// run.deferred.
type deferredCall struct {
	ctx     context.Context
	id      int32
	call    Call
	env     []byte     // set for a call the host fails without dispatching
	at      int64      // the clock reading at call_start (timed runs)
	started time.Time  // when it started (timed runs)
	timeIt  *toolTimes // set to note how long the dispatch took (parkable runs)
}

// flight is a timed run's subcall that has not come back yet.
type flight struct {
	seq     int
	at      int64
	started time.Time
	cs      *callState
}

// run is the host-side state of one program run, shared by the host
// functions (through the call context) and the subcall goroutines.
type run struct {
	d       Dispatcher
	lim     Limits
	started time.Time

	reason   atomic.Int32
	stopOnce sync.Once
	stopCh   chan struct{}

	slots slots
	ready chan completion
	wg    sync.WaitGroup

	// deferred is the latest started call, held back until the guest's next
	// host call: when that is call_wait and no other call is outstanding,
	// the call is dispatched on the guest's own goroutine, which saves a
	// goroutine start and two cross-thread hand-offs per sequential
	// subcall; any other host call first starts it on a goroutine of its
	// own, as every call was before. outstanding counts the calls started
	// on goroutines whose completion the guest has not received yet. Both
	// are only touched from the guest's goroutine.
	deferred    *deferredCall
	outstanding int
	// lastYield is when the guest last yielded its thread (see yield);
	// only touched from the guest's goroutine.
	lastYield time.Duration
	// deadline is when the run must have ended, the program's own limit
	// (moved later by the time paused, see pauser) or the caller's earlier
	// deadline (deadlineWhy says which): the host functions check it
	// themselves, since a timer fires only some time after it is due.
	deadline    time.Time
	deadlineWhy stopReason
	limitAt     time.Time // the program's own limit before pauses
	limitMu     sync.Mutex
	limitTimer  *time.Timer
	limitDone   bool
	cancelRun   context.CancelCauseFunc
	pause       pauser

	// clk is the run's clock. A timed run (virtual clock, trace recorded
	// or followed, or answers from a recording) keeps track of each call's
	// timing: flying holds its calls not yet back, known those back (or
	// answered) and not yet delivered. Guest's goroutine only.
	clk      timeline
	timed    bool
	callTime int64 // Program.CallTime, on a virtual clock
	answer   runhook.Answerer
	flying   map[int32]flight
	known    []completion
	// ended is how the Answerer or runhook.EndRun ended the run, and cut
	// how a replay that reaches the end of its cut trace ends
	// (runhook.Hooks.Cut).
	ended runhook.End
	cut   runhook.End
	// park is the run's parking state (park.go); guest's goroutine only.
	park parking

	mu       sync.Mutex
	output   []string
	outBytes int
	subcalls int
	// A run coming back from parking prints again, and receives again,
	// what it did before it parked: output and received keep all of it
	// meanwhile (a run that ends during the come-back still reports it);
	// the first outAgain lines and recvAgain results are to be repeated,
	// and outN and recvN count how many the current attempt has.
	outN, outAgain   int
	recvN, recvAgain int
	nextID           int32
	nextSeq          int
	seqOf            map[int32]int // call id -> Seq, for dispatched calls
	received         []int         // Seq of each result the guest took, in order
	delivered        map[int32][]byte
	finished         bool
	finishedOK       bool // finished with guestOK before any stop
	finishKind       int32
	finishData       []byte
	faultKind        Kind
	faultMsg         string
	cancelCalls      context.CancelFunc

	// collators serve Intl's collation, on the guest's goroutine only.
	collators collators
	// src is the program as written; ts, when it was TypeScript, maps
	// positions in the JavaScript run back to it.
	src   string
	js    string // the JavaScript stripped from a TypeScript src
	ts    *typescript.Map
	tsErr *typescript.Error
}

func newRun(d Dispatcher, lim Limits, cancelCalls context.CancelFunc) *run {
	// ready, delivered and seqOf are made when the program starts its
	// first call: a run that calls no tool does without them.
	return &run{
		d:           d,
		lim:         lim,
		started:     time.Now(),
		stopCh:      make(chan struct{}),
		slots:       slots{free: lim.InFlight},
		cancelCalls: cancelCalls,
	}
}

// calling makes what a run needs once its program calls tools.
func (r *run) calling() {
	if r.seqOf != nil {
		return
	}
	r.seqOf, r.delivered = make(map[int32]int), make(map[int32][]byte)
	// A few completions wait in the channel; a call that comes back while
	// it is full waits on its own goroutine until the guest takes one. A
	// channel sized to the subcall limit cost every sandbox tens of KiB.
	r.ready = make(chan completion, min(r.lim.InFlight, readyBuffer))
}

// readyBuffer bounds the completions buffered for the guest.
const readyBuffer = 16

// A run that has computed for longer than yieldAfter yields its thread to
// other goroutines at its next poll every yieldEvery. Go's scheduler would
// let it run 10 ms at a time; with more runaways than cores, a
// well-behaved run (or a stopped runaway that must return) would wait in
// the queue for tens of milliseconds. Short runs never yield.
const (
	yieldAfter = 2 * time.Millisecond
	yieldEvery = 200 * time.Microsecond
)

// yield lets other goroutines run if the guest has been busy long enough
// (see yieldAfter); the guest's polls call it with the time of the poll.
func (r *run) yield(now time.Time) {
	if r.park.on {
		r.park.computed(now)
	}
	since := now.Sub(r.started)
	if since < yieldAfter || since-r.lastYield < yieldEvery {
		return
	}
	r.lastYield = since
	runtime.Gosched()
	if r.park.on {
		r.park.restart() // waiting for a thread is not computing
	}
}

// stop asks the guest to stop; the first reason wins.
func (r *run) stop(why stopReason) {
	r.stopOnce.Do(func() {
		r.reason.Store(int32(why))
		close(r.stopCh)
	})
}

func (r *run) stopped() bool { return r.reason.Load() != int32(stopNone) }

// fault records a host-side failure (bad pointer, dispatcher panic) and
// stops the guest.
func (r *run) fault(kind Kind, msg string) {
	r.mu.Lock()
	if r.faultKind == "" {
		r.faultKind, r.faultMsg = kind, msg
	}
	r.mu.Unlock()
	r.stop(stopFault)
}

// shutdown cancels pending subcalls and waits for their goroutines.
func (r *run) shutdown() {
	r.launchDeferred() // the dispatcher sees every call the program started
	r.cancelCalls()
	r.closeSlots()
	r.wg.Wait()
}

// write appends one captured line; it reports false when the output limit
// was reached and the guest must stop.
func (r *run) write(line string) bool {
	r.mu.Lock()
	if r.outN < r.outAgain {
		// A run coming back from parking prints what it printed before.
		same := r.output[r.outN] == line
		r.outN++
		r.mu.Unlock()
		if !same {
			r.fault(KindInternal, "the program did not repeat itself after it was parked: line "+strconv.Itoa(r.outN)+" of its output changed")
		}
		return same
	}
	fits := r.outBytes+len(line)+1 <= r.lim.OutputBytes
	if fits {
		r.outBytes += len(line) + 1
		r.output = append(r.output, line)
	} else if r.reason.Load() != int32(stopOutputLimit) {
		r.output = append(r.output, truncationMarker)
	}
	r.mu.Unlock()
	if !fits {
		r.stop(stopOutputLimit)
	}
	return fits
}

// start begins a subcall and returns its id, or -1 when the guest must stop.
func (r *run) start(ctx context.Context, name string, args []byte) int32 {
	if r.stopped() {
		return -1
	}
	r.mu.Lock()
	r.calling()
	// A call the attempt that parked made is counted already.
	if r.nextID >= r.park.replayed {
		if r.subcalls >= r.lim.Subcalls {
			r.mu.Unlock()
			r.stop(stopSubcallLimit)
			return -1
		}
		r.subcalls++
	}
	r.nextID++
	id := r.nextID
	// Our glue's arguments are always JSON (JSON.stringify made them);
	// only a hostile guest sends anything else, and it is refused here.
	valid := json.Valid(args)
	if !valid && id <= r.park.replayed {
		r.mu.Unlock()
		r.fault(KindInternal, "the program did not repeat itself after it was parked: call "+strconv.Itoa(int(id))+" has arguments that are not JSON")
		return -1
	}
	seq := 0
	if valid {
		// Only calls the dispatcher sees are numbered, so its Seq has no gaps.
		r.nextSeq++
		seq = r.nextSeq
		r.seqOf[id] = seq
	}
	r.mu.Unlock()

	r.launchDeferred()
	d := &deferredCall{ctx: ctx, id: id}
	if r.timed {
		d.at, d.started = r.clk.now(), time.Now()
	}
	if !valid {
		d.env = errEnvelope("INVALID_ARGUMENTS", "subcall arguments are not valid JSON")
		r.deferred = d
		if r.park.on {
			r.noPark() // its calls are no longer numbered as parking needs
		}
		return id
	}
	d.call = Call{Seq: seq, Name: callName(name), Args: json.RawMessage(wellFormed(args))}
	if id <= r.park.replayed {
		if !r.replayCall(id, seq, d.call.Name, d.call.Args, d.at) {
			return -1
		}
		return id
	}
	if r.park.on {
		r.noteCall(id, d.call.Name, d.call.Args)
	}
	if r.answer != nil {
		a, ok, err := r.answer.Answer(d.call.Seq, d.call.Name, d.call.Args)
		if err != nil {
			if errors.Is(err, runhook.ErrCut) {
				r.end(r.cut)
			} else {
				r.end(runhook.Aborted(err.Error()))
			}
			return -1
		}
		if ok {
			reply := Reply{Value: a.Value}
			if a.Failed {
				reply = Reply{Err: &CallError{Code: a.Code, Message: a.Message}}
			}
			c := completion{id: id, seq: seq, at: d.at, took: int64(a.Took), env: envelope(reply, r.lim.ResultBytes, r.lim.ErrorBytes)}
			r.known = append(r.known, c)
			r.timing(c)
			return id
		}
	}
	r.deferred = d
	return id
}

// launchDeferred starts the deferred call, if any, on a goroutine of its own.
func (r *run) launchDeferred() {
	d := r.deferred
	if d == nil {
		return
	}
	r.deferred = nil
	r.outstanding++
	r.wg.Add(1)
	if d.env != nil {
		go func() {
			defer r.wg.Done()
			r.complete(d.ctx, completion{id: d.id, at: d.at, env: d.env})
		}()
		return
	}
	cs := &callState{Context: d.ctx, r: r}
	if r.park.on {
		d.timeIt = r.park.tools
	}
	if r.timed {
		r.flying[d.id] = flight{seq: d.call.Seq, at: d.at, started: d.started, cs: cs}
	}
	if now, slot := r.slots.admit(cs, d); now {
		go r.dispatch(cs, d, slot)
	}
}

// slots admits a run's dispatched calls to its in-flight limit in the
// order the program started them: a call waits for a slot behind every
// call started before it. Once the run ended, a call waiting goes at
// once, with its cancelled context and without a slot, so the dispatcher
// sees, and can account for, every numbered call.
type slots struct {
	mu      sync.Mutex
	free    int
	waiting []waitingCall // in the order started
	closed  bool          // the run ended
}

// waitingCall is a dispatch waiting for a slot.
type waitingCall struct {
	cs *callState
	d  *deferredCall
}

// admit reports whether a call may be dispatched now, and whether it
// holds a slot (to give back with release); one that may not is kept
// until a slot is free or the run ends.
func (s *slots) admit(cs *callState, d *deferredCall) (now, slot bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return true, false
	case s.free > 0 && len(s.waiting) == 0:
		s.free--
		return true, true
	}
	s.waiting = append(s.waiting, waitingCall{cs, d})
	return false, false
}

// release gives a slot back: to the first call waiting, or to the pool.
func (r *run) release() {
	s := &r.slots
	s.mu.Lock()
	if len(s.waiting) == 0 || s.closed {
		s.free++
		s.mu.Unlock()
		return
	}
	w := s.waiting[0]
	s.waiting[0] = waitingCall{}
	s.waiting = s.waiting[1:]
	s.mu.Unlock()
	go r.dispatch(w.cs, w.d, true)
}

// closeSlots lets every call still waiting for a slot go (after the
// run's calls were cancelled).
func (r *run) closeSlots() {
	s := &r.slots
	s.mu.Lock()
	s.closed = true
	waiting := s.waiting
	s.waiting = nil
	s.mu.Unlock()
	for _, w := range waiting {
		go r.dispatch(w.cs, w.d, false)
	}
}

// dispatchInline serves the deferred call on the calling goroutine, when
// it is the only call outstanding; it reports false when the guest must
// stop.
func (r *run) dispatchInline(ctx context.Context) (completion, bool) {
	d := r.deferred
	r.deferred = nil
	c := completion{id: d.id, seq: d.call.Seq, at: d.at}
	if d.env != nil {
		c.env = d.env
		return c, true
	}
	if ctx.Err() != nil {
		// The dispatcher still sees the call, with its cancelled context.
		r.deferred = d
		r.launchDeferred()
		r.stop(stopFromContext(ctx))
		return c, false
	}
	// No slot is taken: no other call is outstanding, nor can one start
	// while the guest waits for this one.
	cs := &callState{Context: d.ctx, r: r}
	r.pause.wait(true) // the guest waits for this call
	r.pause.add(1, 0)
	var t0 time.Time
	if r.park.on {
		t0 = time.Now()
	}
	reply, ok := r.safeDispatch(cs, d.call)
	if r.park.on {
		r.noteInline(d.call.Name, time.Since(t0))
	}
	cs.close()
	r.pause.add(-1, 0)
	r.pause.wait(false)
	if !ok || r.over(ctx) {
		return c, false // no result reaches a program once its run ended
	}
	c.took = r.took(d, cs)
	c.env = envelope(reply, r.lim.ResultBytes, r.lim.ErrorBytes)
	return c, true
}

// maxCallNameBytes bounds the tool name a subcall carries: a longer name
// is cut (at a character boundary, with "…" appended), so no tool has it.
const maxCallNameBytes = 256

// callName makes a guest's tool name fit for a dispatcher: valid UTF-8 (a
// lone surrogate becomes U+FFFD) and at most maxCallNameBytes long.
func callName(name string) string {
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "\uFFFD")
	}
	if len(name) <= maxCallNameBytes {
		return name
	}
	cut := maxCallNameBytes - len("…")
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut] + "…"
}

// dispatch serves a call on a goroutine of its own; slot says it holds
// one of the run's in-flight slots (see slots).
func (r *run) dispatch(cs *callState, d *deferredCall, slot bool) {
	defer r.wg.Done()
	if slot {
		defer r.release()
	}
	ctx := d.ctx
	r.pause.add(1, 0)
	var t0 time.Time
	if d.timeIt != nil {
		t0 = time.Now()
	}
	reply, ok := r.safeDispatch(cs, d.call)
	if d.timeIt != nil {
		d.timeIt.note(d.call.Name, time.Since(t0))
	}
	cs.close()
	r.pause.add(-1, 0)
	if !ok {
		return
	}
	c := completion{id: d.id, seq: d.call.Seq, at: d.at, took: r.took(d, cs), env: envelope(reply, r.lim.ResultBytes, r.lim.ErrorBytes)}
	r.complete(ctx, c)
}

// took is how long a dispatched call took on the run's clock: the real
// time less the time it was held, or the fixed CallTime.
func (r *run) took(d *deferredCall, cs *callState) int64 {
	switch {
	case d.started.IsZero():
		return 0 // not timed (read from d: a parked run's r.timed changes)
	case r.callTime > 0:
		return r.callTime
	}
	now := time.Now()
	return int64(now.Sub(d.started) - cs.heldFor(now))
}

func (r *run) safeDispatch(ctx context.Context, call Call) (reply Reply, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.fault(KindInternal, fmt.Sprintf("dispatcher panicked on %q: %v", call.Name, p))
			ok = false
		}
	}()
	return r.d.Dispatch(ctx, call), true
}

func (r *run) complete(ctx context.Context, c completion) {
	select {
	case r.ready <- c:
	case <-ctx.Done():
	}
}

// wait blocks until a subcall completes and returns its id and the length
// of its envelope, 0 when timeout (nanoseconds; negative: none) passed
// first, or -1 when the guest must stop. Which completion a timed run
// delivers, and when its timers are due, is its clock's to say (see
// timeline); the result goes into the trace being recorded.
func (r *run) wait(ctx context.Context, timeout int64) int64 {
	if r.over(ctx) {
		return -1 // not waiting for the watcher of ctx to notice
	}
	if r.park.on {
		// A wait is not computing: it does not count in what coming back
		// from parking would cost.
		r.park.computed(time.Now())
		defer r.park.restart()
	}
	var w int64
	switch {
	case !r.timed:
		w = r.waitLive(ctx, timeout)
	case r.clk.taping:
		w = r.waitTape(ctx, timeout)
	case r.clk.virtual:
		w = r.waitVirtual(ctx, timeout)
	default:
		w = r.waitLive(ctx, timeout)
	}
	if t := r.clk.trace; t != nil && w >= 0 {
		seq := 0
		if w > 0 {
			r.mu.Lock()
			seq = r.seqOf[int32(w>>32)]
			r.mu.Unlock()
		}
		t.Waits = append(t.Waits, seq)
	}
	if r.park.on && w >= 0 {
		// A parkable run's call ids are its calls' Seq (see parkDelay).
		r.noteWait(w)
	}
	return w
}

// waitLive waits in real time: the first completion to come back is
// delivered (calls answered from a recording first), and timers are due by
// the real clock.
func (r *run) waitLive(ctx context.Context, timeout int64) int64 {
	if len(r.known) > 0 {
		c := r.known[0]
		r.known = r.known[1:]
		return r.deliver(c.id, c.env)
	}
	if d := r.deferred; d != nil && r.outstanding == 0 && timeout < 0 &&
		(!r.park.on || d.env != nil || !r.slowCall(d.call.Name)) {
		c, ok := r.dispatchInline(ctx)
		if !ok {
			return -1
		}
		r.timing(c)
		return r.deliver(c.id, c.env)
	}
	r.launchDeferred()
	if timeout >= 0 || r.park.on {
		// A result already back needs no timer, nor a park timer.
		select {
		case c := <-r.ready:
			return r.receive(ctx, c)
		default:
		}
	}
	var due, park <-chan time.Time
	switch {
	case timeout == 0:
		return 0
	case timeout > 0:
		t := time.NewTimer(time.Duration(timeout))
		defer t.Stop()
		due = t.C
	case r.park.on:
		if d := r.parkDelay(); d > 0 {
			park = r.parkTimer(d)
			defer r.stopParkTimer()
		}
	}
	r.pause.wait(true)
	defer r.pause.wait(false)
	select {
	case c := <-r.ready:
		return r.receive(ctx, c)
	case <-park:
		// Unwinds the guest out of call_wait; Host.Run parks the run.
		panic(errParked)
	case <-due:
		return 0
	case <-r.stopCh:
		return -1
	case <-ctx.Done():
		r.stop(stopFromContext(ctx))
		return -1
	}
}

// receive delivers a completion that came back from a dispatch, or
// reports -1 when the run has ended meanwhile: no result reaches a
// program once its run ended, also before the watcher of its context has
// stopped it.
func (r *run) receive(ctx context.Context, c completion) int64 {
	r.back(c)
	if r.over(ctx) {
		return -1
	}
	return r.deliver(c.id, c.env)
}

// over reports whether the run has ended, stopping it first if its
// context is done.
func (r *run) over(ctx context.Context) bool {
	if ctx.Err() != nil {
		r.stop(stopFromContext(ctx))
	}
	return r.stopped()
}

// back takes note of a completion that came back from a dispatch.
func (r *run) back(c completion) {
	r.outstanding--
	if r.timed {
		delete(r.flying, c.id)
		r.timing(c)
	}
}

// timing records a completed call's timing in the trace.
func (r *run) timing(c completion) {
	if t := r.clk.trace; t != nil && c.seq > 0 && r.timed {
		t.Calls = append(t.Calls, runhook.CallTiming{Seq: c.seq, At: c.at, Took: c.took})
	}
}

// noEvent is a virtual time later than any.
const noEvent = int64(^uint64(0) >> 1)

// waitVirtual waits on the virtual clock: it delivers the event that comes
// first in virtual time, a subcall at its start plus its duration or the
// timer due after timeout, and moves the clock to it. A call still running
// could still come first while its start plus the time it has run so far
// is earlier, so for as long as that holds the wait goes on in real time.
// Ties go to the call first started, then to the timer. An event past the
// time limit ends the run as a timeout.
func (r *run) waitVirtual(ctx context.Context, timeout int64) int64 {
	if len(r.known) == 0 && r.deferred != nil && r.outstanding == 0 && timeout < 0 {
		c, ok := r.dispatchInline(ctx)
		if !ok {
			return -1
		}
		r.timing(c)
		if !r.advance(c.at + c.took) {
			return -1
		}
		return r.deliver(c.id, c.env)
	}
	r.launchDeferred()
	for {
		if r.stopped() {
			return -1
		}
		for drained := false; !drained; {
			select {
			case c := <-r.ready:
				r.back(c)
				r.known = append(r.known, c)
			default:
				drained = true
			}
		}
		best, target := -1, noEvent
		for i, c := range r.known {
			if e := c.at + c.took; best < 0 || e < target || (e == target && c.seq < r.known[best].seq) {
				best, target = i, e
			}
		}
		due := noEvent
		if timeout >= 0 {
			due = r.clk.v + timeout
		}
		target = min(target, due)
		// The real instant by which no call still running can come before
		// target; zero when none can.
		var until time.Time
		if len(r.flying) > 0 {
			now := time.Now()
			for _, f := range r.flying {
				if r.callTime > 0 {
					// Its time is known; its result must come back
					// before it, or anything after it, is delivered.
					if target == noEvent || f.at+r.callTime <= target {
						until = now.Add(time.Hour)
					}
					continue
				}
				ran := int64(now.Sub(f.started) - f.cs.heldFor(now))
				if target == noEvent || f.at+ran < target {
					u := now.Add(time.Hour)
					if target != noEvent {
						u = now.Add(time.Duration(target - f.at - ran))
					}
					if until.IsZero() || u.Before(until) {
						until = u
					}
				}
			}
		}
		if until.IsZero() && target != noEvent {
			if !r.advance(target) {
				return -1
			}
			if best >= 0 && r.known[best].at+r.known[best].took <= due {
				c := r.known[best]
				r.known = slices.Delete(r.known, best, best+1)
				return r.deliver(c.id, c.env)
			}
			return 0
		}
		var wake <-chan time.Time
		var t *time.Timer
		if !until.IsZero() {
			t = time.NewTimer(time.Until(until))
			wake = t.C
		}
		ok := r.await(ctx, wake)
		if t != nil {
			t.Stop()
		}
		if !ok {
			return -1
		}
	}
}

// await blocks until a subcall comes back (kept in known), wake fires, or
// the guest must stop (false).
func (r *run) await(ctx context.Context, wake <-chan time.Time) bool {
	r.pause.wait(true)
	defer r.pause.wait(false)
	select {
	case c := <-r.ready:
		r.back(c)
		r.known = append(r.known, c)
	case <-wake:
	case <-r.stopCh:
		return false
	case <-ctx.Done():
		r.stop(stopFromContext(ctx))
		return false
	}
	return true
}

// advance moves the virtual clock to an event at e; it reports false, and
// stops the run, when e is past the time limit.
func (r *run) advance(e int64) bool {
	if e > r.clk.limit {
		r.stop(stopTimeout)
		return false
	}
	r.clk.v = max(r.clk.v, e)
	return true
}

// waitTape follows the trace: each wait delivers what the recorded one
// did. When the trace runs out or the program no longer matches it (the
// recorded call has not been started, or a timer fired where none is now
// pending), the run goes on in its own mode.
func (r *run) waitTape(ctx context.Context, timeout int64) int64 {
	tape := r.clk.tape
	if r.clk.wi >= len(tape.Waits) {
		if r.cutHere() {
			return -1
		}
		return r.offTape(ctx, timeout)
	}
	want := tape.Waits[r.clk.wi]
	if want == 0 {
		if timeout < 0 {
			return r.offTape(ctx, timeout)
		}
		r.clk.wi++
		r.launchDeferred()
		return 0
	}
	if r.deferred != nil && r.deferred.call.Seq == want && r.outstanding == 0 && len(r.known) == 0 {
		c, ok := r.dispatchInline(ctx)
		if !ok {
			return -1
		}
		r.timing(c)
		r.clk.wi++
		return r.deliver(c.id, c.env)
	}
	r.launchDeferred()
	for {
		if r.stopped() {
			return -1
		}
		for i, c := range r.known {
			if c.seq == want {
				r.known = slices.Delete(r.known, i, i+1)
				r.clk.wi++
				return r.deliver(c.id, c.env)
			}
		}
		running := false
		for _, f := range r.flying {
			if f.seq == want {
				running = true
				break
			}
		}
		if !running {
			return r.offTape(ctx, timeout)
		}
		if !r.await(ctx, nil) {
			return -1
		}
	}
}

// cutHere ends the run, and reports true, when it follows a cut trace
// (runhook.Trace.Cut) to its end: the recorded run was stopped after its last
// recorded wait, so the replay stops there too (at its next wait, or at
// its finish, which in the recorded run came after the stop).
func (r *run) cutHere() bool {
	if !r.clk.taping || !r.clk.tape.Cut || r.clk.wi < len(r.clk.tape.Waits) {
		return false
	}
	r.end(r.cut)
	return true
}

// end ends the run at once as e says (the first End given, as the first
// stop reason wins).
func (r *run) end(e runhook.End) {
	if e.Kind == "" {
		e.Kind = string(KindAborted)
	}
	r.mu.Lock()
	if r.ended.Kind == "" {
		r.ended = e
	}
	r.mu.Unlock()
	r.stop(stopEnded)
}

// offTape leaves the trace and waits in the run's own mode.
func (r *run) offTape(ctx context.Context, timeout int64) int64 {
	r.clk.leaveTape()
	if r.clk.virtual {
		return r.waitVirtual(ctx, timeout)
	}
	return r.waitLive(ctx, timeout)
}

// deliver records a completion for call_read and encodes call_wait's result.
func (r *run) deliver(id int32, env []byte) int64 {
	r.mu.Lock()
	r.delivered[id] = env
	r.mu.Unlock()
	if r.park.on {
		r.noteResult(id, env)
	}
	return int64(id)<<32 | int64(uint32(len(env)))
}

// take hands over the envelope of a delivered completion.
func (r *run) take(id int32, n uint32) ([]byte, bool) {
	r.mu.Lock()
	env, ok := r.delivered[id]
	if !ok || uint32(len(env)) != n {
		r.mu.Unlock()
		return nil, false
	}
	delete(r.delivered, id)
	same := true
	if seq := r.seqOf[id]; seq != 0 {
		if r.recvN < r.recvAgain {
			// A run coming back from parking receives again what it
			// received before, in the same order (its waits follow its
			// trace).
			same = r.received[r.recvN] == seq
			r.recvN++
		} else {
			r.received = append(r.received, seq)
		}
	}
	r.mu.Unlock()
	if !same {
		r.fault(KindInternal, "the program did not repeat itself after it was parked: it received its results in another order")
	}
	return env, true
}

// overdue stops the run if its deadline has passed, whether or not the
// context's timer has fired yet. The program's own limit moves later by
// the time its clock was paused.
func (r *run) overdue(now time.Time) {
	if r.deadline.IsZero() || now.Before(r.deadline) {
		return
	}
	if r.deadlineWhy == stopTimeout && now.Before(r.deadline.Add(r.pause.paused(now))) {
		return
	}
	r.stop(r.deadlineWhy)
}

// finish records the outcome the guest reported. A success counts only if
// no stop was asked for before it: a program that finishes after its
// deadline has not succeeded.
func (r *run) finish(kind int32, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return
	}
	r.finished, r.finishKind, r.finishData = true, kind, data
	r.finishedOK = kind == guestOK && !r.stopped()
}

// callFailed records why a call into the guest failed, unless the run
// already has a better explanation (a fault, a stop, a reported outcome).
func (r *run) callFailed(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.faultKind == "" && !r.finished && !r.stopped() {
		r.faultKind = KindInternal
		r.faultMsg = "guest failed: " + err.Error()
	}
}

// fillFrom turns the run's state into the outcome.
func (r *run) fillFrom(out *Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out.Output = r.output
	out.Subcalls = r.subcalls
	out.Received = r.received
	if r.faultKind != "" {
		out.Kind, out.Message = r.faultKind, r.faultMsg
		return
	}
	why := stopReason(r.reason.Load())
	if r.finishedOK {
		r.fillOK(out)
		return
	}
	if r.finished && r.finishKind == guestMemory {
		r.fillMemory(out)
		return
	}
	switch why {
	case stopTimeout:
		out.Kind, out.Message = KindTimeout, "program exceeded its time limit of "+r.lim.Timeout.String()
		return
	case stopDeadline:
		out.Kind, out.Message = KindAborted, abort.Deadline
		return
	case stopCancel:
		out.Kind, out.Message = KindAborted, abort.Cancelled
		return
	case stopShutdown:
		out.Kind, out.Message = KindAborted, abort.Shutdown
		return
	case stopOutputLimit:
		out.Kind, out.Message = KindOutputLimit, "captured output exceeded "+itoa(r.lim.OutputBytes)+" bytes"
		return
	case stopSubcallLimit:
		out.Kind, out.Message = KindSubcallLimit, "program started more than "+itoa(r.lim.Subcalls)+" subcalls"
		return
	case stopEnded:
		out.Kind, out.Message = Kind(r.ended.Kind), r.ended.Message
		return
	}
	if !r.finished {
		out.Kind, out.Message = KindInternal, "guest ended without reporting an outcome"
		return
	}
	var e struct {
		Message string `json:"message"`
		Stack   string `json:"stack"`
	}
	if err := json.Unmarshal(r.finishData, &e); err != nil {
		out.Kind, out.Message = KindInternal, "guest reported a malformed outcome"
		return
	}
	out.Message, out.Stack = e.Message, e.Stack
	if r.finishKind == guestSyntax {
		r.syntaxMessage(out)
	} else if r.finishKind == guestException {
		out.Message += r.where(e.Stack)
		if engineTypeError(e.Message) {
			// QuickJS rarely names what was not a function or an object:
			// the line, with a caret at the call, does.
			if line, col, ok := stackPosition(e.Stack); ok {
				if lines := strings.Split(r.src, "\n"); line <= len(lines) {
					if line == 1 && r.ts == nil {
						col -= prefixBytes
					}
					out.Message += excerpt(lines[line-1], col)
				}
			}
		}
	}
	switch r.finishKind {
	case guestSyntax:
		out.Kind = KindSyntax
	case guestException, guestDeadlock:
		out.Kind = KindException
		if e.Message == "InternalError: out of memory" {
			r.fillMemory(out)
		}
	case guestStopped:
		out.Kind, out.Message = KindInternal, "guest stopped without a reason"
	default:
		out.Kind = KindInternal
	}
}

// fillMemory reports memory exhaustion, which the program cannot catch.
func (r *run) fillMemory(out *Outcome) {
	out.Kind, out.Stack = KindMemory, ""
	out.Message = "out of memory: the program exceeded its memory limit of " + sizeText(r.lim.MemoryBytes)
}

// sizeText is a size as a person writes it: "16 MiB", "1536 KiB", or
// "1000000 bytes" when neither unit divides it.
func sizeText(n uint64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatUint(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatUint(n>>10, 10) + " KiB"
	}
	return strconv.FormatUint(n, 10) + " bytes"
}

func (r *run) fillOK(out *Outcome) {
	var rv struct {
		Text  *string         `json:"text"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(r.finishData, &rv); err != nil {
		out.Kind, out.Message = KindInternal, "guest reported a malformed result"
		return
	}
	out.Kind = KindOK
	out.resultBytes = r.lim.ResultBytes
	if rv.Value != nil {
		out.ReturnValue = json.RawMessage(wellFormed(rv.Value))
	}
	if rv.Text != nil {
		out.ReturnText = *rv.Text
		if out.ReturnValue == nil {
			out.ReturnValue = json.RawMessage("null")
		}
	}
}

// syntaxOnly reports whether the run so far is just the guest's syntax
// error: nothing of the program ran and nothing stopped it.
func (r *run) syntaxOnly() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finished && r.finishKind == guestSyntax && !r.stopped() && r.faultKind == "" &&
		len(r.output) == 0 && r.subcalls == 0
}

// retry forgets the syntax error of the first attempt, before the program
// runs again as the JavaScript m maps back to the TypeScript written.
func (r *run) retry(m *typescript.Map) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished, r.finishKind, r.finishData = false, 0, nil
	r.ts = m
}

// engineTypeError reports whether msg is one of QuickJS's TypeErrors about
// a value used as what it is not, which rarely name the value.
func engineTypeError(msg string) bool {
	if !strings.HasPrefix(msg, "TypeError: ") {
		return false
	}
	for _, m := range []string{"not a function", "not an object", "not a constructor", "cannot read property", "cannot set property", "is not iterable"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// noModules is the syntax error of an import or export statement.
const noModules = "SyntaxError: there are no modules here: tools is a global (call tools.NAME(args) directly), and no import, export or require is needed"

// noNamespaces is the syntax error of a TypeScript namespace, which
// TypeScript allows only at a module's top level.
const noNamespaces = "SyntaxError: a TypeScript namespace cannot be declared here: the program runs as the body of an async function, where TypeScript allows none; use an object (const Geo = {r: 1}) or plain functions"

// syntaxMessage completes the message of a syntax error: where it is, and
// what to do about a module statement. QuickJS places a syntax error only
// roughly (its column is the scanner's, often past the token), so when
// esbuild, reading the program as TypeScript, failed too on the same line
// or further, its error, which is exact, is the one shown.
func (r *run) syntaxMessage(out *Outcome) {
	line, col, ok := stackPosition(out.Stack)
	if ok && line == 1 && r.ts == nil {
		col -= prefixBytes
	}
	if e := r.tsErr; e != nil && r.ts == nil && (!ok || e.Line >= line) {
		out.Message, line, col, ok = "SyntaxError: "+e.Text, e.Line, e.Column, true
	}
	lines := strings.Split(r.src, "\n")
	if !ok {
		return
	}
	if line > len(lines) {
		out.Message += " (at the end of the program)"
		return
	}
	switch t := strings.TrimSpace(lines[line-1]); {
	case strings.HasPrefix(t, "namespace "), strings.HasPrefix(t, "export namespace "), strings.HasPrefix(t, "declare namespace "):
		out.Message = noNamespaces
	case strings.HasPrefix(t, "import "), strings.HasPrefix(t, "import{"), strings.HasPrefix(t, "export "):
		out.Message = noModules
	}
	out.Message += " (line " + strconv.Itoa(line) + ", column " + strconv.Itoa(max(col, 1)) + ")" + excerpt(lines[line-1], col)
}

// stackPosition reads the line and column of the first program.js frame
// of a stack.
func stackPosition(stack string) (line, col int, ok bool) {
	const file = "program.js:"
	i := strings.Index(stack, file)
	if i < 0 {
		return 0, 0, false
	}
	rest := stack[i+len(file):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	k := j + 1
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if j == 0 || k > len(rest) || rest[j] != ':' || k == j+1 {
		return 0, 0, false
	}
	line, _ = strconv.Atoi(rest[:j])
	col, _ = strconv.Atoi(rest[j+1 : k])
	return line, col, line > 0
}

// prefixBytes is the length of the guest's wrapper on a JavaScript
// program's first line ("(async function () {" in glue.c).
const prefixBytes = 20

// where locates an exception in the program from the first program.js
// frame of its stack: " (line N)", or " (at the end of the program)" for a
// position past its last line. Positions are the program's as written
// (the guest maps those of a stripped TypeScript program).
func (r *run) where(stack string) string {
	n, _, ok := stackPosition(stack)
	if !ok {
		return ""
	}
	if n > strings.Count(r.src, "\n")+1 {
		return " (at the end of the program)"
	}
	return " (line " + strconv.Itoa(n) + ")"
}

// excerptBytes bounds the part of a line excerpt shows.
const excerptBytes = 120

// excerpt is line, indented, with a caret under column col (1-based,
// counted in bytes as QuickJS counts), cut to a window around the column
// when it is long.
func excerpt(line string, col int) string {
	line = strings.TrimRight(line, "\r")
	col = min(max(col, 1), len(line)+1)
	from := 0
	if len(line) > excerptBytes && col > excerptBytes/2 {
		from = col - excerptBytes/2
		for from < len(line) && !utf8.RuneStart(line[from]) {
			from++
		}
	}
	to := min(len(line), from+excerptBytes)
	for to < len(line) && !utf8.RuneStart(line[to]) {
		to--
	}
	shown := line[from:to]
	var caret strings.Builder
	for _, c := range line[from : col-1] {
		if c == '\t' {
			caret.WriteByte('\t')
		} else {
			caret.WriteByte(' ')
		}
	}
	if strings.TrimSpace(shown) == "" {
		return ""
	}
	return "\n    " + shown + "\n    " + caret.String() + "^"
}

// hasOutcome reports whether the guest reported an outcome through finish
// or the host recorded a fault.
func (r *run) hasOutcome() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finished || r.faultKind != ""
}

// preludeError describes why a prelude failed, from what the guest
// reported or the fault the host recorded.
func (r *run) preludeError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.faultKind != "" {
		return errors.New("prelude failed: " + r.faultMsg)
	}
	var e struct {
		Message string `json:"message"`
	}
	if !r.finished {
		return errPreludeNoReason
	}
	if err := json.Unmarshal(r.finishData, &e); err != nil || e.Message == "" {
		return errPreludeNoReason
	}
	return errors.New("prelude failed: " + e.Message)
}
