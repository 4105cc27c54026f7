package ptcopenai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/ptchost/ptc"
	ptcopenai "github.com/ptchost/ptc/bridge/openai"
	"github.com/ptchost/ptc/internal/bridgetest"
)

var update = flag.Bool("update", false, "rewrite the golden request files under testdata")

const question = "How did the north and south regions sell over the last four weeks? Chart it."

// Example_chatCompletions drives a recorded Chat Completions conversation
// through a real executor: the model calls run_code, the bridge runs the
// program (two sales lookups and a chart that comes back as an image)
// and answers with a tool message and, for the image, a user message; the
// model then answers in text. The scripted model checks each request it
// is sent against testdata/chat-request-N.json.
func Example_chatCompletions() {
	ctx := context.Background()
	ex, err := salesExecutor(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ex.Close(ctx)

	br := ptcopenai.New(ex)                                                                           // a standalone agent, every registered tool
	client := &recorded[openai.ChatCompletionNewParams, openai.ChatCompletion]{name: "testdata/chat"} // stands in for client.Chat.Completions
	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5_2,
		Tools:    br.ChatTools(), // run_code, whose description declares the tools
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
	}
	for {
		completion, err := client.New(ctx, params)
		if err != nil {
			fmt.Println(err)
			return
		}
		msg := completion.Choices[0].Message
		params.Messages = append(params.Messages, msg.ToParam())
		answer := br.AnswerChat(ctx, msg)
		if answer == nil {
			fmt.Println("answer:", msg.Content)
			return
		}
		for _, m := range answer {
			printChat(m)
		}
		params.Messages = append(params.Messages, answer...)
	}
	// Output:
	// tool call_Qm3hV7f1kWcE2nLr8TyUoP4s: north: 42 units
	// tool call_Qm3hV7f1kWcE2nLr8TyUoP4s: south: 35 units
	// tool call_Qm3hV7f1kWcE2nLr8TyUoP4s: chart attached
	// user: Image from render_chart (call 3):
	// user: image data:image/png;base64 (76 bytes)
	// answer: The north sold 42 units over the four weeks and the south 35; the chart shows the north ahead every week but the third.
}

// Example_responses drives the same conversation through the Responses
// API, statelessly: each request carries the whole history, and the
// chart comes back in the function_call_output as an input_image. The
// scripted model checks each request against
// testdata/responses-request-N.json.
func Example_responses() {
	ctx := context.Background()
	ex, err := salesExecutor(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ex.Close(ctx)

	br := ptcopenai.New(ex)
	client := &recorded[responses.ResponseNewParams, responses.Response]{name: "testdata/responses"} // stands in for client.Responses
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage(question, responses.EasyInputMessageRoleUser)}
	for {
		resp, err := client.New(ctx, responses.ResponseNewParams{
			Model: openai.ChatModelGPT5_2,
			Tools: br.ResponseTools(),
			Store: openai.Bool(false),
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		outputs := br.AnswerResponse(ctx, resp)
		if outputs == nil {
			fmt.Println("answer:", resp.OutputText())
			return
		}
		for _, o := range outputs {
			printOutput(o.OfFunctionCallOutput)
		}
		input = append(input, ptcopenai.ResponseInput(resp.Output)...)
		input = append(input, outputs...)
	}
	// Output:
	// function_call_output call_Hk2mP9xR4sLq7WvB1nZc6TfY: input_text north: 42 units
	// function_call_output call_Hk2mP9xR4sLq7WvB1nZc6TfY: input_text south: 35 units
	// function_call_output call_Hk2mP9xR4sLq7WvB1nZc6TfY: input_text chart attached
	// function_call_output call_Hk2mP9xR4sLq7WvB1nZc6TfY: input_text Image from render_chart (call 3):
	// function_call_output call_Hk2mP9xR4sLq7WvB1nZc6TfY: input_image data:image/png;base64 (76 bytes)
	// answer: The north sold 42 units over the four weeks and the south 35; the chart shows the north ahead every week but the third.
}

// printChat prints a tool or user message, one line per text line or
// image.
func printChat(m openai.ChatCompletionMessageParamUnion) {
	switch {
	case m.OfTool != nil:
		for _, line := range strings.Split(m.OfTool.Content.OfString.Value, "\n") {
			fmt.Printf("tool %s: %s\n", m.OfTool.ToolCallID, line)
		}
	case m.OfUser != nil:
		for _, p := range m.OfUser.Content.OfArrayOfContentParts {
			if p.OfText != nil {
				fmt.Println("user:", p.OfText.Text)
			} else if p.OfImageURL != nil {
				fmt.Println("user: image", describeDataURL(p.OfImageURL.ImageURL.URL))
			}
		}
	}
}

// printOutput prints a function_call_output item, one line per text line
// or image.
func printOutput(o *responses.ResponseInputItemFunctionCallOutputParam) {
	for _, item := range o.Output.OfResponseFunctionCallOutputItemArray {
		if item.OfInputText != nil {
			for _, line := range strings.Split(item.OfInputText.Text, "\n") {
				fmt.Printf("function_call_output %s: input_text %s\n", o.CallID.Value, line)
			}
		} else if item.OfInputImage != nil {
			fmt.Printf("function_call_output %s: input_image %s\n", o.CallID.Value, describeDataURL(item.OfInputImage.ImageURL.Value))
		}
	}
}

// describeDataURL shows a base64 data URL as its header and decoded size.
func describeDataURL(url string) string {
	header, data, _ := strings.Cut(url, ",")
	b, _ := base64.StdEncoding.DecodeString(data)
	return fmt.Sprintf("%s (%d bytes)", header, len(b))
}

// salesExecutor returns a PTC executor over the two tools the
// conversation's program calls (bridgetest.SalesPipeline).
func salesExecutor(ctx context.Context) (*ptc.Executor, error) {
	pipe, err := bridgetest.SalesPipeline()
	if err != nil {
		return nil, err
	}
	return ptc.New(ctx, ptc.Config{Pipeline: pipe}) // fails if the guest was not built
}

// recorded replays the API responses name-response-N.json (parsed with
// the SDK's own types into R) and checks the request P of each turn
// against name-request-N.json (rewritten with -update).
type recorded[P, R any] struct {
	name string
	turn int
}

// New has the shape of the SDK's New methods.
func (m *recorded[P, R]) New(_ context.Context, params P) (*R, error) {
	m.turn++
	if err := bridgetest.Golden(fmt.Sprintf("%s-request-%d.json", m.name, m.turn), params, *update); err != nil {
		return nil, err
	}
	path := fmt.Sprintf("%s-response-%d.json", m.name, m.turn)
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := new(R)
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return r, nil
}
