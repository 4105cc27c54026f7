//go:build soak

package ptc

// The soak test (make soak; issue 10, item 6). It is not part of go test:
// it takes minutes and asserts figures a loaded CI machine may miss.
//
//	make soak
//	PTC_SOAK_DURATION=10m make soak
//	go test -tags soak -run '^TestSoak$' -timeout 30m -v -count=1 .  # what make soak runs
//	go test -race -tags soak ...                                    # counts races too
//
// TestSoak runs each phase in a child process (this test binary again, with
// PTC_SOAK_PHASE set) and watches it from outside: a guest that cannot be
// interrupted also stalls the Go runtime's stop-the-world, and with it every
// goroutine of its process, a watchdog included. The parent kills a child
// that stops sending heartbeats (PTC_SOAK_STALL) or overruns its phase,
// after a SIGQUIT for a goroutine dump, and counts a child that dies by
// itself as a crash. Each child writes its figures to a JSON report every
// second, so a killed child still reports what it saw.
//
// Phases (PTC_SOAK_PHASES, default load,cycles,close):
//
//   - load: well-behaved programs (small subcall programs through a real
//     registry, pipeline and executor) run unloaded for PTC_SOAK_BASELINE,
//     then for PTC_SOAK_DURATION beside PTC_SOAK_RUNAWAYS (4×GOMAXPROCS)
//     runaway programs of every kind (PTC_SOAK_KINDS) stopped by a
//     PTC_SOAK_TIMEOUT deadline: the program's own limit, the caller's
//     context deadline or the caller's cancel, through host.Run or
//     Executor.Execute.
//   - cycles: PTC_SOAK_CYCLES start/cancel cycles (PTC_SOAK_CANCEL): cancel
//     before start, during instantiation, during a subcall, during a long
//     built-in.
//   - close: Executor.Close (with a short grace) while runs of every sort
//     are in flight (a long built-in only when PTC_SOAK_CANCEL has
//     "builtin"), then Execute after Close.
//
// Figures: crashes, races, hung children; cancel latency p50/p99/max (from
// the deadline or cancel to Run/Execute returning); well-behaved p99 under
// load vs unloaded; the longest GC stop-the-world pause (runtime/metrics'
// /sched/pauses histograms, a goroutine forcing runtime.GC, and the longest
// silence of the child's heartbeat seen from outside); goroutines, Go heap
// and RSS after GC vs the baseline. The summary is logged as a table and as
// SOAK_RESULT key=value lines; the test fails, with the figures, when a
// target of issue 10 is missed.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/advtest"
	"github.com/ptchost/ptc/internal/guestfile"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Targets (issue 10).
const (
	soakTargetCancelP99 = 50 * time.Millisecond
	soakTargetCancelMax = 250 * time.Millisecond
	soakTargetWellRatio = 2.0
	soakTargetSTW       = 10 * time.Millisecond
)

const (
	soakEnvPhase  = "PTC_SOAK_PHASE"
	soakEnvReport = "PTC_SOAK_REPORT"
	soakHeartbeat = "SOAK_HEARTBEAT"
	soakMiB       = 1 << 20
)

// soakConfig is read from the environment, by the parent and its children
// alike.
type soakConfig struct {
	Duration  time.Duration // PTC_SOAK_DURATION: runaways beside well-behaved programs
	Baseline  time.Duration // PTC_SOAK_BASELINE: well-behaved programs alone
	Cycles    int           // PTC_SOAK_CYCLES
	Timeout   time.Duration // PTC_SOAK_TIMEOUT: the runaways' deadline
	Runaways  int           // PTC_SOAK_RUNAWAYS
	Well      int           // PTC_SOAK_WELL: well-behaved workers
	Kinds     []soakProgram // PTC_SOAK_KINDS: names or groups, "-x" excludes
	CancelAt  []string      // PTC_SOAK_CANCEL
	Phases    []string      // PTC_SOAK_PHASES
	Grace     time.Duration // PTC_SOAK_GRACE: how long a phase waits for its runs after it ends
	Stall     time.Duration // PTC_SOAK_STALL: a child silent this long is killed
	CycleTime time.Duration // PTC_SOAK_CYCLES_LIMIT: the cycles phase's time limit
}

func soakLoadConfig() (soakConfig, error) {
	procs := runtime.GOMAXPROCS(0)
	c := soakConfig{
		Duration:  3 * time.Minute,
		Baseline:  10 * time.Second,
		Cycles:    10000,
		Timeout:   300 * time.Millisecond,
		Runaways:  4 * procs,
		Well:      procs,
		CancelAt:  []string{"before", "instantiate", "subcall", "builtin"},
		Phases:    []string{"load", "cycles", "close"},
		Grace:     30 * time.Second,
		Stall:     2 * time.Minute,
		CycleTime: 10 * time.Minute,
	}
	var errs []error
	dur := func(name string, p *time.Duration) {
		if v := os.Getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				errs = append(errs, fmt.Errorf("%s=%q: want a duration such as 5m", name, v))
				return
			}
			*p = d
		}
	}
	num := func(name string, p *int) {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				errs = append(errs, fmt.Errorf("%s=%q: want a count", name, v))
				return
			}
			*p = n
		}
	}
	list := func(name string, p *[]string, allowed []string) {
		if v := os.Getenv(name); v != "" {
			var out []string
			for _, s := range strings.Split(v, ",") {
				s = strings.TrimSpace(s)
				if s == "" {
					continue
				}
				if !slices.Contains(allowed, s) {
					errs = append(errs, fmt.Errorf("%s: unknown %q (have %s)", name, s, strings.Join(allowed, ",")))
				}
				out = append(out, s)
			}
			*p = out
		}
	}
	dur("PTC_SOAK_DURATION", &c.Duration)
	dur("PTC_SOAK_BASELINE", &c.Baseline)
	dur("PTC_SOAK_TIMEOUT", &c.Timeout)
	dur("PTC_SOAK_GRACE", &c.Grace)
	dur("PTC_SOAK_STALL", &c.Stall)
	dur("PTC_SOAK_CYCLES_LIMIT", &c.CycleTime)
	num("PTC_SOAK_CYCLES", &c.Cycles)
	num("PTC_SOAK_RUNAWAYS", &c.Runaways)
	num("PTC_SOAK_WELL", &c.Well)
	list("PTC_SOAK_CANCEL", &c.CancelAt, []string{"before", "instantiate", "subcall", "builtin"})
	list("PTC_SOAK_PHASES", &c.Phases, []string{"load", "cycles", "close"})
	kinds, err := soakSelectKinds(os.Getenv("PTC_SOAK_KINDS"))
	if err != nil {
		errs = append(errs, err)
	}
	c.Kinds = kinds
	if c.Timeout <= 0 {
		errs = append(errs, errors.New("PTC_SOAK_TIMEOUT must be positive"))
	}
	if c.Well < 1 {
		c.Well = 1
	}
	return c, errors.Join(errs...)
}

// soakProgram is a runaway program: it never ends by itself, or ends only
// by exhausting its memory.
type soakProgram struct {
	Name, Group, Source string
	Memory              uint64 // 0: the default limit
}

var soakRunaways = []soakProgram{
	{"js_loop", "js", `for (;;) {}`, 0},
	{"js_loop_try", "js", `for (;;) { try { for (;;) {} } catch (e) {} }`, 0},
	{"js_loop_finally", "js", `for (;;) { try { for (;;) {} } finally { continue } }`, 0},
	{"js_recursion_loop", "js", `function f() { return f() + 1 } for (;;) { try { f() } catch (e) {} }`, 0},
	{"reverse_60mb", "builtin", `const a = new Uint8Array(60e6); for (;;) a.reverse()`, 128 * soakMiB},
	{"sort_1e6", "builtin", `const a = Array.from({length: 1e6}, (_, i) => (i * 7919) % 1e6); for (;;) a.sort()`, 128 * soakMiB},
	{"typed_sort_1e6", "builtin", `const a = new Float64Array(1e6); for (let i = 0; i < a.length; i++) a[i] = (i * 7919) % 1e6; for (;;) { a.reverse(); a.sort() }`, 128 * soakMiB},
	{"join_1e6", "builtin", `const a = new Array(1e6).fill("abcdefgh"); for (;;) a.join(",")`, 128 * soakMiB},
	{"repeat_16mb", "builtin", `for (;;) "abcdefgh".repeat(1 << 21)`, 128 * soakMiB},
	{"stringify_2e5", "builtin", `const a = Array.from({length: 2e5}, (_, i) => ({i, s: "abcdefgh", a: [i, i]})); for (;;) JSON.stringify(a)`, 128 * soakMiB},
	{"parser_1e7", "builtin", `for (;;) new Function("0;".repeat(1e7))`, 128 * soakMiB},
	{"regex_backtrack", "regex", `/(a+)+$/.test("a".repeat(40) + "b")`, 0},
	{"microtask_chain", "microtask", `function f() { queueMicrotask(f) } f()`, 0},
	{"microtask_flood", "microtask", `for (;;) queueMicrotask(() => {})`, 32 * soakMiB},
	{"promise_flood", "microtask", `for (;;) Promise.resolve().then(() => {})`, 32 * soakMiB},
	{"bomb_strings", "memory", `const k = []; for (;;) k.push("x".repeat(1 << 20) + k.length)`, 32 * soakMiB},
	{"bomb_arraybuffer", "memory", `const k = []; for (;;) k.push(new ArrayBuffer(1 << 20))`, 32 * soakMiB},
	{"bomb_array", "memory", `const k = []; for (;;) k.push([k.length, {}])`, 32 * soakMiB},
	{"bomb_properties", "memory", `const o = {}; for (let i = 0; ; i++) o["p" + i] = {i}`, 32 * soakMiB},
	{"bomb_map", "memory", `const m = new Map(); for (let i = 0; ; i++) m.set(i, {i})`, 32 * soakMiB},
	{"gc_huge_heap", "gc", `const k = []; for (let i = 0; i < 1e6; i++) k.push({i}); for (;;) { const t = []; for (let j = 0; j < 1e5; j++) t.push([j]) }`, 128 * soakMiB},
}

// soakCycleBuiltins are the long built-ins the cycles phase cancels: lighter
// set-ups than the runaways', so that the cancel lands in the built-in.
var soakCycleBuiltins = []string{
	`const a = new Uint8Array(16e6); for (;;) a.reverse()`,
	`const a = new Array(2e5).fill("abcdefgh"); for (;;) a.join(",")`,
	`for (;;) "abcdefgh".repeat(1 << 20)`,
	`const a = new Array(1e5).fill("abcdefgh"); for (;;) JSON.stringify(a)`,
	`const a = new Float64Array(2e5); for (let i = 0; i < a.length; i++) a[i] = i; for (;;) { a.reverse(); a.sort() }`,
	`for (;;) new Function("0;".repeat(1e6))`,
	`/(a+)+$/.test("a".repeat(40) + "b")`,
}

func soakSelectKinds(spec string) ([]soakProgram, error) {
	if strings.TrimSpace(spec) == "" {
		return soakRunaways, nil
	}
	match := func(p soakProgram, tok string) bool { return p.Name == tok || p.Group == tok }
	var inc, exc []string
	for _, tok := range strings.Split(spec, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			continue
		}
		neg := strings.HasPrefix(tok, "-")
		tok = strings.TrimPrefix(tok, "-")
		known := slices.ContainsFunc(soakRunaways, func(p soakProgram) bool { return match(p, tok) })
		if !known {
			return nil, fmt.Errorf("PTC_SOAK_KINDS: unknown kind or group %q", tok)
		}
		if neg {
			exc = append(exc, tok)
		} else {
			inc = append(inc, tok)
		}
	}
	var out []soakProgram
	for _, p := range soakRunaways {
		in := len(inc) == 0 || slices.ContainsFunc(inc, func(t string) bool { return match(p, t) })
		if in && !slices.ContainsFunc(exc, func(t string) bool { return match(p, t) }) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("PTC_SOAK_KINDS selects no runaway program")
	}
	return out, nil
}

// TestSoak is the parent, or a child when PTC_SOAK_PHASE is set.
func TestSoak(t *testing.T) {
	cfg, err := soakLoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if phase := os.Getenv(soakEnvPhase); phase != "" {
		soakChild(t, cfg, phase)
		return
	}
	if _, err := guestfile.Find(""); err != nil {
		t.Skip("guest not built: run make guest")
	}
	soakParent(t, cfg)
}

// ---------------------------------------------------------------------------
// The report a child writes.

type soakSample struct {
	Class string  `json:"c"`
	Ms    float64 `json:"ms"`
}

type soakStuck struct {
	Class string `json:"class"`
	// Point is when the run should have stopped (its deadline or cancel),
	// in Unix nanoseconds.
	Point int64 `json:"point"`
}

type soakCloseReport struct {
	InFlight       int            `json:"inFlight"`
	CloseMs        float64        `json:"closeMs"`
	CloseErr       string         `json:"closeErr,omitempty"`
	Returned       int            `json:"returned"`
	Kinds          map[string]int `json:"kinds"`
	AfterCloseMs   float64        `json:"afterCloseMs"`
	AfterCloseText string         `json:"afterCloseText"`
	AfterCloseErr  bool           `json:"afterCloseIsError"`
}

type soakReport struct {
	Phase   string    `json:"phase"`
	Done    bool      `json:"done"`
	Updated time.Time `json:"updated"`

	Cancel []soakSample `json:"cancel"`
	Stuck  []soakStuck  `json:"stuck"`
	// Kinds counts outcome kinds by class.
	Kinds map[string]map[string]int `json:"kinds"`
	// SuccessLate counts runs that succeeded after their deadline or
	// cancel; Misreported runs stopped by a deadline or cancel with another
	// kind than the one that stopped them (timeout for the program's limit,
	// aborted for the caller's).
	SuccessLate int      `json:"successLate"`
	Misreported int      `json:"misreported"`
	Examples    []string `json:"examples,omitempty"`

	Unloaded  []float64 `json:"unloaded"`
	Loaded    []float64 `json:"loaded"`
	WellWrong int       `json:"wellWrong"`

	StopMaxMs    float64 `json:"stopMaxMs"`
	StopMaxHiMs  float64 `json:"stopMaxHiMs"`
	PauseMaxMs   float64 `json:"pauseMaxMs"`
	PauseMaxHiMs float64 `json:"pauseMaxHiMs"`
	ForcedGCMs   float64 `json:"forcedGCMaxMs"`
	ForcedGCs    int     `json:"forcedGCs"`
	SleepLagMs   float64 `json:"sleepLagMaxMs"`

	GoroutinesBase  int    `json:"goroutinesBase"`
	GoroutinesAfter int    `json:"goroutinesAfter"`
	HeapBase        uint64 `json:"heapBase"`
	HeapAfter       uint64 `json:"heapAfter"`
	RSSBase         uint64 `json:"rssBase"`
	RSSAfter        uint64 `json:"rssAfter"`

	Cycles int              `json:"cycles"`
	Close  *soakCloseReport `json:"close,omitempty"`
	Notes  []string         `json:"notes,omitempty"`
}

// ---------------------------------------------------------------------------
// The child.

type soakFlight struct {
	class string
	point time.Time // zero until known
}

type soakChildEnv struct {
	t    *testing.T
	cfg  soakConfig
	host *host.Host
	pipe *pipeline.Pipeline

	mu       sync.Mutex
	rep      soakReport
	flights  map[int64]*soakFlight
	nextID   int64
	execs    map[host.Limits]*Executor
	entered  sync.Map // block id -> chan struct{}
	blockSeq atomic.Int64
}

const soakWellSource = `const xs = await Promise.all([1, 2, 3].map((i) => tools.echo({i})));
let s = 0;
for (let i = 0; i < 1000; i++) s += i;
const r = await tools.echo({s, n: xs.length});
console.log("sum", r.s);
return r.n;`

const soakWellWant = "sum 499500\n3"

// soakPrelude gives host.Run programs a tools object, as the SDK does.
const soakPrelude = `globalThis.tools = new Proxy({}, { get: (_, name) => (args) => __ptc_call(String(name), args) });`

func soakChild(t *testing.T, cfg soakConfig, phase string) {
	ctx := context.Background()
	env := &soakChildEnv{t: t, cfg: cfg, flights: map[int64]*soakFlight{}, execs: map[host.Limits]*Executor{}}
	env.rep.Phase = phase
	env.rep.Kinds = map[string]map[string]int{}
	path := os.Getenv(soakEnvReport)

	beat := make(chan struct{})
	go func() { // heartbeat and report, until the process exits
		tick := time.NewTicker(200 * time.Millisecond)
		n := 0
		for {
			select {
			case <-tick.C:
			case <-beat:
			}
			fmt.Println(soakHeartbeat)
			if n++; n%5 == 0 && path != "" {
				env.writeReport(path)
			}
		}
	}()

	h, err := host.New(ctx, host.Config{})
	if err != nil {
		t.Fatal(err)
	}
	env.host = h
	reg := registry.New()
	for _, tl := range []*registry.Tool{
		registry.MustDefine(registry.RawSpec{
			Name:        "echo",
			Description: "Returns its arguments.",
			Parallel:    true,
			Execute: func(_ context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
				return a, nil
			},
		}),
		registry.MustDefine(registry.RawSpec{
			Name:        "block",
			Description: "Waits until the run ends.",
			Parallel:    true,
			Execute: func(ctx context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
				env.blockEntered(a)
				<-ctx.Done()
				return nil, ctx.Err()
			},
		}),
	} {
		if _, err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	if env.pipe, err = pipeline.New(pipeline.Config{Registry: reg}); err != nil {
		t.Fatal(err)
	}

	// Warm up: build the SDK snapshots, fault in the code paths.
	for range 5 {
		env.well(ctx)
		h.Run(ctx, host.Program{Source: `return 1`, Prelude: soakPrelude, Dispatcher: env})
	}

	// Monitors run from before the baseline to after the final count, so
	// that they are in both.
	stopMon := make(chan struct{})
	var monWG sync.WaitGroup
	monWG.Add(2)
	go func() { // forced GCs: each waits for every goroutine to stop
		defer monWG.Done()
		for {
			select {
			case <-stopMon:
				return
			case <-time.After(250 * time.Millisecond):
			}
			t0 := time.Now()
			runtime.GC()
			d := time.Since(t0)
			env.mu.Lock()
			env.rep.ForcedGCs++
			env.rep.ForcedGCMs = max(env.rep.ForcedGCMs, soakMs(d))
			env.mu.Unlock()
		}
	}()
	go func() { // scheduling lag of a goroutine that only sleeps
		defer monWG.Done()
		for {
			select {
			case <-stopMon:
				return
			default:
			}
			t0 := time.Now()
			time.Sleep(5 * time.Millisecond)
			lag := time.Since(t0) - 5*time.Millisecond
			env.mu.Lock()
			env.rep.SleepLagMs = max(env.rep.SleepLagMs, soakMs(lag))
			env.mu.Unlock()
		}
	}()

	runtime.GC()
	runtime.GC()
	env.rep.GoroutinesBase, env.rep.HeapBase, env.rep.RSSBase = runtime.NumGoroutine(), soakHeap(), advtest.RSS()
	before := soakReadPauses()

	switch phase {
	case "load":
		env.phaseLoad(ctx)
	case "cycles":
		env.phaseCycles(ctx)
	case "close":
		env.phaseClose(ctx)
	default:
		t.Fatalf("unknown phase %q", phase)
	}

	after := soakReadPauses()
	env.mu.Lock()
	env.rep.StopMaxMs, env.rep.StopMaxHiMs = soakMaxPause(before[0], after[0])
	env.rep.PauseMaxMs, env.rep.PauseMaxHiMs = soakMaxPause(before[1], after[1])
	env.mu.Unlock()

	// Goroutines and heap after GC: give finished runs' goroutines a moment.
	for _, ex := range env.execs {
		ex.Close(ctx)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		if runtime.NumGoroutine() <= env.rep.GoroutinesBase || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	runtime.GC()
	env.mu.Lock()
	env.rep.GoroutinesAfter, env.rep.HeapAfter, env.rep.RSSAfter = runtime.NumGoroutine(), soakHeap(), advtest.RSS()
	env.mu.Unlock()
	close(stopMon)
	monWG.Wait()
	if env.rep.GoroutinesAfter > env.rep.GoroutinesBase {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		fmt.Printf("goroutines after the phase (%d, baseline %d):\n%s\n", env.rep.GoroutinesAfter, env.rep.GoroutinesBase, buf[:n])
	}
	env.mu.Lock()
	env.rep.Done = true
	env.mu.Unlock()
	if path != "" {
		env.writeReport(path)
	}
	beat <- struct{}{}
}

func (env *soakChildEnv) writeReport(path string) {
	env.mu.Lock()
	env.rep.Updated = time.Now()
	env.rep.Stuck = env.rep.Stuck[:0]
	now := time.Now()
	for _, f := range env.flights {
		if !f.point.IsZero() && now.Sub(f.point) > soakTargetCancelMax {
			env.rep.Stuck = append(env.rep.Stuck, soakStuck{Class: f.class, Point: f.point.UnixNano()})
		}
	}
	b, err := json.Marshal(&env.rep)
	env.mu.Unlock()
	if err != nil {
		fmt.Println("soak: report:", err)
		return
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err == nil {
		os.Rename(tmp, path)
	}
}

func (env *soakChildEnv) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Println("soak:", msg)
	env.mu.Lock()
	if len(env.rep.Notes) < 50 {
		env.rep.Notes = append(env.rep.Notes, msg)
	}
	env.mu.Unlock()
}

// track registers a run in flight; point may be set later.
func (env *soakChildEnv) track(class string, point time.Time) (id int64) {
	env.mu.Lock()
	defer env.mu.Unlock()
	env.nextID++
	env.flights[env.nextID] = &soakFlight{class: class, point: point}
	return env.nextID
}

func (env *soakChildEnv) setPoint(id int64, point time.Time) {
	env.mu.Lock()
	if f := env.flights[id]; f != nil {
		f.point = point
	}
	env.mu.Unlock()
}

func (env *soakChildEnv) untrack(id int64) {
	env.mu.Lock()
	delete(env.flights, id)
	env.mu.Unlock()
}

// record counts a stopped run: its kind and, when it was stopped (it ran
// past its point), its latency. want lists the kinds that say what
// stopped it.
func (env *soakChildEnv) record(class, kind string, latency time.Duration, stopped bool, want ...string) {
	env.mu.Lock()
	defer env.mu.Unlock()
	m := env.rep.Kinds[class]
	if m == nil {
		m = map[string]int{}
		env.rep.Kinds[class] = m
	}
	m[kind]++
	if !stopped {
		return
	}
	env.rep.Cancel = append(env.rep.Cancel, soakSample{Class: class, Ms: soakMs(max(latency, 0))})
	example := func(s string) {
		if len(env.rep.Examples) < 40 {
			env.rep.Examples = append(env.rep.Examples, s)
		}
	}
	switch {
	case kind == string(host.KindOK):
		env.rep.SuccessLate++
		example(fmt.Sprintf("%s: succeeded %v after its deadline", class, latency.Round(time.Millisecond)))
	case !slices.Contains(want, kind):
		env.rep.Misreported++
		example(fmt.Sprintf("%s: ended as %s, want %s", class, kind, strings.Join(want, " or ")))
	}
}

func (env *soakChildEnv) blockEntered(args json.RawMessage) {
	var a struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(args, &a)
	if ch, ok := env.entered.LoadAndDelete(a.ID); ok {
		close(ch.(chan struct{}))
	}
}

// Dispatch serves host.Run programs' subcalls as the registry's tools do.
func (env *soakChildEnv) Dispatch(ctx context.Context, c host.Call) host.Reply {
	switch c.Name {
	case "echo":
		return host.Reply{Value: c.Args}
	case "block":
		env.blockEntered(c.Args)
		<-ctx.Done()
		return host.Reply{Err: &host.CallError{Code: "ABORTED", Message: ctx.Err().Error()}}
	}
	return host.Reply{Err: &host.CallError{Code: "UNKNOWN_TOOL", Message: "unknown tool " + c.Name}}
}

func (env *soakChildEnv) executor(lim host.Limits) *Executor {
	env.mu.Lock()
	defer env.mu.Unlock()
	if ex := env.execs[lim]; ex != nil {
		return ex
	}
	ex, err := New(context.Background(), Config{Pipeline: env.pipe, Host: env.host, Limits: lim})
	if err != nil {
		panic(err)
	}
	env.execs[lim] = ex
	return ex
}

func soakBatch(code string) pipeline.Batch {
	args, _ := json.Marshal(map[string]string{"code": code})
	return pipeline.Batch{Calls: []pipeline.RawCall{{ID: "call_1", Name: ToolName, Arguments: args}}}
}

// soakResultKind is the kind of a run_code result, and how long the program
// ran (0 when it did not).
func soakResultKind(rs []*Result) (string, time.Duration, string) {
	if len(rs) != 1 {
		return "results:" + strconv.Itoa(len(rs)), 0, ""
	}
	r := rs[0]
	text := registry.PlainText(r.Content)
	if r.Run != nil {
		return string(r.Run.Kind), r.Run.Duration, text
	}
	if strings.HasPrefix(text, "Error: code run failed (aborted)") {
		return string(host.KindAborted), 0, text
	}
	return "not-run", 0, text
}

// run runs src through host.Run (api "host") or Executor.Execute (api
// "exec") and returns its kind and the program's own run time.
func (env *soakChildEnv) run(ctx context.Context, api, src string, lim host.Limits) (string, time.Duration, string) {
	if api == "host" {
		o := env.host.Run(ctx, host.Program{Source: src, Prelude: soakPrelude, Dispatcher: env, Limits: lim})
		return string(o.Kind), o.Duration, o.Text()
	}
	return soakResultKind(env.executor(lim).Execute(ctx, soakBatch(src)))
}

// well runs the well-behaved program once and returns its latency.
func (env *soakChildEnv) well(ctx context.Context) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	t0 := time.Now()
	rs := env.executor(host.Limits{Timeout: 30 * time.Second}).Execute(ctx, soakBatch(soakWellSource))
	d := time.Since(t0)
	return d, len(rs) == 1 && registry.PlainText(rs[0].Content) == soakWellWant
}

// wellFor runs the well-behaved program on n workers until stop closes.
func (env *soakChildEnv) wellFor(ctx context.Context, n int, stop <-chan struct{}, into *[]float64) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				d, ok := env.well(ctx)
				env.mu.Lock()
				*into = append(*into, soakMs(d))
				if !ok {
					env.rep.WellWrong++
				}
				env.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

var soakModes = []string{"limit", "deadline", "cancel"}

// runaway runs one runaway program stopped by the program's limit, the
// caller's deadline or the caller's cancel.
func (env *soakChildEnv) runaway(ctx context.Context, p soakProgram, mode, api string) {
	T := env.cfg.Timeout
	lim := host.Limits{Timeout: T, MemoryBytes: p.Memory}
	class := "load/" + p.Name + "/" + mode + "/" + api
	var cancel context.CancelFunc = func() {}
	var cancelAt atomic.Int64
	start := time.Now()
	id := env.track(class, start.Add(T))
	defer env.untrack(id)
	switch mode {
	case "deadline":
		lim.Timeout = 30 * time.Second
		ctx, cancel = context.WithTimeout(ctx, T)
	case "cancel":
		lim.Timeout = 30 * time.Second
		ctx, cancel = context.WithCancel(ctx)
		env.setPoint(id, time.Time{})
		timer := time.AfterFunc(T, func() {
			now := time.Now()
			cancelAt.Store(now.UnixNano())
			env.setPoint(id, now)
			cancel()
		})
		defer timer.Stop()
	}
	defer cancel()
	kind, ran, _ := env.run(ctx, api, p.Source, lim)
	end := time.Now()
	switch mode {
	case "limit":
		// The program's own clock starts inside Run: measure from it.
		env.record(class, kind, ran-T, ran >= T, string(host.KindTimeout), string(host.KindMemory))
	case "deadline":
		point := start.Add(T)
		if dl, ok := ctx.Deadline(); ok {
			point = dl
		}
		env.record(class, kind, end.Sub(point), !end.Before(point), string(host.KindAborted), string(host.KindMemory))
	case "cancel":
		at := cancelAt.Load()
		stopped := at != 0 && !end.Before(time.Unix(0, at))
		env.record(class, kind, end.Sub(time.Unix(0, at)), stopped, string(host.KindAborted), string(host.KindMemory))
	}
}

func (env *soakChildEnv) phaseLoad(ctx context.Context) {
	cfg := env.cfg
	fmt.Printf("soak: load: %d well-behaved workers alone for %v\n", cfg.Well, cfg.Baseline)
	stop := make(chan struct{})
	time.AfterFunc(cfg.Baseline, func() { close(stop) })
	env.wellFor(ctx, cfg.Well, stop, &env.rep.Unloaded)

	fmt.Printf("soak: load: %d runaways (%d kinds, %v deadline) beside them for %v\n", cfg.Runaways, len(cfg.Kinds), cfg.Timeout, cfg.Duration)
	stopRun := make(chan struct{})
	var wg sync.WaitGroup
	for i := range cfg.Runaways {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; ; j++ {
				select {
				case <-stopRun:
					return
				default:
				}
				p := cfg.Kinds[(i+j*cfg.Runaways)%len(cfg.Kinds)]
				mode := soakModes[(i+j)%len(soakModes)]
				api := []string{"host", "exec"}[(i+j/len(soakModes))%2]
				env.runaway(ctx, p, mode, api)
			}
		}()
	}
	stopWell := make(chan struct{})
	time.AfterFunc(cfg.Duration, func() { close(stopWell); close(stopRun) })
	env.wellFor(ctx, cfg.Well, stopWell, &env.rep.Loaded)
	if !soakWait(&wg, cfg.Grace) {
		env.note("load: runaways still running %v after the phase ended", cfg.Grace)
	}
}

// soakWait waits for wg at most d.
func soakWait(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// cycle starts a run and cancels it: before it starts, during
// instantiation, during a subcall or during a long built-in.
func (env *soakChildEnv) cycle(ctx context.Context, n int, variant, api string) {
	class := "cycles/" + variant + "/" + api
	lim := host.Limits{Timeout: 30 * time.Second, MemoryBytes: 128 * soakMiB}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	id := env.track(class, time.Time{})
	defer env.untrack(id)
	var cancelAt atomic.Int64
	cancelNow := func() {
		now := time.Now()
		cancelAt.Store(now.UnixNano())
		env.setPoint(id, now)
		cancel()
	}
	src := `for (;;) {}`
	switch variant {
	case "before":
		cancelNow()
	case "instantiate":
		time.AfterFunc(time.Duration(rand.IntN(1500))*time.Microsecond, cancelNow)
	case "subcall":
		bid := env.blockSeq.Add(1)
		ch := make(chan struct{})
		env.entered.Store(bid, ch)
		src = fmt.Sprintf(`await tools.block({id: %d}); for (;;) {}`, bid)
		go func() {
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				env.entered.Delete(bid)
				env.note("%s: the subcall was not reached in 10s", class)
			case <-ctx.Done():
				return
			}
			cancelNow()
		}()
	case "builtin":
		src = soakCycleBuiltins[n%len(soakCycleBuiltins)]
		time.AfterFunc(time.Duration(5+rand.IntN(45))*time.Millisecond, cancelNow)
	}
	kind, _, _ := env.run(ctx, api, src, lim)
	end := time.Now()
	at := cancelAt.Load()
	env.record(class, kind, end.Sub(time.Unix(0, at)), at != 0, string(host.KindAborted))
}

func (env *soakChildEnv) phaseCycles(ctx context.Context) {
	cfg := env.cfg
	workers := 2 * runtime.GOMAXPROCS(0)
	fmt.Printf("soak: cycles: %d start/cancel cycles (%s) on %d workers\n", cfg.Cycles, strings.Join(cfg.CancelAt, ","), workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	limit := time.Now().Add(cfg.CycleTime)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := int(next.Add(1) - 1)
				if n >= cfg.Cycles || time.Now().After(limit) {
					return
				}
				k := len(cfg.CancelAt)
				env.cycle(ctx, n/k, cfg.CancelAt[n%k], []string{"host", "exec"}[(n/k)%2])
				env.mu.Lock()
				env.rep.Cycles++
				c := env.rep.Cycles
				env.mu.Unlock()
				if c%1000 == 0 {
					fmt.Printf("soak: cycles: %d done\n", c)
				}
			}
		}()
	}
	wg.Wait()
	if env.rep.Cycles < cfg.Cycles {
		env.note("cycles: only %d of %d cycles in %v", env.rep.Cycles, cfg.Cycles, cfg.CycleTime)
	}
}

// phaseClose closes an executor that owns its host while runs of every
// sort are in flight.
func (env *soakChildEnv) phaseClose(ctx context.Context) {
	const grace = 200 * time.Millisecond
	n := 4 * runtime.GOMAXPROCS(0)
	fmt.Printf("soak: close: Close (grace %v) with %d runs in flight\n", grace, n)
	ex, err := New(ctx, Config{Pipeline: env.pipe, Limits: host.Limits{Timeout: 30 * time.Second, MemoryBytes: 128 * soakMiB}})
	if err != nil {
		env.t.Fatal(err)
	}
	rep := &soakCloseReport{InFlight: n, Kinds: map[string]int{}}
	env.mu.Lock()
	env.rep.Close = rep
	env.mu.Unlock()

	srcs := []string{`for (;;) {}`, "", soakCycleBuiltins[0], soakWellSource}
	variants := []string{"js_loop", "subcall", "builtin", "well"}
	if !slices.Contains(env.cfg.CancelAt, "builtin") {
		// PTC_SOAK_CANCEL left the long built-ins out: a JS loop instead.
		srcs[2], variants[2] = `for (;;) { try { for (;;) {} } catch (e) {} }`, "js_loop_try"
	}
	var wg sync.WaitGroup
	var closeStart atomic.Int64
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := srcs[i%len(srcs)]
			variant := variants[i%len(srcs)]
			class := "close/" + variant
			if src == "" {
				bid := env.blockSeq.Add(1)
				env.entered.Store(bid, make(chan struct{}))
				src = fmt.Sprintf(`await tools.block({id: %d}); for (;;) {}`, bid)
			}
			for {
				id := env.track(class, time.Time{})
				if cs := closeStart.Load(); cs != 0 {
					env.setPoint(id, time.Unix(0, cs).Add(grace))
				}
				kind, _, _ := soakResultKind(ex.Execute(ctx, soakBatch(src)))
				end := time.Now()
				env.untrack(id)
				cs := closeStart.Load()
				if variant == "well" && cs == 0 {
					continue // keep the well-behaved ones going until Close
				}
				point := time.Unix(0, cs).Add(grace)
				env.mu.Lock()
				rep.Returned++
				rep.Kinds[kind]++
				env.mu.Unlock()
				// A well-behaved run may finish before Close stops waiting:
				// only one that ends after that point was stopped by it.
				stopped := cs != 0 && (variant != "well" || end.After(point))
				env.record(class, kind, end.Sub(point), stopped, string(host.KindAborted))
				return
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	t0 := time.Now()
	closeStart.Store(t0.UnixNano())
	env.mu.Lock()
	for _, f := range env.flights {
		f.point = t0.Add(grace)
	}
	env.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, grace)
	err = ex.Close(cctx)
	cancel()
	env.mu.Lock()
	rep.CloseMs = soakMs(time.Since(t0))
	if err != nil {
		rep.CloseErr = err.Error()
	}
	env.mu.Unlock()
	if !soakWait(&wg, env.cfg.Grace) {
		env.note("close: runs still in flight %v after Close", env.cfg.Grace)
	}
	a0 := time.Now()
	rs := ex.Execute(ctx, soakBatch(`return 1`))
	env.mu.Lock()
	rep.AfterCloseMs = soakMs(time.Since(a0))
	if len(rs) == 1 {
		rep.AfterCloseText = registry.PlainText(rs[0].Content)
		rep.AfterCloseErr = rs[0].IsError
	}
	env.mu.Unlock()
}

// ---------------------------------------------------------------------------
// Measurements.

func soakMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func soakHeap() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

var soakPauseMetrics = []string{"/sched/pauses/stopping/gc:seconds", "/sched/pauses/total/gc:seconds"}

func soakReadPauses() []*metrics.Float64Histogram {
	s := make([]metrics.Sample, len(soakPauseMetrics))
	for i, n := range soakPauseMetrics {
		s[i].Name = n
	}
	metrics.Read(s)
	out := make([]*metrics.Float64Histogram, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindFloat64Histogram {
			h := s[i].Value.Float64Histogram()
			out[i] = &metrics.Float64Histogram{Counts: slices.Clone(h.Counts), Buckets: slices.Clone(h.Buckets)}
		}
	}
	return out
}

// soakMaxPause is the bucket of the longest pause counted between two
// readings: its lower and upper bounds in milliseconds.
func soakMaxPause(before, after *metrics.Float64Histogram) (lo, hi float64) {
	if before == nil || after == nil {
		return 0, 0
	}
	for i := len(after.Counts) - 1; i >= 0; i-- {
		if i < len(before.Counts) && after.Counts[i] > before.Counts[i] {
			lo, hi = after.Buckets[i]*1e3, after.Buckets[i+1]*1e3
			if math.IsInf(lo, -1) {
				lo = 0
			}
			return lo, hi
		}
	}
	return 0, 0
}

// ---------------------------------------------------------------------------
// The parent.

type soakChildResult struct {
	Phase     string
	Report    *soakReport
	Wall      time.Duration
	End       time.Time
	ExitCode  int
	Signal    string
	Killed    string // why the watchdog killed it, if it did
	Crashed   bool
	CrashLine string
	Failed    string // the child's own test failed (a set-up error, or a race)
	Races     int
	MaxGap    time.Duration // longest silence between heartbeats
}

func soakParent(t *testing.T, cfg soakConfig) {
	limits := map[string]time.Duration{
		"load":   cfg.Baseline + cfg.Duration + cfg.Grace + 2*time.Minute,
		"cycles": cfg.CycleTime + cfg.Grace + 2*time.Minute,
		"close":  cfg.Grace + 2*time.Minute,
	}
	var need time.Duration
	for _, p := range cfg.Phases {
		need += limits[p]
	}
	if dl, ok := t.Deadline(); ok && time.Until(dl) < need {
		t.Logf("warning: the phases may take up to %v, more than the %v left before the test's -timeout", need, time.Until(dl).Round(time.Second))
	}
	t.Logf("soak: GOMAXPROCS=%d runaways=%d kinds=%d duration=%v baseline=%v timeout=%v cycles=%d phases=%s load average %s",
		runtime.GOMAXPROCS(0), cfg.Runaways, len(cfg.Kinds), cfg.Duration, cfg.Baseline, cfg.Timeout, cfg.Cycles, strings.Join(cfg.Phases, ","), soakLoadAvg())
	dir := t.TempDir()
	var results []*soakChildResult
	for _, phase := range cfg.Phases {
		r := soakRunChild(t, cfg, phase, limits[phase], dir)
		results = append(results, r)
	}
	soakSummarize(t, cfg, results)
}

func soakRunChild(t *testing.T, cfg soakConfig, phase string, limit time.Duration, dir string) *soakChildResult {
	res := &soakChildResult{Phase: phase}
	reportPath := filepath.Join(dir, phase+".json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSoak$", "-test.v", "-test.count=1", "-test.timeout=0")
	cmd.Env = append(os.Environ(), soakEnvPhase+"="+phase, soakEnvReport+"="+reportPath, "GOTRACEBACK=all")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()

	var mu sync.Mutex
	lastBeat := time.Now()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			now := time.Now()
			mu.Lock()
			if line == soakHeartbeat {
				if gap := now.Sub(lastBeat); gap > res.MaxGap {
					res.MaxGap = gap
				}
				lastBeat = now
				mu.Unlock()
				continue
			}
			if strings.Contains(line, "WARNING: DATA RACE") {
				res.Races++
			}
			crash := strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "fatal error:") ||
				strings.HasPrefix(line, "SIGSEGV") || strings.HasPrefix(line, "SIGBUS") ||
				strings.HasPrefix(line, "unexpected fault address") || strings.HasPrefix(line, "[signal ")
			if crash && res.Killed == "" && !res.Crashed {
				res.Crashed, res.CrashLine = true, line
			}
			if strings.HasPrefix(line, "--- FAIL: TestSoak") && res.Failed == "" {
				res.Failed = line
			}
			if res.Failed != "" && strings.Contains(line, "soak_test.go:") && !strings.Contains(res.Failed, "soak_test.go:") {
				res.Failed += ": " + strings.TrimSpace(line)
			}
			mu.Unlock()
			fmt.Printf("[%s] %s\n", phase, line)
		}
		io.Copy(io.Discard, pr)
	}()

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	var waitErr error
loop:
	for {
		select {
		case waitErr = <-exited:
			break loop
		case <-tick.C:
		}
		mu.Lock()
		silent := time.Since(lastBeat)
		mu.Unlock()
		why := ""
		switch {
		case silent > cfg.Stall:
			why = fmt.Sprintf("no heartbeat for %v (the process is frozen)", silent.Round(time.Second))
		case time.Since(start) > limit:
			why = fmt.Sprintf("phase overran its %v limit", limit)
		}
		if why == "" {
			continue
		}
		mu.Lock()
		res.Killed = why
		if silent > res.MaxGap {
			res.MaxGap = silent
		}
		mu.Unlock()
		fmt.Printf("[%s] soak watchdog: %s; SIGQUIT for a goroutine dump, then SIGKILL\n", phase, why)
		cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case waitErr = <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			waitErr = <-exited
		}
		break loop
	}
	res.End = time.Now()
	res.Wall = res.End.Sub(start)
	select {
	case <-readDone:
	case <-time.After(5 * time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	if ps := cmd.ProcessState; ps != nil {
		res.ExitCode = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = ws.Signal().String()
		}
	}
	if res.Killed == "" && !res.Crashed && (res.Signal != "" || (waitErr != nil && res.Failed == "")) {
		res.Crashed = true
		res.CrashLine = fmt.Sprintf("exit %d %s %v", res.ExitCode, res.Signal, waitErr)
	}
	if res.Killed != "" {
		res.Crashed = false // the watchdog's SIGQUIT makes the runtime print a crash
	}
	if b, err := os.ReadFile(reportPath); err == nil {
		var rep soakReport
		if err := json.Unmarshal(b, &rep); err == nil {
			res.Report = &rep
		}
	}
	return res
}

type soakStats struct {
	N             int
	P50, P99, Max float64
}

func soakStatsOf(ms []float64) soakStats {
	if len(ms) == 0 {
		return soakStats{}
	}
	s := slices.Clone(ms)
	sort.Float64s(s)
	q := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return soakStats{N: len(s), P50: q(0.50), P99: q(0.99), Max: s[len(s)-1]}
}

func (s soakStats) String() string {
	return fmt.Sprintf("%.1f / %.1f / %.1f ms (n=%d)", s.P50, s.P99, s.Max, s.N)
}

func soakSummarize(t *testing.T, cfg soakConfig, results []*soakChildResult) {
	var (
		crashes, races, hung         int
		crashWhy, hungWhy            []string
		failedKids                   []string
		cancel                       []float64
		byClass                      = map[string][]float64{}
		kinds                        = map[string]map[string]int{}
		stuck                        int
		successLate, misreported     int
		examples                     []string
		unloaded, loaded             []float64
		wellWrong                    int
		stopLo, stopHi, totLo, totHi float64
		forcedGC, sleepLag           float64
		maxGap                       time.Duration
		leaks                        []string
		notes                        []string
		table                        strings.Builder
		lines                        []string
	)
	group := func(class string) string {
		parts := strings.Split(class, "/")
		if len(parts) >= 2 {
			return parts[0] + "/" + parts[1]
		}
		return class
	}
	for _, r := range results {
		if r.Crashed {
			crashes++
			crashWhy = append(crashWhy, r.Phase+": "+r.CrashLine)
		}
		if r.Killed != "" {
			hung++
			hungWhy = append(hungWhy, r.Phase+": "+r.Killed)
		}
		races += r.Races
		if r.Failed != "" && !r.Crashed && r.Killed == "" && r.Races == 0 {
			failedKids = append(failedKids, r.Phase+": "+r.Failed)
		}
		maxGap = max(maxGap, r.MaxGap)
		rep := r.Report
		if rep == nil {
			notes = append(notes, r.Phase+": no report")
			continue
		}
		if !rep.Done {
			notes = append(notes, fmt.Sprintf("%s: partial report (last written %v before the child ended)", r.Phase, r.End.Sub(rep.Updated).Round(time.Millisecond)))
		}
		for _, s := range rep.Cancel {
			cancel = append(cancel, s.Ms)
			byClass[group(s.Class)] = append(byClass[group(s.Class)], s.Ms)
		}
		for _, s := range rep.Stuck {
			// Never returned: its latency is at least until the child ended.
			ms := soakMs(r.End.Sub(time.Unix(0, s.Point)))
			cancel = append(cancel, ms)
			byClass[group(s.Class)] = append(byClass[group(s.Class)], ms)
			stuck++
			if m := kinds[group(s.Class)]; m == nil {
				kinds[group(s.Class)] = map[string]int{}
			}
			kinds[group(s.Class)]["(never returned)"]++
		}
		for class, m := range rep.Kinds {
			g := group(class)
			if kinds[g] == nil {
				kinds[g] = map[string]int{}
			}
			for k, n := range m {
				kinds[g][k] += n
			}
		}
		successLate += rep.SuccessLate
		misreported += rep.Misreported
		examples = append(examples, rep.Examples...)
		unloaded = append(unloaded, rep.Unloaded...)
		loaded = append(loaded, rep.Loaded...)
		wellWrong += rep.WellWrong
		stopLo, stopHi = max(stopLo, rep.StopMaxMs), max(stopHi, rep.StopMaxHiMs)
		totLo, totHi = max(totLo, rep.PauseMaxMs), max(totHi, rep.PauseMaxHiMs)
		forcedGC, sleepLag = max(forcedGC, rep.ForcedGCMs), max(sleepLag, rep.SleepLagMs)
		if rep.Done && rep.GoroutinesAfter > rep.GoroutinesBase {
			leaks = append(leaks, fmt.Sprintf("%s: %d goroutines after, %d before", r.Phase, rep.GoroutinesAfter, rep.GoroutinesBase))
		}
		for _, n := range rep.Notes {
			notes = append(notes, r.Phase+": "+n)
		}
	}

	cs := soakStatsOf(cancel)
	us, ls := soakStatsOf(unloaded), soakStatsOf(loaded)
	ratio := 0.0
	if us.P99 > 0 {
		ratio = ls.P99 / us.P99
	}
	// The longest stop-the-world: the runtime's own histograms, and a child
	// frozen so long that the watchdog killed it (its pause never ended, so
	// the runtime never counted it).
	stw := totLo
	frozen := false
	for _, r := range results {
		if strings.HasPrefix(r.Killed, "no heartbeat") {
			frozen = true
			stw = max(stw, soakMs(r.MaxGap))
		}
	}

	var failures []string
	check := func(name, value, target string, ok bool) {
		mark := "ok"
		if !ok {
			mark = "FAIL"
			failures = append(failures, name+": "+value+" (target "+target+")")
		}
		fmt.Fprintf(&table, "  %-34s %-44s %-16s %s\n", name, value, target, mark)
	}
	kv := func(k string, v any) { lines = append(lines, fmt.Sprintf("SOAK_RESULT %s=%v", k, v)) }

	fmt.Fprintf(&table, "soak summary: GOMAXPROCS=%d, %d runaways of %d kinds for %v (%v deadline), %d cycles, phases %s\n",
		runtime.GOMAXPROCS(0), cfg.Runaways, len(cfg.Kinds), cfg.Duration, cfg.Timeout, cfg.Cycles, strings.Join(cfg.Phases, ","))
	fmt.Fprintf(&table, "  %-34s %-44s %-16s %s\n", "check", "value", "target", "")
	check("crashes", fmt.Sprint(crashes), "0", crashes == 0)
	check("races", fmt.Sprint(races), "0", races == 0)
	check("hung children (watchdog)", fmt.Sprint(hung), "0", hung == 0)
	check("children that failed to run", fmt.Sprint(len(failedKids)), "0", len(failedKids) == 0)
	check("cancel latency p50/p99/max", cs.String(), "p99≤50 max≤250", cs.P99 <= soakMs(soakTargetCancelP99) && cs.Max <= soakMs(soakTargetCancelMax))
	check("runs never returned", fmt.Sprint(stuck), "0", stuck == 0)
	check("success after deadline/cancel", fmt.Sprint(successLate), "0", successLate == 0)
	check("misreported stop (kind)", fmt.Sprint(misreported), "0", misreported == 0)
	check("well-behaved wrong results", fmt.Sprint(wellWrong), "0", wellWrong == 0)
	ratioOK := ratio <= soakTargetWellRatio && us.N > 0 && ls.N > 0
	ratioText := fmt.Sprintf("%.1f / %.1f ms = %.1f×", ls.P99, us.P99, ratio)
	if ls.N == 0 || us.N == 0 {
		ratioText = fmt.Sprintf("no samples (loaded n=%d, unloaded n=%d)", ls.N, us.N)
	}
	check("well-behaved p99 loaded/unloaded", ratioText, "≤2×", ratioOK)
	stwText := fmt.Sprintf("%.3g ms (bucket to %.3g)", totLo, totHi)
	if frozen {
		stwText = fmt.Sprintf("≥%.0f ms (child frozen)", stw)
	}
	check("longest GC stop-the-world", stwText, "≤10 ms", stw <= soakMs(soakTargetSTW))
	check("goroutines back to baseline", fmt.Sprintf("%d phase(s) leaked", len(leaks)), "0", len(leaks) == 0)
	fmt.Fprintf(&table, "  %-34s %-44s\n", "stopping-the-world (gc) max", fmt.Sprintf("%.3g ms (bucket to %.3g)", stopLo, stopHi))
	fmt.Fprintf(&table, "  %-34s %-44s\n", "forced runtime.GC max", fmt.Sprintf("%.1f ms", forcedGC))
	fmt.Fprintf(&table, "  %-34s %-44s\n", "sleep(5ms) overshoot max", fmt.Sprintf("%.1f ms", sleepLag))
	fmt.Fprintf(&table, "  %-34s %-44s\n", "longest heartbeat silence", maxGap.Round(time.Millisecond).String())
	fmt.Fprintf(&table, "  well-behaved unloaded %s; loaded %s\n", us, ls)
	fmt.Fprintf(&table, "  machine load average at the end: %s\n", soakLoadAvg())
	for _, r := range results {
		rep := r.Report
		if rep == nil {
			fmt.Fprintf(&table, "  phase %-7s wall %v exit %d %s killed=%q: no report\n", r.Phase, r.Wall.Round(time.Second), r.ExitCode, r.Signal, r.Killed)
			continue
		}
		fmt.Fprintf(&table, "  phase %-7s wall %-6v exit %d%s goroutines %d→%d heap %.1f→%.1f MiB rss %.0f→%.0f MiB",
			r.Phase, r.Wall.Round(time.Second), r.ExitCode, soakIf(r.Signal != "", " "+r.Signal), rep.GoroutinesBase, rep.GoroutinesAfter,
			float64(rep.HeapBase)/soakMiB, float64(rep.HeapAfter)/soakMiB, float64(rep.RSSBase)/soakMiB, float64(rep.RSSAfter)/soakMiB)
		if r.Phase == "cycles" {
			fmt.Fprintf(&table, " cycles %d", rep.Cycles)
		}
		if c := rep.Close; c != nil {
			fmt.Fprintf(&table, " close %.1f ms (err %q), %d/%d returned %v, after close %.1f ms isError=%v %q",
				c.CloseMs, c.CloseErr, c.Returned, c.InFlight, c.Kinds, c.AfterCloseMs, c.AfterCloseErr, soakCut(c.AfterCloseText, 80))
		}
		if r.Killed != "" {
			fmt.Fprintf(&table, " KILLED: %s", r.Killed)
		}
		if r.Crashed {
			fmt.Fprintf(&table, " CRASHED: %s", r.CrashLine)
		}
		table.WriteByte('\n')
	}
	fmt.Fprintf(&table, "  %-28s %-34s %s\n", "class", "cancel p50/p99/max", "outcome kinds")
	classes := make([]string, 0, len(kinds))
	for c := range kinds {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		var ks []string
		for k, n := range kinds[c] {
			ks = append(ks, fmt.Sprintf("%s:%d", k, n))
		}
		sort.Strings(ks)
		fmt.Fprintf(&table, "  %-28s %-34s %s\n", c, soakStatsOf(byClass[c]), strings.Join(ks, " "))
	}
	for _, e := range soakFirst(examples, 15) {
		fmt.Fprintf(&table, "  example: %s\n", e)
	}
	for _, n := range soakFirst(notes, 20) {
		fmt.Fprintf(&table, "  note: %s\n", n)
	}
	for _, w := range crashWhy {
		fmt.Fprintf(&table, "  crash: %s\n", w)
	}
	for _, w := range failedKids {
		fmt.Fprintf(&table, "  failed: %s\n", w)
	}
	for _, w := range hungWhy {
		fmt.Fprintf(&table, "  hung: %s\n", w)
	}
	for _, l := range leaks {
		fmt.Fprintf(&table, "  leak: %s\n", l)
	}

	kv("gomaxprocs", runtime.GOMAXPROCS(0))
	kv("crashes", crashes)
	kv("races", races)
	kv("hung", hung)
	kv("cancel_n", cs.N)
	kv("cancel_p50_ms", fmt.Sprintf("%.2f", cs.P50))
	kv("cancel_p99_ms", fmt.Sprintf("%.2f", cs.P99))
	kv("cancel_max_ms", fmt.Sprintf("%.2f", cs.Max))
	kv("never_returned", stuck)
	kv("success_after_deadline", successLate)
	kv("misreported", misreported)
	kv("well_unloaded_p99_ms", fmt.Sprintf("%.2f", us.P99))
	kv("well_loaded_p99_ms", fmt.Sprintf("%.2f", ls.P99))
	kv("well_ratio", fmt.Sprintf("%.2f", ratio))
	kv("well_wrong", wellWrong)
	kv("stw_total_max_ms", fmt.Sprintf("%.3f", totLo))
	kv("stw_stopping_max_ms", fmt.Sprintf("%.3f", stopLo))
	kv("stw_frozen", frozen)
	kv("stw_max_ms", fmt.Sprintf("%.3f", stw))
	kv("forced_gc_max_ms", fmt.Sprintf("%.2f", forcedGC))
	kv("sleep_lag_max_ms", fmt.Sprintf("%.2f", sleepLag))
	kv("heartbeat_gap_max_ms", fmt.Sprintf("%.0f", soakMs(maxGap)))
	kv("leaked_phases", len(leaks))
	for _, r := range results {
		if rep := r.Report; rep != nil {
			kv(r.Phase+"_goroutines_base", rep.GoroutinesBase)
			kv(r.Phase+"_goroutines_after", rep.GoroutinesAfter)
			kv(r.Phase+"_heap_base_bytes", rep.HeapBase)
			kv(r.Phase+"_heap_after_bytes", rep.HeapAfter)
			kv(r.Phase+"_rss_after_bytes", rep.RSSAfter)
		}
	}

	t.Log("\n" + table.String())
	fmt.Println(strings.Join(lines, "\n"))
	if len(failures) > 0 {
		t.Errorf("soak targets missed:\n  %s", strings.Join(failures, "\n  "))
	}
}

// soakLoadAvg is /proc/loadavg's first three fields: other processes on
// the machine skew every figure.
func soakLoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func soakIf(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

func soakCut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func soakFirst(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
