package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	wg "github.com/ptchost/ptc/host/internal/wasmgen"
)

// Hostile guests: hand-assembled modules that import the "ptc" functions
// and call them with bad arguments (docs/ARCHITECTURE.md, "Host ABI": every pointer and
// length is bounds-checked; a bad one fails the run with an internal error,
// never a host panic).

// Function indices of the "ptc" imports in every module built by hostile.
const (
	fWrite uint32 = iota
	fInterrupted
	fCallStart
	fCallWait
	fCallRead
	fFinish
	fDomainToASCII
	nImports
)

// Locals of ptc_run after its four parameters.
const (
	lID  uint32 = 4 + iota // i32: the id call_wait delivered
	lLen                   // i32: the length call_wait delivered
	lW                     // i64: call_wait's raw result
)

// Fixed data in the hostile guests' memory (one 64 KiB page by default).
const (
	offArgs     = 0    // `{}`
	offName     = 16   // "echo"
	offOKValue  = 32   // `{"value":1}`
	offGarbage  = 64   // "garbage"
	offExc      = 96   // `{"message":"boom","stack":""}`
	offSyntax   = 160  // `{"message":"second","stack":""}`
	offBadUTF8  = 224  // "\xff\xfe"
	offBadJSON  = 240  // `{"a":`
	offBadValue = 256  // `{"value":nope}`
	offDomain   = 288  // "Bücher.de"
	offSrc      = 1024 // where the default ptc_alloc puts the program
	offBuf      = 4096 // scratch buffer for call_read
	pageSize    = 1 << 16
)

var staticData = map[uint32]string{
	offArgs:     `{}`,
	offName:     "echo",
	offOKValue:  `{"value":1}`,
	offGarbage:  "garbage",
	offExc:      `{"message":"boom","stack":""}`,
	offSyntax:   `{"message":"second","stack":""}`,
	offBadUTF8:  "\xff\xfe",
	offBadJSON:  `{"a":`,
	offBadValue: `{"value":nope}`,
	offDomain:   "Bücher.de",
}

var (
	sigWrite      = wg.Signature{Params: []wg.ValType{wg.I32, wg.I32}, Results: []wg.ValType{wg.I32}}
	sigI32        = wg.Signature{Results: []wg.ValType{wg.I32}}
	sigCallStart  = wg.Signature{Params: []wg.ValType{wg.I32, wg.I32, wg.I32, wg.I32}, Results: []wg.ValType{wg.I32}}
	sigCallWait   = wg.Signature{Params: []wg.ValType{wg.I64}, Results: []wg.ValType{wg.I64}}
	sigCallRead   = wg.Signature{Params: []wg.ValType{wg.I32, wg.I32, wg.I32}, Results: []wg.ValType{wg.I32}}
	sigFinish     = wg.Signature{Params: []wg.ValType{wg.I32, wg.I32, wg.I32}}
	sigDomain     = wg.Signature{Params: []wg.ValType{wg.I32, wg.I32, wg.I32, wg.I32}, Results: []wg.ValType{wg.I32}}
	sigVoid       = wg.Signature{}
	sigAlloc      = wg.Signature{Params: []wg.ValType{wg.I32}, Results: []wg.ValType{wg.I32}}
	sigRun        = wg.Signature{Params: []wg.ValType{wg.I32, wg.I32, wg.I32, wg.I32}, Results: []wg.ValType{wg.I32}}
	ptcRunLocals  = []wg.ValType{wg.I32, wg.I32, wg.I64}
	allKinds      = []host.Kind{host.KindOK, host.KindSyntax, host.KindException, host.KindTimeout, host.KindMemory, host.KindAborted, host.KindOutputLimit, host.KindSubcallLimit, host.KindInternal}
	errHostPanics = errors.New("host panicked")
)

// spec describes a hostile guest; the zero value is a well-formed guest
// whose ptc_run returns without calling anything.
type spec struct {
	run        *wg.Body      // ptc_run's body (must leave an i32); nil: return 0
	alloc      *wg.Body      // ptc_alloc's body; nil: return offSrc
	init       *wg.Body      // _initialize's body; nil: empty
	allocSig   *wg.Signature // overrides ptc_alloc's type (alloc must match it)
	runSig     *wg.Signature // overrides ptc_run's type (run must match it)
	noRun      bool
	noAlloc    bool
	noInit     bool
	noMemory   bool
	hideMemory bool // memory present but not exported
	memMin     uint32
	memMax     int64 // 0: no maximum
	extra      func(m *wg.Module)
}

func (s spec) bytes() []byte {
	m := wg.New()
	m.Import("ptc", "write", sigWrite)
	m.Import("ptc", "interrupted", sigI32)
	m.Import("ptc", "call_start", sigCallStart)
	m.Import("ptc", "call_wait", sigCallWait)
	m.Import("ptc", "call_read", sigCallRead)
	m.Import("ptc", "finish", sigFinish)
	m.Import("ptc", "domain_to_ascii", sigDomain)
	if s.extra != nil {
		s.extra(m)
	}
	if !s.noMemory {
		min := s.memMin
		if min == 0 {
			min = 1
		}
		max := s.memMax
		if max == 0 {
			max = -1
		}
		m.Memory(min, max)
		if !s.hideMemory {
			m.ExportMemory("memory")
		}
		for off, d := range staticData {
			m.Data(off, []byte(d))
		}
	}
	if !s.noInit {
		m.ExportFunc("_initialize", m.Func(sigVoid, nil, s.init))
	}
	if !s.noAlloc {
		body, sig := s.alloc, sigAlloc
		if body == nil {
			body = wg.NewBody().I32Const(offSrc)
		}
		if s.allocSig != nil {
			sig = *s.allocSig
		}
		m.ExportFunc("ptc_alloc", m.Func(sig, nil, body))
	}
	if !s.noRun {
		body, sig := s.run, sigRun
		if body == nil {
			body = ret0()
		}
		if s.runSig != nil {
			sig = *s.runSig
		}
		m.ExportFunc("ptc_run", m.Func(sig, ptcRunLocals, body))
	}
	return m.Bytes()
}

// Body snippets. Each call leaves the stack as it found it.

func body() *wg.Body { return wg.NewBody() }

// ret0 returns 0 from ptc_run.
func ret0() *wg.Body { return body().I32Const(0) }

func write(b *wg.Body, ptr, n int32) *wg.Body {
	return b.I32Const(ptr).I32Const(n).Call(fWrite).Drop()
}

func finish(b *wg.Body, kind, ptr, n int32) *wg.Body {
	return b.I32Const(kind).I32Const(ptr).I32Const(n).Call(fFinish)
}

func finishStatic(b *wg.Body, kind int32, off uint32) *wg.Body {
	return finish(b, kind, int32(off), int32(len(staticData[off])))
}

// startEcho starts a well-formed subcall echo({}).
func startEcho(b *wg.Body) *wg.Body {
	return b.I32Const(offName).I32Const(4).I32Const(offArgs).I32Const(2).Call(fCallStart).Drop()
}

func callStart(b *wg.Body, name, nameLen, args, argsLen int32) *wg.Body {
	return b.I32Const(name).I32Const(nameLen).I32Const(args).I32Const(argsLen).Call(fCallStart).Drop()
}

// domainToASCII calls domain_to_ascii and leaves its result in lID.
func domainToASCII(b *wg.Body, in, n, out, room int32) *wg.Body {
	return b.I32Const(in).I32Const(n).I32Const(out).I32Const(room).Call(fDomainToASCII).LocalSet(lID)
}

// okIfID finishes with kind ok when lID holds want, and traps otherwise.
func okIfID(b *wg.Body, want int32) *wg.Body {
	b.LocalGet(lID).I32Const(want).Raw(0x46).I32Eqz().If().Unreachable().End() // i32.eq
	return finishStatic(b, 0, offOKValue)
}

// wait calls call_wait (no timeout) and splits its result into lID and
// lLen.
func wait(b *wg.Body) *wg.Body {
	return b.I64Const(-1).Call(fCallWait).LocalTee(lW).I64Const(32).I64ShrU().I32WrapI64().LocalSet(lID).
		LocalGet(lW).I32WrapI64().LocalSet(lLen)
}

// readDelivered reads the delivered envelope into offBuf with the length
// adjusted by delta.
func readDelivered(b *wg.Body, ptr int32, delta int32) *wg.Body {
	b.LocalGet(lID).I32Const(ptr).LocalGet(lLen)
	if delta != 0 {
		b.I32Const(delta).I32Add()
	}
	return b.Call(fCallRead).Drop()
}

// echoDispatcher answers every subcall with {"echo":NAME} and counts them.
type echoDispatcher struct{ calls atomic.Int32 }

func (d *echoDispatcher) Dispatch(_ context.Context, c host.Call) host.Reply {
	d.calls.Add(1)
	v, _ := json.Marshal(map[string]string{"echo": c.Name})
	return host.Reply{Value: v}
}

// runGuest compiles wasm as the guest and runs it, turning a host panic
// into a test failure instead of a crashed test binary.
func runGuest(t testing.TB, wasm []byte, cfg host.Config, p host.Program) (out *host.Outcome, err error) {
	t.Helper()
	ctx := context.Background()
	cfg.Wasm = wasm
	h, err := host.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer h.Close(ctx)
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 8<<10)
			buf = buf[:runtime.Stack(buf, false)]
			out, err = nil, fmt.Errorf("%w: %v\n%s", errHostPanics, p, buf)
		}
	}()
	if p.Source == "" {
		p.Source = "hostile"
	}
	return h.Run(ctx, p), nil
}

func validKind(k host.Kind) bool {
	for _, v := range allKinds {
		if k == v {
			return true
		}
	}
	return false
}

type hostileCase struct {
	name   string
	spec   spec
	cfg    host.Config
	limits host.Limits
	want   host.Kind
	// wantMessage, when set, must be a substring of the outcome's message.
	wantMessage string
	check       func(t *testing.T, o *host.Outcome, d *echoDispatcher)
	// static marks a guest whose ABI violation is visible in the module
	// itself; host.New may reject it instead of Run failing it.
	static bool
}

func hostileCases() []hostileCase {
	const wrap = int32(-16) // 0xfffffff0: ptr+len wraps past 2^32
	return []hostileCase{
		// write
		{name: "write/ptr past memory", spec: spec{run: write(body(), pageSize, 1).I32Const(0)}, want: host.KindInternal, wantMessage: "out-of-range"},
		{name: "write/ptr at end, len 1", spec: spec{run: write(body(), pageSize-1, 2).I32Const(0)}, want: host.KindInternal},
		{name: "write/ptr+len wraps", spec: spec{run: write(body(), wrap, 0x20).I32Const(0)}, want: host.KindInternal},
		{name: "write/len 2^32-1", spec: spec{run: write(body(), 1, -1).I32Const(0)}, want: host.KindInternal},
		{name: "write/ptr 2^32-1 len 0", spec: spec{run: write(body(), -1, 0).I32Const(0)}, want: host.KindInternal},
		{name: "write/whole memory hits output limit", spec: spec{run: write(body(), 0, pageSize).I32Const(0)}, limits: host.Limits{OutputBytes: 1024}, want: host.KindOutputLimit},
		{name: "write/then finish ok", spec: spec{run: finishStatic(write(body(), offName, 4), 0, offOKValue).I32Const(0)}, want: host.KindOK,
			check: func(t *testing.T, o *host.Outcome, _ *echoDispatcher) {
				if len(o.Output) != 1 || o.Output[0] != "echo" || string(o.ReturnValue) != "1" {
					t.Errorf("output %q, return value %s; want [echo], 1", o.Output, o.ReturnValue)
				}
			}},

		// call_start
		{name: "call_start/name out of range", spec: spec{run: callStart(body(), pageSize, 4, offArgs, 2).I32Const(0)}, want: host.KindInternal},
		{name: "call_start/name wraps", spec: spec{run: callStart(body(), wrap, 0x20, offArgs, 2).I32Const(0)}, want: host.KindInternal},
		{name: "call_start/args out of range", spec: spec{run: callStart(body(), offName, 4, -1, 2).I32Const(0)}, want: host.KindInternal},
		{name: "call_start/args wrap", spec: spec{run: callStart(body(), offName, 4, wrap, 0x7fffffff).I32Const(0)}, want: host.KindInternal},
		// A name that is not UTF-8 reaches the dispatcher made valid.
		{name: "call_start/invalid UTF-8 name", spec: spec{run: finishStatic(
			readDelivered(wait(callStart(body(), offBadUTF8, 2, offArgs, 2)), offBuf, 0).
				I32Const(offBuf).LocalGet(lLen).Call(fWrite).Drop(), 0, offArgs).I32Const(0)},
			want: host.KindOK, check: wantEcho("\uFFFD")},
		{name: "call_start/invalid JSON args", spec: spec{run: finishStatic(
			readDelivered(wait(callStart(body(), offName, 4, offBadJSON, int32(len(staticData[offBadJSON])))), offBuf, 0).
				I32Const(offBuf).LocalGet(lLen).Call(fWrite).Drop(), 0, offArgs).I32Const(0)},
			want: host.KindOK, check: wantInvalidArguments},
		{name: "call_start/empty args", spec: spec{run: finishStatic(
			readDelivered(wait(callStart(body(), offName, 4, offArgs, 0)), offBuf, 0).
				I32Const(offBuf).LocalGet(lLen).Call(fWrite).Drop(), 0, offArgs).I32Const(0)},
			want: host.KindOK, check: wantInvalidArguments},
		{name: "call_start/then return without waiting", spec: spec{run: finishStatic(startEcho(startEcho(body())), 0, offArgs).I32Const(0)}, want: host.KindOK},

		// call_wait and call_read
		{name: "call_wait/nothing pending ends by timeout", spec: spec{run: wait(body()).I32Const(0)}, limits: host.Limits{Timeout: 150 * time.Millisecond}, want: host.KindTimeout},
		{name: "call_wait/nothing pending, finished first", spec: spec{run: wait(finishStatic(body(), 0, offOKValue)).I32Const(0)}, limits: host.Limits{Timeout: 150 * time.Millisecond}, check: wantOneOf(host.KindOK, host.KindTimeout)},
		{name: "call_read/id never delivered", spec: spec{run: body().I32Const(42).I32Const(offBuf).I32Const(10).Call(fCallRead).Drop().I32Const(0)}, want: host.KindInternal, wantMessage: "not given"},
		{name: "call_read/id started, not delivered", spec: spec{run: startEcho(body()).I32Const(1).I32Const(offBuf).I32Const(17).Call(fCallRead).Drop().I32Const(0)}, want: host.KindInternal},
		{name: "call_read/negative id", spec: spec{run: body().I32Const(-1).I32Const(offBuf).I32Const(0).Call(fCallRead).Drop().I32Const(0)}, want: host.KindInternal},
		{name: "call_read/length too long", spec: spec{run: readDelivered(wait(startEcho(body())), offBuf, 1).I32Const(0)}, want: host.KindInternal},
		{name: "call_read/length too short", spec: spec{run: readDelivered(wait(startEcho(body())), offBuf, -1).I32Const(0)}, want: host.KindInternal},
		{name: "call_read/buffer out of range", spec: spec{run: readDelivered(wait(startEcho(body())), pageSize-4, 0).I32Const(0)}, want: host.KindInternal, wantMessage: "out-of-range"},
		{name: "call_read/buffer wraps", spec: spec{run: readDelivered(wait(startEcho(body())), -2, 0).I32Const(0)}, want: host.KindInternal},
		{name: "call_read/twice", spec: spec{run: readDelivered(readDelivered(wait(startEcho(body())), offBuf, 0), offBuf, 0).I32Const(0)}, want: host.KindInternal},
		{name: "call_read/well-formed round trip", spec: spec{run: finishStatic(
			readDelivered(wait(startEcho(body())), offBuf, 0).I32Const(offBuf).LocalGet(lLen).Call(fWrite).Drop(), 0, offArgs).I32Const(0)},
			want: host.KindOK, check: func(t *testing.T, o *host.Outcome, d *echoDispatcher) {
				if len(o.Output) != 1 || o.Output[0] != `{"ok":true,"value":{"echo":"echo"}}` {
					t.Errorf("output %q; want the echo envelope", o.Output)
				}
				if d.calls.Load() != 1 || o.Subcalls != 1 {
					t.Errorf("dispatched %d, outcome counts %d; want 1", d.calls.Load(), o.Subcalls)
				}
			}},

		// domain_to_ascii
		{name: "domain_to_ascii/round trip", spec: spec{run: write(okIfID(domainToASCII(body(), offDomain, int32(len(staticData[offDomain])), offBuf, 64), 16), offBuf, 16).I32Const(0)},
			want: host.KindOK, check: func(t *testing.T, o *host.Outcome, _ *echoDispatcher) {
				if len(o.Output) != 1 || o.Output[0] != "xn--bcher-kva.de" {
					t.Errorf("output %q; want [xn--bcher-kva.de]", o.Output)
				}
			}},
		{name: "domain_to_ascii/no room: the length, nothing written", spec: spec{run: okIfID(domainToASCII(body(), offDomain, int32(len(staticData[offDomain])), pageSize, 15), 16).I32Const(0)}, want: host.KindOK},
		{name: "domain_to_ascii/not valid", spec: spec{run: okIfID(domainToASCII(body(), offBadUTF8, 2, offBuf, 64), -1).I32Const(0)}, want: host.KindOK},
		{name: "domain_to_ascii/empty", spec: spec{run: okIfID(domainToASCII(body(), offDomain, 0, offBuf, 64), -1).I32Const(0)}, want: host.KindOK},
		{name: "domain_to_ascii/too long, not read", spec: spec{run: okIfID(domainToASCII(body(), wrap, 0x7fffffff, offBuf, 64), -2).I32Const(0)}, want: host.KindOK},
		{name: "domain_to_ascii/input out of range", spec: spec{run: domainToASCII(body(), pageSize-4, 8, offBuf, 64).I32Const(0)}, want: host.KindInternal, wantMessage: "out-of-range"},
		{name: "domain_to_ascii/input wraps", spec: spec{run: domainToASCII(body(), wrap, 0x20, offBuf, 64).I32Const(0)}, want: host.KindInternal},
		{name: "domain_to_ascii/output out of range", spec: spec{run: domainToASCII(body(), offDomain, int32(len(staticData[offDomain])), pageSize-8, 64).I32Const(0)}, want: host.KindInternal, wantMessage: "out-of-range"},
		{name: "domain_to_ascii/output wraps", spec: spec{run: domainToASCII(body(), offDomain, int32(len(staticData[offDomain])), wrap, 64).I32Const(0)}, want: host.KindInternal},

		// finish
		{name: "finish/never called", spec: spec{}, want: host.KindInternal, wantMessage: "without reporting"},
		{name: "finish/garbage with kind ok", spec: spec{run: finishStatic(body(), 0, offGarbage).I32Const(0)}, want: host.KindInternal},
		{name: "finish/garbage value with kind ok", spec: spec{run: finishStatic(body(), 0, offBadValue).I32Const(0)}, want: host.KindInternal},
		{name: "finish/garbage with kind syntax", spec: spec{run: finishStatic(body(), 1, offGarbage).I32Const(0)}, want: host.KindInternal},
		{name: "finish/garbage with kind exception", spec: spec{run: finishStatic(body(), 2, offGarbage).I32Const(0)}, want: host.KindInternal},
		{name: "finish/empty with kind exception", spec: spec{run: finish(body(), 2, 0, 0).I32Const(0)}, want: host.KindInternal},
		{name: "finish/unknown kind", spec: spec{run: finishStatic(body(), 99, offExc).I32Const(0)}, want: host.KindInternal},
		{name: "finish/negative kind", spec: spec{run: finishStatic(body(), -1, offExc).I32Const(0)}, want: host.KindInternal},
		{name: "finish/kind stopped while not stopped", spec: spec{run: finishStatic(body(), 3, offExc).I32Const(0)}, want: host.KindInternal},
		{name: "finish/out of range", spec: spec{run: finish(body(), 0, pageSize, 1).I32Const(0)}, want: host.KindInternal},
		{name: "finish/wraps", spec: spec{run: finish(body(), 0, wrap, 0x20).I32Const(0)}, want: host.KindInternal},
		{name: "finish/exception", spec: spec{run: finishStatic(body(), 2, offExc).I32Const(0)}, want: host.KindException, wantMessage: "boom"},
		{name: "finish/twice, second cannot override", spec: spec{run: finishStatic(finishStatic(body(), 0, offOKValue), 1, offSyntax).I32Const(0)},
			check: func(t *testing.T, o *host.Outcome, _ *echoDispatcher) {
				switch o.Kind {
				case host.KindOK:
					if string(o.ReturnValue) != "1" {
						t.Errorf("return value %s; want the first report's 1", o.ReturnValue)
					}
				case host.KindInternal:
				default:
					t.Errorf("kind %q (%s); want the first report (ok) or internal", o.Kind, o.Message)
				}
			}},
		{name: "finish/in _initialize, then trap", spec: spec{init: finishStatic(body(), 2, offExc).Unreachable()}, check: wantOneOf(host.KindException, host.KindInternal)},

		// the exports
		{name: "exports/no ptc_run", static: true, spec: spec{noRun: true}, want: host.KindInternal},
		{name: "exports/no ptc_alloc", static: true, spec: spec{noAlloc: true}, want: host.KindInternal},
		{name: "exports/no _initialize", spec: spec{noInit: true, run: finishStatic(body(), 0, offOKValue).I32Const(0)}, want: host.KindOK},
		{name: "exports/memory not exported", static: true, spec: spec{hideMemory: true, run: finishStatic(body(), 0, offOKValue).I32Const(0)}},
		{name: "exports/no memory at all", static: true, spec: spec{noMemory: true}, want: host.KindInternal},
		{name: "exports/ptc_run wrong type", static: true, spec: spec{runSig: &sigVoid, run: body()}, want: host.KindInternal},
		{name: "exports/ptc_alloc takes nothing", static: true, spec: spec{allocSig: &sigI32}, want: host.KindInternal},
		{name: "exports/ptc_alloc returns nothing", static: true, spec: spec{allocSig: &wg.Signature{Params: []wg.ValType{wg.I32}}, alloc: body()}, want: host.KindInternal},
		{name: "exports/ptc_alloc returns i64", static: true, spec: spec{allocSig: &wg.Signature{Params: []wg.ValType{wg.I32}, Results: []wg.ValType{wg.I64}}, alloc: body().I64Const(-1)}, want: host.KindInternal},
		{name: "exports/imports an unknown ptc function", static: true, spec: spec{extra: func(m *wg.Module) { m.Import("ptc", "nope", sigVoid) }}, want: host.KindInternal},
		{name: "exports/imports write with the wrong type", static: true, spec: spec{extra: func(m *wg.Module) { m.Import("ptc", "write", sigVoid) }}, want: host.KindInternal},

		// ptc_alloc's pointer
		{name: "alloc/returns pointer past memory", spec: spec{alloc: body().I32Const(pageSize)}, want: host.KindInternal},
		{name: "alloc/returns pointer near end", spec: spec{alloc: body().I32Const(pageSize - 3)}, want: host.KindInternal},
		{name: "alloc/returns 2^32-1", spec: spec{alloc: body().I32Const(-1)}, want: host.KindInternal},
		{name: "alloc/returns 0", spec: spec{alloc: body().I32Const(0)}, want: host.KindMemory},
		{name: "alloc/traps", spec: spec{alloc: body().Unreachable()}, want: host.KindInternal},

		// traps, stalls and memory
		{name: "trap/unreachable in ptc_run", spec: spec{run: body().Unreachable()}, want: host.KindInternal},
		{name: "trap/unreachable after output", spec: spec{run: write(body(), offName, 4).Unreachable()}, want: host.KindInternal,
			check: func(t *testing.T, o *host.Outcome, _ *echoDispatcher) {
				if len(o.Output) != 1 || o.Output[0] != "echo" {
					t.Errorf("output %q; want [echo] kept", o.Output)
				}
			}},
		{name: "trap/unreachable in _initialize", spec: spec{init: body().Unreachable()}, want: host.KindInternal},
		{name: "trap/unreachable with a call in flight", spec: spec{run: startEcho(body()).Unreachable()}, want: host.KindInternal},
		// Unbounded wasm recursion until wazero's stack limit traps it: that
		// takes seconds under -race on a loaded machine, so a long deadline.
		{name: "trap/stack overflow", spec: spec{run: body().I32Const(0).I32Const(0).I32Const(0).I32Const(0).Call(nImports + 2)}, limits: host.Limits{Timeout: 60 * time.Second}, want: host.KindInternal},
		{name: "trap/memory access out of range", spec: spec{run: body().I32Const(-4).Raw(0x28, 0x02, 0x00)}, want: host.KindInternal},
		{name: "stall/loop polling interrupted", spec: spec{run: body().Loop().Call(fInterrupted).I32Eqz().BrIf(0).End().I32Const(0)},
			limits: host.Limits{Timeout: 100 * time.Millisecond}, want: host.KindTimeout},
		// Fuel checks stop a loop that never calls the host.
		{name: "stall/busy loop", spec: spec{run: body().Loop().Br(0).End().I32Const(0)},
			limits: host.Limits{Timeout: 100 * time.Millisecond}, want: host.KindTimeout},
		{name: "stall/call_wait loop ignoring -1", spec: spec{run: body().Loop().I64Const(-1).Call(fCallWait).Drop().Br(0).End().I32Const(0)},
			limits: host.Limits{Timeout: 100 * time.Millisecond}, want: host.KindTimeout},
		{name: "memory/grow past the limit fails", spec: spec{run: finishStatic(body().I32Const(1<<14).MemoryGrow().Drop(), 0, offOKValue).I32Const(0)},
			limits: host.Limits{MemoryBytes: 1 << 20}, want: host.KindOK},
		{name: "memory/initial size over the limit", spec: spec{memMin: 512}, limits: host.Limits{MemoryBytes: 1 << 20}, check: wantOneOf(host.KindMemory, host.KindInternal)},
		{name: "memory/grow past the module's maximum", spec: spec{memMin: 1, memMax: 1, run: finishStatic(body().I32Const(1).MemoryGrow().Drop(), 0, offOKValue).I32Const(0)}, want: host.KindOK},
	}
}

func wantOneOf(kinds ...host.Kind) func(*testing.T, *host.Outcome, *echoDispatcher) {
	return func(t *testing.T, o *host.Outcome, _ *echoDispatcher) {
		t.Helper()
		for _, k := range kinds {
			if o.Kind == k {
				return
			}
		}
		t.Errorf("kind %q (%s); want one of %q", o.Kind, o.Message, kinds)
	}
}

// wantEcho expects one delivered envelope: the echo dispatcher's answer
// to a call of name.
func wantEcho(name string) func(*testing.T, *host.Outcome, *echoDispatcher) {
	return func(t *testing.T, o *host.Outcome, d *echoDispatcher) {
		t.Helper()
		want, _ := json.Marshal(map[string]any{"ok": true, "value": map[string]string{"echo": name}})
		if len(o.Output) != 1 || o.Output[0] != string(want) {
			t.Errorf("output %q; want %s", o.Output, want)
		}
		if n := d.calls.Load(); n != 1 {
			t.Errorf("dispatcher called %d times, want 1", n)
		}
	}
}

func wantInvalidArguments(t *testing.T, o *host.Outcome, d *echoDispatcher) {
	t.Helper()
	if len(o.Output) != 1 || !strings.Contains(o.Output[0], `"code":"INVALID_ARGUMENTS"`) || !strings.Contains(o.Output[0], `"ok":false`) {
		t.Errorf("output %q; want one INVALID_ARGUMENTS envelope", o.Output)
	}
	if n := d.calls.Load(); n != 0 {
		t.Errorf("dispatcher called %d times for a malformed call", n)
	}
}

func TestHostileGuests(t *testing.T) {
	before := runtime.NumGoroutine()
	start := time.Now()
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			d := &echoDispatcher{}
			lim := c.limits
			if lim.Timeout == 0 {
				lim.Timeout = 5 * time.Second
			}
			t0 := time.Now()
			o, err := runGuest(t, c.spec.bytes(), c.cfg, host.Program{Dispatcher: d, Limits: lim})
			if err != nil && c.static && !errors.Is(err, errHostPanics) {
				t.Logf("rejected by host.New: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if el := time.Since(t0); el > lim.Timeout+2*time.Second {
				t.Errorf("run took %v with a %v timeout", el, lim.Timeout)
			}
			t.Logf("kind %q: %s", o.Kind, o.Message)
			if !validKind(o.Kind) {
				t.Fatalf("invalid kind %q (%s)", o.Kind, o.Message)
			}
			if c.want != "" && o.Kind != c.want {
				t.Errorf("kind %q (%s); want %q", o.Kind, o.Message, c.want)
			}
			if c.wantMessage != "" && !strings.Contains(o.Message, c.wantMessage) {
				t.Errorf("message %q; want it to contain %q", o.Message, c.wantMessage)
			}
			if o.Kind != host.KindOK && o.Message == "" && o.Kind != host.KindException {
				t.Errorf("kind %q without a message", o.Kind)
			}
			_ = o.Text()
			if c.check != nil {
				c.check(t, o, d)
			}
		})
	}
	t.Logf("%d hostile guests in %v", len(hostileCases()), time.Since(start))
	checkGoroutines(t, before)
	checkRealGuest(t)
}

// TestHostileGuestsShareAHost runs the same hostile guest many times,
// concurrently, on one Host: a fault in one run must not leak into another.
func TestHostileGuestsShareAHost(t *testing.T) {
	ctx := context.Background()
	bad := spec{run: readDelivered(wait(startEcho(body())), -2, 0).I32Const(0)}
	good := spec{run: finishStatic(readDelivered(wait(startEcho(body())), offBuf, 0), 0, offOKValue).I32Const(0)}
	for _, s := range []struct {
		spec spec
		want host.Kind
	}{{bad, host.KindInternal}, {good, host.KindOK}} {
		h, err := host.New(ctx, host.Config{Wasm: s.spec.bytes()})
		if err != nil {
			t.Fatal(err)
		}
		var wgr sync.WaitGroup
		for i := 0; i < 16; i++ {
			wgr.Add(1)
			go func() {
				defer wgr.Done()
				o := h.Run(ctx, host.Program{Source: "x", Dispatcher: &echoDispatcher{}, Limits: host.Limits{Timeout: 5 * time.Second}})
				if o.Kind != s.want {
					t.Errorf("kind %q (%s); want %q", o.Kind, o.Message, s.want)
				}
			}()
		}
		wgr.Wait()
		if err := h.Close(ctx); err != nil {
			t.Error(err)
		}
	}
}

// TestHostileDispatcherCancelled checks that a subcall still running when a
// hostile guest faults sees its context cancelled and Run waits for it.
func TestHostileDispatcherCancelled(t *testing.T) {
	var cancelled atomic.Bool
	entered := make(chan struct{})
	d := host.DispatcherFunc(func(ctx context.Context, _ host.Call) host.Reply {
		close(entered)
		<-ctx.Done()
		cancelled.Store(true)
		return host.Reply{}
	})
	// Start a call, spin until it is being dispatched (the guest cannot see
	// that, so just poll interrupted a few thousand times), then fault.
	s := spec{run: write(startEcho(body()).I32Const(0).LocalSet(lID).
		Loop().Call(fInterrupted).Drop().LocalGet(lID).I32Const(1).I32Add().LocalTee(lID).I32Const(200000).Raw(0x48).BrIf(0).End(),
		pageSize, 1).I32Const(0)}
	o, err := runGuest(t, s.bytes(), host.Config{}, host.Program{Dispatcher: d, Limits: host.Limits{Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Kind != host.KindInternal {
		t.Errorf("kind %q (%s); want internal", o.Kind, o.Message)
	}
	select {
	case <-entered:
		if !cancelled.Load() {
			t.Error("Run returned before the dispatcher saw its context cancelled")
		}
	default:
		// The call never reached the dispatcher; nothing to check.
	}
}

func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= before+2 {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines after the hostile runs, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var realGuest struct {
	once sync.Once
	h    *host.Host
	err  error
}

// checkRealGuest runs a normal program on the embedded QuickJS guest.
func checkRealGuest(t *testing.T) {
	t.Helper()
	realGuest.once.Do(func() { realGuest.h, realGuest.err = host.New(context.Background(), host.Config{}) })
	if errors.Is(realGuest.err, quickjs.ErrNotBuilt) {
		t.Skip("real guest not built: ", realGuest.err)
	}
	if realGuest.err != nil {
		t.Fatalf("host.New with the real guest: %v", realGuest.err)
	}
	d := &echoDispatcher{}
	o := realGuest.h.Run(context.Background(), host.Program{
		Source:     `console.log("hi"); const r = await __ptc_call("echo", {}); return [1 + 1, r];`,
		Dispatcher: d,
		Limits:     host.Limits{Timeout: 10 * time.Second},
	})
	if o.Kind != host.KindOK || string(o.ReturnValue) != `[2,{"echo":"echo"}]` || len(o.Output) != 1 || o.Output[0] != "hi" {
		t.Fatalf("real guest after hostile runs: kind %q (%s), output %q, value %s", o.Kind, o.Message, o.Output, o.ReturnValue)
	}
	if d.calls.Load() != 1 {
		t.Errorf("real guest dispatched %d subcalls; want 1", d.calls.Load())
	}
}

// FuzzABI builds a guest whose ptc_run calls one "ptc" import, chosen by the
// fuzzer, with fuzzer-chosen arguments, optionally after starting and
// receiving one well-formed subcall (so call_read has something to read),
// and optionally followed by a well-formed finish. Run must return a valid
// kind and never panic.
func FuzzABI(f *testing.F) {
	f.Add(uint8(0), uint32(0), uint32(2), uint32(0), uint32(0), uint8(0))
	f.Add(uint8(0), uint32(0xfffffff0), uint32(0x20), uint32(0), uint32(0), uint8(2))
	f.Add(uint8(1), uint32(0), uint32(0), uint32(0), uint32(0), uint8(2))
	f.Add(uint8(2), uint32(offName), uint32(4), uint32(offArgs), uint32(2), uint8(2))
	f.Add(uint8(2), uint32(offBadUTF8), uint32(2), uint32(offBadJSON), uint32(5), uint8(3))
	f.Add(uint8(3), uint32(0), uint32(0), uint32(0), uint32(0), uint8(0))
	f.Add(uint8(4), uint32(1), uint32(offBuf), uint32(35), uint32(0), uint8(3))
	f.Add(uint8(4), uint32(1), uint32(0xffffffff), uint32(35), uint32(0), uint8(1))
	f.Add(uint8(4), uint32(7), uint32(offBuf), uint32(0), uint32(0), uint8(0))
	f.Add(uint8(5), uint32(0), uint32(offGarbage), uint32(7), uint32(0), uint8(0))
	f.Add(uint8(5), uint32(2), uint32(offExc), uint32(29), uint32(0), uint8(1))
	f.Add(uint8(5), uint32(0), uint32(0x10000), uint32(1), uint32(0), uint8(0))
	f.Add(uint8(6), uint32(offDomain), uint32(10), uint32(offBuf), uint32(64), uint8(2))
	f.Add(uint8(6), uint32(offDomain), uint32(10), uint32(0xfffffff0), uint32(64), uint8(2))
	f.Add(uint8(6), uint32(offBadUTF8), uint32(0x4000), uint32(offBuf), uint32(0), uint8(0))
	f.Fuzz(func(t *testing.T, which uint8, a, b, c, d uint32, flags uint8) {
		imp := uint32(which) % nImports
		sigs := []wg.Signature{sigWrite, sigI32, sigCallStart, sigCallWait, sigCallRead, sigFinish, sigDomain}
		args := []uint32{a, b, c, d}[:len(sigs[imp].Params)]
		prime, finishAfter := flags&1 != 0, flags&2 != 0

		run := body()
		if prime {
			wait(startEcho(run))
		}
		for _, v := range args {
			if imp == fCallWait {
				run.I64Const(int64(int32(v))) // a timeout in ns; negative: none
				continue
			}
			run.I32Const(int32(v))
		}
		run.Call(imp)
		if len(sigs[imp].Results) > 0 {
			run.Drop()
		}
		if finishAfter {
			finishStatic(run, 0, offOKValue)
		}
		run.I32Const(0)

		lim := host.Limits{Timeout: 2 * time.Second}
		if imp == fCallWait && !prime {
			lim.Timeout = 50 * time.Millisecond // nothing pending: ends by timeout
		}
		o, err := runGuest(t, spec{run: run}.bytes(), host.Config{}, host.Program{Dispatcher: &echoDispatcher{}, Limits: lim})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if !validKind(o.Kind) {
			t.Fatalf("invalid kind %q (%s)", o.Kind, o.Message)
		}
		if o.Kind == host.KindOK && o.ReturnValue != nil && !json.Valid(o.ReturnValue) {
			t.Fatalf("ok with invalid return value %q", o.ReturnValue)
		}
		_ = o.Text()
	})
}

// TestHostileWaitTimeout repeats the call_wait-with-nothing-pending guest:
// every run must end as a timeout, however the host's goroutines interleave.
func TestHostileWaitTimeout(t *testing.T) {
	ctx := context.Background()
	h, err := host.New(ctx, host.Config{Wasm: spec{run: wait(body()).I32Const(0)}.bytes()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	var wgr sync.WaitGroup
	for i := 0; i < 32; i++ {
		wgr.Add(1)
		go func() {
			defer wgr.Done()
			o := h.Run(ctx, host.Program{Source: "x", Limits: host.Limits{Timeout: 20 * time.Millisecond}})
			if o.Kind != host.KindTimeout {
				t.Errorf("kind %q (%s); want timeout", o.Kind, o.Message)
			}
		}()
	}
	wgr.Wait()
}
