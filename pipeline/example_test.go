package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

type weatherArgs struct {
	City string `json:"city"`
}

func weatherTool() *registry.Tool {
	return registry.MustDefine(registry.Spec[weatherArgs, map[string]any]{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		Parameters:  registry.Object(registry.Required("city", registry.String())),
		Execute: func(ctx context.Context, a weatherArgs, _ *registry.Exec) (map[string]any, error) {
			if a.City == "Atlantis" {
				return nil, fmt.Errorf("city not found")
			}
			return map[string]any{"city": a.City, "tempC": 21}, nil
		},
		Parallel: true,
	})
}

func ExamplePipeline_Execute() {
	reg := registry.New()
	reg.Register(weatherTool())
	p, _ := pipeline.New(pipeline.Config{Registry: reg})

	out := p.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{
		{ID: "1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Atlantis"}`)},
		{ID: "3", Name: "get_weather", Arguments: json.RawMessage(`{"town":"Rome"}`)},
		{ID: "4", Name: "send_mail", Arguments: json.RawMessage(`{}`)},
	}})
	for _, o := range out {
		v, _ := o.ValueJSON()
		status := "ok"
		if o.Err() != nil {
			status = pipeline.CodeOf(o.Err())
		}
		fmt.Printf("%s %s %q value=%s\n", o.Invocation().CallID(), status, strings.ReplaceAll(o.Content()[0].Text, "\n", ""), v)
	}
	// Output:
	// 1 ok "{  \"city\": \"Paris\",  \"tempC\": 21}" value={"city":"Paris","tempC":21}
	// 2 TOOL_FAILED "Error: city not found" value=null
	// 3 INVALID_ARGUMENTS "Error: tool \"get_weather\": invalid arguments: at \"\" (root): missing property 'city'" value=null
	// 4 UNKNOWN_TOOL "Error: tool \"send_mail\": unknown tool in deployment" value=null
}

func ExamplePipeline_Guard() {
	reg := registry.New()
	reg.Register(weatherTool())
	p, _ := pipeline.New(pipeline.Config{Registry: reg})

	// The waterfall asks; a guard registered by the owner denies Berlin;
	// the approver says yes to everything else.
	p.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("look up the weather?")
	})
	p.Guard(func(inv *pipeline.Invocation) string {
		if inv.Args().(weatherArgs).City == "Berlin" {
			return "Berlin is off limits"
		}
		return ""
	})
	approve := func(ctx context.Context, inv *pipeline.Invocation, q string) (pipeline.Answer, error) {
		fmt.Println("asked:", q)
		return pipeline.Answer{Approved: true}, nil
	}
	for _, city := range []string{"Paris", "Berlin"} {
		o := p.Call(context.Background(), pipeline.RawCall{Name: "get_weather", Arguments: json.RawMessage(`{"city":"` + city + `"}`)},
			pipeline.Env{Approver: approve})
		var e *pipeline.Error
		if errors.As(o.Err(), &e) {
			fmt.Println(city, e.Code+":", e.Reason)
		} else {
			fmt.Println(city, "allowed")
		}
	}
	o := p.Call(context.Background(), pipeline.RawCall{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)}, pipeline.Env{})
	fmt.Println(o.Content()[0].Text)
	// Output:
	// asked: look up the weather?
	// Paris allowed
	// Berlin DENIED: Berlin is off limits
	// Error: tool "get_weather": approval required and no approver is available
}

func ExampleTimeoutPolicy() {
	reg := registry.New()
	reg.Register(registry.MustDefine(registry.RawSpec{
		Name:      "slow",
		TimeoutMs: 10,
		Execute: func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
			<-ctx.Done() // a well-behaved body observes its context
			return nil, ctx.Err()
		},
	}))
	p, _ := pipeline.New(pipeline.Config{Registry: reg})
	p.Wrap(pipeline.TimeoutPolicy())

	o := p.Call(context.Background(), pipeline.RawCall{Name: "slow", Arguments: json.RawMessage(`{}`)}, pipeline.Env{})
	fmt.Println(pipeline.CodeOf(o.Err()))
	fmt.Println(o.Content()[0].Text)
	// Output:
	// TOOL_TIMEOUT
	// Error: tool "slow" timed out after 10ms
}

func ExamplePipeline_OnPostExecute() {
	reg := registry.New()
	reg.Register(weatherTool())
	p, _ := pipeline.New(pipeline.Config{Registry: reg})
	p.OnPostExecute(func(_ context.Context, _ *pipeline.Invocation, r *pipeline.PostResult) {
		r.Content = []registry.Part{registry.TextPart("[weather redacted]")}
		r.Context = append(r.Context, registry.TextPart("note: weather data is redacted for this agent"))
	})
	o := p.Call(context.Background(), pipeline.RawCall{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}, pipeline.Env{})
	v, _ := o.ValueJSON()
	fmt.Println(o.Content()[0].Text)
	fmt.Println(o.Context()[0].Text)
	fmt.Println(string(v)) // the canonical value survives for programmatic callers
	// Output:
	// [weather redacted]
	// note: weather data is redacted for this agent
	// {"city":"Oslo","tempC":21}
}
