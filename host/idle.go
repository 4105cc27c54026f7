package host

// IdleSandboxes returns how many sandboxes (guest instances reset to their
// image) the host keeps idle, ready for the next run, across the base
// image and every cached prelude image. It is a reading for a gauge: the
// number changes as runs start and end.
func (h *Host) IdleSandboxes() int {
	n := 0
	if h.base != nil {
		n += h.base.pool.len()
	}
	h.preludes.mu.Lock()
	defer h.preludes.mu.Unlock()
	for _, e := range h.preludes.entries {
		select {
		case <-e.ready:
			if e.img != nil {
				n += e.img.pool.len()
			}
		default:
		}
	}
	return n
}

// len returns how many instances the pool keeps idle.
func (p *pool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, l := range p.idle {
		n += len(l)
	}
	return n
}
