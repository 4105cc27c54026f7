package convert_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/bridge/internal/convert"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// short answers all calls but the last, and records the batch.
type short struct{ batch pipeline.Batch }

func (s *short) Describe(agent registry.Scope, _ *registry.ToolSet) []registry.ToolSchema {
	return []registry.ToolSchema{{Name: "for " + agent.Agent}}
}

func (s *short) Execute(_ context.Context, b pipeline.Batch) []*ptc.Result {
	s.batch = b
	rs := make([]*ptc.Result, len(b.Calls)-1)
	for i := range rs {
		rs[i] = &ptc.Result{Content: []registry.Part{registry.TextPart(b.Calls[i].Name)}}
	}
	return rs
}

func TestEnv_Execute(t *testing.T) {
	ex := &short{}
	set := &registry.ToolSet{}
	env := convert.Env{Executor: ex, Agent: registry.Scope{Agent: "a"}, ToolSet: set}
	if got := env.Describe(); len(got) != 1 || got[0].Name != "for a" {
		t.Errorf("Describe = %v, want the agent's tools", got)
	}
	calls := []pipeline.RawCall{{ID: "1", Name: "x"}, {ID: "2", Name: "y"}}
	rs := env.Execute(context.Background(), calls)
	if ex.batch.Agent.Agent != "a" || ex.batch.ToolSet != set || len(ex.batch.Calls) != 2 {
		t.Errorf("batch %+v does not carry the environment", ex.batch)
	}
	if len(rs) != 2 || registry.PlainText(rs[0].Content) != "x" || rs[0].IsError {
		t.Fatalf("results %v: want x first", rs)
	}
	if !rs[1].IsError || registry.PlainText(rs[1].Content) != convert.MissingText {
		t.Errorf("a call without a result: %+v, want the missing error", rs[1])
	}
}

func TestImages(t *testing.T) {
	im := convert.NewImages("the API takes PNG and JPEG images", "image/png", "image/jpeg")
	png := registry.ImagePart("image/png", []byte{1, 2})
	svg := registry.ImagePart("image/svg+xml", []byte("<svg/>"))
	parts := []registry.Part{registry.TextPart("a"), png, registry.TextPart(""), svg, registry.JSONPart(json.RawMessage(`{"b":1}`))}
	if !im.Takes(png) || im.Takes(svg) || !im.Any(parts) || im.Any(parts[2:]) {
		t.Error("Takes/Any: PNG is taken, SVG is not")
	}
	want := "a\n[image image/svg+xml 6 bytes not shown: the API takes PNG and JPEG images]\n{\"b\":1}"
	if got := im.Join(parts); got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	if all := convert.AllImages(); !all.Takes(svg) || all.Join(parts) != "a\n{\"b\":1}" {
		t.Errorf("AllImages: takes SVG %v, Join %q", all.Takes(svg), all.Join(parts))
	}
	if got := convert.DataURL(png); got != "data:image/png;base64,AQI=" {
		t.Errorf("DataURL = %q", got)
	}
}

func TestDefaults(t *testing.T) {
	if got := string(convert.Arguments(nil)); got != "{}" {
		t.Errorf("Arguments(nil) = %s", got)
	}
	if got := string(convert.Arguments(json.RawMessage(`{"a":1}`))); got != `{"a":1}` {
		t.Errorf("Arguments kept = %s", got)
	}
	if got := string(convert.ObjectSchema(nil)); got != `{"type":"object"}` {
		t.Errorf("ObjectSchema(nil) = %s", got)
	}
}
