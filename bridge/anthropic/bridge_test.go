package ptcanthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/ptchost/ptc"
	ptcanthropic "github.com/ptchost/ptc/bridge/anthropic"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// marshal returns v's JSON or fails t.
func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestToolResult(t *testing.T) {
	tests := []struct {
		name   string
		result *ptc.Result
		want   string
	}{
		{
			name:   "text",
			result: &ptc.Result{Content: []registry.Part{registry.TextPart("42")}},
			want:   `{"tool_use_id":"t1","content":[{"text":"42","type":"text"}],"type":"tool_result"}`,
		},
		{
			name:   "error",
			result: &ptc.Result{IsError: true, Content: []registry.Part{registry.TextPart("Error: code run failed (syntax): x")}},
			want:   `{"tool_use_id":"t1","is_error":true,"content":[{"text":"Error: code run failed (syntax): x","type":"text"}],"type":"tool_result"}`,
		},
		{
			name:   "image",
			result: &ptc.Result{Content: []registry.Part{registry.ImagePart("image/jpeg", []byte{0xff, 0xd8})}},
			want:   `{"tool_use_id":"t1","content":[{"source":{"data":"/9g=","media_type":"image/jpeg","type":"base64"},"type":"image"}],"type":"tool_result"}`,
		},
		{
			name:   "unsupported image type",
			result: &ptc.Result{Content: []registry.Part{registry.ImagePart("image/svg+xml", []byte("<svg/>"))}},
			want:   `{"tool_use_id":"t1","content":[{"text":"[image image/svg+xml 6 bytes not shown: the API takes JPEG, PNG, GIF and WebP images]","type":"text"}],"type":"tool_result"}`,
		},
		{
			name:   "json and resource",
			result: &ptc.Result{Content: []registry.Part{registry.JSONPart(json.RawMessage(`{"a":1}`)), registry.ResourcePart("file:///a", "", "")}},
			want:   `{"tool_use_id":"t1","content":[{"text":"{\"a\":1}","type":"text"},{"text":"[resource file:///a]","type":"text"}],"type":"tool_result"}`,
		},
		{
			name:   "empty text dropped",
			result: &ptc.Result{Content: []registry.Part{registry.TextPart("")}},
			want:   `{"tool_use_id":"t1","type":"tool_result"}`,
		},
		{
			name: "nil result",
			want: `{"tool_use_id":"t1","is_error":true,"content":[{"text":"Error: the executor returned no result for this call","type":"text"}],"type":"tool_result"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := marshal(t, ptcanthropic.ToolResult("t1", tt.result)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCalls(t *testing.T) {
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(`{"id":"m","type":"message","role":"assistant","model":"m","content":[
		{"type":"text","text":"thinking aloud"},
		{"type":"tool_use","id":"a","name":"run_code","input":{"code":"return 1"}},
		{"type":"tool_use","id":"b","name":"get_sales","input":{}}
	],"stop_reason":"tool_use"}`), &msg); err != nil {
		t.Fatal(err)
	}
	got := ptcanthropic.Calls(msg.Content)
	want := []pipeline.RawCall{
		{ID: "a", Name: "run_code", Arguments: json.RawMessage(`{"code":"return 1"}`)},
		{ID: "b", Name: "get_sales", Arguments: json.RawMessage(`{}`)},
	}
	if marshal(t, got) != marshal(t, want) {
		t.Errorf("got %s, want %s", marshal(t, got), marshal(t, want))
	}
}

func TestTools(t *testing.T) {
	got := marshal(t, ptcanthropic.Tools(
		registry.ToolSchema{Name: "a", Description: "A.", Parameters: json.RawMessage(`{"type":"object","properties":{"z":{"type":"string"},"b":{"type":"number"}}}`)},
		registry.ToolSchema{Name: "b", DeferLoading: true},
	))
	want := `[{"input_schema":{"type":"object","properties":{"z":{"type":"string"},"b":{"type":"number"}}},"name":"a","description":"A."},` +
		`{"input_schema":{"type":"object"},"name":"b","defer_loading":true}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// fake answers every call with its name, and counts batches.
type fake struct{ batches int }

func (f *fake) Describe(registry.Scope, *registry.ToolSet) []registry.ToolSchema { return nil }

func (f *fake) Execute(_ context.Context, b pipeline.Batch) []*ptc.Result {
	f.batches++
	rs := make([]*ptc.Result, len(b.Calls))
	for i, c := range b.Calls {
		rs[i] = &ptc.Result{Content: []registry.Part{registry.TextPart(c.Name)}}
	}
	return rs
}

func TestBridge_Answer(t *testing.T) {
	var _ ptcanthropic.Executor = (*ptc.Executor)(nil)
	var _ ptcanthropic.Executor = (*ptc.NativeExecutor)(nil)
	var _ ptcanthropic.Executor = (*ptc.Mounts)(nil)

	f := &fake{}
	br := ptcanthropic.New(f)
	text := &anthropic.Message{Content: []anthropic.ContentBlockUnion{{Type: "text", Text: "done"}}}
	if answer := br.Answer(context.Background(), text); answer != nil || f.batches != 0 {
		t.Fatalf("a text reply: answer %v, %d batches; want nil, 0", answer, f.batches)
	}
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(`{"content":[
		{"type":"tool_use","id":"a","name":"x","input":{}},
		{"type":"tool_use","id":"b","name":"y","input":{}}]}`), &msg); err != nil {
		t.Fatal(err)
	}
	answer := br.Answer(context.Background(), &msg)
	if answer == nil || f.batches != 1 {
		t.Fatalf("answer %v, %d batches; want one, 1", answer, f.batches)
	}
	want := `{"content":[{"tool_use_id":"a","content":[{"text":"x","type":"text"}],"type":"tool_result"},` +
		`{"tool_use_id":"b","content":[{"text":"y","type":"text"}],"type":"tool_result"}],"role":"user"}`
	if got := marshal(t, answer); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
