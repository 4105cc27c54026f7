package host

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ptchost/ptc/internal/abort"
	"github.com/tetratelabs/wazero"
)

// image is a snapshot of the guest's linear memory that a run starts from:
// its size and the chunks where it differs from a new instance's, which is
// all a new instance needs; the whole memory, which a recycled instance's
// reset copies back, is made on first use (a process that runs one program
// never needs it).
type image struct {
	size   uint32
	chunks []chunk
	// data holds the chunks' bytes one after the other.
	data []byte
	// whole returns the whole memory; callers must not modify it.
	whole func() []byte
	// pool keeps instances started from this image between runs.
	pool pool
}

// newImage is the image of snap, a memory taken from an instance, made
// from fresh, a new instance's.
func newImage(fresh, snap []byte) *image {
	chunks := diffChunks(fresh, snap)
	var data []byte
	for _, c := range chunks {
		data = append(data, snap[c.off:c.end]...)
	}
	return &image{size: uint32(len(snap)), chunks: chunks, data: data, whole: func() []byte { return snap }}
}

// preludeCacheSize bounds the prelude images a host keeps. An agent runtime
// has one prelude per distinct tool set, and a step reuses its set for
// every run_code call, so a handful covers the working set.
const preludeCacheSize = 16

// preludeTimeout bounds the evaluation of a prelude whose image is built.
const preludeTimeout = 10 * time.Second

// preludeCache maps a prelude's source to the image taken after it ran,
// least recently used first out.
type preludeCache struct {
	mu      sync.Mutex
	entries map[string]*preludeEntry
	tick    uint64
}

type preludeEntry struct {
	ready chan struct{} // closed once img or err is set
	img   *image
	err   error
	used  uint64
}

// preludeImage returns the image of the guest after src ran on the base
// image, building it on first use. Concurrent runs with the same new
// prelude build it once.
func (h *Host) preludeImage(ctx context.Context, src string) (*image, error) {
	c := &h.preludes
	c.mu.Lock()
	if c.entries == nil {
		c.entries = make(map[string]*preludeEntry)
	}
	c.tick++
	e, ok := c.entries[src]
	if ok {
		e.used = c.tick
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("prelude: %w", context.Cause(ctx))
		}
		return e.img, e.err
	}
	e = &preludeEntry{ready: make(chan struct{}), used: c.tick}
	if len(c.entries) >= preludeCacheSize {
		c.evictLocked()
	}
	c.entries[src] = e
	c.mu.Unlock()

	// Built under a context of its own: a caller giving up must not leave
	// a half-made image to the others waiting for it. The prelude is
	// trusted, but a runaway one must not hang every run that uses it.
	bctx, cancel := context.WithTimeout(h.life, preludeTimeout)
	e.img, e.err = h.preludeImageCached(bctx, src)
	cancel()
	close(e.ready)
	if e.err != nil {
		c.mu.Lock()
		if c.entries[src] == e {
			delete(c.entries, src) // a later run may try again
		}
		c.mu.Unlock()
	}
	return e.img, e.err
}

// readyImage returns the image of src if it is built, without waiting.
func (c *preludeCache) readyImage(src string) (*image, bool) {
	c.mu.Lock()
	e, ok := c.entries[src]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	select {
	case <-e.ready:
		return e.img, e.err == nil
	default:
		return nil, false
	}
}

// evictLocked drops the least recently used finished entry.
func (c *preludeCache) evictLocked() {
	var victim string
	var oldest *preludeEntry
	for k, e := range c.entries {
		select {
		case <-e.ready:
		default:
			continue // still being built
		}
		if oldest == nil || e.used < oldest.used {
			victim, oldest = k, e
		}
	}
	if oldest != nil {
		delete(c.entries, victim)
		if oldest.img != nil {
			oldest.img.pool.close()
		}
	}
}

// closePools closes the idle instances of every cached image.
func (c *preludeCache) closePools() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		select {
		case <-e.ready:
			if e.img != nil {
				e.img.pool.close()
			}
		default:
		}
	}
}

var errPreludeNoReason = errors.New("prelude failed without a reason")

// buildPreludeImage runs src in a throwaway instance started from the base
// image and keeps its memory.
func (h *Host) buildPreludeImage(ctx context.Context, src string) (*image, error) {
	r := newRun(noTools, Limits{}.WithDefaults(), func() {})
	stop := context.AfterFunc(ctx, func() { r.stop(stopFromContext(ctx)) })
	defer stop()
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions()
	mod, err := h.instantiate(withRun(ctx, r), mc)
	if err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	defer mod.Close(ctx)
	if err := restore(mod, h.base); err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	err = r.prelude(withRun(ctx, r), newGuest(mod), src)
	if r.stopped() {
		if errors.Is(context.Cause(ctx), abort.ErrShutdown) {
			return nil, fmt.Errorf("prelude: %w", abort.ErrShutdown)
		}
		return nil, fmt.Errorf("prelude did not finish within %v", preludeTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	if r.hasOutcome() {
		return nil, r.preludeError()
	}
	mem := mod.ExportedMemory("memory")
	b, ok := mem.Read(0, mem.Size())
	if !ok {
		return nil, errors.New("prelude: read guest memory")
	}
	snap := append([]byte(nil), b...)
	return newImage(h.fresh, snap), nil
}
