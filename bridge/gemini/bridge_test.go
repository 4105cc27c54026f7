package ptcgemini_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"google.golang.org/genai"

	"github.com/ptchost/ptc"
	ptcgemini "github.com/ptchost/ptc/bridge/gemini"
	"github.com/ptchost/ptc/internal/bridgetest"
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

func TestResponse(t *testing.T) {
	call := pipeline.RawCall{ID: "c1", Name: "run_code"}
	tests := []struct {
		name   string
		result *ptc.Result
		want   string
	}{
		{
			name:   "text",
			result: &ptc.Result{Content: []registry.Part{registry.TextPart("a"), registry.TextPart("b")}},
			want:   `{"functionResponse":{"id":"c1","name":"run_code","response":{"output":"a\nb"}}}`,
		},
		{
			name:   "error",
			result: &ptc.Result{IsError: true, Content: []registry.Part{registry.TextPart("Error: code run failed (syntax): x")}},
			want:   `{"functionResponse":{"id":"c1","name":"run_code","response":{"error":"Error: code run failed (syntax): x"}}}`,
		},
		{
			name: "images",
			result: &ptc.Result{Content: []registry.Part{
				registry.TextPart("Image from snap (call 1):"),
				registry.ImagePart("image/jpeg", []byte{0xff, 0xd8}),
				registry.ImagePart("image/webp", []byte{'R'}),
			}},
			want: `{"functionResponse":{"parts":[{"inlineData":{"mimeType":"image/jpeg","data":"/9g=","displayName":"image-1"}},` +
				`{"inlineData":{"mimeType":"image/webp","data":"Ug==","displayName":"image-2"}}],"id":"c1","name":"run_code","response":{"output":"Image from snap (call 1):"}}}`,
		},
		{
			name:   "unsupported image type",
			result: &ptc.Result{Content: []registry.Part{registry.ImagePart("image/gif", []byte("GIF89a"))}},
			want:   `{"functionResponse":{"id":"c1","name":"run_code","response":{"output":"[image image/gif 6 bytes not shown: the API takes PNG, JPEG and WebP images]"}}}`,
		},
		{
			name: "nil result",
			want: `{"functionResponse":{"id":"c1","name":"run_code","response":{"error":"Error: the executor returned no result for this call"}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := marshal(t, ptcgemini.Response(call, tt.result)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCalls(t *testing.T) {
	var c genai.Content
	if err := json.Unmarshal([]byte(`{"role":"model","parts":[
		{"text":"thinking aloud"},
		{"functionCall":{"id":"a","name":"run_code","args":{"code":"return 1"}}},
		{"functionCall":{"name":"get_sales"}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	got := ptcgemini.Calls(&c)
	want := []pipeline.RawCall{
		{ID: "a", Name: "run_code", Arguments: json.RawMessage(`{"code":"return 1"}`)},
		{Name: "get_sales", Arguments: json.RawMessage(`{}`)},
	}
	if marshal(t, got) != marshal(t, want) {
		t.Errorf("got %s, want %s", marshal(t, got), marshal(t, want))
	}
	if got := ptcgemini.Calls(nil); got != nil {
		t.Errorf("Calls(nil) = %v", got)
	}
}

func TestTools(t *testing.T) {
	got := marshal(t, ptcgemini.Tools(
		registry.ToolSchema{Name: "run_code", Description: "Run.", Parameters: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}}}`)},
		registry.ToolSchema{Name: "get_sales"}, // a direct tool in hybrid mode
	))
	want := `[{"functionDeclarations":[{"description":"Run.","name":"run_code","parametersJsonSchema":{"type":"object","properties":{"code":{"type":"string"}}}},` +
		`{"name":"get_sales","parametersJsonSchema":{"type":"object"}}]}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := ptcgemini.Tools(); got != nil {
		t.Errorf("Tools() = %v, want nil", got)
	}
}

// server is a model behind the Gemini API's generateContent endpoint
// that answers with responses in turn and keeps the requests.
type server struct {
	responses []string

	mu       sync.Mutex
	requests []map[string]any
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req map[string]any
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == len(s.responses) {
		http.Error(w, "no more turns", http.StatusBadRequest)
		return
	}
	s.requests = append(s.requests, req)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, s.responses[len(s.requests)-1])
}

// client returns the SDK's client of a scripted server.
func client(t *testing.T, s *server) *genai.Client {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "test-key", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A failing program and one whose chart needs an approval, in one batch:
// the responses answer each call by its id, the failure under "error",
// the approved chart's image as inline data.
func TestBridge_Answer_failureAndApproval(t *testing.T) {
	ctx := context.Background()
	pipe, err := bridgetest.SalesPipeline()
	if err != nil {
		t.Fatal(err)
	}
	pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "render_chart" {
			return pipeline.Ask("may the program render a chart?")
		}
		return d
	})
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close(ctx)

	s := &server{responses: []string{
		`{"candidates":[{"content":{"role":"model","parts":[
			{"functionCall":{"id":"c1","name":"run_code","args":{"code":"return (await tools.get_sales({region: \"east\"})).units"}}},
			{"functionCall":{"id":"c2","name":"run_code","args":{"code":"return await tools.render_chart({title: \"t\", series: []})"}}}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"East has no sales; here is the chart."}]}}]}`,
	}}
	c := client(t, s)
	var asked []string
	br := ptcgemini.New(ex)
	br.Approver = func(_ context.Context, inv *pipeline.Invocation, q string) (pipeline.Answer, error) {
		asked = append(asked, inv.Name()+": "+q)
		return pipeline.Answer{Approved: true}, nil
	}
	config := &genai.GenerateContentConfig{Tools: br.Tools()}
	contents := genai.Text("East sales, and a chart")
	var final string
	for turn := 0; turn < 3 && final == ""; turn++ {
		resp, err := c.Models.GenerateContent(ctx, "gemini-3-flash-preview", contents, config)
		if err != nil {
			t.Fatal(err)
		}
		contents = append(contents, resp.Candidates[0].Content)
		answer := br.Answer(ctx, resp)
		if answer == nil {
			final = resp.Candidates[0].Content.Parts[0].Text
			break
		}
		contents = append(contents, answer)
	}
	if final != "East has no sales; here is the chart." || len(s.requests) != 2 {
		t.Fatalf("final %q after %d requests", final, len(s.requests))
	}
	if want := []string{"render_chart: may the program render a chart?"}; marshal(t, asked) != marshal(t, want) {
		t.Errorf("asked %v, want %v", asked, want)
	}
	sent := s.requests[1]["contents"].([]any)
	answer := sent[len(sent)-1].(map[string]any)
	if answer["role"] != "user" {
		t.Errorf("the answer's role is %v, want user", answer["role"])
	}
	parts := answer["parts"].([]any)
	if len(parts) != 2 {
		t.Fatalf("%d parts, want one response per call: %v", len(parts), parts)
	}
	failed := parts[0].(map[string]any)["functionResponse"].(map[string]any)
	errText, _ := failed["response"].(map[string]any)["error"].(string)
	if failed["id"] != "c1" || !strings.HasPrefix(errText, "Error: code run failed (exception): ToolError: no region east") {
		t.Errorf("the failed call's response: %v", failed)
	}
	chart := parts[1].(map[string]any)["functionResponse"].(map[string]any)
	out, _ := chart["response"].(map[string]any)["output"].(string)
	if chart["id"] != "c2" || out != "chart \"t\": 0 series\nImage from render_chart (call 1):" {
		t.Errorf("the chart call's response: %v", chart)
	}
	images, _ := chart["parts"].([]any)
	if len(images) != 1 || images[0].(map[string]any)["inlineData"].(map[string]any)["mimeType"] != "image/png" {
		t.Errorf("the chart's inline data: %v", images)
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
	var _ ptcgemini.Executor = (*ptc.Executor)(nil)
	var _ ptcgemini.Executor = (*ptc.NativeExecutor)(nil)
	var _ ptcgemini.Executor = (*ptc.Mounts)(nil)

	f := &fake{}
	br := ptcgemini.New(f)
	for _, resp := range []*genai.GenerateContentResponse{nil, {}, {Candidates: []*genai.Candidate{{Content: genai.NewContentFromText("done", genai.RoleModel)}}}} {
		if answer := br.Answer(context.Background(), resp); answer != nil || f.batches != 0 {
			t.Fatalf("no call: answer %v, %d batches; want nil, 0", answer, f.batches)
		}
	}
	resp := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: genai.NewContentFromParts([]*genai.Part{
		genai.NewPartFromFunctionCall("x", nil), genai.NewPartFromFunctionCall("y", map[string]any{"a": 1}),
	}, genai.RoleModel)}}}
	answer := br.Answer(context.Background(), resp)
	if answer == nil || f.batches != 1 {
		t.Fatalf("answer %v, %d batches; want one, 1", answer, f.batches)
	}
	want := `{"parts":[{"functionResponse":{"name":"x","response":{"output":"x"}}},{"functionResponse":{"name":"y","response":{"output":"y"}}}],"role":"user"}`
	if got := marshal(t, answer); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
