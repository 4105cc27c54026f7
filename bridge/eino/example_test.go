package ptceino_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/ptchost/ptc"
	ptceino "github.com/ptchost/ptc/bridge/eino"
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

// Example runs an Eino ChatModelAgent whose tools are the executor's: a
// scripted chat model calls run_code, the agent's ToolsNode runs the
// program in ptc (two sales lookups at once and a chart that comes back
// as an image), and the model answers in text.
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

	br := ptceino.New(ex)
	tools, err := br.EnhancedTools() // run_code, with images in its results
	if err != nil {
		fmt.Println(err)
		return
	}
	chat := &scripted{turns: []*schema.Message{
		schema.AssistantMessage("", []schema.ToolCall{call("call_1", "run_code", salesProgram)}),
		schema.AssistantMessage("The north sold 42 units and the south 35; the chart shows the north ahead every week but the third.", nil),
	}}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        "analyst",
		Description: "Answers questions about sales.",
		Model:       chat,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent})
	iter := runner.Query(ctx, "How did the north and south regions sell over the last four weeks? Chart it.")
	var answer string
	for {
		event, ok := iter.Next()
		if !ok {
			break
		}
		if event.Err != nil {
			fmt.Println(event.Err)
			return
		}
		if out := event.Output; out != nil && out.MessageOutput != nil && out.MessageOutput.Role == schema.Assistant {
			answer = out.MessageOutput.Message.Content
		}
	}
	// What the model was sent after its call: the tool message.
	for _, msg := range chat.sent(1) {
		printTool(msg)
	}
	fmt.Println("answer:", answer)
	// Output:
	// tool run_code:
	//   text: north: 42 units
	//   text: south: 35 units
	//   text: chart attached
	//   text: Image from render_chart (call 3):
	//   image: image/png, 76 bytes
	// answer: The north sold 42 units and the south 35; the chart shows the north ahead every week but the third.
}

// call returns a function tool call of name with a program as arguments.
func call(id, name, code string) schema.ToolCall {
	args := fmt.Sprintf(`{"code":%q}`, code)
	if name != "run_code" {
		args = code
	}
	return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
}

// printTool prints a tool message part by part.
func printTool(msg *schema.Message) {
	if msg.Role != schema.Tool {
		return
	}
	fmt.Printf("tool %s:\n", msg.ToolName)
	if msg.Content != "" {
		for _, line := range strings.Split(msg.Content, "\n") {
			fmt.Println("  text:", line)
		}
	}
	for _, p := range msg.UserInputMultiContent {
		switch {
		case p.Type == schema.ChatMessagePartTypeText:
			for _, line := range strings.Split(p.Text, "\n") {
				fmt.Println("  text:", line)
			}
		case p.Image != nil && p.Image.Base64Data != nil:
			data, _ := base64.StdEncoding.DecodeString(*p.Image.Base64Data)
			fmt.Printf("  image: %s, %d bytes\n", p.Image.MIMEType, len(data))
		}
	}
}

// scripted is a tool-calling chat model that answers with its turns in
// order and keeps what it was sent.
type scripted struct {
	mu     sync.Mutex
	turns  []*schema.Message
	inputs [][]*schema.Message
	tools  []*schema.ToolInfo
}

// Generate returns the next turn.
func (m *scripted) Generate(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.inputs) == len(m.turns) {
		return nil, errors.New("scripted model: no turn left")
	}
	m.inputs = append(m.inputs, input)
	return m.turns[len(m.inputs)-1], nil
}

// Stream returns the next turn as a stream of one message.
func (m *scripted) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

// sent returns the messages of turn n (from 0) after the last assistant
// message: what answered that message's calls.
func (m *scripted) sent(n int) []*schema.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n >= len(m.inputs) {
		return nil
	}
	in := m.inputs[n]
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Role == schema.Assistant {
			return in[i+1:]
		}
	}
	return in
}

// WithTools keeps the tools the agent binds.
func (m *scripted) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tools = tools
	return m, nil
}
