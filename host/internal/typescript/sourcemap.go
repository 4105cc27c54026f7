package typescript

import (
	"encoding/json"
	"errors"
)

// Map maps positions in the stripped JavaScript, as the guest numbers them
// (line 1 holds the guest's wrapper, then one line per line Strip
// returned), back to the TypeScript program.
type Map struct {
	lines [][]segment // by generated line, 0-based; sorted by column
}

// segment is one source map mapping: a generated column and the original
// position (0-based line of the wrapped source, 0-based column).
type segment struct {
	genCol, line, col int
}

var errMapping = errors.New("malformed source map")

// parseMap decodes the "mappings" of a version 3 source map with a single
// source and no names needed.
func parseMap(raw []byte) (*Map, error) {
	var sm struct {
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(raw, &sm); err != nil {
		return nil, err
	}
	m := &Map{lines: [][]segment{nil}}
	var genCol, src, line, col, name int
	s := sm.Mappings
	for i := 0; i < len(s); {
		switch s[i] {
		case ';':
			m.lines = append(m.lines, nil)
			genCol = 0
			i++
			continue
		case ',':
			i++
			continue
		}
		var f [5]int
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			if n == len(f) {
				return nil, errMapping
			}
			v, next, ok := vlq(s, i)
			if !ok {
				return nil, errMapping
			}
			f[n], i = v, next
			n++
		}
		genCol += f[0]
		if n < 4 {
			continue // a generated position with no source
		}
		src += f[1]
		line += f[2]
		col += f[3]
		if n == 5 {
			name += f[4]
		}
		last := len(m.lines) - 1
		m.lines[last] = append(m.lines[last], segment{genCol, line, col})
	}
	return m, nil
}

// vlq decodes one base64 VLQ value of s starting at i.
func vlq(s string, i int) (v, next int, ok bool) {
	shift, acc := 0, 0
	for ; i < len(s); i++ {
		d := b64(s[i])
		if d < 0 || shift > 30 {
			return 0, 0, false
		}
		acc |= (d & 31) << shift
		shift += 5
		if d&32 == 0 {
			if acc&1 != 0 {
				return -(acc >> 1), i + 1, true
			}
			return acc >> 1, i + 1, true
		}
	}
	return 0, 0, false
}

func b64(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// Position maps a 1-based line and column of the guest's program.js to
// the TypeScript program; ok is false for a position outside it.
func (m *Map) Position(line, col int) (int, int, bool) {
	g := line - 1 // the guest's line 1 is esbuild's line 0, the wrapper
	if m == nil || g < 1 || g >= len(m.lines) {
		return 0, 0, false
	}
	for ; g >= 1; g, col = g-1, 1<<30 {
		segs := m.lines[g]
		best := -1
		for i, s := range segs {
			if s.genCol <= col-1 {
				best = i
			}
		}
		if best < 0 && len(segs) > 0 {
			best = 0
		}
		if best >= 0 {
			s := segs[best]
			if s.line < 1 {
				return 1, 1, true
			}
			return s.line, s.col + 1, true
		}
	}
	return 0, 0, false
}

// Lines returns, for each line of the guest's program.js (index 0 is its
// line 1), the program line it came from and the difference to add to a
// column on it, or 0, 0 where nothing maps: a table small enough to hand
// to the guest, which maps its own stack traces with it.
func (m *Map) Lines() []int32 {
	out := make([]int32, 2*(len(m.lines)+1))
	for g := 1; g < len(m.lines); g++ {
		l, c, ok := m.Position(g+1, 1)
		if !ok {
			continue
		}
		delta := 0
		if segs := m.lines[g]; len(segs) > 0 {
			delta = segs[0].col - segs[0].genCol
		} else {
			delta = c - 1
		}
		out[2*(g+1)], out[2*(g+1)+1] = int32(l), int32(delta)
	}
	return out
}
