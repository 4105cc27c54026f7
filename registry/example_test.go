package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ptchost/ptc/registry"
)

type weatherArgs struct {
	City string `json:"city"`
	Unit string `json:"unit"`
}

func ExampleDefine() {
	weather := registry.MustDefine(registry.Spec[weatherArgs, map[string]any]{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		Parameters: registry.Object(
			registry.Required("city", registry.String().Describe("City name")),
			registry.Optional("unit", registry.String().WithEnum("c", "f").WithDefault("c")),
		),
		Execute: func(ctx context.Context, a weatherArgs, _ *registry.Exec) (map[string]any, error) {
			return map[string]any{"city": a.City, "temp": 21, "unit": a.Unit}, nil
		},
		Parallel: true,
	})

	call, err := weather.Prepare(json.RawMessage(`{"city":"Paris"}`))
	if err != nil {
		panic(err)
	}
	v, _ := call.Execute(context.Background(), &registry.Exec{CallID: "1"})
	content, _ := call.Render(v)
	fmt.Println(call.Mode())
	fmt.Println(content[0].Text)
	// Output:
	// parallel
	// {
	//   "city": "Paris",
	//   "temp": 21,
	//   "unit": "c"
	// }
}

func ExampleTool_Prepare_invalid() {
	weather := registry.MustDefine(registry.RawSpec{
		Name:       "get_weather",
		Parameters: registry.Object(registry.Required("city", registry.String())),
		Execute:    func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return nil, nil },
	})
	_, err := weather.Prepare(json.RawMessage(`{"city":7}`))
	var e *registry.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind, e.Issues[0].Path, e.Issues[0].Expected)
	}
	fmt.Println(err)
	_, err = weather.Prepare(json.RawMessage(`{"city":"a","city":"b"}`))
	fmt.Println(err)
	// Output:
	// invalid arguments /city string
	// tool "get_weather": invalid arguments: at "/city": got number, want string
	// tool "get_weather": invalid arguments: invalid JSON at offset 12: duplicate object key "city"
}

func ExampleSchema_MarshalJSON() {
	s := registry.Object(
		registry.Required("path", registry.String().Describe("Absolute file path")),
		registry.Optional("offset", registry.Number()),
		registry.Optional("mode", registry.OneOf(registry.String(), registry.Null())),
	).Strict()
	b, _ := json.Marshal(s)
	fmt.Println(string(b))
	// Output:
	// {"type":"object","properties":{"path":{"type":"string","description":"Absolute file path"},"offset":{"type":"number"},"mode":{"oneOf":[{"type":"string"},{"type":"null"}]}},"required":["path"],"additionalProperties":false}
}

func exampleTool(name string) *registry.Tool {
	return registry.MustDefine(registry.RawSpec{
		Name:    name,
		Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return name, nil },
	})
}

func ExampleRegistry_Restrict() {
	r := registry.New()
	agent := registry.Scope{Preset: "coding", Agent: "reviewer"}
	r.Register(exampleTool("read_file"))
	r.Register(exampleTool("write_file"))
	r.Register(exampleTool("comment"), registry.In(agent))

	lift, _ := r.Restrict(agent, registry.Only("read_file"))
	for _, s := range r.Schemas(agent, nil) {
		fmt.Println(s.Name)
	}
	_, err := r.Executable("write_file", agent, nil)
	fmt.Println(err)
	lift()
	fmt.Println(len(r.Schemas(agent, nil)))
	// Output:
	// read_file
	// comment
	// tool "write_file": unknown tool in agent coding/reviewer
	// 3
}

func ExampleRegistry_Resolve() {
	r := registry.New()
	r.Register(exampleTool("search"))
	r.Register(exampleTool("think_hard"), registry.When(func(ctx context.Context, s registry.Step) (bool, error) {
		return s.ModelSelection.ReasoningEffort == "high", nil
	}))

	ctx := context.Background()
	agent := registry.Scope{Agent: "main"}
	for _, effort := range []string{"low", "high"} {
		set, err := r.Resolve(ctx, registry.Step{Agent: agent, ModelSelection: registry.ModelSelection{Model: "m", ReasoningEffort: effort}})
		if err != nil {
			panic(err)
		}
		_, err = r.Executable("think_hard", agent, set)
		outcome := "callable"
		if err != nil {
			outcome = fmt.Sprint(errors.Is(err, registry.ErrUnknownTool))
		}
		fmt.Println(effort, set.Names(), outcome)
		set.Dispose()
	}
	_, err := r.Executable("think_hard", agent, nil)
	fmt.Println(err)
	// Output:
	// low [search] true
	// high [search think_hard] callable
	// tool "think_hard": conditional tool requires a resolved tool set
}

func ExampleRegistry_Subscribe() {
	r := registry.New()
	r.Subscribe(func(c registry.Change) { fmt.Println(c.Kind, c.Scope, c.Tool) })
	dispose, _ := r.Register(exampleTool("search"), registry.In(registry.Scope{Preset: "p"}))
	dispose()
	// Output:
	// registered preset p search
	// disposed preset p search
}
