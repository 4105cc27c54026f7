package host

import (
	"context"
	crand "crypto/rand"
	"io"
	"sync"
)

// instance is a guest instance that can serve one run after another. What
// a run configures at instantiation, the WASI clocks and random source,
// reads the current run's; everything else the guest keeps is its linear
// memory, its stack pointer (back at its start whenever the guest returns
// normally) and its fuel counter (which only decides when the next poll
// comes). So an instance whose run returned normally, without a stop, a
// trap or a fault, and whose memory did not grow past its image, is made
// exactly as new by copying the image back over its whole memory: no
// state crosses from one run to the next (TestRecycle_noStateCrosses). Any
// other instance is closed.
type instance struct {
	*guest
	img   *image
	limit uint64 // its memory's reservation, the page limit of its runs

	// The current run and its random source; set before the run enters the
	// guest, on the goroutine that runs it.
	r    *run
	rand io.Reader
}

func (in *instance) walltime() (int64, int32)      { return in.r.clk.walltime() }
func (in *instance) nanotime() int64               { return in.r.clk.nanotime() }
func (in *instance) Read(p []byte) (int, error)    { return in.rand.Read(p) }
func (in *instance) bind(r *run, random io.Reader) { in.r, in.rand = r, random }

// stackSlack is how far below the deepest stack pointer a run may have
// written: LLVM lets a leaf function with a frame of up to 128 bytes (its
// red zone) use it without moving the stack pointer.
const stackSlack = 4096

// reset makes the instance's memory its image again; it reports false when
// the memory grew past the image and the instance must be closed. The
// stack comes first in memory (fuel.Options.StackLow checks it), and
// nothing but a function's frame writes the stack, so below the deepest
// stack pointer the run set, less stackSlack, memory is the image's still:
// of the stack's 1 MiB, a run that recursed little dirtied a few KiB, and
// only those are copied back (with everything above the stack).
func (in *instance) reset() bool {
	in.r, in.rand = nil, crand.Reader
	mem := in.mem
	if mem == nil || mem.Size() != in.img.size {
		return false
	}
	b, ok := mem.Read(0, mem.Size())
	if !ok {
		return false
	}
	from := uint64(0)
	if in.low != nil {
		if low := uint64(uint32(in.low.Get())); low <= in.top && low > stackSlack {
			from = low - stackSlack
		}
		in.low.Set(in.top)
	}
	copy(b[from:], in.img.whole()[from:])
	return true
}

// poolSize bounds the idle instances kept per image and memory limit.
const poolSize = 4

// pool keeps an image's idle instances, by memory limit.
type pool struct {
	mu     sync.Mutex
	idle   map[uint64][]*instance
	closed bool
}

// take returns an idle instance for runs with this page limit, or nil.
func (p *pool) take(limit uint64) *instance {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.idle[limit]
	if len(l) == 0 {
		return nil
	}
	in := l[len(l)-1]
	p.idle[limit] = l[:len(l)-1]
	return in
}

// give keeps an instance whose run ended cleanly for a later run, after
// resetting it (and showing it to check, when not nil); otherwise, or when
// the pool is full or closed, it closes the instance.
func (p *pool) give(in *instance, clean bool, check func(mem, img []byte)) {
	if clean && in.reset() {
		if check != nil {
			b, _ := in.mem.Read(0, in.mem.Size())
			check(b, in.img.whole())
		}
		p.mu.Lock()
		keep := !p.closed && len(p.idle[in.limit]) < poolSize
		if keep {
			if p.idle == nil {
				p.idle = make(map[uint64][]*instance)
			}
			p.idle[in.limit] = append(p.idle[in.limit], in)
		}
		p.mu.Unlock()
		if keep {
			return
		}
	}
	_ = in.mod.Close(context.Background())
}

// close closes the idle instances; instances given back later are closed
// too.
func (p *pool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, l := range idle {
		for _, in := range l {
			_ = in.mod.Close(context.Background())
		}
	}
}

// reusable reports whether the run left its instance fit for another: the
// guest reported an outcome and returned normally, nothing stopped it, and
// the host recorded no fault.
func (r *run) reusable() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finished && r.faultKind == "" && !r.stopped()
}
