// Package sdkgen generates, from the model-facing schemas of a tool set, the
// JavaScript SDK prelude that the guest runs before a program and the
// TypeScript declarations that go into run_code's description.
//
// # Input
//
// The generator reads a slice of [Tool]: a real tool name, a description, a
// JSON Schema for the argument object and, optionally, a JSON Schema for the
// canonical value. [FromDefinitions] builds it from registry definitions
// (output schemas included, so return types are typed); [FromSchemas] builds
// it from [registry.ToolSchema] values, which carry no output schema, so
// every return type is unknown.
//
// # JavaScript
//
// [JS] returns a script (non-strict script context, no modules) that
// defines a frozen, non-writable, non-configurable global tools object.
// Each method takes one argument object and returns
// __ptc_call("<real tool name>", args): a Promise of the tool's canonical
// value that rejects with a ToolError (name "ToolError", code, tool,
// message). __ptc_call and ToolError are defined by the guest's glue.
//
// # TypeScript
//
// [TypeScript] returns "declare const tools: { ... };" followed by a
// declaration of the ToolError class. Schema keywords map as follows:
// string → string; number and integer → number; boolean; null; array →
// T[] (unknown[] without items); object → a type literal with its
// properties in declaration order, optional ones marked "?" (a required
// name the object does not list is a property of type unknown); enum and const
// → a union of literal types; oneOf and anyOf → a union; allOf → an
// intersection; a list of types → a union; a local $ref ("#/...") → the
// type it points at; true, {} and anything not understood (a remote $ref,
// an author-only JSON value) → unknown; false → never. An
// object gets an index signature only when additionalProperties is
// explicitly true or a schema: [key: string]: T when the object lists no
// properties, [key: string]: unknown otherwise (so listed properties stay
// assignable). Descriptions become doc comments ("*/" is written "*\/"),
// defaults become @default tags, except a default that leaving the
// property out means anyway (false for a boolean, [] for an array). A
// one-line doc comment shares its member's line when both fit in 100
// columns, and an object type goes on one line when it fits in 72 and its
// members' doc comments are one-line. Property names that are not
// identifiers are quoted. Nesting deeper than 24 levels, and anything past 10000
// rendered schema nodes in one type (recursive $refs), is cut to unknown.
// The args parameter is optional when the argument object has no required
// property. An argument or result type several methods share is declared
// once before the tools object, as a type alias named after the methods
// (FsReadArgs, FsResult), when that saves bytes; [Declarations], which
// tools.$describe answers with, always write types out.
//
// # Large tool sets
//
// [TypeScriptWithin] fits the declarations to a byte budget: while they
// fit and no tool has DeferLoading they are those of [TypeScript];
// otherwise tools with DeferLoading, and then those whose full declaration
// no longer fits, are declared in short (name and first sentence of the
// description, see [FirstSentence]), and the tools object declares
// $search and $describe, which the guest answers with every tool's full
// declaration. The SDK prelude of [JS] does not change: a program calls
// every tool the same way.
//
// # Method names
//
// A method is named after its tool, mapped deterministically to a valid,
// non-reserved JavaScript identifier ([MethodNames]):
//
//  1. every character outside [A-Za-z0-9_] becomes "_" (so "a-b" is "a_b");
//     an empty name becomes "_";
//  2. a leading digit is prefixed with "_" ("3d" is "_3d");
//  3. a reserved word (ECMAScript keywords, strict-mode reserved words,
//     literals, "arguments", "eval", "undefined", "NaN", "Infinity",
//     "__proto__", and "then", which would make tools a thenable that
//     await and Promise.resolve unwrap) gets "_" appended ("delete" is
//     "delete_");
//  4. names that needed no mapping keep their name; then, in input
//     (registration) order, a mapped name already taken gets the first free
//     suffix of "_2", "_3", ... ("a-b" beside "a_b" is "a_b_2").
//
// A method whose name differs from its tool's name says so in its doc
// comment (`Calls the tool "a-b".`, on the description's line when that is
// one line); the JS method always calls the real name.
//
// # Stability
//
// The output depends only on the input slice: no maps are iterated, object
// properties keep their JSON order, so the same tools always produce the
// same bytes (prompt-cache friendly).
package sdkgen
