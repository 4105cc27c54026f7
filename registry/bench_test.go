package registry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ptchost/ptc/registry"
)

type searchArgs struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Exact bool     `json:"exact"`
	Sort  string   `json:"sort"`
	Tags  []string `json:"tags"`
}

func searchTool(tb testing.TB) *registry.Tool {
	tb.Helper()
	t, err := registry.Define(registry.Spec[searchArgs, string]{
		Name:        "search",
		Description: "Search the index.",
		Parameters: registry.Object(
			registry.Required("query", registry.String().Describe("What to look for")),
			registry.Optional("limit", registry.Integer()),
			registry.Optional("exact", registry.Boolean()),
			registry.Optional("sort", registry.String().WithEnum("relevance", "date")),
			registry.Optional("tags", registry.Array(registry.String())),
		),
		Execute: func(ctx context.Context, a searchArgs, _ *registry.Exec) (string, error) { return a.Query, nil },
	})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

var fiveArgs = json.RawMessage(`{"query":"golang wasm","limit":10,"exact":false,"sort":"date","tags":["a","b"]}`)

func BenchmarkValidate(b *testing.B) {
	t := searchTool(b)
	b.Run("validate/5-props", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := t.Validate(fiveArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("prepare/5-props", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := t.Prepare(fiveArgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("invalid/5-props", func(b *testing.B) {
		bad := json.RawMessage(`{"query":1,"limit":"x","exact":false,"sort":"other","tags":["a",2]}`)
		b.ReportAllocs()
		for b.Loop() {
			if err := t.Validate(bad); err == nil {
				b.Fatal("accepted")
			}
		}
	})
}

// BenchmarkResolve resolves a 200-tool registry spread over 3 scopes
// (deployment, preset, agent) with 20 conditional tools.
func BenchmarkResolve(b *testing.B) {
	r := registry.New()
	agent := registry.Scope{Preset: "p", Agent: "a"}
	scopes := []registry.Scope{{}, {Preset: "p"}, agent}
	for i := range 200 {
		spec := registry.Spec[json.RawMessage, any]{
			Name:    fmt.Sprintf("tool_%03d", i),
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return nil, nil },
		}
		t := registry.MustDefine(spec)
		opts := []registry.Option{registry.In(scopes[i%3])}
		if i%10 == 0 {
			even := i%20 == 0
			opts = append(opts, registry.When(func(ctx context.Context, s registry.Step) (bool, error) {
				return even || s.Model == "big", nil
			}))
		}
		if _, err := r.Register(t, opts...); err != nil {
			b.Fatal(err)
		}
	}
	step := registry.Step{Agent: agent, Provider: "x", Model: "small"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		set, err := r.Resolve(ctx, step)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(set.Names()); n != 190 {
			b.Fatalf("admitted %d tools, want 190", n)
		}
		set.Dispose()
	}
}
