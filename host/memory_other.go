//go:build !linux

package host

import "github.com/tetratelabs/wazero/experimental"

func newAllocator(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory {
		return &sliceMemory{limit: min(max, limit)}
	})
}
