package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// parkingExecutor is an executor over tool whose waiting runs park after
// 5 ms; it is closed when the test ends.
func parkingExecutor(t *testing.T, tool *registry.Tool) *ptc.Executor {
	t.Helper()
	reg := registry.New()
	_, err := reg.Register(tool)
	require.NoError(t, err)
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	h, err := host.New(context.Background(), host.Config{ParkAfter: 5 * time.Millisecond})
	if errors.Is(err, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	require.NoError(t, err)
	t.Cleanup(func() { h.Close(context.Background()) })
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: h})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return ex
}

// An executor's runs that wait for slow tools park (host.Config.ParkAfter)
// and come back: the model sees what it would have seen, every tool ran
// once, and a recorded run, which never parks, prints the same.
func TestExecutor_parkedRuns(t *testing.T) {
	var calls atomic.Int32
	slow := rawTool("slow", registry.Parallel, func(ctx context.Context, a json.RawMessage) (any, error) {
		calls.Add(1)
		select {
		case <-time.After(400 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return a, nil
	})
	ex := parkingExecutor(t, slow)

	const code = `
const r = Math.random(), t0 = Date.now();
console.log("start");
const a = await tools.slow({n: 1, r});
console.log("a", a.n, a.r === r);
const [b, c] = await Promise.all([tools.slow({n: 2}), tools.slow({n: 3})]);
console.log("b c", b.n, c.n, Date.now() - t0 >= 800);
return a.n + b.n + c.n`
	want := "start\na 1 true\nb c 2 3 true\n6"
	for _, record := range []bool{false, true} {
		calls.Store(0)
		res, err := ex.Run(context.Background(), code, ptc.RunOptions{Record: record})
		require.NoError(t, err)
		require.NoError(t, res.Err())
		assert.Equal(t, want, registry.PlainText(res.Content), "record %v", record)
		assert.EqualValues(t, 3, calls.Load(), "each tool call ran once")
		assert.Len(t, res.Subcalls, 3)
	}
}

// A run that ends while it comes back from parking shows the model every
// line it printed before it parked, and counts the call it waited for.
func TestExecutor_endsWhileComingBack(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	slow := rawTool("slow", registry.Parallel, func(ctx context.Context, a json.RawMessage) (any, error) {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return map[string]int{"n": 1}, nil
	})
	ex := parkingExecutor(t, slow)

	// About 50 ms of work before the wait: the run parks after 20 times
	// that, and coming back replays it.
	const code = `
for (let i = 0; i < 50; i++) { let x = 0; for (let j = 0; j < 4000; j++) x += j % 7; console.log("line", i, x); }
const v = await tools.slow({});
console.log("back", v.n);
while (true) {}`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-started
		time.Sleep(1500 * time.Millisecond) // it parks after about 0.4 s
		close(release)
		time.Sleep(2 * time.Millisecond) // the replay of 50 lines takes longer
		cancel()
	}()
	res, err := ex.Run(ctx, code, ptc.RunOptions{})
	require.NoError(t, err)
	require.ErrorIs(t, res.Err(), ptc.ErrAborted)
	lines := strings.Split(registry.PlainText(res.Content), "\n")
	for i := range 50 {
		assert.Contains(t, lines, fmt.Sprintf("line %d 11994", i))
	}
	require.Len(t, res.Subcalls, 1, "the call it waited for")
	assert.Equal(t, "slow", res.Subcalls[0].Tool)
}
