// Package wasmtimeguest runs the benchmark's programs in ptc's QuickJS
// guest (guest/quickjs/ptc-quickjs.wasm) hosted by wasmtime instead
// of wazero: the same module, with the "ptc" host imports written again
// here over wasmtime-go and WASI from wasmtime. Like the host, it takes a
// snapshot of the guest's memory after ptc_init and the tools prelude and
// starts every run from a fresh instance with that memory.
//
// It is a measurement, not a second host: the guest is not instrumented
// with ptc's fuel checks (runs are stopped by wasmtime's epoch
// interruption instead), output is discarded, Intl is not loaded, and the
// limits and outcomes of package host are not reproduced.
package wasmtimeguest

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v33"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/internal/guestfile"
)

// epochTick is how often the engine's epoch advances; a store's deadline
// is counted in ticks.
const epochTick = 10 * time.Millisecond

// Sandbox is the compiled guest, its compiled scripts and its snapshot.
type Sandbox struct {
	engine *wasmtime.Engine
	module *wasmtime.Module
	linker *wasmtime.Linker
	gate   *bench.Gate

	// runs maps a store's context pointer to its run, for the host
	// functions, which are defined once on the linker.
	runs sync.Map

	scripts [3][]byte // bootstrap, inspect, web (host import script)
	snap    []byte    // memory after _initialize, ptc_init and the prelude
	chunks  []chunk   // where snap differs from a new instance's memory

	stopTick chan struct{}
	tickDone chan struct{}
}

type chunk struct{ off, end int }

// The guest's own scripts, by the id the guest asks for (glue.c).
var scriptNames = []string{"bootstrap", "inspect", "web"}

// Guest outcome kinds (glue.c).
const guestOK = 0

// New compiles the guest found as package host finds it (guestfile.Find).
// When cacheFile is not empty, the compiled module is read from it if it
// exists and written to it otherwise (wasmtime's serialised module: the
// analogue of wazero's compilation cache). gate serves tools.wait; it may
// be nil.
func New(ctx context.Context, cacheFile string, gate *bench.Gate) (*Sandbox, error) {
	g, err := guestfile.Find("")
	if err != nil {
		return nil, fmt.Errorf("wasmtimeguest: %w", err)
	}
	cfg := wasmtime.NewConfig()
	cfg.SetEpochInterruption(true)
	cfg.SetMaxWasmStack(1 << 20) // as the host's wazero stack
	s := &Sandbox{engine: wasmtime.NewEngineWithConfig(cfg), gate: gate}
	if err := s.compile(g.Wasm, cacheFile); err != nil {
		return nil, err
	}
	s.linker = wasmtime.NewLinker(s.engine)
	if err := s.linker.DefineWasi(); err != nil {
		return nil, fmt.Errorf("wasmtimeguest: wasi: %w", err)
	}
	if err := s.defineImports(); err != nil {
		return nil, fmt.Errorf("wasmtimeguest: imports: %w", err)
	}
	s.stopTick, s.tickDone = make(chan struct{}), make(chan struct{})
	go s.tick()
	if err := s.compileScripts(ctx); err != nil {
		s.Close(ctx)
		return nil, err
	}
	if err := s.takeSnapshot(ctx); err != nil {
		s.Close(ctx)
		return nil, err
	}
	return s, nil
}

func (s *Sandbox) compile(wasm []byte, cacheFile string) error {
	if cacheFile != "" {
		if _, err := os.Stat(cacheFile); err == nil {
			m, err := wasmtime.NewModuleDeserializeFile(s.engine, cacheFile)
			if err == nil {
				s.module = m
				return nil
			}
		}
	}
	m, err := wasmtime.NewModule(s.engine, wasm)
	if err != nil {
		return fmt.Errorf("wasmtimeguest: compile: %w", err)
	}
	s.module = m
	if cacheFile != "" {
		b, err := m.Serialize()
		if err != nil {
			return fmt.Errorf("wasmtimeguest: serialise: %w", err)
		}
		if err := os.WriteFile(cacheFile, b, 0o644); err != nil {
			return fmt.Errorf("wasmtimeguest: %w", err)
		}
	}
	return nil
}

func (s *Sandbox) tick() {
	defer close(s.tickDone)
	t := time.NewTicker(epochTick)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.engine.IncrementEpoch()
		case <-s.stopTick:
			return
		}
	}
}

// Close stops the epoch ticker.
func (s *Sandbox) Close(context.Context) error {
	if s.stopTick != nil {
		close(s.stopTick)
		<-s.tickDone
		s.stopTick = nil
	}
	return nil
}

// instance is one store with one instance of the guest and its run.
type instance struct {
	store *wasmtime.Store
	inst  *wasmtime.Instance
	mem   *wasmtime.Memory
	r     *run
	key   any
}

// newInstance creates a store and instantiates the guest in it, without
// calling _initialize.
func (s *Sandbox) newInstance(ctx context.Context) (*instance, error) {
	store := wasmtime.NewStore(s.engine)
	store.SetWasi(wasmtime.NewWasiConfig()) // no arguments, environment, files
	store.Limiter(int64(memoryLimit()), -1, -1, -1, -1)
	store.SetEpochDeadline(uint64(bench.Timeout / epochTick))
	in := &instance{store: store, r: newRun(ctx, s.gate), key: store.Context()}
	s.runs.Store(in.key, in.r)
	inst, err := s.linker.Instantiate(store, s.module)
	if err != nil {
		in.close(s)
		return nil, fmt.Errorf("wasmtimeguest: instantiate: %w", err)
	}
	in.inst = inst
	ext := inst.GetExport(store, "memory")
	if ext == nil || ext.Memory() == nil {
		in.close(s)
		return nil, errors.New("wasmtimeguest: the guest has no memory export")
	}
	in.mem = ext.Memory()
	in.r.mem = in.mem
	return in, nil
}

func (in *instance) close(s *Sandbox) {
	in.r.shutdown()
	s.runs.Delete(in.key)
	in.store.Close()
}

// call calls an export with i32 arguments and returns its i32 result (0
// when it has none).
func (in *instance) call(name string, args ...int32) (int32, error) {
	f := in.inst.GetFunc(in.store, name)
	if f == nil {
		return 0, fmt.Errorf("the guest lacks %s", name)
	}
	as := make([]any, len(args))
	for i, a := range args {
		as[i] = a
	}
	v, err := f.Call(in.store, as...)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	n, _ := v.(int32)
	return n, nil
}

// load copies b into a buffer from ptc_alloc.
func (in *instance) load(b []byte) (int32, error) {
	p, err := in.call("ptc_alloc", int32(len(b)))
	if err != nil {
		return 0, err
	}
	if p == 0 {
		return 0, errors.New("out of memory loading the program")
	}
	copy(in.mem.UnsafeData(in.store)[p:], b)
	return p, nil
}

func (s *Sandbox) compileScripts(ctx context.Context) error {
	in, err := s.newInstance(ctx)
	if err != nil {
		return err
	}
	defer in.close(s)
	if _, err := in.call("_initialize"); err != nil {
		return fmt.Errorf("wasmtimeguest: %w", err)
	}
	for i, name := range scriptNames {
		src, err := guestfile.Script(name)
		if err != nil {
			return fmt.Errorf("wasmtimeguest: script %s: %w", name, err)
		}
		p, err := in.load(src)
		if err != nil {
			return fmt.Errorf("wasmtimeguest: script %s: %w", name, err)
		}
		code, err := in.call("ptc_compile", p, int32(len(src)))
		if err != nil || code == 0 {
			return fmt.Errorf("wasmtimeguest: compile script %s: %v", name, err)
		}
		mem := in.mem.UnsafeData(in.store)
		n := binary.LittleEndian.Uint32(mem[code:])
		s.scripts[i] = bytes.Clone(mem[int(code)+4 : int(code)+4+int(n)])
	}
	return nil
}

func (s *Sandbox) takeSnapshot(ctx context.Context) error {
	fresh, err := s.newInstance(ctx)
	if err != nil {
		return err
	}
	base := bytes.Clone(fresh.mem.UnsafeData(fresh.store))
	fresh.close(s)

	in, err := s.newInstance(ctx)
	if err != nil {
		return err
	}
	defer in.close(s)
	if _, err := in.call("_initialize"); err != nil {
		return fmt.Errorf("wasmtimeguest: %w", err)
	}
	if rc, err := in.call("ptc_init"); err != nil || rc != 0 {
		return fmt.Errorf("wasmtimeguest: ptc_init: %d, %v", rc, err)
	}
	p, err := in.load([]byte(bench.Prelude))
	if err != nil {
		return fmt.Errorf("wasmtimeguest: prelude: %w", err)
	}
	if rc, err := in.call("ptc_prelude", p, int32(len(bench.Prelude))); err != nil || rc != 0 {
		return fmt.Errorf("wasmtimeguest: prelude: %d, %v, %s", rc, err, in.r.finishData)
	}
	s.snap = bytes.Clone(in.mem.UnsafeData(in.store))
	for off := 0; off < len(s.snap); off += 4096 {
		end := min(off+4096, len(s.snap))
		if end <= len(base) && bytes.Equal(base[off:end], s.snap[off:end]) {
			continue
		}
		if n := len(s.chunks); n > 0 && s.chunks[n-1].end == off {
			s.chunks[n-1].end = end
			continue
		}
		s.chunks = append(s.chunks, chunk{off, end})
	}
	return nil
}

// memoryLimit is the linear memory a store may grow to: the host's
// page limit for the default memory limit (host.pageLimitBytes).
func memoryLimit() uint64 {
	m := uint64(bench.MemoryBytes)
	return m + m/4 + 4<<20
}

// Run runs src in a fresh instance started from the snapshot.
func (s *Sandbox) Run(ctx context.Context, src string) (string, error) {
	in, err := s.newInstance(ctx)
	if err != nil {
		return "", err
	}
	defer in.close(s)
	if need := uint64(len(s.snap)); in.mem.DataSize(in.store) < uintptr(need) {
		if _, err := in.mem.Grow(in.store, (need-uint64(in.mem.DataSize(in.store))+0xffff)>>16); err != nil {
			return "", fmt.Errorf("wasmtimeguest: grow to the snapshot: %w", err)
		}
	}
	mem := in.mem.UnsafeData(in.store)
	for _, c := range s.chunks {
		copy(mem[c.off:c.end], s.snap[c.off:c.end])
	}
	if _, err := in.call("ptc_limits", 1<<20, 64, 1000); err != nil {
		return "", fmt.Errorf("wasmtimeguest: %w", err)
	}
	p, err := in.load([]byte(src))
	if err != nil {
		return "", fmt.Errorf("wasmtimeguest: %w", err)
	}
	if _, err := in.call("ptc_run", p, int32(len(src)), bench.MemoryBytes, bench.StackBytes); err != nil {
		return "", fmt.Errorf("wasmtimeguest: %w", err)
	}
	r := in.r
	if !r.finished || r.finishKind != guestOK {
		return "", fmt.Errorf("wasmtimeguest: run failed (kind %d): %s", r.finishKind, r.finishData)
	}
	var rv struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(r.finishData, &rv); err != nil {
		return "", fmt.Errorf("wasmtimeguest: malformed result: %w", err)
	}
	return string(rv.Value), nil
}

func (s *Sandbox) runOf(c *wasmtime.Caller) *run {
	r, ok := s.runs.Load(c.Context())
	if !ok {
		panic("wasmtimeguest: host function called outside a run")
	}
	return r.(*run)
}

func (s *Sandbox) defineImports() error {
	i32, i64 := wasmtime.NewValType(wasmtime.KindI32), wasmtime.NewValType(wasmtime.KindI64)
	ty := func(params []*wasmtime.ValType, results ...*wasmtime.ValType) *wasmtime.FuncType {
		return wasmtime.NewFuncType(params, results)
	}
	ints := func(n int) []*wasmtime.ValType {
		t := make([]*wasmtime.ValType, n)
		for i := range t {
			t[i] = i32
		}
		return t
	}
	type hostFunc = func(*wasmtime.Caller, []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap)
	defs := []struct {
		name string
		ty   *wasmtime.FuncType
		fn   hostFunc
	}{
		{"write", ty(ints(2), i32), func(*wasmtime.Caller, []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			return []wasmtime.Val{wasmtime.ValI32(0)}, nil // output is discarded
		}},
		{"interrupted", ty(nil, i32), func(c *wasmtime.Caller, _ []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			return []wasmtime.Val{wasmtime.ValI32(s.runOf(c).interrupted())}, nil
		}},
		{"call_start", ty(ints(4), i32), func(c *wasmtime.Caller, a []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			r := s.runOf(c)
			mem := r.mem.UnsafeData(c)
			name := string(mem[a[0].I32() : a[0].I32()+a[1].I32()])
			args := bytes.Clone(mem[a[2].I32() : a[2].I32()+a[3].I32()])
			return []wasmtime.Val{wasmtime.ValI32(r.start(name, args))}, nil
		}},
		{"call_wait", ty([]*wasmtime.ValType{i64}, i64), func(c *wasmtime.Caller, a []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			return []wasmtime.Val{wasmtime.ValI64(s.runOf(c).wait(a[0].I64()))}, nil
		}},
		{"call_read", ty(ints(3), i32), func(c *wasmtime.Caller, a []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			r := s.runOf(c)
			env, ok := r.delivered[a[0].I32()]
			if !ok || len(env) != int(a[2].I32()) {
				return nil, wasmtime.NewTrap("guest read a subcall result it was not given")
			}
			delete(r.delivered, a[0].I32())
			copy(r.mem.UnsafeData(c)[a[1].I32():], env)
			return []wasmtime.Val{wasmtime.ValI32(0)}, nil
		}},
		{"finish", ty(ints(3)), func(c *wasmtime.Caller, a []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			r := s.runOf(c)
			if !r.finished {
				r.finished, r.finishKind = true, a[0].I32()
				r.finishData = bytes.Clone(r.mem.UnsafeData(c)[a[1].I32() : a[1].I32()+a[2].I32()])
			}
			return nil, nil
		}},
		{"script", ty(ints(3), i32), func(c *wasmtime.Caller, a []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			id := a[0].I32()
			if id < 0 || int(id) >= len(s.scripts) {
				return []wasmtime.Val{wasmtime.ValI32(0)}, nil // no Intl here
			}
			code := s.scripts[id]
			if int(a[2].I32()) >= len(code) && len(code) > 0 {
				copy(s.runOf(c).mem.UnsafeData(c)[a[1].I32():], code)
			}
			return []wasmtime.Val{wasmtime.ValI32(int32(len(code)))}, nil
		}},
		{"collate", ty(ints(8), i32), func(*wasmtime.Caller, []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			return []wasmtime.Val{wasmtime.ValI32(0)}, nil
		}},
	}
	for _, d := range defs {
		if err := s.linker.FuncNew("ptc", d.name, d.ty, d.fn); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
	}
	return nil
}

// run is the host side of one run: its subcalls and outcome. Only the
// guest's goroutine touches it, except for the ready channel.
type run struct {
	ctx      context.Context
	cancel   context.CancelFunc
	gate     *bench.Gate
	deadline time.Time
	mem      *wasmtime.Memory

	nextID      int32
	deferred    *call // started, not yet dispatched (see wait)
	outstanding int
	ready       chan completion
	delivered   map[int32][]byte
	wg          sync.WaitGroup

	finished   bool
	finishKind int32
	finishData []byte
}

type call struct {
	id   int32
	name string
	args []byte
}

type completion struct {
	id  int32
	env []byte
}

func newRun(ctx context.Context, gate *bench.Gate) *run {
	ctx, cancel := context.WithCancel(ctx)
	return &run{
		ctx: ctx, cancel: cancel, gate: gate,
		deadline:  time.Now().Add(bench.Timeout),
		ready:     make(chan completion, 1000),
		delivered: make(map[int32][]byte),
	}
}

func (r *run) shutdown() {
	r.cancel()
	r.launch()
	r.wg.Wait()
}

func (r *run) interrupted() int32 {
	if r.ctx.Err() != nil || time.Now().After(r.deadline) {
		return 1
	}
	return 0
}

func (r *run) start(name string, args []byte) int32 {
	if r.ctx.Err() != nil {
		return -1
	}
	r.launch()
	r.nextID++
	r.deferred = &call{r.nextID, name, args}
	return r.nextID
}

// launch starts the deferred call on a goroutine of its own.
func (r *run) launch() {
	c := r.deferred
	if c == nil {
		return
	}
	r.deferred = nil
	r.outstanding++
	r.wg.Go(func() {
		env := r.dispatch(c)
		select {
		case r.ready <- completion{c.id, env}:
		case <-r.ctx.Done():
		}
	})
}

// wait is call_wait: a lone sequential call is served on the guest's own
// goroutine, as package host does.
func (r *run) wait(timeout int64) int64 {
	if c := r.deferred; c != nil && r.outstanding == 0 && timeout < 0 {
		r.deferred = nil
		return r.deliver(c.id, r.dispatch(c))
	}
	r.launch()
	var due <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(time.Duration(timeout))
		defer t.Stop()
		due = t.C
	}
	select {
	case c := <-r.ready:
		r.outstanding--
		return r.deliver(c.id, c.env)
	case <-due:
		return 0
	case <-r.ctx.Done():
		return -1
	}
}

func (r *run) deliver(id int32, env []byte) int64 {
	r.delivered[id] = env
	return int64(id)<<32 | int64(uint32(len(env)))
}

// dispatch serves one subcall and encodes the guest's envelope.
func (r *run) dispatch(c *call) []byte {
	ok := func(v []byte) []byte {
		b := make([]byte, 0, len(v)+20)
		b = append(b, `{"ok":true,"value":`...)
		return append(append(b, v...), '}')
	}
	fail := func(code string, err error) []byte {
		b, _ := json.Marshal(map[string]any{"ok": false, "code": code, "message": err.Error()})
		return b
	}
	switch c.name {
	case "echo":
		return ok(c.args)
	case "sleep":
		if err := bench.Sleep(r.ctx, c.args); err != nil {
			return fail("TOOL_FAILED", err)
		}
		return ok([]byte(`"ok"`))
	case "wait":
		if err := r.gate.Wait(r.ctx); err != nil {
			return fail("TOOL_FAILED", err)
		}
		return ok([]byte(strconv.Quote(bench.Released)))
	}
	return fail("UNKNOWN_TOOL", errors.New("unknown tool: "+c.name))
}
