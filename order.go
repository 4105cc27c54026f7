package ptc

import (
	"context"
	"sync"
)

// order admits one run's subcalls in the order the program issued them
// (host.Call.Seq), with the pipeline's batch semantics: consecutive
// parallel-mode calls run together, up to the in-flight limit; a serial
// call runs alone, after every call issued before it finished and before
// any call issued after it starts. Admission is strictly in issue order,
// so a call never overtakes an earlier one, and the in-flight limit is fair.
type order struct {
	limit int

	mu      sync.Mutex
	next    int // Seq of the next call to admit
	running int
	serial  bool // the running call is serial
	waiting map[int]*ticket
}

type ticket struct {
	mode    admit
	granted chan struct{}
}

type admit int

const (
	admitParallel admit = iota
	admitSerial
	admitSkip // cancelled while waiting: passes its turn without running
)

func newOrder(limit int) *order {
	return &order{limit: limit, next: 1, waiting: make(map[int]*ticket)}
}

// enter blocks until call seq may run and reports true; the caller must
// then call leave once it finished. It reports false when ctx is done
// first: the call passes its turn and must not count as running.
func (o *order) enter(ctx context.Context, seq int, serial bool) bool {
	mode := admitParallel
	if serial {
		mode = admitSerial
	}
	o.mu.Lock()
	if seq == o.next && len(o.waiting) == 0 && o.start(mode) {
		// Its turn, and it may start: no ticket to wait on (the common
		// case of sequential awaits).
		o.next++
		o.mu.Unlock()
		return true
	}
	t := &ticket{mode: mode, granted: make(chan struct{})}
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

// skip passes call seq's turn without running it: a call answered from a
// recording, or held back by a replay.
func (o *order) skip(seq int) {
	o.mu.Lock()
	o.waiting[seq] = &ticket{mode: admitSkip}
	o.pump()
	o.mu.Unlock()
}

// leave records that an admitted call finished.
func (o *order) leave() {
	o.mu.Lock()
	o.running--
	o.serial = false
	o.pump()
	o.mu.Unlock()
}

// pump admits waiting calls from the head of the line while it can.
func (o *order) pump() {
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
func (o *order) start(mode admit) bool {
	if mode == admitSerial {
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
