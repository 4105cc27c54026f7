package host

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptchost/ptc/internal/runhook"
)

// Parking. A run that waits for its subcalls with nothing else to do (no
// timer pending, every call it started still out) for long enough gives up
// its guest instance: the guest's call_wait unwinds the guest (errParked),
// the instance is closed, and the run waits for a result with no more
// than its Go state. When a result comes back, the run takes a new
// instance and runs the program again from the start, following its own
// trace: each clock reading and each wait delivers what it did the first
// time, each subcall already answered is answered with the same result
// (and is checked to be the same call), the calls still out are the same
// calls (never dispatched twice), and the random source is the same
// seeded stream. The program so repeats itself byte for byte up to the
// wait where it parked, and goes on from there. A parked run costs a
// goroutine, its trace and the results it received instead of its
// instance's memory (see RATIONALE.md, "Why park waiting runs").
//
// Only a plain live run parks: not one on a virtual clock, following or
// recording a trace for the executor, answered from a recording, with
// its own random source, or without a snapshot image to start from.

// defaultParkAfter is Config.ParkAfter's default.
const defaultParkAfter = 100 * time.Millisecond

// maxPollGap is the most time one interval between two polls of the host
// counts as computed (see parking.busy): the guest polls within well
// under a millisecond of work (fuelPerPoll), so a longer interval is time
// its thread was taken away. The host's own work between two polls (a
// locale's Intl data loaded, a collation) is capped too: such a run may
// park a little earlier than 20 times its work would say.
const maxPollGap = 5 * time.Millisecond

// parkReplayFactor scales the time the guest has computed so far into the
// least time it must have waited before it parks: coming back costs about
// that computation again, so it stays a small part of the wait.
const parkReplayFactor = 20

// maxParkHistory bounds the bytes a run keeps to come back from parking:
// the arguments and results of its calls, its clock readings (readLog)
// and its waits (8 bytes each). A run that would keep more never parks: it
// lets go of what it kept and keeps nothing more.
const maxParkHistory = 4 << 20

// errParked unwinds the guest out of call_wait when its run parks.
var errParked = errors.New("run parked")

// parking is a run's parking state; only the guest's goroutine touches it
// (but for the seeded random source, read by the guest's WASI calls on
// the same goroutine).
type parking struct {
	on     bool          // the run may park
	after  time.Duration // Config.ParkAfter
	factor int           // parkReplayFactor
	tools  *toolTimes    // the host's
	// lastName and lastTool are the run's last sequential call's tool and
	// its entry in tools.
	lastName string
	lastTool *atomic.Int64
	// trace holds the start and the waits of the current attempt, and log
	// its clock readings.
	trace runhook.Trace
	log   readLog
	// calls are the subcalls started, by call id - 1: those whose results
	// were delivered keep them (env), to be answered again.
	calls   []parkedCall
	history int // bytes of arguments and results in calls
	// busy is how long the program has computed in its current attempt:
	// what coming back would cost. It is the real time from mark, when
	// the program last started to compute (it started, a wait ended, it
	// had its thread back after yielding it), to each poll of the host,
	// a poll's interval counted at most maxPollGap (the time the thread
	// was taken away from the program while it computed does not count);
	// waits, for calls or timers, and calls dispatched on the program's
	// own goroutine do not count.
	busy  time.Duration
	mark  time.Time
	timer *time.Timer
	parks int // times parked
	// replayed is the number of calls of the trace being followed.
	replayed int32
	rand     seededRand
}

// computed counts the time from mark to now as computed, and moves mark
// to now.
func (pk *parking) computed(now time.Time) {
	pk.busy += min(now.Sub(pk.mark), maxPollGap)
	pk.mark = now
}

// restart marks the instant the program starts to compute again.
func (pk *parking) restart() { pk.mark = time.Now() }

// parkedCall is a subcall as a parked run remembers it.
type parkedCall struct {
	name string
	args []byte
	env  []byte // the result delivered, or nil while it is out
}

// seededRand is a parkable run's random source: ChaCha8 from a seed drawn
// from crypto/rand on first use, so that a run coming back from parking
// draws the same bytes again.
type seededRand struct {
	seed   [32]byte
	seeded bool
	src    *rand.ChaCha8
}

func (s *seededRand) Read(p []byte) (int, error) {
	if s.src == nil {
		if !s.seeded {
			if _, err := crand.Read(s.seed[:]); err != nil {
				return 0, err
			}
			s.seeded = true
		}
		s.src = rand.NewChaCha8(s.seed)
	}
	return s.src.Read(p)
}

// rewind makes the source draw its stream again from the start.
func (s *seededRand) rewind() { s.src = nil }

// noteCall remembers a started subcall of a parkable run (one it makes
// again after parking is checked by replayCall instead).
func (r *run) noteCall(id int32, name string, args []byte) {
	pk := &r.park
	if pk.calls == nil {
		pk.calls = make([]parkedCall, 0, 16)
	}
	pk.calls = append(pk.calls, parkedCall{name: name, args: args})
	pk.history += len(name) + len(args)
	r.budget()
}

// noteResult remembers a delivered result of a parkable run.
func (r *run) noteResult(id int32, env []byte) {
	pk := &r.park
	if i := int(id) - 1; i >= 0 && i < len(pk.calls) && pk.calls[i].env == nil {
		pk.calls[i].env = env
		pk.history += len(env)
		r.budget()
	}
}

// noteWait adds what a wait of a parkable run delivered to its trace.
func (r *run) noteWait(w int64) {
	pk := &r.park
	pk.trace.Waits = append(pk.trace.Waits, int(w>>32))
	r.budget()
}

// budget keeps what a parkable run keeps within maxParkHistory: it sets
// how many clock readings its trace may still hold, or stops the run from
// parking when it holds too much already.
func (r *run) budget() {
	pk := &r.park
	if !pk.on {
		return
	}
	left := maxParkHistory - pk.history - 8*len(pk.trace.Waits)
	if r.clk.log != &pk.log || left <= pk.log.size {
		r.noPark()
		return
	}
	r.clk.readCap = left
}

// noPark stops a run from parking and lets go of what it kept for it.
func (r *run) noPark() {
	pk := &r.park
	pk.on = false
	// A run coming back from parking still answers the calls it replays;
	// the others are let go of.
	clear(pk.calls[pk.replayed:])
	if pk.replayed == 0 {
		pk.calls = nil
	} else {
		pk.calls = pk.calls[:pk.replayed:pk.replayed]
	}
	if r.clk.log == &pk.log {
		r.clk.log, r.clk.readCap = nil, 0
	}
	pk.trace, pk.log = runhook.Trace{}, readLog{}
}

// parkDelay is how long a parkable run waiting with no timer pending must
// wait before it parks, or 0 when it may not park now.
func (r *run) parkDelay() time.Duration {
	pk := &r.park
	if r.clk.log != &pk.log {
		r.noPark() // its readings outgrew maxParkHistory
		return 0
	}
	if r.outstanding == 0 || r.deferred != nil || len(r.known) > 0 ||
		int(r.nextID) != r.nextSeq || r.nextSeq != len(pk.calls) {
		return 0
	}
	return max(pk.after, time.Duration(pk.factor)*pk.busy)
}

// parkTimer returns the channel of the run's park timer, set to d.
func (r *run) parkTimer(d time.Duration) <-chan time.Time {
	pk := &r.park
	if pk.timer == nil {
		pk.timer = time.NewTimer(d)
	} else {
		pk.timer.Reset(d)
	}
	return pk.timer.C
}

// stopParkTimer stops the park timer after a wait that did not park.
func (r *run) stopParkTimer() {
	if t := r.park.timer; t != nil {
		t.Stop()
	}
}

// parkedWait waits, with no instance, for a parked run's next event: a
// result (kept in known, delivered when the program comes back to the
// wait where it parked) or the end of the run (false).
func (r *run) parkedWait(ctx context.Context) bool {
	return r.await(ctx, nil)
}

// rewind prepares a parked run to run its program again from the start,
// following the trace of the attempt that parked.
func (r *run) rewind() {
	pk := &r.park
	r.mu.Lock()
	// What it printed, counted and received stays: the attempt coming
	// back repeats it (see write and take) before it adds to it.
	r.outN, r.outAgain = 0, len(r.output)
	r.recvN, r.recvAgain = 0, len(r.received)
	r.nextID, r.nextSeq = 0, 0
	clear(r.seqOf)
	clear(r.delivered)
	r.mu.Unlock()
	tape, reads := pk.trace, pk.log.reader()
	pk.trace, pk.log = runhook.Trace{Start: tape.Start}, readLog{}
	pk.replayed = int32(len(pk.calls))
	pk.busy = 0 // mark is set as the program starts again
	pk.rand.rewind()
	clk := r.clk
	r.clk = timeline{start: clk.start, base: clk.base, limit: clk.limit, keepBase: true,
		tape: &tape, tapeLog: reads, taping: true, log: &pk.log}
	r.budget()
	r.timed = true
	if r.flying == nil {
		r.flying = make(map[int32]flight)
	}
}

// replayCall answers a call of a run coming back from parking that the
// attempt which parked had started: with its result when it was
// delivered, or not at all when it is still out (its result comes back as
// the first attempt's would have). It reports false when the program did
// not repeat the call it made then, which ends the run.
func (r *run) replayCall(id int32, seq int, name string, args []byte, at int64) bool {
	c := r.park.calls[id-1]
	if c.name != name || !bytes.Equal(c.args, args) {
		r.fault(KindInternal, "the program did not repeat itself after it was parked: call "+strconv.Itoa(seq)+
			" was tools."+c.name+" and is now tools."+name)
		return false
	}
	if c.env != nil {
		r.known = append(r.known, completion{id: id, seq: seq, at: at, env: c.env})
	}
	return true
}

// toolTimes remembers, per tool name, how long its last call took, so
// that a parkable run dispatches a call it expects to be slow on a
// goroutine of its own, where its run can park while it waits, and one it
// expects to be quick on its own goroutine (the fast path of sequential
// calls, which cannot park). A name never seen counts as slow.
type toolTimes struct {
	m sync.Map // name -> *atomic.Int64, the last call's time in ns
	n atomic.Int32
}

// slowCall is the time from which a call counts as slow.
const slowCall = time.Millisecond

// maxToolTimes bounds the names toolTimes keeps; names beyond count as slow.
const maxToolTimes = 4096

// entry returns name's entry, or nil.
func (t *toolTimes) entry(name string) *atomic.Int64 {
	v, ok := t.m.Load(name)
	if !ok {
		return nil
	}
	return v.(*atomic.Int64)
}

// slowCall reports whether a parkable run's sequential call of name is
// expected to be slow, remembering name's entry for the run's next call
// (runs often call one tool many times).
func (r *run) slowCall(name string) bool {
	pk := &r.park
	if pk.lastTool == nil || pk.lastName != name {
		pk.lastName, pk.lastTool = name, pk.tools.entry(name)
		if pk.lastTool == nil {
			return true
		}
	}
	return pk.lastTool.Load() >= int64(slowCall)
}

// noteInline records how long a sequential call took.
func (r *run) noteInline(name string, took time.Duration) {
	pk := &r.park
	if pk.lastTool != nil && pk.lastName == name {
		pk.lastTool.Store(int64(took))
		return
	}
	pk.tools.note(name, took)
}

// note records how long a call of name took.
func (t *toolTimes) note(name string, took time.Duration) {
	if v, ok := t.m.Load(name); ok {
		v.(*atomic.Int64).Store(int64(took))
		return
	}
	if t.n.Load() >= maxToolTimes {
		return
	}
	v := new(atomic.Int64)
	v.Store(int64(took))
	if _, loaded := t.m.LoadOrStore(name, v); !loaded {
		t.n.Add(1)
	}
}
