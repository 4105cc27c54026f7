package host

import (
	"context"
	"sync"
	"time"
)

// Trace is what a run's program could observe of time and of the order of
// events: every clock reading it made and what each of its waits for a
// subcall delivered. Recorded with Program.Trace and followed with
// Program.Replay, together with the subcalls' answers (Program.Answer) and
// the random source, it makes a run repeat byte for byte.
type Trace struct {
	// Start is the wall-clock instant of reading 0: the wall clock the
	// program sees reads Start plus the reading, the monotonic clock the
	// reading.
	Start time.Time
	// Reads are the clock readings, in nanoseconds since Start, in the
	// order the guest made them (wall and monotonic alike).
	Reads []int64
	// Waits are the results of the guest's waits for subcalls, in order:
	// the Seq of the subcall delivered, or 0 when none was (a timer was
	// due, or a poll found nothing).
	Waits []int
	// Calls are the timings of the subcalls whose results came back, in
	// the order they did.
	Calls []CallTiming
	// Cut, in a trace being followed, says that the recorded run was cut
	// (by its time limit or its caller) while it waited after the last
	// recorded wait: a run that reaches the end of the trace at a wait
	// ends there (KindAborted, "the recorded run ended here").
	Cut bool
}

// CallTiming is when one subcall started and how long it took, on the
// run's clock.
type CallTiming struct {
	// Seq is the call's Call.Seq.
	Seq int
	// At is the clock reading when the program started the call.
	At int64
	// Took is how long the call took in nanoseconds: the dispatcher's time
	// less the time it was held (see Hold), or the answer's recorded time.
	Took int64
}

// timeline is a run's clock and the order in which its waits deliver
// events. Live, the clock is real time; virtual (Program.Virtual), it
// advances only when a wait delivers a timer or a subcall, by the call's
// duration; following a trace (Program.Replay), readings and waits come
// from the trace while it lasts and matches the program, then the run goes
// on in its own mode from the last reading. Only the guest's goroutine
// touches it.
type timeline struct {
	start   time.Time // the wall instant of reading 0
	virtual bool
	v       int64 // the last reading; in virtual mode, the clock
	limit   int64 // virtual mode: the run's time limit, in ns

	// Live readings are off plus the real time elapsed since base.
	base time.Time
	off  int64

	trace  *Trace // the trace being recorded, if any
	tape   *Trace // the trace being followed, if any
	taping bool
	ri, wi int
}

func newTimeline(p *Program, lim Limits, now time.Time) timeline {
	t := timeline{start: p.Start, virtual: p.Virtual, limit: int64(lim.Timeout), base: now}
	if t.start.IsZero() {
		t.start = now
	}
	if p.Replay != nil {
		t.tape, t.taping = p.Replay, true
		t.start = p.Replay.Start
	}
	if p.Trace {
		t.trace = &Trace{Start: t.start}
	}
	return t
}

// read takes a clock reading.
func (t *timeline) read() int64 {
	var n int64
	switch {
	case t.taping && t.ri < len(t.tape.Reads):
		n = t.tape.Reads[t.ri]
		t.ri++
		t.v = n
	default:
		if t.taping {
			t.leaveTape()
		}
		if t.virtual {
			n = t.v
		} else {
			n = t.off + int64(time.Since(t.base))
			t.v = n
		}
	}
	if t.trace != nil {
		t.trace.Reads = append(t.trace.Reads, n)
	}
	return n
}

// leaveTape stops following the trace: the run goes on in its own mode
// from the last reading.
func (t *timeline) leaveTape() {
	t.taping = false
	t.off, t.base = t.v, time.Now()
}

// walltime and nanotime are the guest's clocks (WASI clock_time_get).
// now is the clock's current reading, without taking one.
func (t *timeline) now() int64 {
	if t.virtual || t.taping {
		return t.v
	}
	return t.off + int64(time.Since(t.base))
}

func (t *timeline) walltime() (int64, int32) {
	w := t.start.Add(time.Duration(t.read()))
	return w.Unix(), int32(w.Nanosecond())
}

func (t *timeline) nanotime() int64 { return t.read() }

// pauser keeps the time during which the run's clock is paused against
// its time limit: while the guest is blocked waiting and every subcall it
// waits for is held by a person (an approver, see Hold).
type pauser struct {
	mu      sync.Mutex
	waiting bool
	pending int // subcalls dispatched and not yet returned
	held    int // of those, held
	since   time.Time
	total   time.Duration
}

// update starts or ends a pause when the state says so; the clock is read
// only then, not on every change.
func (p *pauser) update() {
	paused := p.waiting && p.pending > 0 && p.held == p.pending
	switch {
	case paused && p.since.IsZero():
		p.since = time.Now()
	case !paused && !p.since.IsZero():
		p.total += time.Since(p.since)
		p.since = time.Time{}
	}
}

// wait records that the guest starts or stops waiting for a subcall.
func (p *pauser) wait(waiting bool) {
	p.mu.Lock()
	p.waiting = waiting
	p.update()
	p.mu.Unlock()
}

// add counts subcalls dispatched (pending) and held by a person (held).
func (p *pauser) add(pending, held int) {
	p.mu.Lock()
	p.pending += pending
	p.held += held
	p.update()
	p.mu.Unlock()
}

// paused is the total paused time as of now.
func (p *pauser) paused(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.total
	if !p.since.IsZero() {
		d += now.Sub(p.since)
	}
	return d
}

// callState is a dispatched subcall's context: it lets Hold find the call
// and its run, and records how long the call was held.
type callState struct {
	context.Context
	r *run

	mu     sync.Mutex
	holds  int
	from   time.Time
	held   time.Duration
	closed bool // Dispatch returned: later holds and releases do nothing
}

// close ends the call's holds when its Dispatch returned: a hold never
// released must not pause the run's clock for the calls after it.
func (c *callState) close() {
	c.mu.Lock()
	open := c.holds > 0
	if open {
		c.held += time.Since(c.from)
	}
	c.holds, c.closed = 0, true
	c.mu.Unlock()
	if open {
		c.r.pause.add(0, -1)
	}
}

type callStateKey struct{}

func (c *callState) Value(key any) any {
	if key == (callStateKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// heldFor is how long the call was held so far.
func (c *callState) heldFor(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.held
	if c.holds > 0 {
		d += now.Sub(c.from)
	}
	return d
}

// Hold marks the subcall whose Dispatch received ctx as waiting for a
// person, an approver, until release is called. Time held does not count
// against the program's time limit while the program has nothing else to
// do (its clock pauses while it waits and every subcall it waits for is
// held), nor in the call's duration on a virtual clock. The caller's own
// deadline still applies. Outside a subcall, Hold does nothing.
func Hold(ctx context.Context) (release func()) {
	c, _ := ctx.Value(callStateKey{}).(*callState)
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return func() {}
	}
	c.holds++
	first := c.holds == 1
	if first {
		c.from = time.Now()
	}
	c.mu.Unlock()
	if first {
		c.r.pause.add(0, 1)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			if c.closed {
				c.mu.Unlock()
				return
			}
			c.holds--
			last := c.holds == 0
			if last {
				c.held += time.Since(c.from)
			}
			c.mu.Unlock()
			if last {
				c.r.pause.add(0, -1)
			}
		})
	}
}

// timeUp is the run's time limit firing: unless time paused meanwhile
// moved the limit, the run has timed out.
func (r *run) timeUp() {
	r.limitMu.Lock()
	defer r.limitMu.Unlock()
	if r.limitDone {
		return
	}
	now := time.Now()
	if rem := r.limitAt.Add(r.pause.paused(now)).Sub(now); rem > 0 {
		r.limitTimer = time.AfterFunc(max(rem, time.Millisecond), r.timeUp)
		return
	}
	r.cancelRun(errTimeout)
}

// armLimit starts the run's time limit; the function returned stops it.
func (r *run) armLimit(d time.Duration) (stop func()) {
	r.limitMu.Lock()
	r.limitTimer = time.AfterFunc(d, r.timeUp)
	r.limitMu.Unlock()
	return func() {
		r.limitMu.Lock()
		r.limitDone = true
		r.limitTimer.Stop()
		r.limitMu.Unlock()
	}
}
