package ptcanthropic_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/ptchost/ptc"
	ptcanthropic "github.com/ptchost/ptc/bridge/anthropic"
	"github.com/ptchost/ptc/internal/bridgetest"
	"github.com/ptchost/ptc/registry"
)

var update = flag.Bool("update", false, "rewrite the golden request files under testdata")

// Example drives a recorded conversation through a real executor: the
// model answers with a run_code call, the bridge runs the program (two
// sales lookups and a chart that comes back as an image) and builds the
// next request, and the model answers in text. The scripted model checks
// each request it is sent against testdata/request-N.json.
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

	var agent registry.Scope // a standalone agent; nil tool set: every registered tool
	br := ptcanthropic.New(ex)
	br.Agent = agent
	tools := br.Tools()                  // run_code, whose description declares the tools
	client := &recorded{dir: "testdata"} // stands in for client.Messages

	messages := []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock("How did the north and south regions sell over the last four weeks? Chart it.")),
	}
	for {
		msg, err := client.New(ctx, anthropic.MessageNewParams{
			Model:     anthropic.ModelClaudeSonnet5,
			MaxTokens: 1024,
			Tools:     tools,
			Messages:  messages,
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		messages = append(messages, msg.ToParam())
		answer := br.Answer(ctx, msg)
		if answer == nil {
			fmt.Println("answer:", msg.Content[0].Text)
			return
		}
		for _, b := range answer.OfUser.Content {
			printResult(b.OfToolResult)
		}
		messages = append(messages, *answer)
	}
	// Output:
	// tool_result toolu_01A09q90qw90lq917835lq9 (is_error: false)
	//   text: north: 42 units
	//   text: south: 35 units
	//   text: chart attached
	//   text: Image from render_chart (call 3):
	//   image: image/png, 76 bytes
	// answer: The north sold 42 units over the four weeks and the south 35; the chart shows the north ahead every week but the third.
}

// printResult prints a tool_result block's content, one line per text
// line or image.
func printResult(r *anthropic.ToolResultBlockParam) {
	fmt.Printf("tool_result %s (is_error: %v)\n", r.ToolUseID, r.IsError.Value)
	for _, c := range r.Content {
		switch {
		case c.OfText != nil:
			for _, line := range strings.Split(c.OfText.Text, "\n") {
				fmt.Println("  text:", line)
			}
		case c.OfImage != nil:
			src := c.OfImage.Source.OfBase64
			data, _ := base64.StdEncoding.DecodeString(src.Data)
			fmt.Printf("  image: %s, %d bytes\n", src.MediaType, len(data))
		}
	}
}

// recorded replays the Messages API responses under dir
// (response-N.json, parsed with the SDK's own types) and checks the
// request of each turn against dir/request-N.json (rewritten with
// -update).
type recorded struct {
	dir  string
	turn int
}

// New has the shape of client.Messages.New.
func (m *recorded) New(_ context.Context, params anthropic.MessageNewParams) (*anthropic.Message, error) {
	m.turn++
	if err := bridgetest.Golden(filepath.Join(m.dir, fmt.Sprintf("request-%d.json", m.turn)), params, *update); err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(filepath.Join(m.dir, fmt.Sprintf("response-%d.json", m.turn)))
	if err != nil {
		return nil, err
	}
	var msg anthropic.Message
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, fmt.Errorf("response %d: %w", m.turn, err)
	}
	return &msg, nil
}
