package wasmgen

import (
	"fmt"

	"github.com/ptchost/ptc/host/internal/leb128"
)

// ValType is a WebAssembly value type.
type ValType byte

// The value types the builder supports.
const (
	I32 ValType = 0x7f
	I64 ValType = 0x7e
)

// Signature is a function type.
type Signature struct {
	Params, Results []ValType
}

func (s Signature) key() string { return fmt.Sprint(s.Params, "->", s.Results) }

type importFunc struct {
	module, name string
	typ          uint32
}

type function struct {
	typ    uint32
	locals []ValType
	body   []byte
}

type export struct {
	name  string
	kind  byte
	index uint32
}

type global struct {
	name string
	init int32
}

type segment struct {
	offset uint32
	data   []byte
}

// Module is a module under construction. Add every import before the first
// function: imports come first in the function index space.
type Module struct {
	types     []Signature
	typeIndex map[string]uint32
	imports   []importFunc
	funcs     []function
	hasMemory bool
	memMin    uint32
	memMax    *uint32
	exports   []export
	globals   []global
	data      []segment
}

// New returns an empty module.
func New() *Module { return &Module{typeIndex: map[string]uint32{}} }

func (m *Module) typeOf(s Signature) uint32 {
	k := s.key()
	if i, ok := m.typeIndex[k]; ok {
		return i
	}
	i := uint32(len(m.types))
	m.types = append(m.types, s)
	m.typeIndex[k] = i
	return i
}

// Import adds a function import and returns its function index.
func (m *Module) Import(module, name string, sig Signature) uint32 {
	if len(m.funcs) > 0 {
		panic("wasmgen: Import after Func")
	}
	m.imports = append(m.imports, importFunc{module, name, m.typeOf(sig)})
	return uint32(len(m.imports) - 1)
}

// Func adds a function with the given extra locals (numbered after the
// parameters) and body, and returns its function index. The body's final
// End is added by the builder.
func (m *Module) Func(sig Signature, locals []ValType, body *Body) uint32 {
	var b []byte
	if body != nil {
		b = body.b
	}
	m.funcs = append(m.funcs, function{m.typeOf(sig), locals, b})
	return uint32(len(m.imports) + len(m.funcs) - 1)
}

// Memory declares the module's memory, in 64 KiB pages; max < 0 means none.
func (m *Module) Memory(min uint32, max int64) {
	m.hasMemory, m.memMin, m.memMax = true, min, nil
	if max >= 0 {
		v := uint32(max)
		m.memMax = &v
	}
}

// Global adds a mutable i32 global with an initial value, named name in
// the module's name section, and returns its global index.
func (m *Module) Global(name string, init int32) uint32 {
	m.globals = append(m.globals, global{name, init})
	return uint32(len(m.globals) - 1)
}

// ExportFunc exports function index i as name.
func (m *Module) ExportFunc(name string, i uint32) {
	m.exports = append(m.exports, export{name, 0x00, i})
}

// ExportMemory exports memory 0 as name.
func (m *Module) ExportMemory(name string) {
	m.exports = append(m.exports, export{name, 0x02, 0})
}

// Data adds an active data segment for memory 0 at offset.
func (m *Module) Data(offset uint32, data []byte) {
	m.data = append(m.data, segment{offset, append([]byte(nil), data...)})
}

// Bytes encodes the module.
func (m *Module) Bytes() []byte {
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	section := func(id byte, count int, body []byte) {
		if count == 0 {
			return
		}
		content := leb128.AppendUnsigned(nil, uint64(uint32(count)))
		content = append(content, body...)
		out = append(out, id)
		out = leb128.AppendUnsigned(out, uint64(uint32(len(content))))
		out = append(out, content...)
	}

	var b []byte
	for _, t := range m.types {
		b = append(b, 0x60)
		b = appendValTypes(b, t.Params)
		b = appendValTypes(b, t.Results)
	}
	section(1, len(m.types), b)

	b = nil
	for _, im := range m.imports {
		b = appendName(b, im.module)
		b = appendName(b, im.name)
		b = append(b, 0x00)
		b = leb128.AppendUnsigned(b, uint64(im.typ))
	}
	section(2, len(m.imports), b)

	b = nil
	for _, f := range m.funcs {
		b = leb128.AppendUnsigned(b, uint64(f.typ))
	}
	section(3, len(m.funcs), b)

	if m.hasMemory {
		b = nil
		if m.memMax == nil {
			b = append(b, 0x00)
			b = leb128.AppendUnsigned(b, uint64(m.memMin))
		} else {
			b = append(b, 0x01)
			b = leb128.AppendUnsigned(b, uint64(m.memMin))
			b = leb128.AppendUnsigned(b, uint64(*m.memMax))
		}
		section(5, 1, b)
	}

	b = nil
	for _, g := range m.globals {
		b = append(b, byte(I32), 0x01, 0x41)
		b = leb128.AppendSigned(b, int64(g.init))
		b = append(b, 0x0b)
	}
	section(6, len(m.globals), b)

	b = nil
	for _, e := range m.exports {
		b = appendName(b, e.name)
		b = append(b, e.kind)
		b = leb128.AppendUnsigned(b, uint64(e.index))
	}
	section(7, len(m.exports), b)

	b = nil
	for _, f := range m.funcs {
		var fb []byte
		fb = leb128.AppendUnsigned(fb, uint64(uint32(len(f.locals))))
		for _, l := range f.locals {
			fb = append(fb, 1, byte(l))
		}
		fb = append(fb, f.body...)
		fb = append(fb, 0x0b)
		b = leb128.AppendUnsigned(b, uint64(uint32(len(fb))))
		b = append(b, fb...)
	}
	section(10, len(m.funcs), b)

	b = nil
	for _, d := range m.data {
		b = append(b, 0x00, 0x41)
		b = leb128.AppendSigned(b, int64(int32(d.offset)))
		b = append(b, 0x0b)
		b = leb128.AppendUnsigned(b, uint64(uint32(len(d.data))))
		b = append(b, d.data...)
	}
	section(11, len(m.data), b)

	if len(m.globals) > 0 {
		// The name section, with the global names subsection (7).
		var names []byte
		names = leb128.AppendUnsigned(names, uint64(uint32(len(m.globals))))
		for i, g := range m.globals {
			names = leb128.AppendUnsigned(names, uint64(uint32(i)))
			names = appendName(names, g.name)
		}
		b = appendName(nil, "name")
		b = append(b, 7)
		b = leb128.AppendUnsigned(b, uint64(uint32(len(names))))
		b = append(b, names...)
		out = append(out, 0)
		out = leb128.AppendUnsigned(out, uint64(uint32(len(b))))
		out = append(out, b...)
	}
	return out
}

func appendValTypes(b []byte, ts []ValType) []byte {
	b = leb128.AppendUnsigned(b, uint64(uint32(len(ts))))
	for _, t := range ts {
		b = append(b, byte(t))
	}
	return b
}

func appendName(b []byte, s string) []byte {
	b = leb128.AppendUnsigned(b, uint64(uint32(len(s))))
	return append(b, s...)
}

// Body is a function body under construction; its methods append one
// instruction each and return the body, so calls chain.
type Body struct{ b []byte }

// NewBody returns an empty body.
func NewBody() *Body { return &Body{} }

func (c *Body) op(b ...byte) *Body { c.b = append(c.b, b...); return c }

// Unreachable traps.
func (c *Body) Unreachable() *Body { return c.op(0x00) }

// Loop opens a loop block with no result.
func (c *Body) Loop() *Body { return c.op(0x03, 0x40) }

// Block opens a block with no result.
func (c *Body) Block() *Body { return c.op(0x02, 0x40) }

// If opens an if block with no result; it pops an i32 condition.
func (c *Body) If() *Body { return c.op(0x04, 0x40) }

// End closes the innermost block.
func (c *Body) End() *Body { return c.op(0x0b) }

// Br branches to the label depth.
func (c *Body) Br(depth uint32) *Body {
	return c.op(leb128.AppendUnsigned([]byte{0x0c}, uint64(depth))...)
}

// BrIf pops an i32 and branches to the label depth when it is nonzero.
func (c *Body) BrIf(depth uint32) *Body {
	return c.op(leb128.AppendUnsigned([]byte{0x0d}, uint64(depth))...)
}

// Return returns from the function.
func (c *Body) Return() *Body { return c.op(0x0f) }

// Call calls function index f.
func (c *Body) Call(f uint32) *Body { return c.op(leb128.AppendUnsigned([]byte{0x10}, uint64(f))...) }

// Drop pops a value.
func (c *Body) Drop() *Body { return c.op(0x1a) }

// LocalGet pushes local i.
func (c *Body) LocalGet(i uint32) *Body {
	return c.op(leb128.AppendUnsigned([]byte{0x20}, uint64(i))...)
}

// LocalSet pops into local i.
func (c *Body) LocalSet(i uint32) *Body {
	return c.op(leb128.AppendUnsigned([]byte{0x21}, uint64(i))...)
}

// LocalTee stores the top of the stack into local i and keeps it.
func (c *Body) LocalTee(i uint32) *Body {
	return c.op(leb128.AppendUnsigned([]byte{0x22}, uint64(i))...)
}

// I32Const pushes an i32.
func (c *Body) I32Const(v int32) *Body { return c.op(leb128.AppendSigned([]byte{0x41}, int64(v))...) }

// I64Const pushes an i64.
func (c *Body) I64Const(v int64) *Body { return c.op(leb128.AppendSigned([]byte{0x42}, v)...) }

// I32Add adds two i32s.
func (c *Body) I32Add() *Body { return c.op(0x6a) }

// I32Eqz pushes 1 when the i32 on top is zero.
func (c *Body) I32Eqz() *Body { return c.op(0x45) }

// I64ShrU shifts an i64 right, unsigned.
func (c *Body) I64ShrU() *Body { return c.op(0x88) }

// I32WrapI64 truncates an i64 to an i32.
func (c *Body) I32WrapI64() *Body { return c.op(0xa7) }

// MemoryGrow grows memory 0 by the i32 on top, in pages, and pushes the old
// size or -1.
func (c *Body) MemoryGrow() *Body { return c.op(0x40, 0x00) }

// Raw appends raw instruction bytes.
func (c *Body) Raw(b ...byte) *Body { return c.op(b...) }
