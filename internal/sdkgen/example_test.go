package sdkgen_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ptchost/ptc/internal/sdkgen"
	"github.com/ptchost/ptc/registry"
)

type weatherArgs struct {
	City string `json:"city"`
}

type weather struct {
	TempC float64 `json:"tempC"`
	Sky   string  `json:"sky"`
}

func weatherTool() *registry.Tool {
	return registry.MustDefine(registry.Spec[weatherArgs, weather]{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		Parameters: registry.Object(
			registry.Required("city", registry.String().Describe("City name")),
		),
		Output: registry.Output[weatherArgs, weather]{
			Schema: registry.Object(
				registry.Required("tempC", registry.Number()),
				registry.Required("sky", registry.String()),
			),
		},
		Execute: func(ctx context.Context, a weatherArgs, _ *registry.Exec) (weather, error) {
			return weather{TempC: 21, Sky: "clear"}, nil
		},
	})
}

func ExampleTypeScript() {
	tools := sdkgen.FromDefinitions([]*registry.Tool{weatherTool()})
	fmt.Print(sdkgen.TypeScript(tools))
	// Output:
	// declare const tools: {
	//   /** Current weather for a city. */
	//   get_weather(args: { /** City name */ city: string }): Promise<{ tempC: number; sky: string }>;
	// };
	// declare class ToolError extends Error {
	//   name: "ToolError";
	//   /** The pipeline error code, such as "DENIED" or "TOOL_FAILED". */ code: string;
	//   /** The tool's real name. */ tool: string;
	// }
}

// An argument or result type several methods share is declared once, when
// that saves bytes.
func ExampleTypeScript_sharedTypes() {
	args := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},` +
		`"head":{"type":"integer","description":"If provided, returns only the first N lines of the file"},` +
		`"tail":{"type":"integer","description":"If provided, returns only the last N lines of the file"}},"required":["path"]}`)
	result := json.RawMessage(`{"type":"object","properties":{"content":{"type":"string"}},"required":["content"]}`)
	tools := []sdkgen.Tool{
		{Name: "fs__read_file", Description: "Reads a file.", Parameters: args, Output: result},
		{Name: "fs__read_text_file", Description: "Reads a text file.", Parameters: args, Output: result},
	}
	fmt.Print(sdkgen.TypeScript(tools))
	// Output:
	// type FsReadArgs = {
	//   path: string;
	//   /** If provided, returns only the first N lines of the file */ head?: number;
	//   /** If provided, returns only the last N lines of the file */ tail?: number;
	// };
	// declare const tools: {
	//   /** Reads a file. */
	//   fs__read_file(args: FsReadArgs): Promise<{ content: string }>;
	//   /** Reads a text file. */
	//   fs__read_text_file(args: FsReadArgs): Promise<{ content: string }>;
	// };
	// declare class ToolError extends Error {
	//   name: "ToolError";
	//   /** The pipeline error code, such as "DENIED" or "TOOL_FAILED". */ code: string;
	//   /** The tool's real name. */ tool: string;
	// }
}

func ExampleJS() {
	tools := []sdkgen.Tool{
		{Name: "get_weather"},
		{Name: "web-search"},
	}
	fmt.Print(sdkgen.JS(tools))
	// Output:
	// (function () {
	//   "use strict";
	//   var call = globalThis.__ptc_call;
	//   var tools = {
	//     get_weather: function (args) { return call("get_weather", args); },
	//     web_search: function (args) { return call("web-search", args); },
	//   };
	//   globalThis.__ptc_tools(tools, "[[\"get_weather\",\"\",\"get_weather(args?: unknown): Promise<unknown>;\"],[\"web_search\",\"\",\"/** Calls the tool \\\"web-search\\\". */\\nweb_search(args?: unknown): Promise<unknown>;\"]]");
	// })();
}

func ExampleMethodNames() {
	tools := []sdkgen.Tool{
		{Name: "a-b"}, {Name: "a_b"}, {Name: "3d"}, {Name: "delete"}, {Name: "a.b"},
	}
	fmt.Println(sdkgen.MethodNames(tools))
	// Output:
	// [a_b_2 a_b _3d delete_ a_b_3]
}

func ExampleFromSchemas() {
	reg := registry.New()
	if _, err := reg.Register(weatherTool()); err != nil {
		panic(err)
	}
	var schemas []registry.ToolSchema
	for _, t := range reg.Definitions(registry.Scope{}, nil) {
		schemas = append(schemas, t.Schema())
	}
	tools := sdkgen.FromSchemas(schemas)
	fmt.Println(tools[0].Name, tools[0].Output == nil)
	// Output:
	// get_weather true
}
