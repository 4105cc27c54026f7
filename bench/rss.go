package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// VmRSS returns the process's resident set size in KiB, from
// /proc/self/status.
func VmRSS() (int64, error) { return procStatusKiB("VmRSS") }

// procStatusKiB returns a field of /proc/self/status in KiB.
func procStatusKiB(field string) (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no " + field + " in /proc/self/status")
}

// IdleRSS keeps n sandboxes of s alive at once, each blocked in tools.wait
// on gate (which must count n), and returns the growth of the process's
// RSS per sandbox in KiB. One sandbox runs `return 1` first, so that what
// they all share (a compiled module, a snapshot) is in the baseline; both
// readings follow a garbage collection that returns free memory to the
// system.
func IdleRSS(ctx context.Context, s Sandbox, gate *Gate, n int) (float64, error) {
	if _, err := s.Run(ctx, Return1); err != nil {
		return 0, err
	}
	debug.FreeOSMemory()
	before, err := VmRSS()
	if err != nil {
		return 0, err
	}
	var after int64
	err = idle(ctx, s, gate, n, func() {
		debug.FreeOSMemory()
		after, _ = VmRSS()
	})
	if err != nil {
		return 0, err
	}
	return float64(after-before) / float64(n), nil
}

// idle starts n runs of IdleProgram, calls measure once all are blocked in
// tools.wait, then releases them and checks their results.
func idle(ctx context.Context, s Sandbox, gate *Gate, n int, measure func()) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			r, err := s.Run(ctx, IdleProgram)
			if err == nil && Normalize(r) != IdleWant {
				err = fmt.Errorf("idle run returned %s, want %s", r, IdleWant)
			}
			if err != nil {
				cancel() // do not wait for the others to arrive
			}
			errs <- err
		})
	}
	arrived := gate.Arrived(ctx, n)
	if arrived == nil {
		measure()
	}
	gate.Release()
	if arrived != nil {
		cancel()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return arrived
}
