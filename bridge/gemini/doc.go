// Package ptcgemini connects a ptc executor to the Gemini API through
// Google's Gen AI Go SDK (google.golang.org/genai, v1).
//
// It is its own module, so that the library's go.mod does not carry the
// SDK. It converts in both directions and nothing more, for any executor
// with ptc.ToolExecutor's methods (the PTC executor, the native one, a
// ptc.Mounts): the executor's tool schemas become function declarations
// ([Tools]), the FunctionCall parts of the model's reply become one batch
// of calls ([Calls]), and the results become the FunctionResponse parts
// of the next user content ([Response]). [Bridge.Answer] does the three
// steps for one reply.
//
// A loop in PTC mode:
//
//	br := ptcgemini.New(ex) // then br.Agent, br.ToolSet, br.Approver as needed
//	config := &genai.GenerateContentConfig{Tools: br.Tools()}
//	contents := genai.Text("How did the regions sell?")
//	for {
//		resp, err := client.Models.GenerateContent(ctx, model, contents, config)
//		if err != nil { ... }
//		contents = append(contents, resp.Candidates[0].Content)
//		answer := br.Answer(ctx, resp)
//		if answer == nil {
//			break // no function call: resp.Text() is the final answer
//		}
//		contents = append(contents, answer)
//	}
//
// # Schemas
//
// Each tool's JSON Schema goes, unchanged, into the declaration's
// ParametersJsonSchema (not Parameters, the OpenAPI subset, which has no
// $ref, $defs or additionalProperties). Google documents that the API
// takes a whole JSON Schema there but supports only these keywords: type,
// format, title, description, enum (of strings and numbers), properties,
// required, additionalProperties, items, prefixItems, minItems, maxItems,
// minimum, maximum, anyOf, oneOf (read as anyOf), $ref, $defs, $id and
// $anchor, with a $ref allowed no sibling keywords but $-ones. The others
// — pattern, minLength, maxLength, const, allOf, not, if/then/else,
// multipleOf, exclusive bounds, dependent keywords, an enum of other
// values — the model is not held to. The bridge does not rewrite them
// away: the pipeline validates every call against the tool's whole
// schema, so a call that breaks one of them fails with INVALID_ARGUMENTS
// and a message the model can correct its call from (for run_code, whose
// only parameter is a string, nothing is lost). A registry schema with a
// $ref beside other keywords is sent as it is, and the API may refuse it.
// The SDK re-encodes the request through Go maps, so the schema's keys
// reach the API sorted, not in the registry's order. A function name must
// start with a letter or an underscore: a registry name that starts with
// a digit or a dash is refused by the API.
//
// # Results
//
// A FunctionResponse's response is {"output": text} for a success and
// {"error": text} for a failure (the keys the API reads as the function's
// output and its error): the text is the result's content one part per
// line, exactly as the model would see it in PTC mode ("Error: code run
// failed (KIND): ..." for a failed program). The images the API takes in
// a function response (PNG, JPEG and WebP) follow as the response's inline
// data parts, in content order, after the text that attributes them
// ("Image from render_chart (call 3):" in the output). Google documents
// multimodal function responses for Gemini 3 models; an image of another
// type is a note in the text, as on the other bridges ("[image image/gif 120
// bytes not shown: the API takes PNG, JPEG and WebP images]").
//
// The FunctionResponse answers its call by the call's id when the API
// sent one, and otherwise by its name and place: the responses are in the
// calls' order.
package ptcgemini
