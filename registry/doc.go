// Package registry holds the tool definitions that models may call: their
// schemas, validation, scoped registration, per-agent restrictions,
// conditional tools and the step-owned tool sets that admit calls.
//
// # Definitions
//
// A tool is defined once with [Define] from a [Spec]: a model-facing name,
// description and parameter [Schema]; an [Output] declaration (the schema of
// the canonical value and a render function from the value to content
// [Part]s); and an Execute function that receives the context, the decoded
// arguments and an [Exec]. TimeoutMs, ExecutionMode, ProjectContent,
// FinalizeContent, PresentCall, PresentResult and DeferLoading are
// optional. Typed tools decode their arguments into a Go type after
// validation; a [RawSpec] keeps them as json.RawMessage, for tools whose
// JSON Schema comes from elsewhere (an MCP server: [ParseJSONSchema]).
// Define refuses a parameter schema whose properties do not match the JSON
// fields of the argument struct (a property "item" beside a field tagged
// "sku"), so the two cannot drift apart silently.
//
// # Tools from Go types
//
// [Infer] defines a tool whose parameter and output schemas are inferred
// from its argument and value types, with github.com/google/jsonschema-go
// as the MCP Go SDK's mcp.AddTool infers them, so both agree: json tags
// name the properties, jsonschema tags describe them, a field is required
// unless tagged omitempty or omitzero, and types the tags cannot describe
// (enums, defaults) take their schema from [InferOptions].TypeSchemas.
// [SchemaFor] returns one type's schema. Inferred schemas are raw JSON
// Schema ([kindRaw]), read by the projection, validation and sdkgen as any
// other.
//
// # Defaults
//
// When an optional property with a default is absent, the tool receives
// the default: in its decoded arguments, and for a [RawSpec] in the
// arguments passed to Execute. Defaults are found through object
// properties and array items, in DSL schemas and raw ones alike (not
// through $ref, oneOf, anyOf or allOf). [Exec.Arguments], and the
// arguments the pipeline records, stay as the model sent them.
//
// # Schemas and validation
//
// The schema DSL ([String], [Number], [Integer], [Boolean], [Null],
// [Array], [Object], [JSON], [OneOf]) projects to JSON Schema draft 2020-12
// with [Schema.MarshalJSON], which generators (the SDK, MCP) read.
// [Define] compiles the projection once with
// github.com/santhosh-tekuri/jsonschema/v6. Every call's arguments are
// parsed (duplicate object keys are rejected), validated and decoded before
// the body runs; every failure is an [*Error] of kind [ErrInvalidArguments]
// and, for schema violations, structured [Issue]s. Unknown properties are
// rejected only by a [Schema.Strict] object. A value that does not match
// the tool's output schema is an [*Error] of kind [ErrInvalidOutput], with
// Issues too.
//
// # Scopes, restrictions and tool sets
//
// A [Registry] holds registrations in layers: the deployment, presets and
// agents ([Scope]). See [Registry] for the nearest-wins, replacement and
// restriction rules and for the stable listing order. Conditional
// registrations ([When]) are admitted per model step by [Registry.Resolve],
// which returns a [ToolSet]; [Registry.Executable] is the lookup every call,
// including run_code subcalls, goes through (it is package pipeline's seam:
// its result is the pipeline's machinery). [Registry.Get] and
// [Registry.Definitions] inspect what a scope, or a set, sees.
//
// [Registry.Subscribe] reports changes of the visible tools so prompt
// assembly can rebuild what it caches.
//
// The registry enforces no timeouts, policies or cancellation results: those
// belong to the pipeline package, which declares the error codes and turns
// the registry's failures ([ErrUnknownTool], [ErrInvalidArguments],
// [ErrActivationFailed], [ErrInvalidOutput]) into them.
package registry
