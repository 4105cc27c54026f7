package ptcgenkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/ptchost/ptc"
	ptcgenkit "github.com/ptchost/ptc/bridge/genkit"
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
	got := marshal(t, ptcgenkit.Response(&ptc.Result{Content: []registry.Part{
		registry.TextPart("a"), registry.ImagePart("image/gif", []byte("GIF89a")), registry.JSONPart(json.RawMessage(`{"b":1}`)),
	}}))
	want := `{"content":[{"media":{"contentType":"image/gif","url":"data:image/gif;base64,R0lGODlh"}}],"output":"a\n{\"b\":1}"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := marshal(t, ptcgenkit.Response(nil)), `{"output":"Error: the executor returned no result for this call"}`; got != want {
		t.Errorf("nil result: got %s, want %s", got, want)
	}
}

// counter counts the calls each tool's body ran.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// askingExecutor returns an executor over the sales tools whose
// render_chart asks for approval, able to suspend, and the counts of the
// calls each tool ran.
func askingExecutor(t *testing.T) (*ptc.Executor, *counter) {
	t.Helper()
	pipe, err := bridgetest.SalesPipeline()
	if err != nil {
		t.Fatal(err)
	}
	c := &counter{n: map[string]int{}}
	pipe.Wrap(func(ctx context.Context, inv *pipeline.Invocation, next func(context.Context) (any, error)) (any, error) {
		c.mu.Lock()
		c.n[inv.Name()]++
		c.mu.Unlock()
		return next(ctx)
	})
	pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		if inv.Name() == "render_chart" {
			return pipeline.Ask("may the program render a chart?")
		}
		return d
	})
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, ContinuationKey: []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close(context.Background()) })
	return ex, c
}

// responses returns the tool responses of msgs by ref, as their output
// text and the number of media parts.
func responses(msgs []*ai.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		for _, p := range m.Content {
			if p.IsToolResponse() {
				out[p.ToolResponse.Ref] = fmt.Sprintf("%v (%d media)", p.ToolResponse.Output, len(p.ToolResponse.Content))
			}
		}
	}
	return out
}

// A batch of a failing program and one whose chart needs approval: the
// generation is interrupted with the approval, restarted with the
// decision, and the run goes on without calling any tool twice.
func TestBridge_Suspend(t *testing.T) {
	tests := []struct {
		name     string
		decision pipeline.Answer
		charts   int    // render_chart's runs
		output   string // the chart call's response
	}{
		{
			name:     "approved",
			decision: pipeline.Answer{Approved: true},
			charts:   1,
			// Genkit keeps only a restarted tool's output: the image is
			// not sent (see the package doc).
			output: "north: 42 units\nsouth: 35 units\nchart attached\nImage from render_chart (call 3): (0 media)",
		},
		{
			name:     "denied",
			decision: pipeline.Answer{Reason: "not today"},
			output:   "Error: code run failed (exception): ToolError: not today\n\nCaptured output:\nnorth: 42 units\nsouth: 35 units (0 media)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ex, seen := askingExecutor(t)
			br := ptcgenkit.New(ex)
			br.Suspend = true
			tools, err := br.Tools()
			if err != nil {
				t.Fatal(err)
			}
			g := genkit.Init(ctx)
			m := scripted(g, "test/"+tt.name,
				toolRequests(runCode("c1", `return (await tools.get_sales({region: "east"})).units`), runCode("c2", salesProgram)),
				ai.NewModelTextMessage("done"))

			resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithTools(tools...), ai.WithPrompt("Sales of the east, and a chart"))
			if err != nil {
				t.Fatal(err)
			}
			interrupts := resp.Interrupts()
			if resp.FinishReason != ai.FinishReasonInterrupted || len(interrupts) != 1 {
				t.Fatalf("finish %q with %d interrupts; want interrupted, 1", resp.FinishReason, len(interrupts))
			}
			a, ok := ai.InterruptAs[ptcgenkit.Approval](interrupts[0])
			if !ok || a.Tool != "render_chart" || a.Question != "may the program render a chart?" || a.Call != 3 || len(a.Continuation) == 0 ||
				string(a.Arguments) != `{"series":[{"name":"north","values":[12,9,8,13]},{"name":"south","values":[7,8,11,9]}],"title":"Weekly units"}` {
				t.Fatalf("approval %+v", a)
			}
			if seen.get("get_sales") != 3 || seen.get("render_chart") != 0 {
				t.Fatalf("before restarting: get_sales ran %d times, render_chart %d; want 3, 0", seen.get("get_sales"), seen.get("render_chart"))
			}

			restart, err := br.Restart(interrupts[0], tt.decision)
			if err != nil {
				t.Fatal(err)
			}
			resp, err = genkit.Generate(ctx, g, ai.WithModel(m), ai.WithTools(tools...), ai.WithMessages(resp.History()...), ai.WithToolRestarts(restart))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text() != "done" {
				t.Fatalf("after restarting: finish %q, text %q", resp.FinishReason, resp.Text())
			}
			// The lookups were answered from the continuation: no tool
			// ran twice, and the chart's call went on with the decision.
			if seen.get("get_sales") != 3 || seen.get("render_chart") != tt.charts {
				t.Errorf("after restarting: get_sales ran %d times, render_chart %d; want 3, %d", seen.get("get_sales"), seen.get("render_chart"), tt.charts)
			}
			got := responses(m.sent(1))
			if !strings.HasPrefix(got["c1"], "Error: code run failed (exception): ToolError: no region east") {
				t.Errorf("the failing call's response: %q", got["c1"])
			}
			if got["c2"] != tt.output {
				t.Errorf("the chart call's response: %q\nwant %q", got["c2"], tt.output)
			}
		})
	}
}

// Without Suspend, an ask waits for the Approver, as on the other
// bridges.
func TestBridge_Approver(t *testing.T) {
	ctx := context.Background()
	ex, seen := askingExecutor(t)
	br := ptcgenkit.New(ex)
	var mu sync.Mutex
	var asked []string
	br.Approver = func(_ context.Context, inv *pipeline.Invocation, q string) (pipeline.Answer, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, inv.Name())
		return pipeline.Answer{Approved: true}, nil
	}
	tools, err := br.Tools()
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(ctx)
	m := scripted(g, "test/approver", toolRequests(runCode("c1", salesProgram)), ai.NewModelTextMessage("done"))
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithTools(tools...), ai.WithPrompt("Chart the sales"))
	if err != nil {
		t.Fatal(err)
	}
	want := "north: 42 units\nsouth: 35 units\nchart attached\nImage from render_chart (call 3): (1 media)"
	if got := responses(m.sent(1))["c1"]; resp.Text() != "done" || got != want || len(asked) != 1 || seen.get("render_chart") != 1 {
		t.Errorf("text %q, response %q, asked %v", resp.Text(), got, asked)
	}
}

// Suspend needs an executor that can suspend runs, and Restart an
// interrupt of a suspended run.
func TestBridge_misuse(t *testing.T) {
	ctx := context.Background()
	pipe, err := bridgetest.SalesPipeline()
	if err != nil {
		t.Fatal(err)
	}
	native, err := ptc.NewNativeExecutor(pipe)
	if err != nil {
		t.Fatal(err)
	}
	br := ptcgenkit.New(native)
	br.Suspend = true
	tools, err := br.Tools()
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(ctx)
	m := scripted(g, "test/native", toolRequests(ai.NewToolRequestPart(&ai.ToolRequest{Name: "get_sales", Input: map[string]any{"region": "north"}})))
	_, err = genkit.Generate(ctx, g, ai.WithModel(m), ai.WithTools(tools...), ai.WithPrompt("north"))
	if err == nil || !strings.Contains(err.Error(), "Suspend needs a *ptc.Executor") {
		t.Errorf("err = %v", err)
	}
	if _, err := br.Restart(runCode("c1", "return 1"), pipeline.Answer{Approved: true}); err == nil {
		t.Error("Restart of a tool request that was not interrupted: no error")
	}
}
