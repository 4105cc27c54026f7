package ptceino_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/ptchost/ptc"
	ptceino "github.com/ptchost/ptc/bridge/eino"
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

func TestResult(t *testing.T) {
	got := marshal(t, ptceino.Result(&ptc.Result{Content: []registry.Part{
		registry.TextPart("a"), registry.TextPart(""), registry.JSONPart(json.RawMessage(`{"b":1}`)),
		registry.ImagePart("image/gif", []byte("GIF89a")), registry.TextPart("c"),
	}}))
	want := `{"parts":[{"type":"text","text":"a\n{\"b\":1}"},{"type":"image","image":{"base64data":"R0lGODlh","mime_type":"image/gif"}},{"type":"text","text":"c"}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := marshal(t, ptceino.Result(nil)), `{"parts":[{"type":"text","text":"Error: the executor returned no result for this call"}]}`; got != want {
		t.Errorf("nil result: got %s, want %s", got, want)
	}
}

func TestInfo(t *testing.T) {
	info, err := ptceino.Info(registry.ToolSchema{Name: "get_sales", Description: "Sales.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string"},"all":{"type":"boolean"}},"required":["region"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	// Eino writes the keywords in its own order; the properties keep theirs.
	if got, want := marshal(t, js), `{"properties":{"region":{"type":"string"},"all":{"type":"boolean"}},"required":["region"],"type":"object"}`; info.Name != "get_sales" || info.Desc != "Sales." || got != want {
		t.Errorf("info %s %q, schema %s; want %s", info.Name, info.Desc, got, want)
	}
	if _, err := ptceino.Info(registry.ToolSchema{Name: "x", Parameters: json.RawMessage(`[`)}); err == nil || !strings.Contains(err.Error(), `tool "x"`) {
		t.Errorf("a bad schema: %v", err)
	}
}

// store is an in-memory checkpoint store.
type store struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *store) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[id]
	return b, ok, nil
}

func (s *store) Set(_ context.Context, id string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[id] = b
	return nil
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
// calls each tool saw.
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

// drain returns the events of iter: the interrupt, if any, and the last
// assistant text; an event's error fails t.
func drain(t *testing.T, iter *adk.AsyncIterator[*adk.AgentEvent]) (interrupt *adk.InterruptInfo, answer string) {
	t.Helper()
	for {
		event, ok := iter.Next()
		if !ok {
			return interrupt, answer
		}
		if event.Err != nil {
			t.Fatalf("event error: %v", event.Err)
		}
		if event.Action != nil && event.Action.Interrupted != nil {
			interrupt = event.Action.Interrupted
		}
		if out := event.Output; out != nil && out.MessageOutput != nil && out.MessageOutput.Role == schema.Assistant {
			answer = out.MessageOutput.Message.Content
		}
	}
}

// A batch of a failing program and one whose chart needs approval: the
// agent is interrupted with the approval, resumed with the decision, and
// the run goes on without calling any tool twice.
func TestBridge_Suspend(t *testing.T) {
	tests := []struct {
		name     string
		decision any
		charts   int    // render_chart's runs
		message  string // the second tool message
	}{
		{
			name:     "approved",
			decision: pipeline.Answer{Approved: true},
			charts:   1,
			message: "north: 42 units\nsouth: 35 units\nchart attached\nImage from render_chart (call 3):\n" +
				"[image image/png 76 bytes not shown: a text tool result holds no images (the bridge's EnhancedTools send them)]",
		},
		{
			name:     "denied",
			decision: &pipeline.Answer{Reason: "not today"},
			message:  "Error: code run failed (exception): ToolError: not today\n\nCaptured output:\nnorth: 42 units\nsouth: 35 units",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ex, seen := askingExecutor(t)
			br := ptceino.New(ex)
			br.Suspend = true
			tools, err := br.Tools()
			if err != nil {
				t.Fatal(err)
			}
			chat := &scripted{turns: []*schema.Message{
				schema.AssistantMessage("", []schema.ToolCall{
					call("c1", "run_code", `return (await tools.get_sales({region: "east"})).units`),
					call("c2", "run_code", salesProgram),
				}),
				schema.AssistantMessage("done", nil),
			}}
			agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
				Name: "analyst", Description: "Answers questions about sales.", Model: chat,
				ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
			})
			if err != nil {
				t.Fatal(err)
			}
			runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: &store{m: map[string][]byte{}}})

			interrupt, _ := drain(t, runner.Query(ctx, "Sales of the east, and a chart", adk.WithCheckPointID("cp")))
			if interrupt == nil {
				t.Fatal("no interrupt")
			}
			var id string
			var approval *ptceino.Approval
			for _, ic := range interrupt.InterruptContexts {
				if ic.IsRootCause {
					id, approval = ic.ID, ic.Info.(*ptceino.Approval)
				}
			}
			want := &ptceino.Approval{Tool: "render_chart", Arguments: `{"title":"Weekly units","series":[{"name":"north","values":[12,9,8,13]},{"name":"south","values":[7,8,11,9]}]}`,
				Question: "may the program render a chart?", Call: 3}
			if marshal(t, approval) != marshal(t, want) {
				t.Fatalf("approval %+v, want %+v", approval, want)
			}
			if seen.get("get_sales") != 3 || seen.get("render_chart") != 0 {
				t.Fatalf("before resuming: get_sales ran %d times, render_chart %d; want 3, 0", seen.get("get_sales"), seen.get("render_chart"))
			}

			iter, err := runner.ResumeWithParams(ctx, "cp", &adk.ResumeParams{Targets: map[string]any{id: tt.decision}})
			if err != nil {
				t.Fatal(err)
			}
			if interrupt, answer := drain(t, iter); interrupt != nil || answer != "done" {
				t.Fatalf("after resuming: interrupt %v, answer %q", interrupt, answer)
			}
			// The lookups were answered from the continuation: no tool saw
			// a call twice, and the chart's call went on with the decision.
			if seen.get("get_sales") != 3 || seen.get("render_chart") != tt.charts {
				t.Errorf("after resuming: get_sales ran %d times, render_chart %d; want 3, %d", seen.get("get_sales"), seen.get("render_chart"), tt.charts)
			}
			sent := chat.sent(1)
			if len(sent) != 2 {
				t.Fatalf("the model was sent %d tool messages, want 2", len(sent))
			}
			if sent[0].ToolCallID != "c1" || !strings.HasPrefix(sent[0].Content, "Error: code run failed (exception): ToolError: no region east") {
				t.Errorf("the failing call's message: %s %q", sent[0].ToolCallID, sent[0].Content)
			}
			if sent[1].ToolCallID != "c2" || sent[1].Content != tt.message {
				t.Errorf("the chart call's message: %s %q\nwant %q", sent[1].ToolCallID, sent[1].Content, tt.message)
			}
		})
	}
}

// Without Suspend, an ask waits for the Approver, as on the other
// bridges.
func TestBridge_Approver(t *testing.T) {
	ex, _ := askingExecutor(t)
	br := ptceino.New(ex)
	var asked []string
	br.Approver = func(_ context.Context, inv *pipeline.Invocation, q string) (pipeline.Answer, error) {
		asked = append(asked, inv.Name())
		return pipeline.Answer{Reason: "no charts"}, nil
	}
	tools, err := br.Tools()
	if err != nil {
		t.Fatal(err)
	}
	out, err := tools[0].(tool.InvokableTool).InvokableRun(context.Background(), `{"code":"try { await tools.render_chart({title: \"t\", series: []}) } catch (e) { return e.code + \": \" + e.message }"}`)
	if err != nil || out != "DENIED: no charts" || len(asked) != 1 {
		t.Errorf("out %q, err %v, asked %v", out, err, asked)
	}
}

// Suspend needs an executor that can suspend runs.
func TestBridge_SuspendNeedsExecutor(t *testing.T) {
	pipe, err := bridgetest.SalesPipeline()
	if err != nil {
		t.Fatal(err)
	}
	native, err := ptc.NewNativeExecutor(pipe)
	if err != nil {
		t.Fatal(err)
	}
	br := ptceino.New(native)
	br.Suspend = true
	tools, err := br.EnhancedTools()
	if err != nil {
		t.Fatal(err)
	}
	_, err = tools[0].(tool.EnhancedInvokableTool).InvokableRun(context.Background(), &schema.ToolArgument{Text: `{"region":"north"}`})
	if err == nil || !strings.Contains(err.Error(), "Suspend needs a *ptc.Executor") {
		t.Errorf("err = %v", err)
	}
}
