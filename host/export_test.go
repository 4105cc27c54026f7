package host

import (
	"bytes"
	"fmt"
	"sync"
)

// Parked is the number of times runs parked.
func (h *Host) Parked() int64 { return h.parked.Load() }

// Recycled is the number of runs that got an instance an earlier run left.
func (h *Host) Recycled() int64 { return h.recycled.Load() }

// ResetCheck compares every instance reset for reuse with its image, byte
// for byte; call it before the first run.
func (h *Host) ResetCheck() *ResetLog {
	l := &ResetLog{}
	h.checkReset = func(mem, img []byte) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.resets++
		if !bytes.Equal(mem, img) {
			i := 0
			for mem[i] == img[i] {
				i++
			}
			l.diffs = append(l.diffs, fmt.Sprintf("reset %d: memory differs from the image at %#x", l.resets, i))
		}
	}
	return l
}

// ResetLog is what ResetCheck saw.
type ResetLog struct {
	mu     sync.Mutex
	resets int
	diffs  []string
}

// Seen returns the number of resets and how each that left memory other
// than its image differed.
func (l *ResetLog) Seen() (int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.resets, append([]string(nil), l.diffs...)
}

// DispatcherFunc adapts a function to a Dispatcher, for the tests.
type DispatcherFunc = dispatcherFunc

// The limits the tests check, by the names they had when exported.
const (
	MaxCallNameBytes = maxCallNameBytes
	TruncationMarker = truncationMarker
)

// SetParkFactor sets how many times the time a run computed it must wait
// before it parks (parkReplayFactor by default); call it before any run.
func (h *Host) SetParkFactor(f int) { h.parkFactor = f }
