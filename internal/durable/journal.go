package durable

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ptchost/ptc/internal/runhook"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/runstore"
)

// settleDelay is how long a settled call's outcome may wait to be
// written with the next call's start (one transaction for both) before
// it is written alone.
const settleDelay = 20 * time.Millisecond

// A Journal writes one durable run to its store, under the run's lease:
// each call's start before the call is dispatched (calls started together
// are written together), each outcome when it settles (with the next
// start, or alone within settleDelay), and the final result. Its lease is
// renewed while the run lives. It implements runner.Journal.
type Journal struct {
	store runstore.Store
	lease runstore.Lease
	ttl   time.Duration

	mu        sync.Mutex
	header    []byte // written with the first write, then nil
	calls     []runstore.Entry
	start     time.Time // the trace's start, until written
	needStart bool      // the trace's start is yet to be queued (a new run)
	reads     []int64   // readings and waits not yet written
	waits     []int
	nReads    int // readings and waits of the run's trace seen so far
	nWaits    int
	queued    int // the last call whose start is queued
	durable   int // the last call whose start is stored
	err       error
	timer     *time.Timer
	closed    bool

	flush sync.Mutex // one write at a time, in order
	stop  chan struct{}
	done  chan struct{}
}

// NewJournal returns the journal of a run claimed with lease l of length
// ttl. header, when set, is written with the first write (a new run);
// reads and waits are how much of the run's trace the store already
// holds (a resumed run, whose trace repeats them first).
func NewJournal(store runstore.Store, l runstore.Lease, ttl time.Duration, header []byte, reads, waits int) *Journal {
	j := &Journal{store: store, lease: l, ttl: ttl, header: header, needStart: header != nil, nReads: reads, nWaits: waits,
		stop: make(chan struct{}), done: make(chan struct{})}
	go j.renew()
	return j
}

// renew renews the lease every third of its length while the run lives
// (writes do not renew it: they leave the run's row alone). A renewal
// that finds the lease lost ends the journal's writes.
func (j *Journal) renew() {
	defer close(j.done)
	tick := time.NewTicker(j.ttl / 3)
	defer tick.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), j.ttl)
		err := j.store.Renew(ctx, j.lease, j.ttl)
		cancel()
		if errors.Is(err, runstore.ErrLost) {
			j.mu.Lock()
			if j.err == nil {
				j.err = err
			}
			j.mu.Unlock()
		}
	}
}

// Started implements runner.Journal.
func (j *Journal) Started(c recording.Call, trace *runhook.Trace) {
	c.Done = false
	data := EncodeCall(c)
	j.mu.Lock()
	defer j.mu.Unlock()
	if trace != nil {
		if j.needStart {
			j.start, j.needStart = trace.Start, false
		}
		if len(trace.Reads) > j.nReads {
			j.reads = append(j.reads, trace.Reads[j.nReads:]...)
			j.nReads = len(trace.Reads)
		}
		if len(trace.Waits) > j.nWaits {
			j.waits = append(j.waits, trace.Waits[j.nWaits:]...)
			j.nWaits = len(trace.Waits)
		}
	}
	j.calls = append(j.calls, runstore.Entry{Seq: c.Seq, Data: data})
	j.queued = max(j.queued, c.Seq)
}

// Durable implements runner.Journal. When the run's lease was lost, it
// also ends the run: another process drives it now.
func (j *Journal) Durable(ctx context.Context, seq int) error {
	j.mu.Lock()
	ok, err := j.durable >= seq, j.err
	j.mu.Unlock()
	if err == nil && !ok {
		err = j.write(ctx, false)
	}
	if err == nil {
		j.mu.Lock()
		if j.durable < seq {
			err = fmt.Errorf("call %d was not stored", seq)
		}
		j.mu.Unlock()
	}
	if errors.Is(err, runstore.ErrLost) {
		runhook.EndRun(ctx, runhook.Aborted("another process took the run over (its lease here had lapsed)"))
	}
	return err
}

// Settled implements runner.Journal.
func (j *Journal) Settled(c recording.Call) {
	data := EncodeCall(c)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return
	}
	j.calls = append(j.calls, runstore.Entry{Seq: c.Seq, Settled: true, Data: data})
	if j.timer == nil {
		j.timer = time.AfterFunc(settleDelay, func() {
			j.mu.Lock()
			j.timer = nil
			closed := j.closed
			j.mu.Unlock()
			if !closed {
				ctx, cancel := context.WithTimeout(context.Background(), j.ttl)
				j.write(ctx, false)
				cancel()
			}
		})
	}
}

// write writes what is queued in one transaction, with result when set
// (the run is finished) or releasing the lease when release is set.
func (j *Journal) write(ctx context.Context, release bool, result ...[]byte) error {
	j.flush.Lock()
	defer j.flush.Unlock()
	j.mu.Lock()
	if j.err != nil {
		err := j.err
		j.mu.Unlock()
		return err
	}
	w := runstore.Write{Header: j.header, Calls: j.calls}
	if len(j.reads) > 0 || len(j.waits) > 0 || !j.start.IsZero() {
		w.Trace = EncodeTrace(j.start, j.reads, j.waits)
	}
	if len(result) > 0 {
		w.Result = result[0]
	}
	upto := j.queued
	j.header, j.calls, j.reads, j.waits, j.start = nil, nil, nil, nil, time.Time{}
	j.mu.Unlock()
	var err error
	if w.Header != nil || w.Calls != nil || w.Trace != nil || w.Result != nil {
		err = j.store.Write(ctx, j.lease, w)
	}
	if err == nil && release {
		err = j.store.Renew(ctx, j.lease, 0)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if err != nil {
		// What was queued is lost: the run cannot go on durably.
		j.err = err
		return err
	}
	j.durable = max(j.durable, upto)
	return nil
}

// Finish writes the run's final result with whatever is queued and stops
// the journal; the run is finished in the store.
func (j *Journal) Finish(ctx context.Context, result []byte) error {
	j.close()
	return j.write(ctx, false, result)
}

// Release writes what is queued, releases the lease and stops the
// journal, leaving the run unfinished: the next claim of its ID resumes
// it at once (a run its caller abandoned, or that a shutdown stopped).
func (j *Journal) Release(ctx context.Context) error {
	j.close()
	return j.write(ctx, true)
}

func (j *Journal) close() {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return
	}
	j.closed = true
	if j.timer != nil {
		j.timer.Stop()
		j.timer = nil
	}
	j.mu.Unlock()
	close(j.stop)
	<-j.done
}
