package ptcopenai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/ptchost/ptc"
	ptcopenai "github.com/ptchost/ptc/bridge/openai"
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

var (
	png  = registry.ImagePart("image/png", []byte{0x89, 'P'})
	mark = &registry.Attribution{Tool: "chart", Call: 2}
)

// attributed returns p marked as the PTC executor marks a subcall's image
// parts.
func attributed(p registry.Part) registry.Part {
	p.Attribution = mark
	return p
}

func TestChatMessages(t *testing.T) {
	calls := []pipeline.RawCall{{ID: "c1", Name: "run_code"}, {ID: "c2", Name: "snap"}}
	tests := []struct {
		name    string
		results []*ptc.Result
		want    string
	}{
		{
			name: "text only",
			results: []*ptc.Result{
				{Content: []registry.Part{registry.TextPart("a"), registry.TextPart("b")}},
				{IsError: true, Content: []registry.Part{registry.TextPart("Error: no")}},
			},
			want: `[{"content":"a\nb","tool_call_id":"c1","role":"tool"},{"content":"Error: no","tool_call_id":"c2","role":"tool"}]`,
		},
		{
			name: "attributed and native images",
			results: []*ptc.Result{
				{Content: []registry.Part{registry.TextPart("out"), attributed(registry.TextPart("Image from chart (call 2):")), attributed(png)}},
				{Content: []registry.Part{png, png}},
			},
			want: `[{"content":"out","tool_call_id":"c1","role":"tool"},` +
				`{"content":"(the result's images follow in the next message)","tool_call_id":"c2","role":"tool"},` +
				`{"content":[{"text":"Image from chart (call 2):","type":"text"},{"image_url":{"url":"data:image/png;base64,iVA="},"type":"image_url"},` +
				`{"text":"Image from snap (tool call c2):","type":"text"},{"image_url":{"url":"data:image/png;base64,iVA="},"type":"image_url"},{"image_url":{"url":"data:image/png;base64,iVA="},"type":"image_url"}],"role":"user"}]`,
		},
		{
			name: "unsupported image, missing result",
			results: []*ptc.Result{
				{Content: []registry.Part{registry.ImagePart("image/tiff", []byte("II*"))}},
			},
			want: `[{"content":"[image image/tiff 3 bytes not shown: the API takes PNG, JPEG, GIF and WebP images]","tool_call_id":"c1","role":"tool"},` +
				`{"content":"Error: the executor returned no result for this call","tool_call_id":"c2","role":"tool"}]`,
		},
		{
			name:    "empty",
			results: []*ptc.Result{{}, {Content: []registry.Part{registry.TextPart("")}}},
			want:    `[{"content":"(no content)","tool_call_id":"c1","role":"tool"},{"content":"(no content)","tool_call_id":"c2","role":"tool"}]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := marshal(t, ptcopenai.ChatMessages(calls, tt.results)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestResponseOutputs(t *testing.T) {
	calls := []pipeline.RawCall{{ID: "c1", Name: "run_code"}, {ID: "c2", Name: "snap"}}
	got := marshal(t, ptcopenai.ResponseOutputs(calls, []*ptc.Result{
		{Content: []registry.Part{registry.TextPart("a"), registry.JSONPart(json.RawMessage(`{"n":1}`))}},
		{Content: []registry.Part{registry.TextPart("b"), attributed(registry.TextPart("Image from chart (call 2):")), attributed(png), registry.ImagePart("image/bmp", []byte("BM"))}},
	}))
	want := `[{"output":"a\n{\"n\":1}","call_id":"c1","type":"function_call_output"},` +
		`{"output":[{"text":"b","type":"input_text"},{"text":"Image from chart (call 2):","type":"input_text"},` +
		`{"image_url":"data:image/png;base64,iVA=","type":"input_image"},` +
		`{"text":"[image image/bmp 2 bytes not shown: the API takes PNG, JPEG, GIF and WebP images]","type":"input_text"}],"call_id":"c2","type":"function_call_output"}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestChatCalls(t *testing.T) {
	var c openai.ChatCompletion
	if err := json.Unmarshal([]byte(`{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[
		{"id":"a","type":"function","function":{"name":"run_code","arguments":"{\"code\":\"return 1\"}"}},
		{"id":"b","type":"function","function":{"name":"get_sales","arguments":""}}]}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	got := marshal(t, ptcopenai.ChatCalls(c.Choices[0].Message))
	want := marshal(t, []pipeline.RawCall{
		{ID: "a", Name: "run_code", Arguments: json.RawMessage(`{"code":"return 1"}`)},
		{ID: "b", Name: "get_sales", Arguments: json.RawMessage(`{}`)},
	})
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestResponseCalls(t *testing.T) {
	var r responses.Response
	if err := json.Unmarshal([]byte(`{"id":"r","object":"response","output":[
		{"type":"reasoning","id":"rs","summary":[]},
		{"type":"function_call","id":"fc","call_id":"a","name":"run_code","arguments":"{\"code\":\"return 1\"}","status":"completed"}]}`), &r); err != nil {
		t.Fatal(err)
	}
	got := marshal(t, ptcopenai.ResponseCalls(r.Output))
	want := marshal(t, []pipeline.RawCall{{ID: "a", Name: "run_code", Arguments: json.RawMessage(`{"code":"return 1"}`)}})
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := marshal(t, ptcopenai.ResponseInput(r.Output)), `[{"type":"reasoning","id":"rs","summary":[]},{"type":"function_call","id":"fc","call_id":"a","name":"run_code","arguments":"{\"code\":\"return 1\"}","status":"completed"}]`; got != want {
		t.Errorf("ResponseInput: got  %s\nwant %s", got, want)
	}
}

func TestTools(t *testing.T) {
	schemas := []registry.ToolSchema{
		{Name: "a", Description: "A.", Parameters: json.RawMessage(`{"type":"object","properties":{"z":{"type":"string"},"b":{"type":"number"}}}`)},
		{Name: "b", DeferLoading: true},
	}
	if got, want := marshal(t, ptcopenai.ChatTools(schemas...)),
		`[{"function":{"name":"a","description":"A.","parameters":{"properties":{"z":{"type":"string"},"b":{"type":"number"}},"type":"object"}},"type":"function"},`+
			`{"function":{"name":"b","parameters":{"properties":{},"type":"object"}},"type":"function"}]`; got != want {
		t.Errorf("ChatTools: got  %s\nwant %s", got, want)
	}
	if got, want := marshal(t, ptcopenai.ResponseTools(schemas...)),
		`[{"strict":false,"parameters":{"properties":{"z":{"type":"string"},"b":{"type":"number"}},"type":"object"},"name":"a","description":"A.","type":"function"},`+
			`{"strict":false,"parameters":{"properties":{},"type":"object"},"name":"b","defer_loading":true,"type":"function"}]`; got != want {
		t.Errorf("ResponseTools: got  %s\nwant %s", got, want)
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
	var _ ptcopenai.Executor = (*ptc.Executor)(nil)
	var _ ptcopenai.Executor = (*ptc.NativeExecutor)(nil)
	var _ ptcopenai.Executor = (*ptc.Mounts)(nil)

	f := &fake{}
	br := ptcopenai.New(f)
	if answer := br.AnswerChat(context.Background(), openai.ChatCompletionMessage{Content: "done"}); answer != nil {
		t.Error("AnswerChat: an answer for a message without tool calls")
	}
	if outputs := br.AnswerResponse(context.Background(), &responses.Response{}); outputs != nil {
		t.Error("AnswerResponse: outputs for a response without function calls")
	}
	if f.batches != 0 {
		t.Errorf("%d batches ran, want 0", f.batches)
	}
	var c openai.ChatCompletion
	if err := json.Unmarshal([]byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[
		{"id":"a","type":"function","function":{"name":"x","arguments":"{}"}},
		{"id":"b","type":"function","function":{"name":"y","arguments":"{}"}}]}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	answer := br.AnswerChat(context.Background(), c.Choices[0].Message)
	if answer == nil || f.batches != 1 {
		t.Fatalf("answer %v, %d batches; want one, 1", answer, f.batches)
	}
	if got, want := marshal(t, answer), `[{"content":"x","tool_call_id":"a","role":"tool"},{"content":"y","tool_call_id":"b","role":"tool"}]`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
