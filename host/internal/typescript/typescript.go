package typescript

import (
	"errors"
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

const (
	head = "async function __ptc_body() {\n"
	tail = "\n}"
)

// Error is a program esbuild could not read as TypeScript.
type Error struct {
	// Line and Column locate the problem in the program (1-based).
	Line, Column int
	// Text is esbuild's description.
	Text string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s (line %d, column %d)", e.Text, e.Line, e.Column)
}

// MaxNesting bounds the bracket nesting of a program Strip takes: esbuild
// prints nested code indented, so its output, and its time, grow with the
// square of the nesting (15 000 nested functions take minutes).
const MaxNesting = 256

// ErrTooDeep is returned for a program nested deeper than MaxNesting.
var ErrTooDeep = errors.New("typescript: program nests too deep to strip")

// nesting is the deepest bracket nesting of src, counting every bracket
// (strings and comments included: an over-estimate is harmless).
func nesting(src string) int {
	d, most := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{', '(', '[':
			d++
			most = max(most, d)
		case '}', ')', ']':
			d--
		}
	}
	return most
}

// Strip removes the types from src, a TypeScript function body, and
// returns JavaScript whose line n+1 holds what esbuild printed for the
// body's line n (the first line is empty, for the guest's own wrapper to
// sit on), with the map back to src. A program that is not TypeScript
// either is an *Error.
func Strip(src string) (string, *Map, error) {
	if nesting(src) > MaxNesting {
		return "", nil, ErrTooDeep
	}
	r := api.Transform(head+src+tail, api.TransformOptions{
		Loader:    api.LoaderTS,
		Sourcemap: api.SourceMapExternal,
		// Keep every name and statement as written: the program's stack
		// traces and printed functions should read as the model wrote them.
		KeepNames:         false,
		LegalComments:     api.LegalCommentsNone,
		TsconfigRaw:       `{"compilerOptions":{"verbatimModuleSyntax":false,"useDefineForClassFields":true}}`,
		LogLevel:          api.LogLevelSilent,
		Charset:           api.CharsetUTF8,
		MinifySyntax:      false,
		MinifyWhitespace:  false,
		MinifyIdentifiers: false,
	})
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		out := &Error{Text: e.Text, Line: 1, Column: 1}
		if e.Location != nil {
			out.Line, out.Column = e.Location.Line-1, e.Location.Column+1
			if out.Line < 1 {
				out.Line, out.Column = 1, 1
			}
		}
		return "", nil, out
	}
	code := string(r.Code)
	first := strings.IndexByte(code, '\n')
	end := strings.LastIndex(code, "}")
	if !strings.HasPrefix(code, strings.TrimSuffix(head, "\n")) || first < 0 || end < first {
		return "", nil, errors.New("typescript: unexpected esbuild output")
	}
	m, err := parseMap(r.Map)
	if err != nil {
		return "", nil, fmt.Errorf("typescript: %w", err)
	}
	return code[first:end], m, nil
}
