package jsonindent

import (
	"bytes"
	"encoding/json"
)

// Width is the column a container's one-line form may reach in Layout.
const Width = 80

// Layout writes the JSON document src as the model sees a program's return
// value (docs/ARCHITECTURE.md, "What the model sees"): ": " and ", " separate keys and
// members; an array or object stays on one line when it holds no non-empty
// array or object, or when its one-line form fits in Width columns counted
// from the start of its line; otherwise each member goes on a line of its
// own, indented two spaces deeper than its parent. Nesting deeper than
// MaxDepth is written on one line. Columns count characters, not bytes.
func Layout(src []byte) ([]byte, error) {
	var c bytes.Buffer
	if err := json.Compact(&c, src); err != nil {
		return nil, err
	}
	l := layout{src: c.Bytes()}
	l.scan()
	l.out.Grow(len(l.src) + len(l.src)/4)
	l.write(0, 0, 0)
	return l.out.Bytes(), nil
}

// node is a container of the compact document: where it ends, its width
// on one line, and whether it holds a non-empty container.
type node struct {
	end    int  // index just past its closing bracket
	width  int  // characters of its one-line form
	nested bool // holds a non-empty array or object
}

type layout struct {
	src   []byte
	nodes map[int]node // by the index of the opening bracket
	out   bytes.Buffer
}

// scan measures every container of the compact document in one pass.
func (l *layout) scan() {
	l.nodes = make(map[int]node)
	type open struct {
		at, width int
		nested    bool
	}
	var stack []open
	for i := 0; i < len(l.src); i++ {
		switch c := l.src[i]; c {
		case '"':
			j := i + 1
			for l.src[j] != '"' {
				if l.src[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '[', '{':
			stack = append(stack, open{at: i})
		case ']', '}':
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			l.nodes[o.at] = node{end: i + 1, width: chars(l.src[o.at:i+1]) + o.width, nested: o.nested}
			if len(stack) > 0 {
				p := &stack[len(stack)-1]
				p.width += o.width // the spaces after its separators
				p.nested = p.nested || i > o.at+1
			}
		case ',', ':':
			if len(stack) > 0 {
				stack[len(stack)-1].width++ // the space after it
			}
		}
	}
}

// chars counts the characters (not continuation bytes) of b.
func chars(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// write lays out the value at src[i:] starting at column col, at nesting
// depth, and returns the index past it.
func (l *layout) write(i, col, depth int) int {
	c := l.src[i]
	if c != '[' && c != '{' {
		j := l.scalarEnd(i)
		l.out.Write(l.src[i:j])
		return j
	}
	n := l.nodes[i]
	if n.end == i+2 || !n.nested || col+n.width <= Width || depth >= MaxDepth {
		l.oneLine(i, n.end)
		return n.end
	}
	close := byte(']')
	if c == '{' {
		close = '}'
	}
	l.out.WriteByte(c)
	ind := 2 * (depth + 1)
	j := i + 1
	for {
		l.out.WriteByte('\n')
		for k := 0; k < ind; k++ {
			l.out.WriteByte(' ')
		}
		at := ind
		if c == '{' {
			k := l.scalarEnd(j)
			l.out.Write(l.src[j:k])
			l.out.WriteString(": ")
			at += chars(l.src[j:k]) + 2
			j = k + 1 // past ':'
		}
		j = l.write(j, at, depth+1)
		if l.src[j] == ',' {
			l.out.WriteByte(',')
			j++
			continue
		}
		break
	}
	l.out.WriteByte('\n')
	for k := 0; k < 2*depth; k++ {
		l.out.WriteByte(' ')
	}
	l.out.WriteByte(close)
	return j + 1
}

// oneLine writes src[i:end] with a space after each separator.
func (l *layout) oneLine(i, end int) {
	run := i
	for k := i; k < end; k++ {
		switch l.src[k] {
		case '"':
			k = l.scalarEnd(k) - 1
		case ',', ':':
			l.out.Write(l.src[run : k+1])
			l.out.WriteByte(' ')
			run = k + 1
		}
	}
	l.out.Write(l.src[run:end])
}

// scalarEnd returns the index past the string, number or literal at i.
func (l *layout) scalarEnd(i int) int {
	if l.src[i] == '"' {
		j := i + 1
		for l.src[j] != '"' {
			if l.src[j] == '\\' {
				j++
			}
			j++
		}
		return j + 1
	}
	j := i
	for j < len(l.src) {
		switch l.src[j] {
		case ',', ']', '}', ':':
			return j
		}
		j++
	}
	return j
}
