package pipeline_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// TestPipeline_deferredContent: without post-execute listeners the
// default rendering is made when the content is first read, and the
// outcome is the one the eager rendering (with a listener) gives: the same
// content, the same failure for a value that cannot be rendered.
func TestPipeline_deferredContent(t *testing.T) {
	for _, c := range []struct {
		name    string
		value   any
		want    string // the content's text
		failure string // the reason, when the call fails
	}{
		{"raw JSON", json.RawMessage(`{"a":[1,2],"s":"x"}`), "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"s\": \"x\"\n}", ""},
		{"string", "plain text", "plain text", ""},
		{"map", map[string]any{"b": 1}, "{\n  \"b\": 1\n}", ""},
		{"nil", nil, "null", ""},
		{"invalid raw JSON", json.RawMessage(`{"a":`), "", "render value: unexpected end of JSON input"},
		{"not marshalable", map[string]any{"c": make(chan int)}, "", "render value: json: unsupported type: chan int"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tool := rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return c.value, nil })
			var outs []*pipeline.Outcome
			for _, listen := range []bool{false, true} {
				p := newPipeline(t, pipeline.Config{}, tool)
				if listen {
					p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) {})
				}
				outs = append(outs, p.Call(bg, call("t", `{}`), pipeline.Env{}))
			}
			for _, o := range outs {
				if c.failure != "" {
					require.Error(t, o.Err())
					assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
					assert.Equal(t, c.failure, reason(o))
					continue
				}
				require.NoError(t, o.Err())
				assert.Equal(t, c.want, text(o))
				assert.Equal(t, c.want, text(o)) // rendered once, read twice
				assert.Nil(t, o.Images())
			}
			assert.Equal(t, outs[1].Content(), outs[0].Content())
		})
	}
}

// TestPipeline_deferredContentImages: a tool that renders its own content
// is rendered at once, so its images are found.
func TestPipeline_deferredContentImages(t *testing.T) {
	tool := registry.MustDefine(registry.Spec[json.RawMessage, string]{
		Name: "chart", Description: "chart",
		Execute: func(context.Context, json.RawMessage, *registry.Exec) (string, error) { return "ok", nil },
		Output: registry.Output[json.RawMessage, string]{Render: func(_ json.RawMessage, v string) []registry.Part {
			return []registry.Part{registry.TextPart(v), registry.ImagePart("image/png", []byte{1, 2})}
		}},
	})
	o := newPipeline(t, pipeline.Config{}, tool).Call(bg, call("chart", `{}`), pipeline.Env{})
	require.NoError(t, o.Err())
	require.Len(t, o.Images(), 1)
	assert.Len(t, o.Content(), 2)
}

type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("MarshalJSON exploded") }

// TestPipeline_deferredContentPanic: a value whose MarshalJSON panics
// fails the call as the eager rendering does.
func TestPipeline_deferredContentPanic(t *testing.T) {
	tool := rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return panicky{}, nil })
	for _, listen := range []bool{false, true} {
		p := newPipeline(t, pipeline.Config{}, tool)
		if listen {
			p.OnPostExecute(func(context.Context, *pipeline.Invocation, *pipeline.PostResult) {})
		}
		o := p.Call(bg, call("t", `{}`), pipeline.Env{})
		assert.Equal(t, "TOOL_FAILED", pipeline.CodeOf(o.Err()))
		assert.Contains(t, reason(o), "MarshalJSON exploded")
	}
}

// TestPipeline_deferredContentOwnsBytes: a tool that reuses the buffer it
// returned does not change the content, which is made later.
func TestPipeline_deferredContentOwnsBytes(t *testing.T) {
	buf := []byte(`{"a":1}`)
	tool := rawTool("t", func(context.Context, json.RawMessage, *registry.Exec) (any, error) { return json.RawMessage(buf), nil })
	o := newPipeline(t, pipeline.Config{}, tool).Call(bg, call("t", `{}`), pipeline.Env{})
	copy(buf, `{"b":2}`)
	assert.Equal(t, "{\n  \"a\": 1\n}", text(o))
}

// TestPipeline_deferredValueJSON: a typed tool's value as JSON is the one
// its content was made from, and a nil value is null.
func TestPipeline_deferredValueJSON(t *testing.T) {
	type out struct {
		N int `json:"n"`
	}
	for _, c := range []struct {
		v    *out
		want string
	}{{&out{N: 3}, `{"n":3}`}, {nil, `null`}} {
		tool := registry.MustDefine(registry.Spec[json.RawMessage, *out]{
			Name: "t", Description: "t",
			Execute: func(context.Context, json.RawMessage, *registry.Exec) (*out, error) { return c.v, nil },
		})
		o := newPipeline(t, pipeline.Config{}, tool).Call(bg, call("t", `{}`), pipeline.Env{})
		require.NoError(t, o.Err())
		v, err := o.ValueJSON()
		require.NoError(t, err)
		assert.Equal(t, c.want, string(v))
	}
}
