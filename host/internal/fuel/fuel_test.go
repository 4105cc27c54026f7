package fuel_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/ptchost/ptc/host/internal/fuel"
	"github.com/ptchost/ptc/host/internal/wasmgen"
)

var (
	none   = wasmgen.Signature{}
	toI32  = wasmgen.Signature{Results: []wasmgen.ValType{wasmgen.I32}}
	i32ToV = wasmgen.Signature{Params: []wasmgen.ValType{wasmgen.I32}}
)

var opts = fuel.Options{PollModule: "ptc", PollName: "interrupted", Fuel: 100, Entries: true}

// run instruments wasm, runs its export "run" and reports how often it
// polled; the poll answers stop (nonzero) from the stopAt-th call on.
func run(t *testing.T, wasm []byte, opt fuel.Options, stopAt int) (polls int, err error) {
	t.Helper()
	out, _, err := fuel.Instrument(wasm, opt)
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	mod := instantiate(t, out, func() uint64 {
		polls++
		if stopAt > 0 && polls >= stopAt {
			return 1
		}
		return 0
	})
	_, err = mod.ExportedFunction("run").Call(context.Background())
	return polls, err
}

// instantiate instantiates an instrumented module in a runtime of its own
// (closed when t ends) whose poll import answers poll().
func instantiate(t *testing.T, out []byte, poll func() uint64) api.Module {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { rt.Close(ctx) })
	_, err := rt.NewHostModuleBuilder("ptc").NewFunctionBuilder().
		WithGoFunction(api.GoFunc(func(_ context.Context, s []uint64) { s[0] = poll() }), nil, []api.ValueType{api.ValueTypeI32}).
		Export("interrupted").Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatalf("instantiate instrumented module: %v", err)
	}
	return mod
}

// counted is a module whose run loops n times.
func counted(n int32) []byte {
	m := wasmgen.New()
	m.Import("ptc", "interrupted", toI32)
	body := wasmgen.NewBody().
		Loop().
		LocalGet(0).I32Const(1).I32Add().LocalTee(0).I32Const(n).Raw(0x48 /* i32.lt_s */).BrIf(0).
		End()
	f := m.Func(none, []wasmgen.ValType{wasmgen.I32}, body)
	m.ExportFunc("run", f)
	return m.Bytes()
}

func TestInstrument_loopsPoll(t *testing.T) {
	polls, err := run(t, counted(10000), opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	if polls != 100 { // 10000 iterations at 100 each
		t.Fatalf("%d polls, want 100", polls)
	}
}

func TestInstrument_stopTraps(t *testing.T) {
	m := wasmgen.New()
	m.Import("ptc", "interrupted", toI32)
	f := m.Func(none, nil, wasmgen.NewBody().Loop().Br(0).End()) // never polls by itself
	m.ExportFunc("run", f)
	polls, err := run(t, m.Bytes(), opts, 3)
	if err == nil {
		t.Fatal("an endless loop returned")
	}
	if polls != 3 {
		t.Fatalf("%d polls, want 3", polls)
	}
}

// Loop-free recursion polls through the entries it is charged for.
func TestInstrument_recursionPolls(t *testing.T) {
	m := wasmgen.New()
	m.Import("ptc", "interrupted", toI32)
	// f(n): if n != 0 { f(n-1) }, called with 5000.
	f := uint32(1)
	m.Func(i32ToV, nil, wasmgen.NewBody().
		LocalGet(0).If().LocalGet(0).I32Const(-1).I32Add().Call(f).End())
	r := m.Func(none, nil, wasmgen.NewBody().I32Const(5000).Call(f))
	m.ExportFunc("run", r)
	polls, err := run(t, m.Bytes(), opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	if polls != 50 {
		t.Fatalf("%d polls, want 50", polls)
	}
	// Without Entries, nothing polls.
	noEntries := opts
	noEntries.Entries = false
	if polls, _ := run(t, m.Bytes(), noEntries, 0); polls != 0 {
		t.Fatalf("%d polls without Entries, want 0", polls)
	}
}

// memory.fill and memory.copy are charged by size (one unit per 128
// bytes) and long ones run in chunks: a large one polls while it runs, a
// tiny one costs nothing. What they do is
// unchanged: the same bytes, overlapping copies in either direction, and
// a trap before any write when out of bounds.
func TestInstrument_bulk(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name           string
		body           *wasmgen.Body
		polls, trapped bool
		check          func(mem []byte) bool
	}{
		{"fill 2 MiB", wasmgen.NewBody().I32Const(1).I32Const(7).I32Const(2*mib).Raw(0xfc, 11, 0), true, false,
			func(mem []byte) bool { return mem[0] == 0 && mem[1] == 7 && mem[2*mib] == 7 && mem[2*mib+1] == 0 }},
		{"fill 100 B", wasmgen.NewBody().I32Const(10).I32Const(9).I32Const(100).Raw(0xfc, 11, 0), false, false,
			func(mem []byte) bool { return mem[9] == 0 && mem[10] == 9 && mem[109] == 9 && mem[110] == 0 }},
		// A short operation (under the chunk size) is charged by its length
		// too: 200 KiB is 1600 units, over the 100 between polls here.
		{"fill 200 KiB", wasmgen.NewBody().I32Const(0).I32Const(3).I32Const(200<<10).Raw(0xfc, 11, 0), true, false,
			func(mem []byte) bool { return mem[0] == 3 && mem[200<<10-1] == 3 && mem[200<<10] == 0 }},
		{"copy forward overlapping", wasmgen.NewBody().
			I32Const(0).I32Const(1).I32Const(3*mib).Raw(0xfc, 11, 0).                   // 1s
			I32Const(mib).I32Const(2).I32Const(mib).Raw(0xfc, 11, 0).                   // 2s in the second MiB
			I32Const(0).I32Const(mib).I32Const(2*mib).Raw(0xfc, 10, 0, 0), true, false, // dst < src
			func(mem []byte) bool { return mem[0] == 2 && mem[mib-1] == 2 && mem[mib] == 1 && mem[2*mib-1] == 1 }},
		{"copy backward overlapping", wasmgen.NewBody().
			I32Const(0).I32Const(1).I32Const(mib).Raw(0xfc, 11, 0).
			I32Const(mib).I32Const(2).I32Const(mib).Raw(0xfc, 11, 0).
			I32Const(mib/2).I32Const(0).I32Const(2*mib).Raw(0xfc, 10, 0, 0), true, false, // dst > src
			func(mem []byte) bool {
				return mem[mib/2] == 1 && mem[mib+mib/2-1] == 1 && mem[mib+mib/2] == 2 && mem[2*mib+mib/2-1] == 2
			}},
		{"fill out of bounds", wasmgen.NewBody().I32Const(0).I32Const(5).I32Const(32*mib+1).Raw(0xfc, 11, 0), false, true,
			func(mem []byte) bool { return mem[0] == 0 }},
		{"copy out of bounds", wasmgen.NewBody().I32Const(0).I32Const(32*mib-10).I32Const(11).Raw(0xfc, 10, 0, 0), false, true,
			func(mem []byte) bool { return true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := wasmgen.New()
			m.Import("ptc", "interrupted", toI32)
			m.Memory(512, -1) // 32 MiB
			m.ExportMemory("memory")
			m.ExportFunc("run", m.Func(none, nil, c.body))
			out, _, err := fuel.Instrument(m.Bytes(), opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			polls := 0
			mod := instantiate(t, out, func() uint64 { polls++; return 0 })
			_, err = mod.ExportedFunction("run").Call(ctx)
			if (err != nil) != c.trapped {
				t.Fatalf("trap: %v, want %v", err, c.trapped)
			}
			if (polls > 0) != c.polls {
				t.Errorf("%d polls", polls)
			}
			mem, _ := mod.ExportedMemory("memory").Read(0, 32*mib)
			if !c.check(mem) {
				t.Error("memory is not what the instruction leaves")
			}
		})
	}
}

func TestInstrument_refusals(t *testing.T) {
	m := wasmgen.New()
	m.Import("env", "other", toI32)
	m.ExportFunc("run", m.Func(none, nil, wasmgen.NewBody().Loop().Br(0).End()))
	if _, _, err := fuel.Instrument(m.Bytes(), opts); err == nil {
		t.Error("a module without the poll import was instrumented")
	}
	if _, _, err := fuel.Instrument([]byte("\x00asm\x01\x00\x00\x00\x0a\x05\x01\x03\x00\xfd\x0c"), opts); err == nil {
		t.Error("a truncated module was instrumented")
	}
	simd := wasmgen.New()
	simd.Import("ptc", "interrupted", toI32)
	simd.ExportFunc("run", simd.Func(none, nil, wasmgen.NewBody().Raw(0xfd, 0x0c)))
	if _, _, err := fuel.Instrument(simd.Bytes(), opts); !errors.Is(err, fuel.ErrUnsupported) {
		t.Errorf("SIMD: %v, want ErrUnsupported", err)
	}
}

// FuzzInstrument: any input either is refused or gives a module that
// wazero accepts whenever it accepted the input. It never panics.
func FuzzInstrument(f *testing.F) {
	f.Add(counted(10))
	m := wasmgen.New()
	m.Import("ptc", "interrupted", toI32)
	m.Memory(1, -1)
	m.ExportFunc("run", m.Func(i32ToV, []wasmgen.ValType{wasmgen.I32, wasmgen.I64}, wasmgen.NewBody().
		Block().Loop().LocalGet(0).BrIf(1).Br(0).End().End().I32Const(0).I32Const(0).I32Const(0).Raw(0xfc, 11, 0)))
	f.Add(m.Bytes())
	sp := wasmgen.New()
	sp.Import("ptc", "interrupted", toI32)
	g := sp.Global("__stack_pointer", 4096)
	sp.Memory(1, -1)
	sp.Data(8192, []byte("data"))
	sp.ExportFunc("run", sp.Func(none, nil, wasmgen.NewBody().Raw(0x23, byte(g)).I32Const(16).Raw(0x6b, 0x24, byte(g))))
	f.Add(sp.Bytes())
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	f.Cleanup(func() { rt.Close(ctx) })
	low := opts
	low.StackLow = "stack_low"
	f.Fuzz(func(t *testing.T, in []byte) {
		if _, err := rt.CompileModule(ctx, in); err != nil {
			fuel.Instrument(in, opts) // must not panic
			fuel.Instrument(in, low)
			return
		}
		for _, o := range []fuel.Options{opts, low} {
			out, _, err := fuel.Instrument(in, o)
			if err != nil {
				continue
			}
			if _, err := rt.CompileModule(ctx, out); err != nil {
				t.Fatalf("valid module instrumented (StackLow %q) into an invalid one: %v", o.StackLow, err)
			}
		}
	})
}

// Bulk memory is charged by size: filling 8 MiB polls about once per MiB
// (10 000 units between polls, one unit per 128 bytes), not once per 38 MiB
// as when a 256 KiB chunk cost 65 units.
func TestInstrument_bulkChargedBySize(t *testing.T) {
	m := wasmgen.New()
	m.Import("ptc", "interrupted", toI32)
	m.Memory(256, -1)
	m.ExportFunc("run", m.Func(none, nil, wasmgen.NewBody().I32Const(0).I32Const(1).I32Const(8<<20).Raw(0xfc, 11, 0)))
	o := opts
	o.Fuel = 10000
	polls, err := run(t, m.Bytes(), o, 0)
	if err != nil {
		t.Fatal(err)
	}
	if polls < 6 || polls > 8 {
		t.Fatalf("8 MiB fill: %d polls, want about 7", polls)
	}
}

// TestInstrument_stackLow: the added global follows the deepest write of
// the stack pointer, whatever other globals are written, and a module
// without a named stack pointer is refused.
func TestInstrument_stackLow(t *testing.T) {
	m := wasmgen.New()
	m.Import("ptc", "interrupted", toI32)
	other := m.Global("other", 0)
	sp := m.Global("__stack_pointer", 4096)
	// frame(n) takes 64 bytes of stack and recurses n times; it also
	// writes a low value into another global, which must not count.
	frame := uint32(1)
	body := wasmgen.NewBody().
		Raw(0x23, byte(sp)).I32Const(64).Raw(0x6b, 0x24, byte(sp)). // sp -= 64
		I32Const(8).Raw(0x24, byte(other)).
		LocalGet(0).If().
		LocalGet(0).I32Const(1).Raw(0x6b).Call(frame).
		End().
		Raw(0x23, byte(sp)).I32Const(64).I32Add().Raw(0x24, byte(sp)) // sp += 64
	m.Func(i32ToV, nil, body)
	m.ExportFunc("frame", frame)
	m.Memory(1, -1)
	m.Data(4096, []byte("data above the stack"))
	wasm := m.Bytes()

	opt := opts
	opt.StackLow = "stack_low"
	out, st, err := fuel.Instrument(wasm, opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.StackWrites != 2 {
		t.Fatalf("%d stack pointer writes followed, want 2", st.StackWrites)
	}
	ctx := context.Background()
	mod := instantiate(t, out, func() uint64 { return 0 })
	low, ok := mod.ExportedGlobal("stack_low").(api.MutableGlobal)
	if !ok {
		t.Fatal("stack_low is not exported as a mutable global")
	}
	if got := api.DecodeI32(low.Get()); got != 4096 {
		t.Fatalf("stack_low starts at %d, want the stack pointer's 4096", got)
	}
	for _, c := range []struct{ depth, want int32 }{{10, 4096 - 11*64}, {2, 4096 - 11*64}} {
		if _, err := mod.ExportedFunction("frame").Call(ctx, uint64(c.depth)); err != nil {
			t.Fatal(err)
		}
		if got := api.DecodeI32(low.Get()); got != c.want {
			t.Fatalf("after frame(%d): stack_low %d, want %d", c.depth, got, c.want)
		}
	}
	low.Set(api.EncodeI32(4096)) // set back: counts from here
	if _, err := mod.ExportedFunction("frame").Call(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := api.DecodeI32(low.Get()); got != 4096-3*64 {
		t.Fatalf("after a reset and frame(2): stack_low %d, want %d", got, 4096-3*64)
	}

	_, _, err = fuel.Instrument(counted(1), opt)
	if !errors.Is(err, fuel.ErrUnsupported) {
		t.Fatalf("a module without a stack pointer: %v, want ErrUnsupported", err)
	}
	// Only the stack may lie below its top: data below it, or no data
	// segment at all (statics in .bss could lie anywhere), is refused; so
	// is a module that exports the name already.
	for _, c := range []struct {
		at     []uint32
		export string
		want   bool
	}{{[]uint32{16}, "", false}, {nil, "", false}, {[]uint32{8192, 16}, "", false}, {[]uint32{4096}, "", true}, {[]uint32{4096}, "stack_low", false}} {
		m := wasmgen.New()
		m.Import("ptc", "interrupted", toI32)
		m.Global("__stack_pointer", 4096)
		f := m.Func(none, nil, wasmgen.NewBody())
		if c.export != "" {
			m.ExportFunc(c.export, f)
		}
		m.Memory(1, -1)
		for _, at := range c.at {
			m.Data(at, []byte("data"))
		}
		_, _, err := fuel.Instrument(m.Bytes(), opt)
		if ok := err == nil; ok != c.want || (err != nil && !errors.Is(err, fuel.ErrUnsupported)) {
			t.Fatalf("data at %v under a stack whose top is 4096, export %q: %v", c.at, c.export, err)
		}
	}
}
