package ptc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/internal/pgtest"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
	"github.com/ptchost/ptc/runstore"
)

// dispatchLog records each tool dispatch as "tool key", in memory and,
// when path is set, in a file a killed process leaves behind.
type dispatchLog struct {
	mu    sync.Mutex
	lines []string
	path  string
}

func (l *dispatchLog) add(tool, key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := tool + " " + key
	l.lines = append(l.lines, line)
	if l.path != "" {
		f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, line)
			f.Sync()
			f.Close()
		}
	}
}

func (l *dispatchLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.path != "" {
		b, _ := os.ReadFile(l.path)
		return strings.Fields(strings.ReplaceAll(string(b), " ", "|"))
	}
	out := make([]string, len(l.lines))
	for i, s := range l.lines {
		out[i] = strings.ReplaceAll(s, " ", "|")
	}
	return out
}

// durableTools are the tools of the durable-run tests: fast answers at
// once; idem (idempotent) and write (not) answer once block is closed.
func durableTools(log *dispatchLog, block <-chan struct{}) []*registry.Tool {
	mk := func(name string, idempotent bool, wait bool, value any) *registry.Tool {
		return registry.MustDefine(registry.RawSpec{
			Name: name, Description: name + " tool", Idempotent: idempotent,
			ExecutionMode: func(json.RawMessage) registry.Mode { return registry.Parallel },
			Execute: func(ctx context.Context, _ json.RawMessage, e *registry.Exec) (any, error) {
				log.add(name, e.IdempotencyKey)
				if wait {
					select {
					case <-block:
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				return value, nil
			},
		})
	}
	return []*registry.Tool{mk("fast", false, false, map[string]int{"n": 1}), mk("idem", true, true, "idem-done"), mk("write", false, true, "written")}
}

const durableProgram = `
const a = await tools.fast({});
console.log("fast", a.n, Math.random() < 2, typeof Date.now());
const [b, c] = await Promise.all([tools.idem({}), tools.write({}).catch(e => e.code)]);
console.log("then", b, c);
return {a, b, c};`

func openStore(t testing.TB, path string) runstore.Store {
	t.Helper()
	return openURL(t, "sqlite:"+path)
}

func openURL(t testing.TB, url string) runstore.Store {
	t.Helper()
	s, err := runstore.Open(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func durableExecutor(t testing.TB, store runstore.Store, lease time.Duration, tools ...*registry.Tool) *ptc.Executor {
	t.Helper()
	reg := registry.New()
	for _, tl := range tools {
		_, err := reg.Register(tl)
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Store: store, StoreLease: lease})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return ex
}

func text(r *ptc.Result) string {
	var b strings.Builder
	for _, p := range r.Content {
		b.WriteString(p.Text)
	}
	return b.String()
}

// The child process of TestDurable_killed: it runs durableProgram as run
// "killed" in the store at PTC_DURABLE_STORE (a URL), logging dispatches
// to PTC_DURABLE_LOG, and is killed while idem and write are in flight.
func TestDurable_child(t *testing.T) {
	url := os.Getenv("PTC_DURABLE_STORE")
	if url == "" {
		t.Skip("the child process of TestDurable_killed")
	}
	log := &dispatchLog{path: os.Getenv("PTC_DURABLE_LOG")}
	ex := durableExecutor(t, openURL(t, url), time.Second, durableTools(log, make(chan struct{}))...)
	r, err := ex.Run(context.Background(), durableProgram, ptc.RunOptions{RunID: "killed"})
	require.NoError(t, err)
	t.Fatalf("the run ended, but it should have been killed: %s", text(r))
}

// A process killed (SIGKILL) while its run waits in two tools: a new
// process with the same run ID finishes the run; the settled call is not
// made again, the idempotent one in flight is made once more with the
// same key, the other in flight never again (the program sees
// UNAVAILABLE); the same run ID then gives the same bytes and calls
// nothing; another program under that ID is refused.
func TestDurable_killed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Run("sqlite", func(t *testing.T) {
		testKilled(t, "sqlite:"+filepath.Join(t.TempDir(), "runs.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		testKilled(t, pgtest.Start(t, pgtest.Options{}))
	})
}

func testKilled(t *testing.T, storeURL string) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "dispatches")
	cmd := exec.Command(os.Args[0], "-test.run=^TestDurable_child$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PTC_DURABLE_STORE="+storeURL, "PTC_DURABLE_LOG="+logPath)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	log := &dispatchLog{path: logPath}
	deadline := time.Now().Add(60 * time.Second)
	for !(len(log.all()) == 3) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child never had three calls in flight: %v\n%s", log.all(), out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	require.ElementsMatch(t, []string{"fast|killed/1", "idem|killed/2", "write|killed/3"}, log.all())

	block := make(chan struct{})
	close(block)
	ex := durableExecutor(t, openURL(t, storeURL), time.Second, durableTools(log, block)...)
	start := time.Now()
	r, err := ex.Run(context.Background(), durableProgram, ptc.RunOptions{RunID: "killed"})
	require.NoError(t, err)
	require.NoError(t, r.Err(), text(r))
	assert.Equal(t, "fast 1 true number\nthen idem-done UNAVAILABLE\n{\"a\": {\"n\": 1}, \"b\": \"idem-done\", \"c\": \"UNAVAILABLE\"}", text(r))
	assert.Equal(t, "killed", r.RunID)
	assert.ElementsMatch(t, []string{"fast|killed/1", "idem|killed/2", "write|killed/3", "idem|killed/2"}, log.all(),
		"fast settled before the kill and write is not idempotent: neither is made again")
	t.Logf("resumed after the lease lapsed, in %v", time.Since(start))

	again, err := ex.Run(context.Background(), durableProgram, ptc.RunOptions{RunID: "killed"})
	require.NoError(t, err)
	assert.Equal(t, r.Content, again.Content, "the stored result, byte for byte")
	assert.Len(t, log.all(), 4, "and no tool is called")

	other, err := ex.Run(context.Background(), `return 1`, ptc.RunOptions{RunID: "killed"})
	require.NoError(t, err)
	assert.ErrorIs(t, other.Err(), ptc.ErrIncompatible)
	assert.Contains(t, text(other), "the program")
}

// Two executors (processes) sharing a store run one run ID at once: one
// drives it, the other waits for it, and both get its result.
func TestDurable_oneDriver(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs.db")
	log := &dispatchLog{}
	block := make(chan struct{})
	a := durableExecutor(t, openStore(t, store), 2*time.Second, durableTools(log, block)...)
	b := durableExecutor(t, openStore(t, store), 2*time.Second, durableTools(log, block)...)
	var wg sync.WaitGroup
	results := make([]*ptc.Result, 2)
	for i, ex := range []*ptc.Executor{a, b} {
		wg.Go(func() {
			r, err := ex.Run(context.Background(), durableProgram, ptc.RunOptions{RunID: "shared"})
			assert.NoError(t, err)
			results[i] = r
		})
	}
	time.Sleep(300 * time.Millisecond)
	close(block)
	wg.Wait()
	require.NoError(t, results[0].Err(), text(results[0]))
	assert.Equal(t, results[0].Content, results[1].Content)
	assert.Equal(t, []string{"fast|shared/1", "idem|shared/2", "write|shared/3"}, sortedCopy(log.all()))
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// A run whose caller went away is not finished: the same run ID resumes
// it, and the calls that settled are not made again.
func TestDurable_callerLeaves(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "runs.db"))
	log := &dispatchLog{}
	block := make(chan struct{})
	ex := durableExecutor(t, store, 2*time.Second, durableTools(log, block)...)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(log.all()) < 3 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	r, err := ex.Run(ctx, durableProgram, ptc.RunOptions{RunID: "left"})
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrAborted)
	close(block)
	r, err = ex.Run(context.Background(), durableProgram, ptc.RunOptions{RunID: "left"})
	require.NoError(t, err)
	require.NoError(t, r.Err(), text(r))
	assert.Contains(t, text(r), "then idem-done UNAVAILABLE")
	assert.Equal(t, []string{"fast|left/1", "idem|left/2", "idem|left/2", "write|left/3"}, sortedCopy(log.all()),
		"the calls cut while they ran may have acted: the idempotent one is made again, the other not; fast settled")
}

// A batch's run IDs join RunOptions.RunID and each call's own ID; without
// one, each run gets a fresh ID.
func TestDurable_batchRunIDs(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "runs.db"))
	ex := durableExecutor(t, store, time.Second)
	call := func(id, code string) pipeline.RawCall {
		c := runCall(code)
		c.ID = id
		return c
	}
	rs, err := ex.ExecuteWith(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{call("toolu_1", "return 1"), call("toolu_2", "return 2")}}, ptc.RunOptions{RunID: "conv-9"})
	require.NoError(t, err)
	assert.Equal(t, []string{"conv-9/toolu_1", "conv-9/toolu_2"}, []string{rs[0].RunID, rs[1].RunID})
	r, err := ex.Run(context.Background(), "return 3", ptc.RunOptions{})
	require.NoError(t, err)
	assert.Len(t, r.RunID, 32)
}

// With a store, executors share the continuation key (made once, in the
// store) and a continuation resumes once among them all: a run suspended
// on one resumes on another, and a second resume anywhere is refused.
func TestDurable_approvalOnce(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs.db")
	var sends atomic.Int32
	mk := func() *ptc.Executor {
		reg := registry.New()
		for _, tl := range []*registry.Tool{
			rawTool("lookup", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
				return "addr-" + string(a[len(a)-2:len(a)-1]), nil
			}),
			rawTool("send", registry.Serial, func(_ context.Context, a json.RawMessage) (any, error) { sends.Add(1); return "sent", nil }),
		} {
			_, err := reg.Register(tl)
			require.NoError(t, err)
		}
		pipe, err := pipeline.New(pipeline.Config{Registry: reg})
		require.NoError(t, err)
		pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
			if inv.Name() == "send" {
				return pipeline.Ask("send?")
			}
			return d
		})
		ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Store: openStore(t, store)})
		require.NoError(t, err)
		t.Cleanup(func() { ex.Close(context.Background()) })
		return ex
	}
	a, b := mk(), mk()
	ctx := context.Background()
	opts := ptc.RunOptions{SuspendAsks: true}
	r, err := a.Run(ctx, askProgram, opts)
	require.NoError(t, err)
	require.ErrorIs(t, r.Err(), ptc.ErrSuspended)
	approve := pipeline.Answer{Approved: true}
	r2, err := b.Resume(ctx, pipeline.Batch{}, r.Continuation, approve, opts)
	require.NoError(t, err, "b verifies what a signed: the key is the store's")
	require.ErrorIs(t, r2.Err(), ptc.ErrSuspended)
	require.EqualValues(t, 1, sends.Load())
	_, err = a.Resume(ctx, pipeline.Batch{}, r.Continuation, approve, opts)
	require.ErrorIs(t, err, ptc.ErrResumed)
	_, err = b.Resume(ctx, pipeline.Batch{}, r.Continuation, approve, opts)
	require.ErrorIs(t, err, ptc.ErrResumed)
	r3, err := a.Resume(ctx, pipeline.Batch{}, r2.Continuation, pipeline.Answer{Reason: "no"}, opts)
	require.NoError(t, err)
	require.NoError(t, r3.Err(), text(r3))
	require.Contains(t, text(r3), `["sent", "DENIED"]`)
	require.EqualValues(t, 1, sends.Load())
}

// The store's size and the runs it holds are metrics.
func TestDurable_metrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	reg := registry.New()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg, MeterProvider: mp})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Store: openStore(t, filepath.Join(t.TempDir(), "runs.db"))})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	for range 3 {
		_, err := ex.Run(context.Background(), `return 1`, ptc.RunOptions{})
		require.NoError(t, err)
	}
	o := &observed{reader: reader}
	m := o.metrics(t)
	assert.Equal(t, map[string]float64{"state=finished,": 3, "state=running,": 0}, m["ptc_store_runs"])
	assert.Greater(t, m["ptc_store_bytes"][""], 300.0)
}

// A durable run's bounds: a subcall result over 4 MiB fails that call; a
// call that would take the run's stored data over its cap is not made.
func TestDurable_bounds(t *testing.T) {
	big := rawTool("big", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
		var n struct{ N int }
		json.Unmarshal(a, &n)
		return strings.Repeat("x", n.N), nil
	})
	ctx := context.Background()
	store, err := runstore.OpenWith(ctx, "sqlite:"+filepath.Join(t.TempDir(), "runs.db"), runstore.Options{MaxRunBytes: 64 << 10})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	ex := durableExecutor(t, store, 0, big)
	r, err := ex.Run(ctx, `try { await tools.big({n: 5 << 20}) } catch (e) { return e.code + ": " + e.message }`,
		ptc.RunOptions{Limits: ptc.Limits{ResultBytes: 8 << 20}})
	require.NoError(t, err)
	assert.Contains(t, text(r), "TOOL_FAILED: tool result is 5242882 bytes, over the 4194304-byte limit of a value a durable run stores")

	r, err = ex.Run(ctx, `const out = []
for (let i = 0; i < 10; i++) {
  try { await tools.big({n: 20000}); out.push("ok") } catch (e) { out.push(e.code); if (e.code !== "TOOL_FAILED") { console.log(e.message); break } }
}
return out`, ptc.RunOptions{})
	require.NoError(t, err)
	assert.Contains(t, text(r), `the call was not made: the run store could not record it first`)
	assert.Contains(t, text(r), `over its cap`)
	assert.Contains(t, text(r), `"ok", "ok", "UNAVAILABLE"`)
}

// A run_code call that carries its own idempotency key names its run.
func TestDurable_callNamesItsRun(t *testing.T) {
	ex := durableExecutor(t, openStore(t, filepath.Join(t.TempDir(), "runs.db")), 0)
	c := runCall("return 7")
	c.IdempotencyKey = "job-9"
	rs, err := ex.ExecuteWith(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{c}}, ptc.RunOptions{RunID: "ignored"})
	require.NoError(t, err)
	assert.Equal(t, "job-9", rs[0].RunID)
}
