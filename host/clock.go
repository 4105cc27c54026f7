package host

import (
	"bytes"
	"context"
	"encoding/binary"
	"sync"
	"time"

	"github.com/ptchost/ptc/internal/runhook"
)

// timeline is a run's clock and the order in which its waits deliver
// events. Live, the clock is real time; virtual (Program.Virtual), it
// advances only when a wait delivers a timer or a subcall, by the call's
// duration; following a trace (runhook.Hooks.Replay), readings and waits come
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

	trace *runhook.Trace // the trace being recorded, if any
	tape  *runhook.Trace // the trace being followed, if any
	// tapeLog, in a run coming back from parking, holds the readings of
	// the attempt that parked (tape then has its waits).
	tapeLog logReader
	taping  bool
	// keepBase, for a live run coming back from parking, keeps the live
	// clock where it was when the trace ends: real time since the run
	// started, not since the trace ended.
	keepBase bool
	ri, wi   int
	// log, for a run that may park, keeps its readings (see readLog) up
	// to readCap bytes: past it the log is dropped, and with it the run's
	// chance to park (run.budget).
	log     *readLog
	readCap int
}

// readLog is the clock readings a parkable run keeps to come back: each
// the difference from the one before as a varint (2 bytes for a reading
// in a loop instead of 8), in the log's own first bytes (most runs read
// the clock a few times), then in chunks, each twice the last up to
// logChunk, never copied to grow.
type readLog struct {
	first  [32]byte
	n0     int // bytes of first used
	chunks [][]byte
	size   int // bytes in all
	last   int64
}

// logChunk bounds the size of a readLog's chunks.
const logChunk = 16 << 10

func (l *readLog) add(n int64) {
	var buf [binary.MaxVarintLen64]byte
	k := binary.PutVarint(buf[:], n-l.last)
	l.last = n
	l.size += k
	if len(l.chunks) == 0 && l.n0+k <= len(l.first) {
		l.n0 += copy(l.first[l.n0:], buf[:k])
		return
	}
	i := len(l.chunks) - 1
	if i < 0 || cap(l.chunks[i])-len(l.chunks[i]) < k {
		c := 2 * len(l.first)
		if i >= 0 {
			c = min(2*cap(l.chunks[i]), logChunk)
		}
		l.chunks = append(l.chunks, make([]byte, 0, c))
		i++
	}
	l.chunks[i] = append(l.chunks[i], buf[:k]...)
}

// reader returns a reader of the log's readings from the first; it does
// not change when the log is reset and used again.
func (l *readLog) reader() logReader {
	chunks := make([][]byte, 0, 1+len(l.chunks))
	if l.n0 > 0 {
		chunks = append(chunks, bytes.Clone(l.first[:l.n0]))
	}
	return logReader{chunks: append(chunks, l.chunks...)}
}

// logReader reads a readLog.
type logReader struct {
	chunks [][]byte
	last   int64
}

func (r *logReader) more() bool { return len(r.chunks) > 0 }

func (r *logReader) next() int64 {
	d, k := binary.Varint(r.chunks[0])
	if k <= 0 {
		r.chunks = nil // cannot happen: the log was written by add
		return r.last
	}
	if r.chunks[0] = r.chunks[0][k:]; len(r.chunks[0]) == 0 {
		r.chunks[0] = nil // read: let it go
		r.chunks = r.chunks[1:]
	}
	r.last += d
	return r.last
}

// newTimeline makes the clock of a run of p with hooks (nil for none).
func newTimeline(p *Program, hooks *runhook.Hooks, lim Limits, now time.Time) timeline {
	t := timeline{start: p.Start, virtual: p.Virtual, limit: int64(lim.Timeout), base: now}
	if t.start.IsZero() {
		t.start = now
	}
	if hooks == nil {
		return t
	}
	if hooks.Replay != nil {
		t.tape, t.taping = hooks.Replay, true
		t.start = hooks.Replay.Start
	}
	if hooks.Record != nil {
		*hooks.Record = runhook.Trace{Start: t.start}
		t.trace = hooks.Record
	}
	return t
}

// read takes a clock reading.
func (t *timeline) read() int64 {
	var n int64
	switch {
	case t.taping && t.tapeLog.more():
		n = t.tapeLog.next()
		t.v = n
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
	if t.log != nil {
		if t.log.size >= t.readCap {
			*t.log = readLog{}
			t.log, t.readCap = nil, 0
		} else {
			t.log.add(n)
		}
	}
	return n
}

// leaveTape stops following the trace: the run goes on in its own mode
// from the last reading.
func (t *timeline) leaveTape() {
	t.taping = false
	t.tapeLog = logReader{} // its readings are all read
	if !t.keepBase {
		t.off, t.base = t.v, time.Now()
	}
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
// waits for is held by a person (an approver, see runhook.Hold).
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

// callState is the host's side of a dispatched subcall (runhook.Subcall)
// and the context its Dispatch receives (the call's context, embedded): it
// lets runhook.Hold and runhook.EndRun find the call and its run, and
// records how long the call was held.
type callState struct {
	context.Context
	r *run

	mu     sync.Mutex
	holds  int
	from   time.Time
	held   time.Duration
	closed bool // Dispatch returned: later holds and releases do nothing
}

// Value implements context.Context (runhook.SubcallValue).
func (c *callState) Value(key any) any { return runhook.SubcallValue(c, c.Context, key) }

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

// Hold implements runhook.Subcall: the call waits for a person until
// release is called (see runhook.Hold).
func (c *callState) Hold() (release func()) {
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

// EndRun implements runhook.Subcall: it ends the call's run at once (see
// runhook.EndRun).
func (c *callState) EndRun(end runhook.End) { c.r.end(end) }

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
