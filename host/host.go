package host

import (
	"bytes"
	"cmp"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/ptchost/ptc/host/internal/fuel"
	"github.com/ptchost/ptc/host/internal/typescript"
	"github.com/ptchost/ptc/internal/abort"
	"github.com/ptchost/ptc/internal/guestfile"
	"github.com/ptchost/ptc/internal/runhook"
)

// Config configures a Host. The zero value is valid.
type Config struct {
	// CompilationCacheDir is where wazero keeps the compiled guest on
	// disk, so that later processes skip compiling it (about a second;
	// reading it back takes tens of milliseconds), and beside it what New
	// derives from the guest: the instrumented module, the scripts'
	// bytecode and the snapshot of the initialised guest (files named
	// ptc-*.bin, each checked by the sha256 it ends with). Empty means
	// the default: wazero under $PTC_CACHE_DIR, or under ptc-run in the
	// user's cache directory (os.UserCacheDir: ~/.cache/ptc-run/wazero on
	// Linux); none when PTC_CACHE_DIR is set and empty, when there is no
	// user cache directory, or when the default cannot be created. A
	// directory given here that cannot be created fails New.
	CompilationCacheDir string
	// NoCompilationCache keeps nothing on disk: every New compiles the
	// guest in memory, and CompilationCacheDir is ignored.
	NoCompilationCache bool
	// GuestPath is where to look first for the QuickJS guest. New takes
	// the first guest it finds, in order:
	//
	//  1. GuestPath, when not empty;
	//  2. $PTC_GUEST, when set;
	//  3. the guest embedded in package quickjs (quickjs.Files), the
	//     committed build of its pinned inputs, which is always there.
	//
	// A path (1, 2) is a .wasm file, with the Intl bundle beside it named
	// by its digest (<sha256>.js) or intl.js, or a directory holding both
	// as `ptc-run guest build` names them (<sha256>.wasm, <sha256>.js) or
	// as `make guest` does (ptc-quickjs.wasm, intl.js). A guest or bundle
	// whose sha256 differs from the one recorded in package quickjs is
	// ignored: only the bytes this version of the module was built and
	// tested with run.
	GuestPath string
	// Wasm overrides the guest module (tests use this for hostile guests);
	// nil means the QuickJS guest GuestPath describes.
	Wasm []byte
	// FreshInstances gives every run a new guest instance. By default a
	// run may get an instance an earlier run left clean (it returned
	// normally: no stop, trap or fault, and its memory did not grow),
	// whose whole memory was reset to its image: the same state as a new
	// instance at a fraction of the cost (RATIONALE.md, "Why recycle
	// instances?").
	FreshInstances bool
	// ParkAfter is how long a run waits for its subcalls with nothing else
	// to do (no timer pending) before it parks: it gives up its guest
	// instance, and when a result comes back it runs again from the start
	// in a new one, repeating byte for byte what it did by following its
	// own trace, results and random stream, then goes on. A parked run
	// holds tens of KiB instead of its instance's hundreds. A run that has
	// computed for a while waits longer first (20 times its computing
	// time), so that coming back stays cheap beside the wait. Zero means
	// 100 ms; negative, never. Runs on a virtual clock, or recorded or
	// replayed by the executor, never park.
	ParkAfter time.Duration
}

// Host compiles the guest once and runs programs in fresh instances of it.
// It is safe for concurrent use.
type Host struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
	// base is the guest's linear memory right after ptc_init: each run
	// starts from it (or from a prelude's image built on it) instead of
	// creating a QuickJS context anew. nil when the guest has no ptc_init.
	base *image
	// artifacts keeps derived artifacts beside the compilation cache;
	// guestSum is the sha256 of the guest module they derive from.
	artifacts artifacts
	guestSum  [32]byte
	// exeID is the running executable's build ID (executableID), which
	// the keys of artifacts derived from this program's code hold; "" when
	// there is no cache directory or it cannot be read.
	exeID string
	// baseKey is the key of base's artifact, from which prelude images'
	// keys derive; "" when it is not kept.
	baseKey string
	// noRecycle is Config.FreshInstances; recycled counts the runs that
	// got an instance an earlier run left.
	noRecycle bool
	recycled  atomic.Int64
	parked    atomic.Int64 // times runs parked
	// parkAfter is Config.ParkAfter with its default; 0 never parks.
	// toolTimes tells parkable runs which calls to expect to be slow.
	parkAfter time.Duration
	toolTimes toolTimes
	// parkFactor is parkReplayFactor (tests change it).
	parkFactor int
	// mcCompiled and mcImage configure a run's new instance of the guest
	// as compiled or of an image (made once: each With copies it).
	mcCompiled, mcImage wazero.ModuleConfig
	// checkReset, set by tests only, sees every instance reset for reuse.
	checkReset func(mem, img []byte)
	// fresh is the memory of a new instance, which images are diffed against.
	fresh    []byte
	preludes preludeCache
	// scripts holds the bytecode of the guest's own scripts (host import
	// script).
	scripts scripts

	// life is cancelled with abort.ErrShutdown when Close stops waiting for the
	// runs in progress; every run watches it.
	life context.Context
	kill context.CancelCauseFunc

	mu        sync.Mutex
	closed    bool           // Close was called: new runs are refused
	runs      sync.WaitGroup // runs in progress
	closeOnce sync.Once
	closeErr  error
}

// New compiles the guest. It fails with an error matching
// quickjs.ErrNotBuilt, which names the command that builds it and says
// which guests were ignored, when no guest is found (Config.GuestPath).
func New(ctx context.Context, cfg Config) (*Host, error) {
	wasm := cfg.Wasm
	var intl func() ([]byte, error) // nil for Config.Wasm: no Intl bundle
	if wasm == nil {
		g, err := guestfile.Find(cfg.GuestPath)
		if err != nil {
			return nil, fmt.Errorf("host: %w", err)
		}
		wasm, intl = g.Wasm, g.Intl
	}
	// No close-on-context-done: the guest is instrumented with fuel checks
	// that poll the host (RATIONALE.md, "Why fuel?").
	rc := wazero.NewRuntimeConfig()
	cache, cacheDir, err := compilationCache(cfg)
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	if cache != nil {
		rc = rc.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	h := &Host{rt: rt, cache: cache, noRecycle: cfg.FreshInstances, artifacts: artifacts{dir: cacheDir},
		parkAfter: max(cmp.Or(cfg.ParkAfter, defaultParkAfter), 0), parkFactor: parkReplayFactor}
	h.mcCompiled = wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	h.mcImage = h.mcCompiled.WithStartFunctions()
	h.guestSum = sha256.Sum256(wasm) // names the artifacts and the guest (GuestDigest)
	if cacheDir != "" {
		h.exeID = executableID()
	}
	h.life, h.kill = context.WithCancelCause(context.Background())
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		h.Close(ctx)
		return nil, fmt.Errorf("host: wasi: %w", err)
	}
	if err := instantiateImports(ctx, rt, h); err != nil {
		h.Close(ctx)
		return nil, fmt.Errorf("host: imports: %w", err)
	}
	wasm, err = h.instrumentCached(wasm)
	if err != nil {
		h.Close(ctx)
		return nil, fmt.Errorf("host: %w", err)
	}
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		h.Close(ctx)
		return nil, fmt.Errorf("host: compile guest: %w", err)
	}
	h.compiled = compiled
	if err := h.compileScripts(ctx, intl); err != nil {
		h.Close(ctx)
		return nil, fmt.Errorf("host: %w", err)
	}
	if _, ok := compiled.ExportedFunctions()["ptc_init"]; ok {
		base, err := h.freshMemory(ctx)
		if err != nil {
			h.Close(ctx)
			return nil, fmt.Errorf("host: initialise guest: %w", err)
		}
		h.fresh = base
		if h.base, err = h.snapshotCached(ctx); err != nil {
			h.Close(ctx)
			return nil, fmt.Errorf("host: initialise guest: %w", err)
		}
	}
	return h, nil
}

// compilationCache opens the compilation cache cfg asks for (see
// Config.CompilationCacheDir) and returns it with its directory; nil and
// "" when there is none.
func compilationCache(cfg Config) (wazero.CompilationCache, string, error) {
	if cfg.NoCompilationCache {
		return nil, "", nil
	}
	if dir := cfg.CompilationCacheDir; dir != "" {
		c, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, "", fmt.Errorf("compilation cache %q: %w", dir, err)
		}
		return c, dir, nil
	}
	dir := guestfile.CompilationCacheDir()
	if dir == "" {
		return nil, "", nil
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		// The default only saves time: without it, compile in memory.
		return nil, "", nil
	}
	return c, dir, nil
}

// fuelPerPoll is the number of loop iterations and recursive calls the
// guest runs between two polls of the host (RATIONALE.md, "Why fuel?"):
// small enough that any path reaches the host within well under a
// millisecond, large enough that the polls cost nothing measurable.
const fuelPerPoll = 10000

// instrument adds the fuel checks that make cancellation sound (package
// fuel). QuickJS's bytecode interpreter, JS_CallInternal, polls through
// its own interrupt counter on entry and at every jump, so it is left to
// do so.
//
// It also follows the deepest point of the guest's stack (stackLowExport),
// so that a recycled instance's reset copies back only the stack a run
// used; a module whose stack it cannot follow (a test guest) is reset
// whole.
func instrument(wasm []byte) ([]byte, fuel.Stats, error) {
	opt := fuel.Options{
		PollModule: "ptc", PollName: "interrupted",
		Fuel: fuelPerPoll, Entries: true,
		Polling:  []string{"JS_CallInternal"},
		StackLow: stackLowExport,
	}
	out, st, err := fuel.Instrument(wasm, opt)
	if errors.Is(err, fuel.ErrUnsupported) {
		opt.StackLow = ""
		return fuel.Instrument(wasm, opt)
	}
	return out, st, err
}

// chunk is a range of the snapshot that a fresh instance lacks.
type chunk struct{ off, end uint32 }

const chunkSize = 4096

// diffChunks lists the chunkSize ranges where snap differs from base
// (base is shorter when the snapshot grew memory), merging neighbours.
func diffChunks(base, snap []byte) []chunk {
	var cs []chunk
	for off := 0; off < len(snap); off += chunkSize {
		end := min(off+chunkSize, len(snap))
		var b []byte
		if off < len(base) {
			b = base[off:min(end, len(base))]
		}
		s := snap[off:end]
		if len(b) == len(s) && bytes.Equal(b, s) {
			continue
		}
		if len(b) == 0 && isZero(s) {
			continue // grown memory starts zeroed
		}
		if n := len(cs); n > 0 && cs[n-1].end == uint32(off) {
			cs[n-1].end = uint32(end)
			continue
		}
		cs = append(cs, chunk{uint32(off), uint32(end)})
	}
	return cs
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// freshMemory is the memory of an instance that ran no start function.
func (h *Host) freshMemory(ctx context.Context) ([]byte, error) {
	r := newRun(noTools, Limits{}.WithDefaults(), func() {})
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions()
	mod, err := h.rt.InstantiateModule(withRun(ctx, r), h.compiled, mc)
	if err != nil {
		return nil, err
	}
	defer mod.Close(ctx)
	mem := mod.ExportedMemory("memory")
	if mem == nil {
		return nil, errors.New("guest lacks a memory export")
	}
	b, _ := mem.Read(0, mem.Size())
	return append([]byte(nil), b...), nil
}

// takeSnapshot runs ptc_init in a throwaway instance and keeps its memory.
// The only mutable wasm global the guest has is the stack pointer, which is
// back at its initial value once ptc_init returns; everything else the C
// code keeps lives in linear memory.
func (h *Host) takeSnapshot(ctx context.Context) ([]byte, error) {
	r := newRun(noTools, Limits{}.WithDefaults(), func() {})
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").WithRandSource(crand.Reader)
	mod, err := h.rt.InstantiateModule(withRun(ctx, r), h.compiled, mc)
	if err != nil {
		return nil, err
	}
	defer mod.Close(ctx)
	res, err := mod.ExportedFunction("ptc_init").Call(withRun(ctx, r))
	if err != nil {
		return nil, err
	}
	if len(res) != 1 || api.DecodeI32(res[0]) != 0 {
		return nil, errors.New("ptc_init failed")
	}
	mem := mod.ExportedMemory("memory")
	if mem == nil {
		return nil, errors.New("guest lacks a memory export")
	}
	b, ok := mem.Read(0, mem.Size())
	if !ok {
		return nil, errors.New("read guest memory")
	}
	return append([]byte(nil), b...), nil
}

// restore overwrites a fresh instance's memory with img.
func restore(mod api.Module, img *image) error {
	mem := mod.ExportedMemory("memory")
	if mem == nil {
		return errors.New("guest lacks a memory export")
	}
	if need := img.size; mem.Size() < need {
		if _, ok := mem.Grow((need - mem.Size() + 0xffff) >> 16); !ok {
			return errors.New("grow guest memory to the snapshot size")
		}
	}
	data := img.data
	for _, c := range img.chunks {
		n := c.end - c.off
		if !mem.Write(c.off, data[:n]) {
			return errors.New("write snapshot into guest memory")
		}
		data = data[n:]
	}
	return nil
}

// Close refuses new runs (they end aborted with abort.Shutdown), lets the
// runs in progress go on until ctx is done, then stops them (aborted, with
// abort.Shutdown), waits until every one has returned, and releases the
// compiled guest and the runtime. Later calls return the first one's error.
func (h *Host) Close(ctx context.Context) error {
	h.closeOnce.Do(func() {
		h.mu.Lock()
		h.closed = true
		h.mu.Unlock()
		done := make(chan struct{})
		go func() {
			h.runs.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-ctx.Done():
			h.kill(abort.ErrShutdown)
			<-done // runs stop within milliseconds once killed
		}
		h.kill(abort.ErrShutdown)
		if h.base != nil {
			h.base.pool.close()
		}
		h.preludes.closePools()
		err := h.rt.Close(context.WithoutCancel(ctx))
		if h.cache != nil {
			if cerr := h.cache.Close(context.WithoutCancel(ctx)); err == nil {
				err = cerr
			}
		}
		h.closeErr = err
	})
	return h.closeErr
}

// enter registers a run; it reports false once Close was called.
func (h *Host) enter() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.runs.Add(1)
	return true
}

// Program is one run's input.
type Program struct {
	// Source is the program: the body of an async function, so top-level
	// await and return work.
	Source string
	// Dispatcher serves subcalls; nil fails every subcall with UNKNOWN_TOOL.
	Dispatcher Dispatcher
	// Limits bound the run; zero fields take the defaults.
	Limits Limits
	// Start, when set, is the wall-clock instant the run's clock starts at
	// (Date); by default, the real time the run starts.
	Start time.Time
	// Virtual makes the run's clock virtual (deterministic mode): it reads
	// Start and advances only when the program waits, to the next timer
	// or subcall due, a subcall being due its duration after it started.
	// Timers cost no real time; an event due past the time limit ends the
	// run as a timeout; the time the program computes stays bounded by the
	// limit in real time. With the same Random, the same answers and the
	// same durations, a program prints and returns the same bytes, also
	// when calls run concurrently.
	Virtual bool
	// CallTime, when positive on a virtual clock, is how long every
	// dispatched subcall takes on it, whatever it took in real time: the
	// order of events, and so the output, then no longer depends on the
	// tools' latency. Calls a replay answers from a recording take the
	// time recorded.
	CallTime time.Duration
	// Random, when set, replaces the guest's random source (Math.random,
	// crypto).
	Random io.Reader
	// Prelude, when set, is a trusted script (the generated tools SDK)
	// evaluated in the global scope before the program. The host keeps a
	// snapshot of the guest after each recent prelude, so a run with a
	// prelude it has seen starts as fast as one without.
	Prelude string
}

// Run executes p in a fresh guest instance and returns its outcome. Run
// never panics on bad input; host faults become KindInternal.
func (h *Host) Run(ctx context.Context, p Program) *Outcome {
	start := time.Now()
	lim := p.Limits.WithDefaults()
	out := &Outcome{}
	finish := func() *Outcome {
		out.Duration = time.Since(start)
		out.Message = cutError(out.Message, lim.ErrorBytes)
		out.Stack = cutError(out.Stack, lim.ErrorBytes)
		return out
	}
	if !h.enter() {
		out.Kind, out.Message = KindAborted, abort.Shutdown
		return finish()
	}
	defer h.runs.Done()
	if refused(ctx, &p, lim, out) {
		return finish()
	}
	d := p.Dispatcher
	if d == nil {
		d = noTools
	}

	lifeCtx, cancelLife := context.WithCancelCause(ctx)
	defer cancelLife(nil)
	stopLife := context.AfterFunc(h.life, func() { cancelLife(context.Cause(h.life)) })
	defer stopLife()
	// The time limit is a timer of the run's own rather than a context
	// deadline: the time the program's clock is paused moves it later.
	runCtx, cancelRun := context.WithCancelCause(lifeCtx)
	defer cancelRun(nil)
	callsCtx, cancelCalls := context.WithCancel(runCtx)
	r := newRunOf(ctx, &p, d, lim, start, cancelRun, cancelCalls)
	stopLimit := r.armLimit(lim.Timeout)
	defer stopLimit()
	defer r.shutdown()
	stopWatch := context.AfterFunc(runCtx, func() { r.stop(stopFromContext(runCtx)) })
	defer stopWatch()

	img, ok := h.runImage(runCtx, r, &p)
	if !ok {
		r.fillFrom(out)
		return finish()
	}
	mc := h.mcCompiled
	if img != nil {
		mc = h.mcImage // the snapshot was taken after _initialize
	}
	random := h.randomFor(r, &p, img)
	limit := pageLimitBytes(lim.MemoryBytes)
	alloc := newAllocator(limit)
	callCtx := withRun(experimental.WithMemoryAllocator(callsCtx, alloc), r)
	if min := h.minMemoryBytes(img); min > limit {
		r.fault(KindMemory, "the guest's initial memory of "+strconv.FormatUint(min, 10)+" bytes exceeds the memory limit")
		r.fillFrom(out)
		return finish()
	}
	inst, err := h.instance(callCtx, r, img, limit, mc, random)
	if err != nil {
		r.startFailed(runCtx, err)
		r.fillFrom(out)
		return finish()
	}
	clean := false
	defer func() {
		switch {
		case inst == nil:
		case img == nil || h.noRecycle:
			_ = inst.mod.Close(context.Background())
		default:
			img.pool.give(inst, clean && h.life.Err() == nil, h.checkReset)
		}
	}()
	defer func() {
		if inst != nil && inst.mem != nil {
			out.MemoryBytes = max(out.MemoryBytes, uint64(inst.mem.Size()))
		}
		out.Parks = r.park.parks
	}()

	if p.Prelude != "" && img == nil {
		// No snapshot support (a test guest): evaluate the prelude here.
		if err := r.prelude(callCtx, inst.guest, p.Prelude); err != nil {
			r.callFailed(err)
			r.fillFrom(out)
			return finish()
		}
		if r.hasOutcome() {
			r.fillFrom(out)
			out.Kind, out.Message, out.Stack = KindInternal, r.preludeError().Error(), ""
			return finish()
		}
	}
	r.park.mark = time.Now()
	err = r.exec(callCtx, inst.guest, p.Source)
	for errors.Is(err, errParked) {
		// The run parks (park.go): its instance goes, and it comes back
		// in a new one when a result does.
		if inst.mem != nil {
			out.MemoryBytes = max(out.MemoryBytes, uint64(inst.mem.Size()))
		}
		inst, err = h.park(runCtx, callCtx, r, inst, func() (*instance, error) {
			return h.instance(callCtx, r, img, limit, mc, random)
		})
	}
	if runCtx.Err() != nil {
		// The watcher runs on its own goroutine; record the reason now so
		// the outcome never depends on who won that race.
		r.stop(stopFromContext(runCtx))
	}
	if err != nil {
		r.callFailed(err)
	}
	clean = err == nil && r.reusable()
	r.fillFrom(out)
	return finish()
}

// refused reports whether p cannot run at all (its limits are invalid, its
// source too long, its caller gone), with out saying why.
func refused(ctx context.Context, p *Program, lim Limits, out *Outcome) bool {
	switch {
	case lim.Validate() != nil:
		out.Kind, out.Message = KindInternal, lim.Validate().Error()
	case len(p.Source) > lim.SourceBytes:
		out.Kind = KindSyntax
		out.Message = "program is " + itoa(len(p.Source)) + " bytes, over the " + itoa(lim.SourceBytes) + "-byte limit"
	case ctx.Err() != nil:
		out.Kind, out.Message = KindAborted, abort.NotStarted
	default:
		return false
	}
	return true
}

// newRunOf makes the run of p: its limits and deadline, its clock, and what
// the executor's record, replay and resume add to it (found in ctx:
// package runhook).
func newRunOf(ctx context.Context, p *Program, d Dispatcher, lim Limits, start time.Time, cancelRun context.CancelCauseFunc, cancelCalls context.CancelFunc) *run {
	r := newRun(d, lim, cancelCalls)
	r.cancelRun = cancelRun
	r.cut = runhook.Aborted(runhook.ErrCut.Error())
	r.limitAt = start.Add(lim.Timeout)
	r.deadline, r.deadlineWhy = r.limitAt, stopTimeout
	if cd, ok := ctx.Deadline(); ok && cd.Before(r.deadline) {
		r.deadline, r.deadlineWhy = cd, stopDeadline
	}
	hooks := runhook.From(ctx)
	r.clk = newTimeline(p, hooks, lim, start)
	if hooks != nil {
		r.answer = hooks.Answer
		if hooks.Cut != nil {
			r.cut = *hooks.Cut
		}
	}
	if p.Virtual && p.CallTime > 0 {
		r.callTime = int64(p.CallTime)
	}
	r.timed = p.Virtual || r.clk.trace != nil || r.clk.tape != nil || r.answer != nil
	if r.timed {
		r.flying = make(map[int32]flight)
	}
	r.src = p.Source
	return r
}

// runImage returns the image r starts from: the host's (nil for a guest
// without snapshots), or the one taken after p's prelude. It reports
// false, having stopped or faulted r, when the image cannot be had.
func (h *Host) runImage(ctx context.Context, r *run, p *Program) (*image, bool) {
	prelude := h.imagePrelude(*p)
	if prelude == "" || h.base == nil {
		return h.base, true
	}
	img, err := h.preludeImage(ctx, prelude)
	switch {
	case err == nil:
		return img, true
	case errors.Is(err, abort.ErrShutdown):
		r.stop(stopShutdown)
	case ctx.Err() != nil:
		// Gave up waiting for another run to build the image.
		r.stop(stopFromContext(ctx))
	default:
		r.fault(KindInternal, err.Error())
	}
	return nil, false
}

// randomFor returns r's random source, and makes r parkable when it may
// park: a plain live run (no random source of its caller's, no virtual
// clock, record or replay) that starts from an image.
func (h *Host) randomFor(r *run, p *Program, img *image) io.Reader {
	if p.Random != nil {
		return p.Random
	}
	if r.park.on = h.parkAfter > 0 && img != nil && !r.timed; !r.park.on {
		return crand.Reader
	}
	r.park.after, r.park.factor, r.park.tools = h.parkAfter, h.parkFactor, &h.toolTimes
	r.park.trace.Start = r.clk.start
	r.clk.log = &r.park.log
	r.budget()
	return &r.park.rand
}

// park closes the instance of a run that parked, waits for a result or
// the run's end, and brings the run back in a new instance (next): it
// returns that instance and how the program's new attempt ended (errParked
// again when it parked again), or no instance and nil when the run ended
// while parked or could not come back.
func (h *Host) park(runCtx, callCtx context.Context, r *run, inst *instance, next func() (*instance, error)) (*instance, error) {
	h.parked.Add(1)
	r.park.parks++
	_ = inst.mod.Close(context.Background())
	if !r.parkedWait(runCtx) {
		return nil, nil
	}
	r.rewind()
	inst, err := next()
	if err != nil {
		r.startFailed(runCtx, err)
		return nil, nil
	}
	r.park.restart()
	return inst, r.resume(callCtx, inst.guest)
}

// errRestore is a failure to start an instance from its image.
var errRestore = errors.New("start the guest")

// instance returns an instance of img (nil: the guest as compiled) bound
// to r: one an earlier run left clean (see pool), or a new one.
func (h *Host) instance(ctx context.Context, r *run, img *image, limit uint64, mc wazero.ModuleConfig, random io.Reader) (*instance, error) {
	var inst *instance
	if img != nil && !h.noRecycle {
		if inst = img.pool.take(limit); inst != nil {
			h.recycled.Add(1)
		}
	}
	if inst == nil {
		inst = &instance{img: img, limit: limit}
		mc = mc.WithWalltime(inst.walltime, 1).WithNanotime(inst.nanotime, 1).WithRandSource(inst)
		inst.bind(r, random)
		mod, err := h.instantiate(ctx, mc)
		if err != nil {
			return nil, err
		}
		inst.guest = newGuest(mod)
		if img != nil {
			if err := restore(mod, img); err != nil {
				_ = mod.Close(context.Background())
				return nil, fmt.Errorf("%w: %w", errRestore, err)
			}
		}
	}
	inst.bind(r, random)
	return inst, nil
}

// startFailed records why the run got no instance.
func (r *run) startFailed(runCtx context.Context, err error) {
	if errors.Is(err, errRestore) {
		r.fault(KindMemory, err.Error())
		return
	}
	if runCtx.Err() != nil {
		r.stop(stopFromContext(runCtx))
	}
	r.callFailed(err)
}

var (
	errTimeout = errors.New("run timed out")
)

// stopFromContext says why a run's context ended: the program's own time
// limit, the caller's deadline, a shutdown, or the caller's cancellation.
func stopFromContext(ctx context.Context) stopReason {
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errTimeout):
		return stopTimeout
	case errors.Is(cause, abort.ErrShutdown):
		return stopShutdown
	case errors.Is(cause, context.DeadlineExceeded), errors.Is(ctx.Err(), context.DeadlineExceeded):
		// ctx.Err says so even when the caller gave its deadline a cause.
		return stopDeadline
	default:
		return stopCancel
	}
}

// cutError bounds an error message or stack to limit bytes (at a character
// boundary), saying how much was cut.
func cutError(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… [" + strconv.Itoa(len(s)-cut) + " more bytes]"
}

// load copies src into a guest buffer from ptc_alloc; 0 means the guest
// is out of memory (recorded as a fault).
func (r *run) load(ctx context.Context, g *guest, src string) (uint32, error) {
	alloc := g.fn("ptc_alloc")
	if alloc == nil {
		return 0, fmt.Errorf("guest lacks a ptc_alloc export")
	}
	mem := g.mem
	if mem == nil {
		return 0, fmt.Errorf("guest lacks a memory export")
	}
	res, err := alloc.Call(ctx, uint64(len(src)))
	if err != nil {
		return 0, err
	}
	if len(res) != 1 {
		return 0, fmt.Errorf("guest's ptc_alloc returned %d values, want 1", len(res))
	}
	ptr := uint32(res[0])
	if ptr == 0 {
		r.fault(KindMemory, "out of memory loading the program")
		return 0, nil
	}
	if !mem.WriteString(ptr, src) {
		return 0, fmt.Errorf("guest returned an out-of-range buffer %#x for %d bytes", ptr, len(src))
	}
	return ptr, nil
}

// exec copies the source into the guest and runs it. A program the guest
// cannot parse as JavaScript is tried as TypeScript: when esbuild can strip
// its types, the JavaScript runs in the same instance (nothing of the
// program ran), with the line map for its stack traces. So plain
// JavaScript never pays for the transform.
func (r *run) exec(ctx context.Context, g *guest, src string) error {
	runFn, err := r.limits(ctx, g)
	if err != nil {
		return err
	}
	if err := r.runSource(ctx, g, runFn, src); err != nil {
		return err
	}
	if !r.syntaxOnly() {
		return nil
	}
	// esbuild cannot be interrupted: it runs on a goroutine of its own,
	// and a run whose time is up does not wait for it (its work is
	// bounded by the source limit and typescript.MaxNesting).
	type stripped struct {
		js  string
		m   *typescript.Map
		err error
	}
	ch := make(chan stripped, 1)
	go func() {
		js, m, err := typescript.Strip(src)
		ch <- stripped{js, m, err}
	}()
	var st stripped
	select {
	case st = <-ch:
	case <-ctx.Done():
		return nil
	}
	if err := st.err; err != nil {
		// Not TypeScript either: the guest's syntax error stands, unless
		// esbuild read further (see run.syntaxMessage).
		errors.As(err, &r.tsErr)
		return nil
	}
	r.js = st.js
	r.retry(st.m)
	return r.runStripped(ctx, g, runFn)
}

// limits gives the guest the run's limits and returns its ptc_run.
func (r *run) limits(ctx context.Context, g *guest) (api.Function, error) {
	runFn := g.fn("ptc_run")
	if runFn == nil {
		return nil, fmt.Errorf("guest lacks a ptc_run export")
	}
	if lim := g.fn("ptc_limits"); lim != nil {
		if _, err := lim.Call(ctx, uint64(r.lim.ArgumentBytes), uint64(r.lim.ArgumentDepth), uint64(r.lim.Timers)); err != nil {
			return nil, err
		}
	}
	return runFn, nil
}

// resume runs the program again in a new instance as exec ran it (a
// parked run coming back): a TypeScript program first fails as
// JavaScript, as it did then, so that the guest draws the same random
// bytes and clock readings.
func (r *run) resume(ctx context.Context, g *guest) error {
	runFn, err := r.limits(ctx, g)
	if err != nil {
		return err
	}
	if err := r.runSource(ctx, g, runFn, r.src); err != nil || r.ts == nil {
		return err
	}
	r.retry(r.ts)
	return r.runStripped(ctx, g, runFn)
}

// runStripped runs the JavaScript stripped from a TypeScript program,
// with the line map of its stack traces.
func (r *run) runStripped(ctx context.Context, g *guest, runFn api.Function) error {
	if lm := g.fn("ptc_linemap"); lm != nil {
		tab := r.ts.Lines()
		buf := make([]byte, 4*len(tab))
		for i, v := range tab {
			binary.LittleEndian.PutUint32(buf[4*i:], uint32(v))
		}
		ptr, err := r.load(ctx, g, string(buf))
		if err != nil || ptr == 0 {
			return err
		}
		if _, err := lm.Call(ctx, uint64(ptr), uint64(len(tab)/2)); err != nil {
			return err
		}
	}
	return r.runSource(ctx, g, runFn, r.js)
}

// runSource copies src into the guest and calls ptc_run.
func (r *run) runSource(ctx context.Context, g *guest, runFn api.Function, src string) error {
	ptr, err := r.load(ctx, g, src)
	if err != nil || ptr == 0 {
		return err
	}
	_, err = runFn.Call(ctx, uint64(ptr), uint64(len(src)), r.lim.MemoryBytes, uint64(r.lim.StackBytes))
	return err
}

// prelude evaluates a prelude script in the guest. A script error is
// reported by the guest through finish (see run.hasOutcome).
func (r *run) prelude(ctx context.Context, g *guest, src string) error {
	fn := g.fn("ptc_prelude")
	if fn == nil {
		return fmt.Errorf("guest lacks a ptc_prelude export")
	}
	ptr, err := r.load(ctx, g, src)
	if err != nil || ptr == 0 {
		return err
	}
	res, err := fn.Call(ctx, uint64(ptr), uint64(len(src)))
	if err != nil {
		return err
	}
	if len(res) != 1 || (api.DecodeI32(res[0]) != 0 && !r.hasOutcome()) {
		return fmt.Errorf("guest's ptc_prelude failed without a reason")
	}
	return nil
}

// instantiate creates the run's module, turning a panic inside wazero (a
// hostile module can provoke one) into an error.
func (h *Host) instantiate(ctx context.Context, mc wazero.ModuleConfig) (mod api.Module, err error) {
	defer func() {
		if p := recover(); p != nil {
			mod, err = nil, fmt.Errorf("instantiate guest: panic: %v", p)
		}
	}()
	return h.rt.InstantiateModule(ctx, h.compiled, mc)
}

// minMemoryBytes is the initial size of a run's memory starting from img.
func (h *Host) minMemoryBytes(img *image) uint64 {
	var n uint64
	if img != nil {
		n = uint64(img.size)
	}
	for _, m := range h.compiled.ExportedMemories() {
		n = max(n, uint64(m.Min())<<16)
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
