package ptcgenkit_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/ptchost/ptc"
	ptcgenkit "github.com/ptchost/ptc/bridge/genkit"
	"github.com/ptchost/ptc/internal/bridgetest"
)

// salesProgram fans out over get_sales and charts the result.
const salesProgram = `const regions = ["north", "south"];
const sales = await Promise.all(regions.map((region) => tools.get_sales({region})));
for (const s of sales) {
  console.log(` + "`${s.region}: ${s.units.reduce((a, b) => a + b, 0)} units`" + `);
}
await tools.render_chart({title: "Weekly units", series: sales.map((s) => ({name: s.region, values: s.units}))});
return "chart attached";`

// Example runs Genkit's generation loop with the executor's tools: a
// model defined with genkit.DefineModel and scripted to call run_code,
// the program run in ptc (two sales lookups at once and a chart that
// comes back as an image), and the model's answer in text.
func Example() {
	ctx := context.Background()
	pipe, err := bridgetest.SalesPipeline()
	if err != nil {
		fmt.Println(err)
		return
	}
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		fmt.Println(err) // the guest was not built
		return
	}
	defer ex.Close(ctx)

	g := genkit.Init(ctx)
	model := scripted(g, "test/analyst",
		toolRequests(runCode("call_1", salesProgram)),
		ai.NewModelTextMessage("The north sold 42 units and the south 35; the chart shows the north ahead every week but the third."))

	br := ptcgenkit.New(ex)
	tools, err := br.Tools() // run_code, whose description declares the tools
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(tools...),
		ai.WithPrompt("How did the north and south regions sell over the last four weeks? Chart it."))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, msg := range model.sent(1) {
		printTool(msg)
	}
	fmt.Println("answer:", resp.Text())
	// Output:
	// tool run_code:
	//   output: north: 42 units
	//   output: south: 35 units
	//   output: chart attached
	//   output: Image from render_chart (call 3):
	//   media: image/png, 76 bytes
	// answer: The north sold 42 units and the south 35; the chart shows the north ahead every week but the third.
}

// runCode returns a run_code tool request.
func runCode(ref, code string) *ai.Part {
	return ai.NewToolRequestPart(&ai.ToolRequest{Name: "run_code", Ref: ref, Input: map[string]any{"code": code}})
}

// toolRequests returns a model message of tool requests.
func toolRequests(parts ...*ai.Part) *ai.Message {
	return &ai.Message{Role: ai.RoleModel, Content: parts}
}

// printTool prints the tool responses of a message: the output's lines,
// then the media of its content.
func printTool(msg *ai.Message) {
	for _, p := range msg.Content {
		if !p.IsToolResponse() {
			continue
		}
		fmt.Printf("tool %s:\n", p.ToolResponse.Name)
		for _, line := range strings.Split(fmt.Sprint(p.ToolResponse.Output), "\n") {
			fmt.Println("  output:", line)
		}
		for _, c := range p.ToolResponse.Content {
			if c.IsMedia() {
				_, data, _ := strings.Cut(c.Text, ";base64,")
				b, _ := base64.StdEncoding.DecodeString(data)
				fmt.Printf("  media: %s, %d bytes\n", c.ContentType, len(b))
			}
		}
	}
}

// model is a model defined in Genkit that answers with its turns in order
// and keeps the requests.
type model struct {
	ai.Model

	mu       sync.Mutex
	turns    []*ai.Message
	requests []*ai.ModelRequest
}

// scripted defines a model named name in g that answers with turns.
func scripted(g *genkit.Genkit, name string, turns ...*ai.Message) *model {
	m := &model{turns: turns}
	m.Model = genkit.DefineModel(g, name, &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true, Media: true}},
		func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			m.mu.Lock()
			defer m.mu.Unlock()
			if len(m.requests) == len(m.turns) {
				return nil, errors.New("scripted model: no turn left")
			}
			m.requests = append(m.requests, req)
			return &ai.ModelResponse{Request: req, Message: m.turns[len(m.requests)-1], FinishReason: ai.FinishReasonStop}, nil
		})
	return m
}

// sent returns the messages of request n (from 0) after the last model
// message: what answered its tool requests.
func (m *model) sent(n int) []*ai.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n >= len(m.requests) {
		return nil
	}
	msgs := m.requests[n].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == ai.RoleModel {
			return msgs[i+1:]
		}
	}
	return msgs
}
