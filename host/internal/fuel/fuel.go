package fuel

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ptchost/ptc/host/internal/leb128"
)

// Options configure Instrument.
type Options struct {
	// PollModule and PollName name the imported function () -> i32 called
	// when the fuel runs out; a nonzero result traps (unreachable).
	PollModule, PollName string
	// Fuel is the number of loop iterations and function entries between
	// two polls.
	Fuel int32
	// Entries also charges the entries of functions that may recurse (that
	// lie on a cycle of the call graph, indirect calls counted as calls to
	// every table function of their type), so loop-free recursion is
	// bounded too.
	Entries bool
	// Polling names functions (from the module's name section) that poll
	// the host themselves within bounded work, on entry and in their
	// loops, such as an interpreter with its own interrupt counter. They
	// get no checks, and a cycle of calls through one of them counts as
	// charged. Names the module lacks are ignored (Stats.Polling counts
	// the ones found).
	Polling []string
	// Strip drops every custom section (names, debug information) from
	// the output.
	Strip bool
	// StackLow, when set, exports under this name an added mutable i32
	// global that follows the deepest point of the module's stack: every
	// write of the stack pointer (the global the name section calls
	// __stack_pointer, as LLVM's wasm-ld names it) that is lower than the
	// added global's value lowers it to the value written. It starts at
	// the stack pointer's initial value; whoever sets it back decides
	// since when it counts. A module without a named stack pointer is
	// refused (ErrUnsupported).
	StackLow string
}

// Stats counts what Instrument inserted.
type Stats struct {
	Functions int // function bodies
	Loops     int // loops charged
	Entries   int // function entries charged
	Polling   int // functions left to poll by themselves (Options.Polling)
	// StackWrites counts the stack pointer writes followed (Options.StackLow).
	StackWrites int
}

// ErrUnsupported reports a module that uses an instruction or section
// encoding Instrument does not know.
var ErrUnsupported = errors.New("fuel: unsupported module")

const (
	secType     = 1
	secImport   = 2
	secFunction = 3
	secCustom   = 0
	secGlobal   = 6
	secExport   = 7
	secElement  = 9
	secCode     = 10
	secData     = 11
)

type section struct {
	id   byte
	body []byte
}

// Instrument returns a copy of wasm with fuel checks inserted (see the
// package documentation). It fails on a module without the poll import or
// a global section, or with instructions outside WebAssembly 1.0 plus
// sign extension, bulk memory, saturating conversions and reference types.
func Instrument(wasm []byte, opt Options) ([]byte, Stats, error) {
	out, err := instrument(wasm, opt)
	return out.wasm, out.stats, err
}

type result struct {
	wasm  []byte
	stats Stats
}

func instrument(wasm []byte, opt Options) (result, error) {
	if opt.Fuel <= 0 {
		return result{}, errors.New("fuel: Fuel must be positive")
	}
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return result{}, errors.New("fuel: not a wasm module")
	}
	var secs []section
	r := &reader{b: wasm, off: 8}
	for !r.done() {
		id := r.byte()
		n := r.u32()
		body := r.bytes(int(n))
		if r.err != nil {
			return result{}, fmt.Errorf("fuel: section %d: %w", id, r.err)
		}
		secs = append(secs, section{id, body})
	}
	m := &module{opt: opt, poll: -1, sp: -1}
	for _, s := range secs {
		if err := m.scan(s); err != nil {
			return result{}, err
		}
	}
	if m.poll < 0 {
		return result{}, fmt.Errorf("fuel: module does not import %s.%s", opt.PollModule, opt.PollName)
	}
	if !m.hasCode || m.funcs == 0 {
		// Nothing runs in wasm: nothing to instrument.
		return result{wasm: wasm}, nil
	}
	if !m.hasTypes || !m.hasFuncs {
		return result{}, fmt.Errorf("%w: code without type or function sections", ErrUnsupported)
	}
	if !m.hasGlobals {
		secs = withSection(secs, section{id: secGlobal, body: []byte{0}})
	}
	if opt.StackLow != "" {
		if err := m.stackLayout(); err != nil {
			return result{}, fmt.Errorf("%w: %s", ErrUnsupported, err)
		}
		if !m.hasExports {
			secs = withSection(secs, section{id: secExport, body: []byte{0}})
		}
	}
	if err := m.analyse(secs); err != nil {
		return result{}, err
	}
	// The checks add about a tenth to the code: allocate once.
	out := append(make([]byte, 0, len(wasm)+len(wasm)/4), wasm[:8]...)
	for _, s := range secs {
		if s.id == secCustom && opt.Strip {
			continue
		}
		body := s.body
		var err error
		switch s.id {
		case secType:
			// () -> () for the refill function, (i32, i32, i32) -> () for
			// the chunked bulk operations.
			if body, err = appendVec(body, []byte{0x60, 0x00, 0x00}); err == nil {
				body, err = appendVec(body, []byte{0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00})
			}
		case secFunction:
			body, err = appendVec(body, leb128.AppendUnsigned(nil, uint64(m.types)))
			for k := 0; k < 2 && err == nil && m.hasBulk; k++ {
				body, err = appendVec(body, leb128.AppendUnsigned(nil, uint64(m.types)+1))
			}
		case secGlobal:
			g := []byte{0x7f, 0x01, 0x41}
			g = append(g, leb128.AppendSigned(nil, int64(opt.Fuel))...)
			g = append(g, 0x0b)
			body, err = appendVec(body, g)
			if err == nil && opt.StackLow != "" {
				body, err = appendVec(body, append([]byte{0x7f, 0x01}, m.spInit...))
			}
		case secExport:
			if opt.StackLow != "" {
				e := append(leb128.AppendUnsigned(nil, uint64(len(opt.StackLow))), opt.StackLow...)
				e = append(append(e, 0x03), leb128.AppendUnsigned(nil, uint64(m.low()))...)
				body, err = appendVec(body, e)
			}
		case secCode:
			body, err = m.code(body)
		}
		if err != nil {
			return result{}, err
		}
		out = append(out, s.id)
		out = append(out, leb128.AppendUnsigned(nil, uint64(len(body)))...)
		out = append(out, body...)
	}
	st := Stats{Functions: len(m.bodies), Polling: m.skipped}
	for _, b := range m.bodies {
		st.Loops += len(b.loops)
		st.StackWrites += len(b.spSets)
		if b.entry {
			st.Entries++
		}
	}
	return result{out, st}, nil
}

// order ranks the known sections in the order the binary format requires.
var order = map[byte]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13}

// withSection inserts s before the first known section that must follow it.
func withSection(secs []section, s section) []section {
	for i, t := range secs {
		if t.id != secCustom && order[t.id] > order[s.id] {
			return append(secs[:i:i], append([]section{s}, secs[i:]...)...)
		}
	}
	return append(secs, s)
}

type module struct {
	opt                                     Options
	types                                   uint32 // count before ours
	importedFuncs, importedGlobals          uint32
	funcs, globals                          uint32 // defined, before ours
	poll                                    int64
	hasTypes, hasFuncs, hasGlobals, hasCode bool
	hasExports                              bool

	// For Options.StackLow: the sections stackLayout reads, the global
	// names, and the stack pointer it finds.
	globalSec, exportSec, dataSec []byte
	globalNames                   map[uint32]string // from the name section
	sp                            int64             // the stack pointer's global index, or -1
	spInit                        []byte            // its initial value's constant expression, with its end

	sigs     []string          // each type's encoding
	funcType []uint32          // type index of every function, imported ones first
	names    map[uint32]string // from the name section
	table    []uint32          // functions an indirect call may reach
	bodies   []body            // defined functions, from analyse
	hasBulk  bool              // some body has memory.copy or memory.fill
	skipped  int
}

// bulkOp is a memory.copy or memory.fill instruction, raw[off:end].
type bulkOp struct {
	off, end int
	fill     bool
}

// body is what analyse learnt of one function body.
type body struct {
	raw      []byte
	groups   uint32   // local declaration groups
	first    int      // offset of the first group
	locals   uint32   // locals declared
	code     int      // offset of the first instruction
	loops    []int    // offsets just after each loop's block type
	bulk     []bulkOp // memory.copy and memory.fill
	calls    []uint32 // direct callees
	indirect []uint32 // type indices of indirect calls
	spSets   []int    // offsets just after each write of the stack pointer
	entry    bool     // charge the entry: the function may recurse
	polls    bool     // the function polls by itself (Options.Polling)
}

// scan collects the counts the instrumentation needs.
func (m *module) scan(s section) error {
	r := &reader{b: s.body}
	switch s.id {
	case secType:
		m.hasTypes = true
		m.types = r.u32()
		for i := uint32(0); i < m.types && r.err == nil; i++ {
			start := r.off
			if r.byte() != 0x60 {
				return fmt.Errorf("%w: type %d is not a function type", ErrUnsupported, i)
			}
			r.bytes(int(r.u32()))
			r.bytes(int(r.u32()))
			m.sigs = append(m.sigs, string(r.b[start:r.off]))
		}
	case secImport:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			mod, name := r.name(), r.name()
			switch kind := r.byte(); kind {
			case 0:
				m.funcType = append(m.funcType, r.u32())
				if mod == m.opt.PollModule && name == m.opt.PollName {
					m.poll = int64(m.importedFuncs)
				}
				m.importedFuncs++
			case 1:
				r.byte()
				r.limits()
			case 2:
				r.limits()
			case 3:
				r.byte()
				r.byte()
				m.importedGlobals++
			default:
				return fmt.Errorf("%w: import kind %d", ErrUnsupported, kind)
			}
		}
	case secFunction:
		m.hasFuncs = true
		m.funcs = r.u32()
		for i := uint32(0); i < m.funcs && r.err == nil; i++ {
			m.funcType = append(m.funcType, r.u32())
		}
	case secElement:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			switch flag := r.u32(); flag {
			case 0:
				r.constExpr()
			case 1, 3:
				r.byte() // elemkind
			case 2:
				r.u32() // table
				r.constExpr()
				r.byte()
			default:
				return fmt.Errorf("%w: element segment flag %d", ErrUnsupported, flag)
			}
			k := r.u32()
			for j := uint32(0); j < k && r.err == nil; j++ {
				m.table = append(m.table, r.u32())
			}
		}
	case secCustom:
		if r.name() == "name" {
			m.readNames(r)
			r.err = nil // names are optional: a malformed section is ignored
		}
	case secGlobal:
		m.hasGlobals = true
		m.globals = r.u32()
		m.globalSec = s.body
	case secExport:
		m.hasExports = true
		m.exportSec = s.body
	case secData:
		m.dataSec = s.body
	case secCode:
		m.hasCode = true
	}
	if r.err != nil {
		return fmt.Errorf("fuel: section %d: %w", s.id, r.err)
	}
	return nil
}

// readNames reads the function and global names subsections of a name
// section.
func (m *module) readNames(r *reader) {
	for !r.done() {
		id := r.byte()
		sub := &reader{b: r.bytes(int(r.u32()))}
		if id != 1 && id != 7 {
			continue
		}
		n := sub.u32()
		names := make(map[uint32]string, n)
		for i := uint32(0); i < n && sub.err == nil; i++ {
			idx := sub.u32()
			names[idx] = sub.name()
		}
		if id == 1 {
			m.names = names
		} else {
			m.globalNames = names
		}
	}
}

// stackLayout finds the stack pointer (the defined mutable i32 global the
// name section calls __stack_pointer) and checks that only the stack lies
// below its initial value, as wasm-ld --stack-first lays memory out: every
// active data segment lies at or above it (and there is one: .bss, which
// follows the data, has no segment), and that the export name is free.
func (m *module) stackLayout() error {
	var idx uint32
	found := false
	for i, name := range m.globalNames {
		if name == "__stack_pointer" {
			idx, found = i, true
		}
	}
	if !found || idx < m.importedGlobals {
		return errors.New("no defined global named __stack_pointer")
	}
	r := &reader{b: m.globalSec}
	r.u32()
	var top int64 = -1
	for i := m.importedGlobals; i < m.importedGlobals+m.globals && r.err == nil; i++ {
		t := r.bytes(2)
		init, ok := r.constant()
		if !ok {
			return fmt.Errorf("global %d: an initial value not read here", i)
		}
		if i == idx {
			if string(t) != "\x7f\x01" || init < 0 {
				return errors.New("__stack_pointer is not a mutable i32 set to a constant")
			}
			m.sp, m.spInit, top = int64(i), append(append([]byte{0x41}, leb128.AppendSigned(nil, int64(int32(init)))...), 0x0b), init
		}
	}
	if r.err != nil || top < 0 {
		return errors.New("__stack_pointer's initial value not found")
	}
	r = &reader{b: m.dataSec}
	n := r.u32()
	active := 0
	for i := uint32(0); i < n && r.err == nil; i++ {
		flag := r.u32()
		if flag == 2 {
			r.u32() // memory
		}
		if flag != 1 { // active: its offset
			off, ok := r.constant()
			if !ok || off < top {
				return errors.New("the stack is not first in memory")
			}
			active++
		}
		r.bytes(int(r.u32()))
	}
	if r.err != nil || active == 0 {
		return errors.New("the stack is not known to be first in memory")
	}
	if len(m.exportSec) == 0 {
		return nil
	}
	r = &reader{b: m.exportSec}
	n = r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		if r.name() == m.opt.StackLow {
			return fmt.Errorf("the module already exports %q", m.opt.StackLow)
		}
		r.byte()
		r.u32()
	}
	return r.err
}

// constant reads a constant expression that is an i32.const, as an
// unsigned 32-bit value.
func (r *reader) constant() (int64, bool) {
	if r.byte() != 0x41 {
		return 0, false
	}
	v := r.s32()
	if r.byte() != 0x0b || r.err != nil {
		return 0, false
	}
	return int64(uint32(v)), true
}

// low is the index of the global that follows the stack's deepest point
// (Options.StackLow): it comes after the fuel counter.
func (m *module) low() uint32 { return m.importedGlobals + m.globals + 1 }

// lower is the code inserted after a write of the stack pointer:
//
//	global.get $sp; global.get $low; i32.lt_u
//	if; global.get $sp; global.set $low; end
func (m *module) lower() []byte {
	sp, low := leb128.AppendUnsigned(nil, uint64(m.sp)), leb128.AppendUnsigned(nil, uint64(m.low()))
	b := append(append(append([]byte{0x23}, sp...), 0x23), low...)
	b = append(append(append(b, 0x49, 0x04, 0x40, 0x23), sp...), 0x24)
	return append(append(b, low...), 0x0b)
}

// charge is the code that takes the fuel the code amount pushes, refilling
// (and polling) when it runs out; t is a local the function has for it:
//
//	global.get $fuel; AMOUNT; i32.sub; local.tee t; global.set $fuel
//	local.get t; i32.const 1; i32.lt_s; if; call $refill; end
//
// One read and one write of the global, in one basic block; lt_s, not eqz,
// since bulk operations take more than one unit at a time.
func (m *module) charge(t uint32, amount ...byte) []byte {
	g := leb128.AppendUnsigned(nil, uint64(m.importedGlobals+m.globals))
	f := leb128.AppendUnsigned(nil, uint64(m.importedFuncs+m.funcs))
	l := leb128.AppendUnsigned(nil, uint64(t))
	b := append(append([]byte{0x23}, g...), amount...)
	b = append(append(append(b, 0x6b, 0x22), l...), 0x24)
	b = append(append(append(b, g...), 0x20), l...)
	b = append(b, 0x41, 0x01, 0x48, 0x04, 0x40, 0x10)
	return append(append(b, f...), 0x0b)
}

// check is the code inserted at a loop or function start: it takes one
// unit (see charge).
func (m *module) check(t uint32) []byte { return m.charge(t, 0x41, 0x01) }

// bulkChunk is the most a memory.fill or memory.copy does between two
// fuel charges: one such instruction fills or copies up to gigabytes (and
// takes the page faults of fresh memory) in one step, so a longer one is
// replaced by a call of an added function that does it in chunks. Shorter
// ones (nearly all: memcpy of a string, a struct) stay as they are and are
// charged by their length after they run.
const bulkChunk = 256 << 10

// bulkShift sets what bulk memory costs: one unit of fuel per
// 1<<bulkShift bytes (128), so a poll's worth of fuel (10 000 units in the
// host) is about 1 MiB of copying or filling — as much time as the loops
// it stands for, a few hundred microseconds.
const bulkShift = 7

// chunked is the body of the added fill(d, v, n) (fill true) or
// copy(d, s, n): bounds are checked first, as the instruction does, so
// nothing is written before a trap; then the operation runs in chunks of
// bulkChunk bytes, charging fuel after each (a copy whose destination
// follows its overlapping source runs backwards, as memmove does).
func (m *module) chunked(fill bool) []byte {
	const d, x, n, c = 0, 1, 2, 3 // parameters, then the chunk length
	var b []byte
	op := func(code ...byte) { b = append(b, code...) }
	// trapOutOfBounds traps when a + n is past the end of memory, in i64.
	trapOutOfBounds := func(a byte) {
		op(0x20, a, 0xad, 0x20, n, 0xad, 0x7c) // a + n
		op(0x3f, 0x00, 0xad, 0x42, 16, 0x86)   // memory.size << 16
		op(0x56, 0x04, 0x40, 0x00, 0x0b)       // gt_u: if unreachable end
	}
	// chunk sets c = min(n, bulkChunk).
	chunk := func() {
		op(0x20, n)
		op(0x41)
		op(leb128.AppendSigned(nil, bulkChunk)...)
		op(0x20, n, 0x41)
		op(leb128.AppendSigned(nil, bulkChunk)...)
		op(0x49, 0x1b, 0x21, c) // n < chunk ? n : chunk
	}
	// charge takes c>>bulkShift + 1 units (c is free afterwards).
	charge := func() { op(m.charge(c, 0x20, c, 0x41, bulkShift, 0x76, 0x41, 0x01, 0x6a)...) }
	op(0x01, 0x01, 0x7f) // one local: c
	trapOutOfBounds(d)
	if !fill {
		trapOutOfBounds(x)
		// Backwards when d > s: the source's tail is copied before the
		// destination overwrites it.
		op(0x20, d, 0x20, x, 0x4b, 0x04, 0x40) // if d > s
		op(0x02, 0x40, 0x03, 0x40)             // block loop
		op(0x20, n, 0x45, 0x0d, 0x01)          // n == 0: done
		chunk()
		op(0x20, n, 0x20, c, 0x6b, 0x21, n) // n -= c
		op(0x20, d, 0x20, n, 0x6a, 0x20, x, 0x20, n, 0x6a, 0x20, c, 0xfc, 0x0a, 0x00, 0x00)
		charge()
		op(0x0c, 0x00, 0x0b, 0x0b) // br 0; end loop; end block
		op(0x0f, 0x0b)             // return; end if
	}
	op(0x02, 0x40, 0x03, 0x40)    // block loop
	op(0x20, n, 0x45, 0x0d, 0x01) // n == 0: done
	chunk()
	if fill {
		op(0x20, d, 0x20, x, 0x20, c, 0xfc, 0x0b, 0x00)
	} else {
		op(0x20, d, 0x20, x, 0x20, c, 0xfc, 0x0a, 0x00, 0x00)
		op(0x20, x, 0x20, c, 0x6a, 0x21, x) // s += c
	}
	op(0x20, d, 0x20, c, 0x6a, 0x21, d) // d += c
	op(0x20, n, 0x20, c, 0x6b, 0x21, n) // n -= c
	charge()
	op(0x0c, 0x00, 0x0b, 0x0b) // br 0; end loop; end block
	return append(b, 0x0b)
}

// refill is the body of the added function:
//
//	i32.const Fuel; global.set $fuel
//	call $poll; if; unreachable; end
func (m *module) refill() []byte {
	g := leb128.AppendUnsigned(nil, uint64(m.importedGlobals+m.globals))
	b := []byte{0x00, 0x41} // no locals
	b = append(b, leb128.AppendSigned(nil, int64(m.opt.Fuel))...)
	b = append(append(b, 0x24), g...)
	b = append(append(b, 0x10), leb128.AppendUnsigned(nil, uint64(m.poll))...)
	b = append(b, 0x04, 0x40, 0x00, 0x0b, 0x0b)
	return b
}

// analyse walks every function body, finds its loops and calls, and
// decides which entries to charge.
func (m *module) analyse(secs []section) error {
	for _, s := range secs {
		if s.id != secCode {
			continue
		}
		r := &reader{b: s.body}
		n := r.u32()
		if n != m.funcs {
			return fmt.Errorf("fuel: %d function bodies for %d functions", n, m.funcs)
		}
		for i := uint32(0); i < n; i++ {
			raw := r.bytes(int(r.u32()))
			if r.err != nil {
				return fmt.Errorf("fuel: function %d: %w", m.importedFuncs+i, r.err)
			}
			b, err := walk(raw, m.sp)
			if err != nil {
				return fmt.Errorf("fuel: function %d: %w", m.importedFuncs+i, err)
			}
			m.bodies = append(m.bodies, b)
			m.hasBulk = m.hasBulk || len(b.bulk) > 0
		}
	}
	if len(m.funcType) != int(m.importedFuncs+m.funcs) {
		return fmt.Errorf("fuel: invalid module: %d function types for %d functions", len(m.funcType), m.importedFuncs+m.funcs)
	}
	for f, t := range m.funcType {
		if int(t) >= len(m.sigs) {
			return fmt.Errorf("fuel: invalid module: function %d has type %d of %d", f, t, len(m.sigs))
		}
	}
	skip := make(map[string]bool, len(m.opt.Polling))
	for _, name := range m.opt.Polling {
		skip[name] = true
	}
	for i := range m.bodies {
		if name, ok := m.names[m.importedFuncs+uint32(i)]; ok && skip[name] {
			m.bodies[i].loops = nil
			m.bodies[i].polls = true
			m.skipped++
		}
	}
	if m.opt.Entries {
		m.markRecursive()
	}
	return nil
}

// markRecursive charges the entries of a feedback vertex set of the call
// graph: a set of functions every cycle passes through, so no recursion
// goes on without charging fuel. It is chosen greedily, strongly
// connected component by component, preferring functions many cycles
// pass through and large ones (where a check costs least relative to the
// body); self-recursive functions are always in it.
func (m *module) markRecursive() {
	byType := map[string][]uint32{}
	for _, f := range m.table {
		if int(f) < len(m.funcType) && int(m.funcType[f]) < len(m.sigs) {
			sig := m.sigs[m.funcType[f]]
			byType[sig] = append(byType[sig], f)
		}
	}
	n := len(m.bodies)
	succ := make([][]int, n)
	for v := range m.bodies {
		seen := map[int]bool{}
		add := func(f uint32) {
			if f >= m.importedFuncs && int(f-m.importedFuncs) < n {
				w := int(f - m.importedFuncs)
				if !seen[w] {
					seen[w] = true
					succ[v] = append(succ[v], w)
				}
			}
		}
		for _, f := range m.bodies[v].calls {
			add(f)
		}
		for _, t := range m.bodies[v].indirect {
			if int(t) < len(m.sigs) {
				for _, f := range byType[m.sigs[t]] {
					add(f)
				}
			}
		}
	}
	removed := make([]bool, n)
	for v := range m.bodies {
		removed[v] = m.bodies[v].polls // cycles through it poll already
	}
	for v := range succ {
		for _, w := range succ[v] {
			if w == v && !removed[v] {
				m.bodies[v].entry, removed[v] = true, true
			}
		}
	}
	for {
		sccs := components(succ, removed)
		if len(sccs) == 0 {
			return
		}
		for _, scc := range sccs {
			in := make(map[int]bool, len(scc))
			for _, v := range scc {
				in[v] = true
			}
			indeg := map[int]int{}
			for _, v := range scc {
				for _, w := range succ[v] {
					if in[w] {
						indeg[w]++
					}
				}
			}
			best, bestScore := -1, -1.0
			for _, v := range scc {
				out := 0
				for _, w := range succ[v] {
					if in[w] {
						out++
					}
				}
				size := float64(len(m.bodies[v].raw))
				score := float64(indeg[v]) * float64(out) * size * size
				if score > bestScore {
					best, bestScore = v, score
				}
			}
			m.bodies[best].entry, removed[best] = true, true
		}
	}
}

// components lists the strongly connected components with a cycle among
// the vertices not removed (Tarjan's algorithm).
func components(succ [][]int, removed []bool) [][]int {
	n := len(succ)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var out [][]int
	var st []int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		st = append(st, v)
		on[v] = true
		for _, w := range succ[v] {
			if removed[w] {
				continue
			}
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var scc []int
		for {
			w := st[len(st)-1]
			st = st[:len(st)-1]
			on[w] = false
			scc = append(scc, w)
			if w == v {
				break
			}
		}
		if len(scc) > 1 {
			out = append(out, scc)
		}
	}
	for v := range index {
		if index[v] < 0 && !removed[v] {
			visit(v)
		}
	}
	return out
}

// walk finds a function body's loops, calls, and writes of global sp
// (when sp >= 0).
func walk(raw []byte, sp int64) (body, error) {
	b := body{raw: raw}
	r := &reader{b: raw}
	b.groups = r.u32()
	b.first = r.off
	for i := uint32(0); i < b.groups && r.err == nil; i++ {
		b.locals += r.u32()
		r.byte()
	}
	if b.locals >= 50000 {
		return b, fmt.Errorf("%w: %d locals", ErrUnsupported, b.locals)
	}
	b.code = r.off
	for !r.done() {
		op := r.byte()
		start := r.off
		if err := r.immediates(op); err != nil {
			return b, err
		}
		switch op {
		case 0xfc:
			sr := &reader{b: raw, off: start}
			if sub := sr.u32(); sub == 10 || sub == 11 {
				for sr.off < r.off {
					if sr.byte() != 0 {
						return b, fmt.Errorf("%w: bulk memory operation on a memory other than 0", ErrUnsupported)
					}
				}
				b.bulk = append(b.bulk, bulkOp{off: start - 1, end: r.off, fill: sub == 11})
			}
		case 0x03:
			b.loops = append(b.loops, r.off)
		case 0x10:
			b.calls = append(b.calls, (&reader{b: raw, off: start}).u32())
		case 0x11:
			b.indirect = append(b.indirect, (&reader{b: raw, off: start}).u32())
		case 0x24:
			if sp >= 0 && int64((&reader{b: raw, off: start}).u32()) == sp {
				b.spSets = append(b.spSets, r.off)
			}
		}
	}
	return b, r.err
}

// code rewrites the code section: every body gets its checks and its bulk
// operations become calls of the chunked ones; the refill function's body
// and the chunked operations' bodies are appended.
func (m *module) code(orig []byte) ([]byte, error) {
	added := [][]byte{m.refill()}
	if m.hasBulk {
		added = append(added, m.chunked(true), m.chunked(false))
	}
	out := append(make([]byte, 0, len(orig)+len(orig)/4), leb128.AppendUnsigned(nil, uint64(len(m.bodies)+len(added)))...)
	fill := append([]byte{0x10}, leb128.AppendUnsigned(nil, uint64(m.importedFuncs+m.funcs+1))...)
	cp := append([]byte{0x10}, leb128.AppendUnsigned(nil, uint64(m.importedFuncs+m.funcs+2))...)
	for i, b := range m.bodies {
		type site struct {
			off, end int    // raw[off:end] is replaced (end == off: an insertion)
			code     []byte // what goes there; nil: the check
		}
		var at []site
		if b.entry {
			at = append(at, site{off: b.code, end: b.code})
		}
		for _, off := range b.loops {
			at = append(at, site{off: off, end: off})
		}
		if len(b.spSets) > 0 {
			lower := m.lower()
			for _, off := range b.spSets {
				at = append(at, site{off: off, end: off, code: lower})
			}
		}
		t := m.params(m.importedFuncs+uint32(i)) + b.locals // the added local
		for _, op := range b.bulk {
			call := cp
			if op.fill {
				call = fill
			}
			// A short operation stays the instruction, then charges its
			// length; a long one becomes a call of the chunked one:
			//   local.tee t; local.get t; i32.const bulkChunk; i32.gt_u
			//   if (i32, i32, i32) -> (); call $chunked
			//   else; OP; charge t >> bulkShift; end
			l := leb128.AppendUnsigned(nil, uint64(t))
			code := append([]byte{0x22}, l...)
			code = append(append(code, 0x20), l...)
			code = append(append(code, 0x41), leb128.AppendSigned(nil, bulkChunk)...)
			code = append(append(code, 0x4b, 0x04), leb128.AppendSigned(nil, int64(m.types)+1)...)
			code = append(append(code, call...), 0x05)
			code = append(code, b.raw[op.off:op.end]...)
			amount := append(append([]byte{0x20}, l...), 0x41, bulkShift, 0x76) // t >> bulkShift
			code = append(append(code, m.charge(t, amount...)...), 0x0b)
			at = append(at, site{off: op.off, end: op.end, code: code})
		}
		slices.SortStableFunc(at, func(x, y site) int { return x.off - y.off })
		nb := b.raw
		if len(at) > 0 {
			// One more local, the checks' temporary: its index follows the
			// parameters and the declared locals.
			check := m.check(t)
			nb = make([]byte, 0, len(b.raw)+8+len(at)*len(check))
			nb = append(nb, leb128.AppendUnsigned(nil, uint64(b.groups)+1)...)
			nb = append(nb, b.raw[b.first:b.code]...)
			nb = append(nb, 0x01, 0x7f)
			prev := b.code
			for _, st := range at {
				nb = append(nb, b.raw[prev:st.off]...)
				if st.code != nil {
					nb = append(nb, st.code...)
				} else {
					nb = append(nb, check...)
				}
				prev = st.end
			}
			nb = append(nb, b.raw[prev:]...)
		}
		out = append(out, leb128.AppendUnsigned(nil, uint64(len(nb)))...)
		out = append(out, nb...)
	}
	for _, f := range added {
		out = append(out, leb128.AppendUnsigned(nil, uint64(len(f)))...)
		out = append(out, f...)
	}
	return out, nil
}

// params is the number of parameters of function f.
func (m *module) params(f uint32) uint32 {
	r := &reader{b: []byte(m.sigs[m.funcType[f]]), off: 1}
	return r.u32()
}

// immediates skips the immediates of the instruction whose opcode was just
// read.
func (r *reader) immediates(op byte) error {
	switch {
	case op == 0x02 || op == 0x03 || op == 0x04:
		r.blockType()
	case op == 0x0c || op == 0x0d || op == 0x10:
		r.u32()
	case op == 0x0e:
		n := r.u32()
		for i := uint32(0); i <= n && r.err == nil; i++ {
			r.u32()
		}
	case op == 0x11:
		r.u32()
		r.u32()
	case op == 0x1c:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			r.byte()
		}
	case op >= 0x20 && op <= 0x26:
		r.u32()
	case op >= 0x28 && op <= 0x3e:
		r.u32()
		r.u32()
	case op == 0x3f || op == 0x40:
		r.byte()
	case op == 0x41:
		r.sleb()
	case op == 0x42:
		r.sleb()
	case op == 0x43:
		r.bytes(4)
	case op == 0x44:
		r.bytes(8)
	case op == 0xd0:
		r.byte()
	case op == 0xd2:
		r.u32()
	case op == 0xfc:
		switch sub := r.u32(); {
		case sub <= 7:
		case sub == 8:
			r.u32()
			r.byte()
		case sub == 9, sub == 13, sub == 15, sub == 16, sub == 17:
			r.u32()
		case sub == 10:
			r.byte()
			r.byte()
		case sub == 11:
			r.byte()
		case sub == 12, sub == 14:
			r.u32()
			r.u32()
		default:
			return fmt.Errorf("%w: instruction 0xfc %d", ErrUnsupported, sub)
		}
	case op <= 0x01, op == 0x05, op == 0x0b, op == 0x0f, op == 0x1a, op == 0x1b, op == 0xd1:
	case op >= 0x45 && op <= 0xc4:
	default:
		return fmt.Errorf("%w: opcode %#x", ErrUnsupported, op)
	}
	return r.err
}

type reader struct {
	b   []byte
	off int
	err error
}

var errShort = errors.New("unexpected end of data")

func (r *reader) done() bool { return r.err != nil || r.off >= len(r.b) }

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = errShort
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = errShort
		return nil
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) u32() uint32 {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if v > 0xffffffff {
				r.err = errors.New("u32 out of range")
			}
			return uint32(v)
		}
	}
	r.err = errors.New("u32 too long")
	return 0
}

// s32 reads a signed LEB128 i32.
func (r *reader) s32() int32 {
	var v int64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift < 28 && c&0x40 != 0 {
				v |= -1 << (shift + 7) // sign extension
			}
			return int32(v)
		}
	}
	r.err = errors.New("s32 too long")
	return 0
}

func (r *reader) sleb() {
	for i := 0; i < 10; i++ {
		if c := r.byte(); r.err != nil || c&0x80 == 0 {
			return
		}
	}
	r.err = errors.New("integer too long")
}

// constExpr skips a constant expression up to its end.
func (r *reader) constExpr() {
	for !r.done() {
		op := r.byte()
		if op == 0x0b {
			return
		}
		if err := r.immediates(op); err != nil {
			return
		}
	}
}

func (r *reader) name() string { return string(r.bytes(int(r.u32()))) }

func (r *reader) limits() {
	switch flag := r.byte(); flag {
	case 0:
		r.u32()
	case 1:
		r.u32()
		r.u32()
	default:
		if r.err == nil {
			r.err = fmt.Errorf("%w: limits flag %d", ErrUnsupported, flag)
		}
	}
}

// blockType skips a block type: 0x40, a value type, or a type index (s33).
func (r *reader) blockType() {
	if r.off < len(r.b) {
		switch r.b[r.off] {
		case 0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
			r.off++
			return
		}
	}
	r.sleb()
}

// appendVec adds one element to an encoded vector (its count, then its
// elements).
func appendVec(vec, elem []byte) ([]byte, error) {
	r := &reader{b: vec}
	n := r.u32()
	if r.err != nil {
		return nil, r.err
	}
	out := leb128.AppendUnsigned(nil, uint64(n)+1)
	out = append(out, vec[r.off:]...)
	return append(out, elem...), nil
}
