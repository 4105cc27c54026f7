package ptc_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// manualSentences splits the prose of a run_code description (what comes
// before its TypeScript block) into sentences.
func manualSentences(t *testing.T, desc string) []string {
	t.Helper()
	prose, _, ok := strings.Cut(desc, "```ts\n")
	require.True(t, ok, desc)
	var out []string
	for _, para := range strings.Split(strings.TrimSpace(prose), "\n\n") {
		for _, s := range strings.SplitAfter(para, ". ") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestManual holds run_code's description to the truth: every sentence of
// its prose has a check here that runs what the sentence says against the
// real guest. A sentence changed or added without a check fails the test,
// and so does a check whose behaviour stops being true.
func TestManual(t *testing.T) {
	var inFlight, peak atomic.Int32
	slow := rawTool("slow", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return "done", nil
	})
	limits := host.Limits{Timeout: 3 * time.Second, Subcalls: 4, OutputBytes: 300}
	f := newFixture(t, limits, weatherTool(), slow)
	desc := f.ex.RunCodeSchema(registry.Scope{}, nil).Description
	run := func(t *testing.T, code string) *ptc.Result {
		t.Helper()
		return f.run(t, code)
	}
	text := func(t *testing.T, code string) string {
		t.Helper()
		r := run(t, code)
		require.False(t, r.IsError, registry.PlainText(r.Content))
		return registry.PlainText(r.Content)
	}

	checks := map[string]func(t *testing.T){
		"Run a JavaScript or TypeScript program that calls tools through the `tools` object declared below; the result is what the program prints and returns.": func(t *testing.T) {
			require.Contains(t, desc, "```ts\ndeclare const tools: {\n")
			require.Contains(t, desc, "get_weather(args: {")
			// TypeScript: types, interfaces, generics, `as` and non-null
			// assertions are accepted and stripped.
			ts := `interface Sky { sky: string }
type City = "Paris" | "Oslo";
function first<T>(xs: T[]): T { return xs[0]! }
const city: City = first<City>(["Paris"]);
const w = await tools.get_weather({ city }) as Sky;
console.log(w.sky satisfies string);
return { city, enumless: 1 as number };`
			require.Equal(t, "clear\n{\"city\": \"Paris\", \"enumless\": 1}", text(t, ts))
		},
		"The program is the body of an async function: use `await`, run independent calls together with `Promise.all`, and `return` a value.": func(t *testing.T) {
			peak.Store(0)
			start := time.Now()
			require.Equal(t, `["done", "done", "done"]`,
				text(t, `return await Promise.all([tools.slow({}), tools.slow({}), tools.slow({})])`))
			require.Equal(t, int32(3), peak.Load(), "the three calls ran together")
			require.Less(t, time.Since(start), 3*time.Second)
		},
		"Each method takes one argument object and returns a Promise of the tool's result.": func(t *testing.T) {
			require.Equal(t, `[true, {"tempC": -3, "sky": "snow"}]`,
				text(t, `const p = tools.get_weather({city: "Oslo"}); return [p instanceof Promise, await p]`))
			r := run(t, `try { await tools.get_weather("Oslo") } catch (e) { return e.code }`)
			require.Equal(t, "INVALID_ARGUMENTS", registry.PlainText(r.Content))
		},
		"A failed call rejects with a `ToolError` whose `code` and `tool` say what failed; catch it to carry on.": func(t *testing.T) {
			require.Equal(t, `["ToolError", "TOOL_FAILED", "get_weather", "carried on"]`,
				text(t, `let e; try { await tools.get_weather({city: "Atlantis"}) } catch (err) { e = err }
return [e.name, e.code, e.tool, "carried on"]`))
		},
		"`console.log` prints as Node does; the result is the printed lines, then the return value (a string as is, plain data as JSON).": func(t *testing.T) {
			// Node 20 prints these lines for the same calls.
			require.Equal(t, "{ x: [ 1, 2 ] } Map(1) { 'a' => 1 }\n5 %\nplain",
				text(t, `console.log({x: [1, 2]}, new Map([["a", 1]])); console.log("%d %%", 5); return "plain"`))
			require.Equal(t, "line\n{\"a\": [1, 2], \"b\": null}", text(t, `console.log("line"); return {a: [1, 2], b: null}`))
		},
		"`setTimeout` and `setInterval` work.": func(t *testing.T) {
			require.Equal(t, `["timeout", 3]`, text(t, `
const fired = await new Promise(r => setTimeout(() => r("timeout"), 20));
let n = 0;
await new Promise(r => { const id = setInterval(() => { if (++n === 3) { clearInterval(id); r() } }, 5) });
return [fired, n]`))
		},
		"There is no `require`, `import`, `fetch`, filesystem or network.": func(t *testing.T) {
			require.Equal(t, `["undefined", "undefined", "undefined", "undefined"]`,
				text(t, `return [typeof fetch, typeof XMLHttpRequest, typeof process, typeof WebSocket]`))
			require.Contains(t, text(t, `try { require("fs") } catch (e) { return String(e) }`), "there are no modules here")
			r := run(t, `const m = await import("fs"); return typeof m`)
			require.True(t, r.IsError, registry.PlainText(r.Content))
			require.Contains(t, registry.PlainText(r.Content), "module")
		},
		"Limits: 3s, 4 tool calls, 300 bytes of output.": func(t *testing.T) {
			r := run(t, `while (true) {}`)
			require.Equal(t, host.KindTimeout, r.Run.Kind, registry.PlainText(r.Content))
			require.Contains(t, registry.PlainText(r.Content), "program exceeded its time limit of 3s")
			r = run(t, `for (let i = 0; i < 5; i++) await tools.get_weather({city: "Paris"})`)
			require.Equal(t, host.KindSubcallLimit, r.Run.Kind, registry.PlainText(r.Content))
			require.Len(t, r.Subcalls, 4)
			r = run(t, `for (let i = 0; i < 100; i++) console.log("0123456789")`)
			require.Equal(t, host.KindOutputLimit, r.Run.Kind, registry.PlainText(r.Content))
			out := r.Run.Output
			require.Equal(t, "[output truncated]", out[len(out)-1])
			require.LessOrEqual(t, len(strings.Join(out[:len(out)-1], "\n"))+1, 300)
		},
	}
	sentences := manualSentences(t, desc)
	for _, s := range sentences {
		check, ok := checks[s]
		if !ok {
			t.Errorf("the manual says %q and no check holds it to that", s)
			continue
		}
		t.Run(s[:min(len(s), 40)], check)
	}
	require.Len(t, sentences, len(checks), "a check whose sentence is gone")
}

// TestManual_fitted checks what the description says when the declarations
// are fitted to a budget: tools.$search and tools.$describe are declared,
// and a program that uses them as declared finds, reads and calls a tool
// declared in short. Without a budget to fit they are not mentioned.
func TestManual_fitted(t *testing.T) {
	tools := crmTools(20)
	ex := budgetExecutor(t, 2500, tools...)
	desc := ex.RunCodeSchema(registry.Scope{}, nil).Description
	require.Contains(t, desc, "$search(query: string, limit?: number): Promise<{ name: string; description: string }[]>;")
	require.Contains(t, desc, "$describe(name: string): Promise<string>;")
	require.Contains(t, desc, "crm_record_19: Tool; // Looks up a kind-19 record in the CRM by id.")
	r := ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(`
const [hit] = await tools.$search("kind-19 record", 1);
const decl = await tools.$describe(hit.name);
const rec = await tools[hit.name]({id: "r1"});
return [hit.name, decl.includes("id: string"), rec.tool]`)}})[0]
	require.False(t, r.IsError, registry.PlainText(r.Content))
	require.Equal(t, `["crm_record_19", true, "crm_record_19"]`, registry.PlainText(r.Content))

	unfitted := budgetExecutor(t, -1, tools...).RunCodeSchema(registry.Scope{}, nil).Description
	require.NotContains(t, unfitted, "$search")
}

// TestManual_tokens measures the manual's size in tokens with a tokenizer
// from npm (js-tiktoken, pinned by scripts/tokens/package-lock.json,
// installed by make tokenizer): o200k_base and cl100k_base, the BPEs the
// common models' tokenizers are close to. The bound keeps it short.
func TestManual_tokens(t *testing.T) {
	dir := filepath.Join("scripts", "tokens")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "js-tiktoken")); err != nil {
		t.Skip("js-tiktoken not installed: run make tokenizer")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH: the tokenizer runs in node")
	}
	f := newFixture(t, host.Limits{}, weatherTool())
	desc := f.ex.RunCodeSchema(registry.Scope{}, nil).Description
	prose, _, _ := strings.Cut(desc, "```ts\n")
	cmd := exec.Command(node, filepath.Join(dir, "count.mjs"))
	cmd.Stdin = strings.NewReader(prose)
	out, err := cmd.Output()
	require.NoError(t, err)
	var counts map[string]int
	require.NoError(t, json.Unmarshal(out, &counts))
	t.Logf("run_code's manual (without declarations): %d bytes, %s tokens", len(prose), strings.TrimSpace(string(out)))
	for enc, n := range counts {
		require.Less(t, n, 200, "%s: the manual grew past 200 tokens", enc)
		require.Greater(t, n, 100, "%s: implausibly few tokens ("+strconv.Itoa(n)+")", enc)
	}
}
