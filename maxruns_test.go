package ptc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// gateTool is a tool "wait" that blocks until released (or its context
// ends), counting the calls in flight and the order of their arguments'
// "id".
type gateTool struct {
	release  chan struct{}
	mu       sync.Mutex
	order    []int
	inFlight atomic.Int64
	peak     atomic.Int64
}

func newGateTool() *gateTool { return &gateTool{release: make(chan struct{})} }

func (g *gateTool) tool() *registry.Tool {
	return rawTool("wait", registry.Parallel, func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ ID int }
		_ = json.Unmarshal(args, &a)
		n := g.inFlight.Add(1)
		defer g.inFlight.Add(-1)
		for {
			p := g.peak.Load()
			if n <= p || g.peak.CompareAndSwap(p, n) {
				break
			}
		}
		g.mu.Lock()
		g.order = append(g.order, a.ID)
		g.mu.Unlock()
		select {
		case <-g.release:
			return a.ID, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// calls counts the calls the tool received.
func (g *gateTool) calls() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.order)
}

// arrived waits until n calls are in the tool.
func (g *gateTool) arrived(t testing.TB, n int64) {
	t.Helper()
	require.Eventually(t, func() bool { return g.inFlight.Load() >= n }, 30*time.Second, time.Millisecond)
}

func newCapped(t testing.TB, maxRuns int, tools ...*registry.Tool) *ptc.Executor {
	t.Helper()
	reg := registry.New()
	for _, tl := range tools {
		_, err := reg.Register(tl)
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), MaxRuns: maxRuns})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return ex
}

func waitProgram(id int) string {
	return fmt.Sprintf("return await tools.wait({id: %d})", id)
}

// TestMaxRuns_fifo: with MaxRuns 2, two runs hold the slots, and the runs
// that came after start in the order they came, one as each slot frees.
func TestMaxRuns_fifo(t *testing.T) {
	g := newGateTool()
	ex := newCapped(t, 2, g.tool())
	ctx := context.Background()
	results := make([]*ptc.Result, 6)
	var wg sync.WaitGroup
	start := func(i int) {
		wg.Go(func() {
			r, err := ex.Run(ctx, waitProgram(i), ptc.RunOptions{})
			if err == nil {
				results[i] = r
			}
		})
	}
	start(0)
	start(1)
	g.arrived(t, 2)
	for i := 2; i < 6; i++ {
		start(i)
		// Let it queue before the next comes.
		require.Eventually(t, func() bool { return ex.WaitingRuns() == i-1 }, 30*time.Second, time.Millisecond)
	}
	require.EqualValues(t, 2, g.inFlight.Load(), "only MaxRuns runs start")
	// Free one slot at a time, and wait for the run that takes it to
	// reach the tool before freeing the next.
	for i := 2; i < 6; i++ {
		g.release <- struct{}{}
		require.Eventually(t, func() bool { return g.calls() > i }, 30*time.Second, time.Millisecond)
	}
	close(g.release)
	wg.Wait()
	require.EqualValues(t, 2, g.peak.Load())
	g.mu.Lock()
	order := g.order
	g.mu.Unlock()
	require.Equal(t, []int{2, 3, 4, 5}, order[2:], "waiting runs start in the order they came")
	for i, r := range results {
		require.NotNil(t, r, "run %d", i)
		require.NoError(t, r.Err(), "run %d", i)
		require.Equal(t, strconv.Itoa(i), r.Content[0].Text)
	}
}

// TestMaxRuns_noWait: a run asked not to wait fails at once when the
// executor is full, with ErrBusy (also ErrAborted, not the caller's
// cancellation), and the model reads why.
func TestMaxRuns_noWait(t *testing.T) {
	g := newGateTool()
	ex := newCapped(t, 1, g.tool())
	ctx := context.Background()
	done := make(chan *ptc.Result)
	go func() {
		r, _ := ex.Run(ctx, waitProgram(1), ptc.RunOptions{})
		done <- r
	}()
	g.arrived(t, 1)

	begin := time.Now()
	r, err := ex.Run(ctx, "return 1", ptc.RunOptions{NoWait: true})
	require.NoError(t, err)
	require.Less(t, time.Since(begin), 10*time.Second, "refused at once")
	require.True(t, r.IsError)
	require.Nil(t, r.Run, "the program never ran")
	require.Equal(t, "Error: code run failed (aborted): the executor is at its limit of runs in flight (1)", r.Content[0].Text)
	require.ErrorIs(t, r.Err(), ptc.ErrBusy)
	require.ErrorIs(t, r.Err(), ptc.ErrAborted)
	require.NotErrorIs(t, r.Err(), context.Canceled)
	require.NotErrorIs(t, r.Err(), ptc.ErrTimeout)

	close(g.release)
	first := <-done
	require.NoError(t, first.Err())
	// With the slot free, NoWait runs.
	r, err = ex.Run(ctx, "return 2", ptc.RunOptions{NoWait: true})
	require.NoError(t, err)
	require.NoError(t, r.Err())
	require.Equal(t, "2", r.Content[0].Text)
}

// TestMaxRuns_waitEndsWithContext: a run waiting for a slot ends when its
// context does, as a run cancelled before it started; the slot holder is
// untouched.
func TestMaxRuns_waitEndsWithContext(t *testing.T) {
	g := newGateTool()
	ex := newCapped(t, 1, g.tool())
	done := make(chan *ptc.Result)
	go func() {
		r, _ := ex.Run(context.Background(), waitProgram(1), ptc.RunOptions{})
		done <- r
	}()
	g.arrived(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r, err := ex.Run(ctx, "return 1", ptc.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, "Error: code run failed (aborted): cancelled before it started", r.Content[0].Text)
	require.ErrorIs(t, r.Err(), ptc.ErrAborted)
	require.NotErrorIs(t, r.Err(), ptc.ErrBusy)
	close(g.release)
	require.NoError(t, (<-done).Err())
}

// TestMaxRuns_unbounded: a negative MaxRuns bounds nothing.
func TestMaxRuns_unbounded(t *testing.T) {
	g := newGateTool()
	ex := newCapped(t, -1, g.tool())
	const n = 200 // over DefaultMaxRuns
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := ex.Run(context.Background(), waitProgram(i), ptc.RunOptions{NoWait: true})
			if err != nil || r.Err() != nil {
				t.Errorf("run %d: %v %v", i, err, r.Err())
			}
		})
	}
	g.arrived(t, n)
	close(g.release)
	wg.Wait()
}

// procStatus reads a field of /proc/self/status in KiB.
func procStatus(t testing.TB, field string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb
		}
	}
	t.Skipf("no %s in /proc/self/status", field)
	return 0
}

// TestMaxRuns_flood floods an executor with 20,000 runs, each waiting for
// a tool: at most MaxRuns are in flight at any time, the process's peak
// RSS stays within what MaxRuns runs and the waiting callers cost (a
// sanity bound, well above the measured figures), and every run settles
// with its own result. Under -race (whose shadow memory distorts RSS) it
// is skipped; make test runs it without.
func TestMaxRuns_flood(t *testing.T) {
	if raceEnabled {
		t.Skip("RSS under the race detector means nothing; make test runs this without -race")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	const (
		n       = 20000
		maxRuns = 64
	)
	g := newGateTool()
	ex := newCapped(t, maxRuns, g.tool())
	// Warm up: the host's snapshot and the SDK's prelude image exist.
	r, err := ex.Run(context.Background(), "return 1", ptc.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, r.Err())
	runtime.GC()
	before := procStatus(t, "VmRSS")
	// Reset the peak (VmHWM) to the current RSS (proc(5), clear_refs 5).
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak RSS: %v", err)
	}

	var (
		wg      sync.WaitGroup
		settled atomic.Int64
		bad     atomic.Int64
	)
	begin := time.Now()
	for i := range n {
		wg.Go(func() {
			r, err := ex.Run(context.Background(), waitProgram(i), ptc.RunOptions{})
			switch {
			case err != nil:
				t.Errorf("run %d: %v", i, err)
				bad.Add(1)
			case r.Err() != nil || r.Content[0].Text != strconv.Itoa(i):
				if bad.Add(1) < 5 {
					t.Errorf("run %d: %v %q", i, r.Err(), r.Content[0].Text)
				}
			}
			settled.Add(1)
		})
	}
	// Release the tool's calls as they come, so that the runs flow
	// through the executor at MaxRuns in flight.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case g.release <- struct{}{}:
			case <-stop:
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	elapsed := time.Since(begin)
	peak := procStatus(t, "VmHWM")

	require.EqualValues(t, n, settled.Load(), "every run settles")
	require.Zero(t, bad.Load())
	require.LessOrEqual(t, g.peak.Load(), int64(maxRuns), "runs in flight")
	require.EqualValues(t, maxRuns, g.peak.Load(), "the flood fills every slot")
	// The budget: MaxRuns runs at up to 2 MiB each (a waiting run holds
	// well under 0.5 MiB) and every waiting caller's goroutine at up to
	// 32 KiB, plus 64 MiB for the Go runtime's slack. Without the bound,
	// 20,000 runs in flight would hold ~8 GiB.
	budget := int64(maxRuns*2<<10 + n*32 + 64<<10)
	t.Logf("%d runs in %v; RSS %d KiB before, peak %d KiB (+%d KiB; budget %d KiB)", n, elapsed.Round(time.Millisecond), before, peak, peak-before, budget)
	require.Less(t, peak-before, budget, "peak RSS above the runs' budget")
}

// ExampleConfig_maxRuns caps an executor at one program at a time: a run
// that may not wait for the busy executor is refused with ErrBusy.
func ExampleConfig_maxRuns() {
	ctx := context.Background()
	started, release := make(chan struct{}), make(chan struct{})
	reg := registry.New()
	reg.Register(registry.MustDefine(registry.Spec[struct{}, string]{
		Name:          "slow",
		Description:   "Answers when released.",
		Parameters:    registry.Object(),
		ExecutionMode: func(struct{}) registry.Mode { return registry.Parallel },
		Execute: func(context.Context, struct{}, *registry.Exec) (string, error) {
			close(started)
			<-release
			return "done", nil
		},
	}))
	pipe, _ := pipeline.New(pipeline.Config{Registry: reg})
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe, MaxRuns: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ex.Close(ctx)

	first := make(chan *ptc.Result)
	go func() {
		r, _ := ex.Run(ctx, "return await tools.slow({})", ptc.RunOptions{})
		first <- r
	}()
	<-started
	r, _ := ex.Run(ctx, "return 1", ptc.RunOptions{NoWait: true})
	fmt.Println(errors.Is(r.Err(), ptc.ErrBusy))
	fmt.Println(r.Content[0].Text)
	close(release)
	fmt.Println((<-first).Content[0].Text)
	// Output:
	// true
	// Error: code run failed (aborted): the executor is at its limit of runs in flight (1)
	// done
}
