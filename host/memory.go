package host

// sliceMemory is a Go-heap linear memory that refuses to grow past limit;
// it is the fallback where an anonymous mapping is unavailable.
type sliceMemory struct {
	buf   []byte
	limit uint64
}

// Reallocate implements experimental.LinearMemory.
func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.limit {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		nb := make([]byte, size, min(max(size, 2*uint64(cap(m.buf))), m.limit))
		copy(nb, m.buf)
		m.buf = nb
	}
	m.buf = m.buf[:size]
	return m.buf
}

// Free implements experimental.LinearMemory.
func (m *sliceMemory) Free() { m.buf = nil }
