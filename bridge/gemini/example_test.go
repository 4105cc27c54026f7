package ptcgemini_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"google.golang.org/genai"

	"github.com/ptchost/ptc"
	ptcgemini "github.com/ptchost/ptc/bridge/gemini"
	"github.com/ptchost/ptc/internal/bridgetest"
)

var update = flag.Bool("update", false, "rewrite the golden request files under testdata")

// Example drives a recorded conversation through the SDK's real client
// and a real executor: an HTTP server speaking the Gemini API answers
// with a run_code call, the bridge runs the program (two sales lookups at
// once and a chart that comes back as an image) and builds the next
// content, and the model answers in text. The server checks each request
// it is sent against testdata/request-N.json.
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
	model := &scripted{dir: "testdata"}
	srv := httptest.NewServer(model)
	defer srv.Close()
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey: "test-key", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	br := ptcgemini.New(ex) // a standalone agent; every registered tool
	config := &genai.GenerateContentConfig{Tools: br.Tools()}
	contents := genai.Text("How did the north and south regions sell over the last four weeks? Chart it.")
	for {
		resp, err := client.Models.GenerateContent(ctx, "gemini-3-pro-preview", contents, config)
		if err != nil {
			fmt.Println(err)
			return
		}
		contents = append(contents, resp.Candidates[0].Content)
		answer := br.Answer(ctx, resp)
		if answer == nil {
			fmt.Println("answer:", resp.Candidates[0].Content.Parts[0].Text)
			return
		}
		printResponses(answer)
		contents = append(contents, answer)
	}
	// Output:
	// functionResponse run_code output:
	//   north: 42 units
	//   south: 35 units
	//   chart attached
	//   Image from render_chart (call 3):
	//   inline data image-1: image/png, 76 bytes
	// answer: The north sold 42 units over the four weeks and the south 35; the chart shows the north ahead every week but the third.
}

// printResponses prints the FunctionResponse parts of c: the response's
// text one line per line, then its inline data.
func printResponses(c *genai.Content) {
	for _, p := range c.Parts {
		fr := p.FunctionResponse
		for key, v := range fr.Response {
			fmt.Printf("functionResponse %s %s:\n", fr.Name, key)
			for _, line := range strings.Split(fmt.Sprint(v), "\n") {
				fmt.Println(" ", line)
			}
		}
		for _, d := range fr.Parts {
			fmt.Printf("  inline data %s: %s, %d bytes\n", d.InlineData.DisplayName, d.InlineData.MIMEType, len(d.InlineData.Data))
		}
	}
}

// scripted is a model behind the Gemini API's generateContent endpoint:
// it answers turn N with dir/response-N.json and checks the request
// against dir/request-N.json (rewritten with -update). A request that
// differs gets an HTTP 400 whose message the client returns.
type scripted struct {
	dir string

	mu   sync.Mutex
	turn int
}

func (m *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	m.turn++
	turn := m.turn
	m.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, ":generateContent") {
		http.Error(w, "not the generateContent endpoint: "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	var req any
	body, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err == nil {
		err = bridgetest.Golden(filepath.Join(m.dir, fmt.Sprintf("request-%d.json", turn)), req, *update)
	}
	var resp []byte
	if err == nil {
		resp, err = os.ReadFile(filepath.Join(m.dir, fmt.Sprintf("response-%d.json", turn)))
	}
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		msg, _ := json.Marshal(err.Error())
		fmt.Fprintf(w, `{"error":{"code":400,"message":%s,"status":"INVALID_ARGUMENT"}}`, msg)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(resp)
}
