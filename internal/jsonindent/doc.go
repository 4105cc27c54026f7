// Package jsonindent indents JSON for people and models to read, without
// the blow-up of indenting deeply nested values: each line of indented
// JSON carries two spaces per level, so a 10 000-deep array of 20 KB
// becomes 200 MB (and copying it holds up Go's garbage collector).
package jsonindent
