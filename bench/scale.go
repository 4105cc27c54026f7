package bench

import (
	"context"
	"runtime"
	"runtime/debug"
	"time"
)

// ScalePoint is one reading of the scale workload: n runs at once, each
// blocked in tools.wait, in a fresh process.
type ScalePoint struct {
	// N is the number of waiting runs.
	N int `json:"n"`
	// RSSKiB is the process's resident set with all n waiting, after a
	// garbage collection that returned free memory to the system.
	RSSKiB int64 `json:"rssKiB"`
	// HeapKiB is the engine's heap in use then: the Go heap (HeapInuse)
	// for a Go engine, V8's used heap for a Node peer.
	HeapKiB int64 `json:"heapKiB"`
	// StackKiB is the goroutine stacks in use (Go engines only).
	StackKiB int64 `json:"stackKiB,omitempty"`
	// VmSizeKiB is the process's address space then.
	VmSizeKiB int64 `json:"vmSizeKiB,omitempty"`
	// StartNs is the time from starting the first run until all n were
	// waiting in tools.wait.
	StartNs int64 `json:"startNs"`
}

// Scale starts n runs of IdleProgram at once on s (gate must count n),
// measures once all have been waiting for settle, releases them and
// checks every result.
// One run of `return 1` comes first, so that what every run shares is
// already there.
func Scale(ctx context.Context, s Sandbox, gate *Gate, n int, settle time.Duration) (ScalePoint, error) {
	if _, err := s.Run(ctx, Return1); err != nil {
		return ScalePoint{}, err
	}
	debug.FreeOSMemory()
	p := ScalePoint{N: n}
	start := time.Now()
	var merr error
	err := idle(ctx, s, gate, n, func() {
		p.StartNs = int64(time.Since(start))
		time.Sleep(settle)
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		p.HeapKiB, p.StackKiB = int64(ms.HeapInuse>>10), int64(ms.StackInuse>>10)
		if p.RSSKiB, merr = VmRSS(); merr == nil {
			p.VmSizeKiB, merr = procStatusKiB("VmSize")
		}
	})
	if err == nil {
		err = merr
	}
	return p, err
}
