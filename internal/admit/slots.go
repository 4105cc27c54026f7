package admit

import (
	"context"
	"errors"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// ErrFull is Slots.Acquire's error when no slot is free and the caller
// asked not to wait.
var ErrFull = errors.New("admit: no slot free")

// Slots bounds the runs in flight of one executor; nil bounds nothing.
// Callers beyond the bound wait in the order they came (semaphore.Weighted
// serves its waiters first come, first served).
type Slots struct {
	max     int
	sem     *semaphore.Weighted
	waiting atomic.Int64 // callers in acquire
}

// NewSlots returns n slots; nil (no bound) for n < 1.
func NewSlots(n int) *Slots {
	if n < 1 {
		return nil
	}
	return &Slots{max: n, sem: semaphore.NewWeighted(int64(n))}
}

// Max is the number of slots.
func (s *Slots) Max() int { return s.max }

// Waiting is the number of callers waiting for a slot.
func (s *Slots) Waiting() int { return int(s.waiting.Load()) }

// Acquire takes a slot, waiting for one up to ctx unless noWait; it
// returns the function that gives the slot back. The error is ErrFull
// (noWait, no slot free) or ctx's.
func (s *Slots) Acquire(ctx context.Context, noWait bool) (func(), error) {
	if s == nil {
		return func() {}, nil
	}
	if noWait {
		if !s.sem.TryAcquire(1) {
			return nil, ErrFull
		}
	} else {
		s.waiting.Add(1)
		err := s.sem.Acquire(ctx, 1)
		s.waiting.Add(-1)
		if err != nil {
			return nil, err
		}
	}
	return func() { s.sem.Release(1) }, nil
}
