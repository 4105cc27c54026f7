package toolsdk

import (
	"fmt"
	"strings"

	"github.com/ptchost/ptc/host"
)

// manual is run_code's description before its limits and declarations:
// the only manual the model reads. Every sentence of it is checked by a
// test (the root package's manual_test.go) that fails when it stops
// being true; a sentence added here needs its own check there.
const manual = "Run a JavaScript or TypeScript program that calls tools through the `tools` object declared below; the result is what the program prints and returns.\n\n" +
	"The program is the body of an async function: use `await`, run independent calls together with `Promise.all`, and `return` a value. " +
	"Each method takes one argument object and returns a Promise of the tool's result. " +
	"A failed call rejects with a `ToolError` whose `code` and `tool` say what failed; catch it to carry on. " +
	"`console.log` prints as Node does; the result is the printed lines, then the return value (a string as is, plain data as JSON). " +
	"`setTimeout` and `setInterval` work. " +
	"There is no `require`, `import`, `fetch`, filesystem or network. "

// describe is run_code's description over decls: the manual, the limits
// and the declarations in a TypeScript block.
func describe(lim host.Limits, decls string) string {
	var b strings.Builder
	b.WriteString(manual)
	fmt.Fprintf(&b, "Limits: %s, %d tool calls, %d bytes of output.\n\n", lim.Timeout, lim.Subcalls, lim.OutputBytes)
	b.WriteString("```ts\n")
	b.WriteString(decls)
	if !strings.HasSuffix(decls, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("```")
	return b.String()
}
