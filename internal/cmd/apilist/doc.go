// Command apilist prints the public API of the module's packages, one
// declaration per line, so that a change to it is a visible diff in
// review: `go run ./internal/cmd/apilist -dir api` writes api/<package>.txt,
// and `make lint` fails when the listing and the code disagree (-check).
//
// A line is the package's import path, then the declaration as written
// (a function's signature, a method with its receiver, a type's kind, a
// field with its type, a constant or variable with its type if written).
// Packages under internal/, main packages, test files and unexported names
// are left out.
package main
