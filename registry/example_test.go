package registry_test

import (
	"context"
	"encoding/json"
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

	// What the model sees of the tool.
	b, _ := json.Marshal(weather.Schema())
	fmt.Println(string(b))
	// Output:
	// {"name":"get_weather","description":"Current weather for a city.","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["c","f"],"default":"c"}},"required":["city"]}}
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
	for _, t := range r.Definitions(agent, nil) {
		fmt.Println(t.Name())
	}
	_, ok := r.Get("write_file", agent, nil)
	fmt.Println(ok)
	lift()
	fmt.Println(len(r.Definitions(agent, nil)))
	// Output:
	// read_file
	// comment
	// false
	// 3
}

func ExampleRegistry_Resolve() {
	r := registry.New()
	r.Register(exampleTool("search"))
	r.Register(exampleTool("think_hard"), registry.When(func(ctx context.Context, s registry.Step) (bool, error) {
		return s.ReasoningEffort == "high", nil
	}))

	ctx := context.Background()
	agent := registry.Scope{Agent: "main"}
	for _, effort := range []string{"low", "high"} {
		set, err := r.Resolve(ctx, registry.Step{Agent: agent, Model: "m", ReasoningEffort: effort})
		if err != nil {
			panic(err)
		}
		var names []string
		for _, t := range r.Definitions(agent, set) {
			names = append(names, t.Name())
		}
		_, ok := r.Get("think_hard", agent, set)
		fmt.Println(effort, names, ok)
		set.Dispose()
	}
	// Without a resolved set, a conditional tool is not offered.
	fmt.Println(len(r.Definitions(agent, nil)))
	// Output:
	// low [search] false
	// high [search think_hard] true
	// 1
}

func ExampleRegistry_Subscribe() {
	r := registry.New()
	kinds := map[registry.ChangeKind]string{registry.ChangeRegistered: "registered", registry.ChangeDisposed: "disposed"}
	r.Subscribe(func(c registry.Change) { fmt.Println(kinds[c.Kind], c.Scope, c.Tool) })
	dispose, _ := r.Register(exampleTool("search"), registry.In(registry.Scope{Preset: "p"}))
	dispose()
	// Output:
	// registered preset p search
	// disposed preset p search
}
