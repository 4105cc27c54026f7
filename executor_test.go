package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// One host for the package's tests: compiling the guest under -race takes
// seconds.
var (
	hostOnce sync.Once
	testHost *host.Host
	hostErr  error
)

func sharedHost(t testing.TB) *host.Host {
	t.Helper()
	hostOnce.Do(func() { testHost, hostErr = host.New(context.Background(), host.Config{}) })
	if errors.Is(hostErr, quickjs.ErrNotBuilt) {
		t.Skip("guest not built: run make guest")
	}
	require.NoError(t, hostErr)
	return testHost
}

type harness struct {
	reg  *registry.Registry
	pipe *pipeline.Pipeline
	ex   *ptc.Executor
}

func newFixture(t testing.TB, limits host.Limits, tools ...*registry.Tool) *harness {
	t.Helper()
	reg := registry.New()
	for _, tl := range tools {
		_, err := reg.Register(tl)
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), Limits: limits})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return &harness{reg: reg, pipe: pipe, ex: ex}
}

func runCall(code string) pipeline.RawCall {
	args, _ := json.Marshal(map[string]string{"code": code})
	return pipeline.RawCall{ID: "call_1", Name: ptc.ToolName, Arguments: args}
}

func (f *harness) run(t testing.TB, code string) *ptc.Result {
	t.Helper()
	return f.runBatch(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(code)}})
}

func (f *harness) runBatch(ctx context.Context, b pipeline.Batch) *ptc.Result {
	rs := f.ex.Execute(ctx, b)
	if len(rs) != 1 {
		panic(fmt.Sprintf("got %d results", len(rs)))
	}
	return rs[0]
}

type cityArgs struct {
	City string `json:"city"`
}

type weather struct {
	TempC float64 `json:"tempC"`
	Sky   string  `json:"sky"`
}

func weatherTool() *registry.Tool {
	return registry.MustDefine(registry.Spec[cityArgs, weather]{
		Name:        "get_weather",
		Description: "Current weather for a city.",
		Parameters:  registry.Object(registry.Required("city", registry.String().Describe("City name"))),
		Output: registry.Output[cityArgs, weather]{Schema: registry.Object(
			registry.Required("tempC", registry.Number()),
			registry.Required("sky", registry.String()),
		)},
		Parallel: true,
		Execute: func(_ context.Context, a cityArgs, _ *registry.Exec) (weather, error) {
			switch a.City {
			case "Paris":
				return weather{21, "clear"}, nil
			case "Oslo":
				return weather{-3, "snow"}, nil
			}
			return weather{}, errors.New("city not found: " + a.City)
		},
	})
}

// rawTool is a tool over raw JSON arguments.
func rawTool(name string, mode registry.Mode, fn func(ctx context.Context, args json.RawMessage) (any, error)) *registry.Tool {
	return registry.MustDefine(registry.RawSpec{
		Name:          name,
		Description:   name + " tool",
		ExecutionMode: func(json.RawMessage) registry.Mode { return mode },
		Execute: func(ctx context.Context, a json.RawMessage, _ *registry.Exec) (any, error) {
			return fn(ctx, a)
		},
	})
}

func TestExecute_contentShapes(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	tests := []struct {
		name, code, want string
		isError          bool
	}{
		{"lines and value", `console.log("a"); console.log({b: 1}); return {c: [1]}`, "a\n{ b: 1 }\n{\"c\": [1]}", false},
		{"string value", `return "plain"`, "plain", false},
		{"empty", `const x = 1`, "(run_code completed with no output)", false},
		{"exception with output", "console.log(\"before\")\nthrow new Error(\"boom\")", "Error: code run failed (exception): Error: boom (line 2)\n\nCaptured output:\nbefore", true},
		{"syntax", `return (`, "Error: code run failed (syntax): SyntaxError: Unexpected \"}\" (at the end of the program)", true},
		{"sdk call", `const w = await tools.get_weather({city: "Paris"}); return w.sky + " " + w.tempC`, "clear 21", false},
		{"tool error caught", `try { await tools.get_weather({city: "Atlantis"}) } catch (e) { return [e.name, e.code, e.tool, e.message, e instanceof ToolError] }`,
			"[\"ToolError\", \"TOOL_FAILED\", \"get_weather\", \"city not found: Atlantis\", true]", false},
		{"tool error uncaught", `await tools.get_weather({city: "Atlantis"})`, "Error: code run failed (exception): ToolError: city not found: Atlantis", true},
		{"invalid arguments", `try { await tools.get_weather({town: "Paris"}) } catch (e) { return e.code }`, "INVALID_ARGUMENTS", false},
		{"unknown tool", `try { await __ptc_call("nope", {}) } catch (e) { return e.code + ": " + e.message }`, `UNKNOWN_TOOL: tools.nope is not a tool. The tools are: get_weather.`, false},
		{"sdk is frozen", `"use strict"; try { tools.x = 1 } catch (e) { return e.name }`, "TypeError", false},
		{"promise all", `const r = await Promise.all(["Paris", "Oslo"].map((city) => tools.get_weather({city}))); return r.map((w) => w.sky).join(",")`, "clear,snow", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.run(t, tt.code)
			require.Equal(t, tt.want, registry.PlainText(r.Content))
			require.Equal(t, tt.isError, r.IsError)
		})
	}
}

func TestExecute_notRunCode(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	rs := f.ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{
		{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
		{Name: ptc.ToolName, Arguments: json.RawMessage(`{"program":"return 1"}`)},
		{Name: ptc.ToolName, Arguments: json.RawMessage(`not json`)},
		runCall(`return 2`),
	}})
	require.Len(t, rs, 4)
	for i, want := range []string{"UNKNOWN_TOOL", "INVALID_ARGUMENTS", "INVALID_ARGUMENTS", ""} {
		require.Equal(t, want, pipeline.CodeOf(rs[i].Outcome.Err()), i)
		require.Equal(t, want != "", rs[i].IsError, i)
	}
	require.Nil(t, rs[0].Run)
	require.True(t, strings.HasPrefix(registry.PlainText(rs[0].Content), "Error: "))
	require.Equal(t, "2", registry.PlainText(rs[3].Content))
}

func TestExecute_guardDenied(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	f.pipe.Guard(func(inv *pipeline.Invocation) string {
		var a cityArgs
		_ = json.Unmarshal(inv.Arguments(), &a)
		if a.City == "Oslo" {
			return "Oslo is off limits"
		}
		return ""
	})
	r := f.run(t, `
		const ok = await tools.get_weather({city: "Paris"});
		try { await tools.get_weather({city: "Oslo"}) } catch (e) { return [ok.sky, e.code, e.message].join(" | ") }`)
	require.Equal(t, "clear | DENIED | Oslo is off limits", registry.PlainText(r.Content))
	require.Len(t, r.Subcalls, 2)
	require.NoError(t, r.Subcalls[0].Outcome.Err())
	require.Equal(t, "DENIED", pipeline.CodeOf(r.Subcalls[1].Outcome.Err()))
}

func TestExecute_ask(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	f.pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("may I look up " + string(inv.Arguments()) + "?")
	})
	var asked []string
	var mu sync.Mutex
	approver := func(_ context.Context, inv *pipeline.Invocation, q string) (pipeline.Answer, error) {
		mu.Lock()
		asked = append(asked, q)
		mu.Unlock()
		var a cityArgs
		_ = json.Unmarshal(inv.Arguments(), &a)
		if a.City == "Paris" {
			return pipeline.Answer{Approved: true}, nil
		}
		return pipeline.Answer{Reason: "the user said no"}, nil
	}
	code := `
		const out = [];
		for (const city of ["Paris", "Oslo"]) {
			try { out.push((await tools.get_weather({city})).sky) } catch (e) { out.push(e.code + ": " + e.message) }
		}
		return out.join("\n")`
	r := f.runBatch(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(code)}, Approver: approver})
	require.Equal(t, "clear\nDENIED: the user said no", registry.PlainText(r.Content))
	require.Equal(t, []string{`may I look up {"city":"Paris"}?`, `may I look up {"city":"Oslo"}?`}, asked)

	// Without an approver the ask stays unanswered.
	r = f.run(t, `try { await tools.get_weather({city: "Paris"}) } catch (e) { return e.code }`)
	require.Equal(t, "ASK_UNANSWERED", registry.PlainText(r.Content))
}

func TestExecute_subcallTimeoutPolicy(t *testing.T) {
	hang := registry.MustDefine(registry.RawSpec{
		Name: "hang", TimeoutMs: 50,
		Execute: func(ctx context.Context, _ json.RawMessage, _ *registry.Exec) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	f := newFixture(t, host.Limits{}, hang)
	start := time.Now()
	r := f.run(t, `try { await tools.hang({}) } catch (e) { return e.code }`)
	require.Equal(t, "TOOL_TIMEOUT", registry.PlainText(r.Content))
	require.Less(t, time.Since(start), 5*time.Second)
}

// TestExecute_parallelAndSerial proves overlap with a barrier rather than
// timing: three parallel calls all wait until the three are in flight
// together; serial calls record the most that were ever in flight.
func TestExecute_parallelAndSerial(t *testing.T) {
	var inFlight, peak atomic.Int32
	track := func() func() {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		return func() { inFlight.Add(-1) }
	}
	var barrier sync.WaitGroup
	barrier.Add(3)
	par := rawTool("par", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		defer track()()
		barrier.Done()
		done := make(chan struct{})
		go func() { barrier.Wait(); close(done) }()
		select {
		case <-done:
			return "met", nil
		case <-time.After(10 * time.Second):
			return nil, errors.New("parallel calls did not overlap")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	var order []string
	var mu sync.Mutex
	ser := rawTool("ser", registry.Serial, func(_ context.Context, a json.RawMessage) (any, error) {
		defer track()()
		time.Sleep(5 * time.Millisecond) // room for an overlap to show
		mu.Lock()
		order = append(order, string(a))
		mu.Unlock()
		return "ok", nil
	})
	f := newFixture(t, host.Limits{}, par, ser)
	r := f.run(t, `return (await Promise.all([tools.par({}), tools.par({}), tools.par({})])).join(",")`)
	require.Equal(t, "met,met,met", registry.PlainText(r.Content))

	peak.Store(0)
	r = f.run(t, `await Promise.all([1, 2, 3, 4, 5].map((i) => tools.ser({i}))); return "done"`)
	require.Equal(t, "done", registry.PlainText(r.Content))
	require.Equal(t, int32(1), peak.Load(), "serial calls overlapped")
	require.Equal(t, []string{`{"i":1}`, `{"i":2}`, `{"i":3}`, `{"i":4}`, `{"i":5}`}, order, "serial calls ran out of issue order")
}

func TestExecute_serialWaitsForEarlierParallel(t *testing.T) {
	var events []string
	var mu sync.Mutex
	log := func(s string) { mu.Lock(); events = append(events, s); mu.Unlock() }
	slow := rawTool("slow", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		time.Sleep(30 * time.Millisecond)
		log("slow done")
		return nil, nil
	})
	ser := rawTool("ser", registry.Serial, func(context.Context, json.RawMessage) (any, error) {
		log("ser")
		return nil, nil
	})
	fast := rawTool("fast", registry.Parallel, func(context.Context, json.RawMessage) (any, error) {
		log("fast")
		return nil, nil
	})
	f := newFixture(t, host.Limits{}, slow, ser, fast)
	r := f.run(t, `await Promise.all([tools.slow({}), tools.ser({}), tools.fast({})])`)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	require.Equal(t, []string{"slow done", "ser", "fast"}, events)
}

func TestExecute_inFlightLimit(t *testing.T) {
	var inFlight, peak atomic.Int32
	tool := rawTool("t", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(2 * time.Millisecond)
		return nil, nil
	})
	f := newFixture(t, host.Limits{InFlight: 4}, tool)
	r := f.run(t, `await Promise.all(Array.from({length: 40}, () => tools.t({}))); return "ok"`)
	require.Equal(t, "ok", registry.PlainText(r.Content))
	require.LessOrEqual(t, peak.Load(), int32(4))
	require.Len(t, r.Subcalls, 40)
}

func TestExecute_subcallLimit(t *testing.T) {
	f := newFixture(t, host.Limits{Subcalls: 3}, weatherTool())
	r := f.run(t, `for (let i = 0; i < 10; i++) { console.log(i); await tools.get_weather({city: "Paris"}) }`)
	require.True(t, r.IsError)
	require.Equal(t, "Error: code run failed (subcall_limit): program started more than 3 subcalls\n\nCaptured output:\n0\n1\n2\n3", registry.PlainText(r.Content))
	require.Len(t, r.Subcalls, 3)
}

func TestExecute_images(t *testing.T) {
	png := []byte("\x89PNG fake")
	camera := registry.MustDefine(registry.Spec[cityArgs, string]{
		Name:       "snapshot",
		Parameters: registry.Object(registry.Required("city", registry.String())),
		Parallel:   true,
		Execute: func(_ context.Context, a cityArgs, _ *registry.Exec) (string, error) {
			if a.City == "Nowhere" {
				return "", errors.New("no camera")
			}
			return "photo of " + a.City, nil
		},
		ProjectContent: func(a cityArgs, v string) []registry.Part {
			return []registry.Part{registry.TextPart(v), registry.ImagePart("image/png", png)}
		},
	})
	f := newFixture(t, host.Limits{}, camera, weatherTool())
	r := f.run(t, `
		const a = await tools.snapshot({city: "Paris"});
		await tools.get_weather({city: "Paris"});
		await tools.snapshot({city: "Nowhere"}).catch(() => {});
		const b = await tools.snapshot({city: "Oslo"});
		return [a, b]`)
	require.False(t, r.IsError)
	require.Equal(t, "[\"photo of Paris\", \"photo of Oslo\"]\n"+
		"Image from snapshot (call 1):\n[image image/png 9 bytes]\n"+
		"Image from snapshot (call 4):\n[image image/png 9 bytes]", registry.PlainText(r.Content))
	require.Equal(t, png, r.Content[2].Data)

	// Images of successful subcalls follow a failed run's content too.
	r = f.run(t, `await tools.snapshot({city: "Rome"}); throw new Error("late")`)
	require.True(t, r.IsError)
	require.Equal(t, "Error: code run failed (exception): Error: late (line 1)\nImage from snapshot (call 1):\n[image image/png 9 bytes]", registry.PlainText(r.Content))
}

func TestExecute_cancelMidSubcall(t *testing.T) {
	entered := make(chan struct{})
	var sawCancel atomic.Bool
	block := rawTool("block", registry.Parallel, func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(entered)
		<-ctx.Done()
		sawCancel.Store(true)
		return "late value", nil
	})
	f := newFixture(t, host.Limits{}, block)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-entered; cancel() }()
	start := time.Now()
	r := f.runBatch(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(`console.log("waiting"); await tools.block({})`)}})
	require.Less(t, time.Since(start), 5*time.Second)
	require.True(t, r.IsError)
	require.Equal(t, "Error: code run failed (aborted): cancelled by the caller\n\nCaptured output:\nwaiting", registry.PlainText(r.Content))
	require.Equal(t, "ABORTED", pipeline.CodeOf(r.Outcome.Err()))
	require.True(t, sawCancel.Load())
	require.Len(t, r.Subcalls, 1)
	require.Equal(t, "ABORTED", pipeline.CodeOf(r.Subcalls[0].Outcome.Err()))

	// Cancelled before the batch: the program never starts.
	r = f.runBatch(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(`return 1`)}})
	require.Equal(t, "Error: code run failed (aborted): cancelled before it started", registry.PlainText(r.Content))
}

func TestExecute_unicodeRoundTrip(t *testing.T) {
	echo := rawTool("echo", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
		return a, nil
	})
	f := newFixture(t, host.Limits{}, echo)
	r := f.run(t, `
		const s = "a\u2028b\u2029c 😀 \u0000 é";
		const got = await tools.echo({s});
		return [got.s === s, got.s.length, got.s]`)
	require.False(t, r.IsError, registry.PlainText(r.Content))
	var v []any
	require.NoError(t, json.Unmarshal(r.Run.ReturnValue, &v))
	require.Equal(t, []any{true, float64(12), "a\u2028b\u2029c 😀 \x00 é"}, v)
	require.JSONEq(t, `{"s":"a\u2028b\u2029c 😀 \u0000 é"}`, string(r.Subcalls[0].Arguments))
}

func TestExecute_megabyteResult(t *testing.T) {
	big := rawTool("big", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) {
		var n struct{ N int }
		_ = json.Unmarshal(a, &n)
		return strings.Repeat("x", n.N), nil
	})
	f := newFixture(t, host.Limits{}, big)
	r := f.run(t, `const s = await tools.big({N: (1 << 20) - 2}); return s.length`)
	require.Equal(t, fmt.Sprint((1<<20)-2), registry.PlainText(r.Content))
	r = f.run(t, `try { await tools.big({N: 1 << 20}) } catch (e) { return e.code + ": " + e.message }`)
	require.Equal(t, "TOOL_FAILED: tool result is 1048578 bytes, over the 1048576-byte limit", registry.PlainText(r.Content))
}

// eventLog is a slog handler that keeps each record's kind ("call" or
// "result"), tool, parent and token.
type eventLog struct {
	mu  sync.Mutex
	evs [][4]string
}

func (l *eventLog) Enabled(context.Context, slog.Level) bool { return true }

func (l *eventLog) Handle(_ context.Context, r slog.Record) error {
	a := map[string]string{}
	r.Attrs(func(at slog.Attr) bool {
		a[at.Key] = at.Value.String()
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evs = append(l.evs, [4]string{strings.TrimPrefix(r.Message, "tool "), a["tool"], a["parent"], a["token"]})
	return nil
}

func (l *eventLog) WithAttrs([]slog.Attr) slog.Handler { return l }

func (l *eventLog) WithGroup(string) slog.Handler { return l }

func TestExecute_nestedLogEvents(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	type ev = [4]string // kind, tool, parent, token
	var log eventLog
	r := f.runBatch(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(`await tools.get_weather({city: "Paris"}); return 1`)}, Logger: slog.New(&log)})
	require.False(t, r.IsError)
	tok := r.Outcome.Invocation().Token()
	require.NotEmpty(t, tok)
	require.Equal(t, []ev{
		{"call", "run_code", "", tok},
		{"call", "get_weather", tok, r.Subcalls[0].Outcome.Invocation().Token()},
		{"result", "get_weather", tok, r.Subcalls[0].Outcome.Invocation().Token()},
		{"result", "run_code", "", tok},
	}, log.evs)
}

func TestExecute_toolSetApplies(t *testing.T) {
	reg := registry.New()
	_, err := reg.Register(weatherTool())
	require.NoError(t, err)
	on := atomic.Bool{}
	secret := rawTool("secret", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return "s3cret", nil })
	_, err = reg.Register(secret, registry.When(func(context.Context, registry.Step) (bool, error) { return on.Load(), nil }))
	require.NoError(t, err)
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t)})
	require.NoError(t, err)
	defer ex.Close(context.Background())

	prog := runCall(`return [Object.hasOwn(tools, "secret"), await __ptc_call("secret", {}).catch((e) => e.code)]`)
	for _, enabled := range []bool{false, true} {
		on.Store(enabled)
		set, err := reg.Resolve(context.Background(), registry.Step{})
		require.NoError(t, err)
		desc := ex.RunCodeSchema(registry.Scope{}, set).Description
		require.Equal(t, enabled, strings.Contains(desc, "secret("), desc)
		r := ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{prog}, ToolSet: set})[0]
		want := `[false,"UNKNOWN_TOOL"]`
		if enabled {
			want = `[true,"s3cret"]`
		}
		require.JSONEq(t, want, string(r.Run.ReturnValue))
		set.Dispose()
	}
}

func TestDescribe(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	s := f.ex.RunCodeSchema(registry.Scope{}, nil)
	require.Equal(t, "run_code", s.Name)
	require.JSONEq(t, `{"type":"object","properties":{"code":{"type":"string","description":"The program: the body of an async JavaScript function."}},"required":["code"],"additionalProperties":false}`, string(s.Parameters))
	require.Contains(t, s.Description, "```ts\ndeclare const tools: {\n  /** Current weather for a city. */\n  get_weather(args: {")
	require.Contains(t, s.Description, "Promise<{ tempC: number; sky: string }>")
	require.Contains(t, s.Description, "Limits: 30s, 1000 tool calls, 65536 bytes of output.")
	require.Equal(t, s, f.ex.RunCodeSchema(registry.Scope{}, nil), "byte-stable")

	// A registration changes the description at once.
	_, err := f.reg.Register(rawTool("later", registry.Parallel, func(context.Context, json.RawMessage) (any, error) { return nil, nil }))
	require.NoError(t, err)
	require.Contains(t, f.ex.RunCodeSchema(registry.Scope{}, nil).Description, "later(")
	r := f.run(t, `return typeof tools.later`)
	require.Equal(t, "function", registry.PlainText(r.Content))
}

func TestExecute_concurrentBatches(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.run(t, fmt.Sprintf(`const w = await tools.get_weather({city: "Oslo"}); return w.tempC + %d`, i))
			if got := registry.PlainText(r.Content); got != fmt.Sprint(i-3) {
				t.Errorf("run %d: %s", i, got)
			}
		}()
	}
	wg.Wait()
}

func TestExecute_runCodePolicy(t *testing.T) {
	f := newFixture(t, host.Limits{}, weatherTool())
	var results atomic.Int32
	f.ex.RunCodePipeline().OnResult(func(_ context.Context, o *pipeline.Outcome) { results.Add(1) })
	remove := f.ex.RunCodePipeline().Guard(func(inv *pipeline.Invocation) string {
		if strings.Contains(string(inv.Arguments()), "forbidden") {
			return "programs may not say forbidden"
		}
		return ""
	})
	defer remove()
	r := f.run(t, `return "forbidden"`)
	require.True(t, r.IsError)
	require.Nil(t, r.Run)
	require.Equal(t, "Error: programs may not say forbidden", registry.PlainText(r.Content))
	require.Equal(t, "DENIED", pipeline.CodeOf(r.Outcome.Err()))
	r = f.run(t, `return "fine"`)
	require.Equal(t, "fine", registry.PlainText(r.Content))
	require.Equal(t, int32(2), results.Load())
}
