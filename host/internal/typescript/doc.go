// Package typescript turns a TypeScript program into the JavaScript the
// guest runs, with esbuild, and maps positions in that JavaScript back to
// the program as it was written.
//
// A program is the body of an async function (top-level await and return
// work), so it is stripped inside a function of the same kind and the
// function's own lines are removed again: the JavaScript keeps the
// program's shape, one statement per line as esbuild prints it.
package typescript
