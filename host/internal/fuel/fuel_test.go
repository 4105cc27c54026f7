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
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	_, err = rt.NewHostModuleBuilder("ptc").NewFunctionBuilder().
		WithGoFunction(api.GoFunc(func(_ context.Context, s []uint64) {
			polls++
			s[0] = 0
			if stopAt > 0 && polls >= stopAt {
				s[0] = 1
			}
		}), nil, []api.ValueType{api.ValueTypeI32}).Export("interrupted").Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatalf("instantiate instrumented module: %v", err)
	}
	_, err = mod.ExportedFunction("run").Call(ctx)
	return polls, err
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

// memory.fill and memory.copy cost one unit per 4 KiB: large ones poll
// before they run, tiny ones cost nothing.
func TestInstrument_bulkPolls(t *testing.T) {
	for _, c := range []struct {
		n     int32
		polls int
	}{{1 << 20, 2}, {4095, 0}, {200 << 12, 2}, {50 << 12, 1}} {
		m := wasmgen.New()
		m.Import("ptc", "interrupted", toI32)
		m.Memory(32, -1)
		body := wasmgen.NewBody().
			I32Const(0).I32Const(7).I32Const(c.n).Raw(0xfc, 11, 0).       // memory.fill
			I32Const(0).I32Const(1<<20).I32Const(c.n).Raw(0xfc, 10, 0, 0) // memory.copy
		m.ExportFunc("run", m.Func(none, nil, body))
		polls, err := run(t, m.Bytes(), opts, 0) // 100 units between polls
		if err != nil {
			t.Fatal(err)
		}
		if polls != c.polls {
			t.Fatalf("length %d: %d polls, want %d", c.n, polls, c.polls)
		}
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
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	f.Cleanup(func() { rt.Close(ctx) })
	f.Fuzz(func(t *testing.T, in []byte) {
		out, _, err := fuel.Instrument(in, opts)
		if err != nil {
			return
		}
		if _, err := rt.CompileModule(ctx, in); err != nil {
			return
		}
		if _, err := rt.CompileModule(ctx, out); err != nil {
			t.Fatalf("valid module instrumented into an invalid one: %v", err)
		}
	})
}
