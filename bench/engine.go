package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Engine is one engine under measurement.
type Engine interface {
	// Measure runs src n times, one after the other, each in a fresh
	// sandbox (where the engine has one), and returns the mean time per
	// run and the last run's result.
	Measure(ctx context.Context, src string, n int) (Sample, error)
	// Throughput runs src from workers concurrent lanes for about d and
	// returns the runs per second and the 99th percentile latency.
	Throughput(ctx context.Context, src string, workers int, d time.Duration) (Throughput, error)
	// Close releases the engine.
	Close(ctx context.Context) error
}

// Sample is one measurement of a workload.
type Sample struct {
	// PerRun is the mean wall time of one run.
	PerRun time.Duration
	// Result is the JSON text of the last run's return value.
	Result string
}

// Throughput is one throughput measurement.
type Throughput struct {
	// RunsPerSec is the number of completed runs per second over all lanes.
	RunsPerSec float64
	// P99 is the 99th percentile of the runs' latencies.
	P99 time.Duration
	// Runs is the number of runs measured.
	Runs int
	// Result is the JSON text of one run's return value.
	Result string
}

// Sandbox is an in-process Go engine: Run runs one program in a fresh
// sandbox and returns its return value as JSON text.
type Sandbox interface {
	Run(ctx context.Context, src string) (string, error)
	Close(ctx context.Context) error
}

// GoEngine adapts a Sandbox to an Engine, timing it in process.
func GoEngine(s Sandbox) Engine { return goEngine{s} }

type goEngine struct{ s Sandbox }

func (g goEngine) Measure(ctx context.Context, src string, n int) (Sample, error) {
	var res string
	start := time.Now()
	for range n {
		r, err := g.s.Run(ctx, src)
		if err != nil {
			return Sample{}, err
		}
		res = r
	}
	return Sample{PerRun: time.Since(start) / time.Duration(n), Result: res}, nil
}

func (g goEngine) Throughput(ctx context.Context, src string, workers int, d time.Duration) (Throughput, error) {
	return GoThroughput(ctx, g.s.Run, workers, d, src)
}

func (g goEngine) Close(ctx context.Context) error { return g.s.Close(ctx) }

// GoThroughput runs run(src) on workers goroutines for about d.
func GoThroughput(ctx context.Context, run func(context.Context, string) (string, error), workers int, d time.Duration, src string) (Throughput, error) {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		lat     []time.Duration
		result  string
		firstEr error
		stop    atomic.Bool
	)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			var mine []time.Duration
			for !stop.Load() {
				t := time.Now()
				r, err := run(ctx, src)
				if err != nil {
					mu.Lock()
					firstEr = cmpOr(firstEr, err)
					mu.Unlock()
					stop.Store(true)
					return
				}
				mine = append(mine, time.Since(t))
				if len(mine) == 1 {
					mu.Lock()
					result = r
					mu.Unlock()
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	elapsed := time.Since(start)
	if firstEr != nil {
		return Throughput{}, firstEr
	}
	if len(lat) == 0 {
		return Throughput{}, errors.New("no run completed")
	}
	return Throughput{
		RunsPerSec: float64(len(lat)) / elapsed.Seconds(),
		P99:        Percentile(lat, 0.99),
		Runs:       len(lat),
		Result:     result,
	}, nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Percentile returns the p-th percentile (0 < p <= 1) of ds, nearest rank.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// Workers is the number of concurrent lanes of the throughput workload:
// GOMAXPROCS.
func Workers() int { return runtime.GOMAXPROCS(0) }

// Gate is what tools.wait blocks on: Enter counts a sandbox that reached
// the call, and the call returns once Release is called (or its context
// ends). The zero value is not usable; use NewGate.
type Gate struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

// NewGate returns a gate that can count up to n waiting sandboxes.
func NewGate(n int) *Gate {
	return &Gate{entered: make(chan struct{}, n), release: make(chan struct{})}
}

// Wait is tools.wait: it records the arrival and blocks until Release.
func (g *Gate) Wait(ctx context.Context) error {
	if g == nil {
		return errors.New("tools.wait: no gate")
	}
	select {
	case g.entered <- struct{}{}:
	default:
	}
	select {
	case <-g.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Arrived waits until n sandboxes are in Wait, or ctx ends.
func (g *Gate) Arrived(ctx context.Context, n int) error {
	for i := range n {
		select {
		case <-g.entered:
		case <-ctx.Done():
			return fmt.Errorf("%d of %d sandboxes arrived: %w", i, n, ctx.Err())
		}
	}
	return nil
}

// Release lets every waiting sandbox go on.
func (g *Gate) Release() { g.once.Do(func() { close(g.release) }) }

// Released is the value tools.wait returns.
const Released = "released"

// SleepArgs are the arguments of tools.sleep.
type SleepArgs struct {
	MS int `json:"ms"`
}

// Sleep is tools.sleep: it waits a.MS milliseconds or until ctx ends.
func Sleep(ctx context.Context, args json.RawMessage) error {
	var a SleepArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return fmt.Errorf("tools.sleep: %w", err)
	}
	t := time.NewTimer(time.Duration(a.MS) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Limits every engine is given where it has the means: ptc's defaults
// (docs/ARCHITECTURE.md, "Limits").
const (
	// Timeout bounds a run's wall time.
	Timeout = 30 * time.Second
	// MemoryBytes bounds a sandbox's heap.
	MemoryBytes = 64 << 20
	// StackBytes bounds the JavaScript stack.
	StackBytes = 768 << 10
)
