package ptc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

const recordingSchemaPath = "testdata/recording.schema.json"

// recordingSchema compiles testdata/recording.schema.json, formats
// (date-time) asserted.
func recordingSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(recordingSchemaPath)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource(recordingSchemaPath, doc))
	sch, err := c.Compile(recordingSchemaPath)
	require.NoError(t, err)
	return sch
}

// validateRecording validates a recording's JSON form against the schema.
func validateRecording(sch *jsonschema.Schema, b []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// schemaPartsTool answers with content of every part type: text, JSON,
// a text resource, a binary resource and an image.
func schemaPartsTool() *registry.Tool {
	return registry.MustDefine(registry.RawSpec{
		Name:        "parts",
		Description: "Answers with content of every part type.",
		Parallel:    true,
		Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
			return map[string]any{"ok": true}, nil
		},
		ProjectContent: func(json.RawMessage, any) []registry.Part {
			return []registry.Part{
				registry.TextPart("some text"),
				registry.JSONPart(json.RawMessage(`{"a":[1,2]}`)),
				registry.ResourcePart("file:///notes.txt", "text/plain", "notes"),
				{Type: registry.PartResource, URI: "file:///blob.bin", MimeType: "application/octet-stream", Data: []byte{0, 1, 2}},
				registry.ImagePart("image/gif", []byte("GIF89a")),
			}
		},
	})
}

// schemaRuns are the runs whose recordings the schema must accept.
func schemaRuns() []struct {
	name    string
	limits  host.Limits
	tools   func() []*registry.Tool
	program string
	opts    ptc.RunOptions
	check   func(t *testing.T, r *ptc.Result)
} {
	slow := func() *registry.Tool {
		return rawTool("slow", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Second):
				return "late", nil
			}
		})
	}
	failing := func() *registry.Tool {
		return rawTool("failing", registry.Parallel, func(context.Context, json.RawMessage) (any, error) {
			return nil, errors.New("the service is down")
		})
	}
	echo := func() *registry.Tool {
		return rawTool("echo", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
			time.Sleep(5 * time.Millisecond)
			return a, nil
		})
	}
	return []struct {
		name    string
		limits  host.Limits
		tools   func() []*registry.Tool
		program string
		opts    ptc.RunOptions
		check   func(t *testing.T, r *ptc.Result)
	}{
		{name: "fan-out and timers, deterministic",
			tools: func() []*registry.Tool { return []*registry.Tool{echo()} },
			program: `const rs = await Promise.all([1, 2, 3].map(n => tools.echo({n})))
await new Promise(r => setTimeout(r, 20))
console.log(new Date().toISOString(), Math.random(), crypto.randomUUID(), performance.now())
return rs`,
			opts: ptc.RunOptions{Record: true, Deterministic: &ptc.Deterministic{Seed: 9}},
			check: func(t *testing.T, r *ptc.Result) {
				require.True(t, r.Recording.Virtual)
				require.Len(t, r.Recording.Calls, 3)
			}},
		{name: "fan-out, live clock",
			tools:   func() []*registry.Tool { return []*registry.Tool{echo()} },
			program: `const rs = await Promise.all(["a", "b"].map(k => tools.echo({k}))); console.log(Date.now() > 0); return rs`,
			opts:    ptc.RunOptions{Record: true}},
		{name: "images",
			tools: func() []*registry.Tool {
				return []*registry.Tool{imageTool("picture", func(a json.RawMessage) any { return "a picture" }), schemaPartsTool()}
			},
			program: `const a = await tools.picture({}); const b = await tools.picture({again: true}); const c = await tools.parts({}); return [a, b, c]`,
			opts:    ptc.RunOptions{Record: true},
			check: func(t *testing.T, r *ptc.Result) {
				b, err := json.Marshal(r.Recording)
				require.NoError(t, err)
				var w struct {
					Images map[string]json.RawMessage `json:"images"`
				}
				require.NoError(t, json.Unmarshal(b, &w))
				require.Len(t, w.Images, 2, "each image's bytes once")
				require.Contains(t, string(b), `"type":"resource"`)
			}},
		{name: "failing call",
			tools:   func() []*registry.Tool { return []*registry.Tool{failing()} },
			program: `try { await tools.failing({}) } catch (e) { console.log(e.code) }; await tools.failing({x: 1})`,
			opts:    ptc.RunOptions{Record: true, Deterministic: &ptc.Deterministic{}},
			check: func(t *testing.T, r *ptc.Result) {
				require.True(t, r.IsError)
				require.Equal(t, host.KindException, r.Recording.Kind)
				require.Len(t, r.Recording.Calls, 2)
				require.False(t, r.Recording.Calls[0].OK)
				require.Equal(t, "TOOL_FAILED", r.Recording.Calls[0].Code)
			}},
		{name: "timeout",
			limits:  host.Limits{Timeout: 300 * time.Millisecond},
			tools:   func() []*registry.Tool { return []*registry.Tool{slow()} },
			program: `const p = tools.slow({}); await new Promise(r => setTimeout(r, 10)); console.log("waiting"); return await p`,
			opts:    ptc.RunOptions{Record: true},
			check: func(t *testing.T, r *ptc.Result) {
				require.Equal(t, host.KindTimeout, r.Recording.Kind)
				require.Len(t, r.Recording.Calls, 1)
				require.False(t, r.Recording.Calls[0].Done)
			}},
		{name: "syntax error",
			program: `return (`,
			opts:    ptc.RunOptions{Record: true}},
		{name: "no output",
			program: `const x = 1`,
			opts:    ptc.RunOptions{Record: true, Deterministic: &ptc.Deterministic{Start: time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC), Seed: 1 << 60}}},
	}
}

// Every recording the library writes is valid against the schema, and
// reads back.
func TestRecordingSchema_valid(t *testing.T) {
	sch := recordingSchema(t)
	for _, c := range schemaRuns() {
		t.Run(c.name, func(t *testing.T) {
			var tools []*registry.Tool
			if c.tools != nil {
				tools = c.tools()
			}
			f := newFixture(t, c.limits, tools...)
			r, err := f.ex.Run(context.Background(), c.program, c.opts)
			require.NoError(t, err)
			require.NotNil(t, r.Recording)
			if c.check != nil {
				c.check(t, r)
			}
			b, err := json.Marshal(r.Recording)
			require.NoError(t, err)
			require.NoError(t, validateRecording(sch, b), "%s", b)
			_, err = recording.Decode(b)
			require.NoError(t, err)
		})
	}
}

// The schema refuses what DecodeRecording refuses by its form: a missing
// member, another version, a malformed seed or digest, an unknown member.
func TestRecordingSchema_invalid(t *testing.T) {
	sch := recordingSchema(t)
	f := newFixture(t, host.Limits{}, imageTool("picture", func(json.RawMessage) any { return "p" }))
	r, err := f.ex.Run(context.Background(), `return await tools.picture({})`, ptc.RunOptions{Record: true})
	require.NoError(t, err)
	base, err := json.Marshal(r.Recording)
	require.NoError(t, err)
	require.NoError(t, validateRecording(sch, base))

	for _, c := range []struct {
		name string
		edit func(m map[string]json.RawMessage)
		want string
	}{
		{"missing program", func(m map[string]json.RawMessage) { delete(m, "program") }, "program"},
		{"version 2", func(m map[string]json.RawMessage) { m["version"] = json.RawMessage("2") }, "version"},
		{"short seed", func(m map[string]json.RawMessage) { m["seed"] = json.RawMessage(`"abcd"`) }, "seed"},
		{"bad digest", func(m map[string]json.RawMessage) { m["declarationsSha256"] = json.RawMessage(`"XYZ"`) }, "declarationsSha256"},
		{"unknown member", func(m map[string]json.RawMessage) { m["extra"] = json.RawMessage(`1`) }, "extra"},
		{"call numbered from 0", func(m map[string]json.RawMessage) {
			m["calls"] = json.RawMessage(strings.Replace(string(m["calls"]), `"seq":1`, `"seq":0`, 1))
		}, "seq"},
		{"image part with its data inline", func(m map[string]json.RawMessage) {
			m["result"] = json.RawMessage(strings.Replace(string(m["result"]), `"sha256":`, `"data":`, 1))
		}, "result"},
		{"unknown result kind", func(m map[string]json.RawMessage) {
			m["result"] = json.RawMessage(strings.Replace(string(m["result"]), `"kind":"ok"`, `"kind":"fine"`, 1))
		}, "kind"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(base, &m))
			c.edit(m)
			b, err := json.Marshal(m)
			require.NoError(t, err)
			err = validateRecording(sch, b)
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

// Every member the schema names says what it is.
func TestRecordingSchema_described(t *testing.T) {
	b, err := os.ReadFile(recordingSchemaPath)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(b, &doc))
	var walk func(path string, v any)
	n := 0
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					pm, ok := p.(map[string]any)
					require.True(t, ok, "%s.%s", path, name)
					d, _ := pm["description"].(string)
					require.NotEmpty(t, d, "%s.properties.%s has no description", path, name)
					n++
				}
			}
			for k, x := range v {
				if k == "if" { // a condition, not members
					continue
				}
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	walk("$", doc)
	require.Greater(t, n, 50)
}
