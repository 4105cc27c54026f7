//go:build linux

package host

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapMemory backs a guest's linear memory with one anonymous mapping of
// the run's page limit, reserved up front without access (PROT_NONE: the
// kernel neither hands out pages nor, under strict overcommit, counts the
// reservation as committed) and made writable as the memory grows (the
// kernel hands out zeroed pages as they are touched). Growing never
// copies, which is what makes it faster than wazero's default allocator;
// see RATIONALE.md.
type mmapMemory struct {
	buf []byte
	rw  int // bytes from the start made readable and writable
}

func newAllocator(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory {
		if max > limit {
			max = limit
		}
		if max == 0 {
			max = 1 << 16
		}
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_NONE,
			syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{limit: max}
		}
		return &mmapMemory{buf: b[:0]}
	})
}

// Reallocate implements experimental.LinearMemory.
func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(cap(m.buf)) {
		return nil
	}
	if int(size) > m.rw {
		if err := syscall.Mprotect(m.buf[m.rw:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil // the kernel refused the commit: the guest is out of memory
		}
		m.rw = int(size)
	}
	m.buf = m.buf[:size]
	return m.buf
}

// Free implements experimental.LinearMemory.
func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf[:cap(m.buf)])
		m.buf = nil
	}
}
