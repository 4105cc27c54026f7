package admit

import (
	"context"
	"sync"
)

// Queue admits one run's subcalls in the order the program issued them
// (host.Call.Seq), with the pipeline's batch semantics: consecutive
// parallel-mode calls run together, up to the in-flight limit; a serial
// call runs alone, after every call issued before it finished and before
// any call issued after it starts. Admission is strictly in issue order,
// so a call never overtakes an earlier one, and the in-flight limit is fair.
type Queue struct {
	limit int

	mu      sync.Mutex
	next    int // Seq of the next call to admit
	running int
	serial  bool // the running call is serial
	waiting map[int]*ticket
}

type ticket struct {
	mode    mode
	granted chan struct{}
}

type mode int

const (
	admitParallel mode = iota
	admitSerial
	admitSkip // cancelled while waiting: passes its turn without running
)

// New returns a queue that admits at most limit parallel calls at once.
func New(limit int) *Queue {
	return &Queue{limit: limit, next: 1, waiting: make(map[int]*ticket)}
}

// Enter blocks until call seq may run and reports true; the caller must
// then call Leave once it finished. It reports false when ctx is done
// first: the call passes its turn and must not count as running.
func (o *Queue) Enter(ctx context.Context, seq int, serial bool) bool {
	m := admitParallel
	if serial {
		m = admitSerial
	}
	o.mu.Lock()
	if seq == o.next && len(o.waiting) == 0 && o.start(m) {
		// Its turn, and it may start: no ticket to wait on (the common
		// case of sequential awaits).
		o.next++
		o.mu.Unlock()
		return true
	}
	t := &ticket{mode: m, granted: make(chan struct{})}
	o.waiting[seq] = t
	o.pump()
	o.mu.Unlock()
	select {
	case <-t.granted:
		return true
	case <-ctx.Done():
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case <-t.granted:
		return true // admitted meanwhile: it counts as running
	default:
	}
	t.mode = admitSkip
	o.pump()
	return false
}

// Skip passes call seq's turn without running it: a call answered from a
// recording, or held back by a replay.
func (o *Queue) Skip(seq int) {
	o.mu.Lock()
	o.waiting[seq] = &ticket{mode: admitSkip}
	o.pump()
	o.mu.Unlock()
}

// Leave records that an admitted call finished.
func (o *Queue) Leave() {
	o.mu.Lock()
	o.running--
	o.serial = false
	o.pump()
	o.mu.Unlock()
}

// pump admits waiting calls from the head of the line while it can.
func (o *Queue) pump() {
	for {
		t, ok := o.waiting[o.next]
		if !ok {
			return
		}
		if t.mode != admitSkip {
			if !o.start(t.mode) {
				return
			}
			close(t.granted)
		}
		delete(o.waiting, o.next)
		o.next++
	}
}

// start counts a call of mode as running when it may start now.
func (o *Queue) start(m mode) bool {
	if m == admitSerial {
		if o.running > 0 {
			return false
		}
		o.running, o.serial = 1, true
		return true
	}
	if o.serial || o.running >= o.limit {
		return false
	}
	o.running++
	return true
}
