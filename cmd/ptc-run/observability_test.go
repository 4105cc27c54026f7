//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/fixture"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// The OpenTelemetry Collector these tests send to is built from its own
// Go modules (internal/otelcol, its own go.mod, one pinned release) by
// make test-integration, which names it in PTC_OTELCOL; Prometheus is
// Debian's (scripts/install-prometheus.sh).
const envOtelcol = "PTC_OTELCOL"

// obsProgram has two parallel subcalls and a failing one, and prints the
// failure's code.
const obsProgram = `const [p, o] = await Promise.all([tools.get_weather({city: "Paris"}), tools.get_weather({city: "Oslo"})]);
try { await tools.get_weather({city: "Atlantis"}); } catch (e) { console.log(e.code); }
return p.tempC + o.tempC;`

// collector is a running test collector writing what it receives to file.
type collector struct {
	endpoint string // http://host:port of its OTLP/HTTP receiver
	file     string
}

func startCollector(t *testing.T) *collector {
	t.Helper()
	bin := os.Getenv(envOtelcol)
	if bin == "" {
		t.Skip(envOtelcol + " is not set: make test-integration builds the OpenTelemetry Collector (internal/otelcol) and runs this test")
	}
	dir := t.TempDir()
	addr := freeAddr(t)
	c := &collector{endpoint: "http://" + addr, file: filepath.Join(dir, "spans.json")}
	cfg := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  file:
    path: %s
    flush_interval: 100ms
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file]
`, addr, c.file)
	cfgPath := writeFile(t, dir, "otelcol.yaml", cfg)
	cmd := exec.Command(bin, "--config", cfgPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), "Everything is ready") {
		if time.Now().After(deadline) {
			t.Fatalf("collector not ready after 30s:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return c
}

// span is one exported span as the file exporter writes it (OTLP JSON).
type span struct {
	TraceID, SpanID, ParentSpanID, Name string
	Attributes                          []otlpAttr
	Events                              []struct{ Name string }
	Status                              struct{ Code int }
}

type otlpAttr struct {
	Key   string
	Value struct {
		StringValue *string
		IntValue    *string
		BoolValue   *bool
	}
}

func (s span) attr(key string) string {
	for _, a := range s.Attributes {
		if a.Key != key {
			continue
		}
		switch v := a.Value; {
		case v.StringValue != nil:
			return *v.StringValue
		case v.IntValue != nil:
			return *v.IntValue
		case v.BoolValue != nil:
			return strconv.FormatBool(*v.BoolValue)
		}
	}
	return ""
}

func (s span) events() []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Name)
	}
	return out
}

// spans reads what the collector exported so far, by service.name.
func (c *collector) spans(t *testing.T) map[string][]span {
	t.Helper()
	b, err := os.ReadFile(c.file)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	out := map[string][]span{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var doc struct {
			ResourceSpans []struct {
				Resource   struct{ Attributes []otlpAttr }
				ScopeSpans []struct{ Spans []span }
			}
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &doc), sc.Text())
		for _, rs := range doc.ResourceSpans {
			service := span{Attributes: rs.Resource.Attributes}.attr("service.name")
			for _, ss := range rs.ScopeSpans {
				out[service] = append(out[service], ss.Spans...)
			}
		}
	}
	return out
}

// waitSpans waits until service has exported at least n spans.
func (c *collector) waitSpans(t *testing.T, service string, n int) []span {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := c.spans(t)[service]
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkRunTree checks the spans of one obsProgram run under the run span
// run: three get_weather children, the third failed.
func checkRunTree(t *testing.T, all []span, run span) {
	t.Helper()
	assert.Equal(t, "execute_tool", run.attr("gen_ai.operation.name"))
	assert.Equal(t, "run_code", run.attr("gen_ai.tool.name"))
	assert.Equal(t, "ok", run.attr("ptc.run.kind"))
	assert.Equal(t, "3", run.attr("ptc.run.subcalls"))
	assert.Equal(t, strconv.Itoa(len("TOOL_FAILED\n")), run.attr("ptc.run.output_bytes"))
	assert.NotEmpty(t, run.attr("ptc.run.memory_bytes"))
	byID := map[string]span{}
	for _, s := range all {
		if s.ParentSpanID == run.SpanID && s.TraceID == run.TraceID {
			byID[s.attr("gen_ai.tool.call.id")] = s
		}
	}
	require.Len(t, byID, 3, "the run's subcall spans")
	for id, want := range map[string]string{"1": "", "2": "", "3": "TOOL_FAILED"} {
		s := byID[id]
		assert.Equal(t, "execute_tool get_weather", s.Name)
		assert.Equal(t, "execute_tool", s.attr("gen_ai.operation.name"))
		assert.Equal(t, want, s.attr("error.type"), "subcall %s", id)
		assert.Equal(t, run.attr("ptc.call.token"), s.attr("ptc.call.parent"))
	}
}

func findSpans(all []span, name, key, value string) []span {
	var out []span
	for _, s := range all {
		if s.Name == name && (key == "" || s.attr(key) == value) {
			out = append(out, s)
		}
	}
	return out
}

// TestObservability_collector: a real ptc-run run and a real ptc-run
// serve export their spans over OTLP to a real OpenTelemetry Collector,
// configured by the standard environment variables only; the test reads
// the spans the collector wrote and checks the tree of a program with
// parallel subcalls and a failing one, the parentage under a traceparent
// the client sent (header and _meta), and, from the library with the
// same SDK and exporter, the events of a denied and an asked subcall.
func TestObservability_collector(t *testing.T) {
	col := startCollector(t)
	bin := ptcRunBinary(t)
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)
	dir := t.TempDir()
	prog := writeFile(t, dir, "prog.js", obsProgram)

	// ptc-run run.
	cmd := exec.Command(bin, "run", "--tools", tools, prog)
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+col.endpoint, "OTEL_SERVICE_NAME=ptc-run-run")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	require.Equal(t, "TOOL_FAILED\n18\n", string(out))
	runSpans := col.waitSpans(t, "ptc-run-run", 4)
	runs := findSpans(runSpans, "execute_tool run_code", "", "")
	require.Len(t, runs, 1)
	assert.Empty(t, runs[0].ParentSpanID, "run's span is a root: no caller")
	assert.Equal(t, "ptc-run", runs[0].attr("gen_ai.tool.call.id"))
	checkRunTree(t, runSpans, runs[0])

	// ptc-run serve: a traceparent in the HTTP header, then in _meta.
	srv := startServe(t, "serve", bin, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + col.endpoint, "OTEL_SERVICE_NAME=ptc-run-serve", "OTEL_BSP_SCHEDULE_DELAY=100"},
		"--listen", "127.0.0.1:0", "--tools", tools)
	srv.waitListening(t)
	mcpURL := "http://" + srv.address() + "/mcp"
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	headerParent, metaParent := "00f067aa0ba902b7", "00f067aa0ba902b8"
	hc := &http.Client{Transport: headerTransport{"traceparent": "00-" + traceID + "-" + headerParent + "-01"}}
	for _, c := range []struct {
		client *http.Client
		meta   sdk.Meta
	}{
		{hc, nil},
		{http.DefaultClient, sdk.Meta{"traceparent": "00-" + traceID + "-" + metaParent + "-01"}},
	} {
		cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: c.client, DisableStandaloneSSE: true}, nil)
		require.NoError(t, err)
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Meta: c.meta, Name: "run_code", Arguments: map[string]string{"code": obsProgram}})
		require.NoError(t, err)
		require.False(t, res.IsError)
		cs.Close()
	}
	serveSpans := col.waitSpans(t, "ptc-run-serve", 8)
	for _, parent := range []string{headerParent, metaParent} {
		var run *span
		for _, s := range findSpans(serveSpans, "execute_tool run_code", "", "") {
			if s.ParentSpanID == parent {
				run = &s
			}
		}
		require.NotNil(t, run, "a run span under the client's span %s", parent)
		assert.Equal(t, traceID, run.TraceID, "the trace the client started")
		checkRunTree(t, serveSpans, *run)
	}

	// Asked subcalls through serve --auth: a principal whose calls of
	// get_weather a person must approve, asked over MCP elicitation in a
	// session; the person approves Paris and declines Oslo.
	authFile := writeFile(t, dir, "auth.json", fmt.Sprintf(`{"principals": [
	  {"name": "asker", "keySha256": %q, "tools": ["*"], "ask": ["get_weather"]}]}`, sha("ask-key")))
	authed := startServe(t, "serve-auth", bin, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + col.endpoint, "OTEL_SERVICE_NAME=ptc-run-serve-auth", "OTEL_BSP_SCHEDULE_DELAY=100"},
		"--listen", "127.0.0.1:0", "--tools", tools, "--auth", authFile, "--sessions")
	authed.waitListening(t)
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			if strings.Contains(req.Params.Message, "Oslo") {
				return &sdk.ElicitResult{Action: "decline"}, nil
			}
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	cs, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: "http://" + authed.address() + "/mcp", HTTPClient: &http.Client{Transport: headerTransport{"Authorization": "Bearer ask-key"}},
	}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": `
		const p = await tools.get_weather({city: "Paris"});
		try { await tools.get_weather({city: "Oslo"}); } catch (e) { console.log(e.code); }
		return p.tempC`}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	cs.Close()
	askSpans := col.waitSpans(t, "ptc-run-serve-auth", 3)
	askRuns := findSpans(askSpans, "execute_tool run_code", "", "")
	require.Len(t, askRuns, 1)
	checkDecisions(t, askSpans, askRuns[0], map[string]decision{
		"1": {"", []string{"asked", "approved"}},
		"2": {"DENIED", []string{"asked", "denied"}},
	})

	// Denied and asked subcalls, through the library with the same SDK
	// and OTLP exporter ptc-run uses, decided by the library's own
	// policy: a pre-execute listener that denies one call and asks for
	// another.
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(col.endpoint+"/v1/traces"))
	require.NoError(t, err)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := registry.New()
	f, err := fixture.Load(tools)
	require.NoError(t, err)
	_, err = f.Register(reg)
	require.NoError(t, err)
	pipe, err := pipeline.New(pipeline.Config{Registry: reg, TracerProvider: tp})
	require.NoError(t, err)
	pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		var a struct{ City string }
		json.Unmarshal(inv.Arguments(), &a)
		switch a.City {
		case "Oslo":
			return pipeline.Deny("Oslo is off limits")
		case "Lima":
			return pipeline.Ask("look up Lima?")
		}
		return d
	})
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, HostConfig: host.Config{CompilationCacheDir: compilationCacheDir()}})
	require.NoError(t, err)
	defer ex.Close(context.Background())
	approve := func(context.Context, *pipeline.Invocation, string) (pipeline.Answer, error) {
		return pipeline.Answer{Approved: true}, nil
	}
	args, _ := json.Marshal(map[string]string{"code": `
		const r = await Promise.allSettled([tools.get_weather({city: "Paris"}), tools.get_weather({city: "Oslo"})]);
		await tools.get_weather({city: "Lima"});
		return r.map(x => x.status)`})
	rs := ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{{ID: "lib", Name: ptc.ToolName, Arguments: args}}, Approver: approve})
	require.False(t, rs[0].IsError, registry.PlainText(rs[0].Content))
	require.NoError(t, tp.Shutdown(context.Background()))
	lib := col.waitSpans(t, "unknown_service:"+filepath.Base(os.Args[0]), 4)
	libRuns := findSpans(lib, "execute_tool run_code", "gen_ai.tool.call.id", "lib")
	require.Len(t, libRuns, 1)
	checkDecisions(t, lib, libRuns[0], map[string]decision{
		"1": {"", nil},
		"2": {"DENIED", []string{"denied"}},
		"3": {"", []string{"asked", "approved"}},
	})
}

// decision is what a subcall's span says of the pipeline's decisions: its
// error.type and its events, in order.
type decision struct {
	errorType string
	events    []string
}

// checkDecisions checks the subcall spans under run, by call id, against
// want: one span for each id, none besides.
func checkDecisions(t *testing.T, spans []span, run span, want map[string]decision) {
	t.Helper()
	got := 0
	for _, s := range spans {
		if s.ParentSpanID != run.SpanID {
			continue
		}
		id := s.attr("gen_ai.tool.call.id")
		w := want[id]
		assert.Equal(t, w.errorType, s.attr("error.type"), id)
		assert.Equal(t, w.events, s.events(), id)
		got++
	}
	assert.Equal(t, len(want), got)
}

// headerTransport adds headers to every request.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// startServe starts ptc-run serve with args and extra environment.
func startServe(t *testing.T, name, bin string, env []string, args ...string) *replica {
	t.Helper()
	r := &replica{
		name:   name,
		cmd:    exec.Command(bin, append([]string{"serve"}, args...)...),
		addr:   make(chan string, 1),
		exited: make(chan struct{}),
	}
	r.cmd.Env = append(os.Environ(), env...)
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := r.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, r.cmd.Start())
	go func() {
		r.readLog(bufio.NewScanner(stderr))
		r.exitErr = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.exited:
		case <-time.After(10 * time.Second):
			r.cmd.Process.Kill()
			r.wait()
		}
	})
	return r
}

// findPrometheus returns Debian's prometheus binary, or skips saying how
// to install it (make test-integration does).
func findPrometheus(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("prometheus"); err == nil {
		return p
	}
	t.Skip("prometheus is not installed: make test-integration installs it (scripts/install-prometheus.sh)")
	return ""
}

// promQuery asks Prometheus' HTTP API for q's instant vector, as a map
// from the series' labels (those named in keys, joined) to its value.
func promQuery(t *testing.T, addr, q string, keys ...string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/v1/query?query=" + url.QueryEscape(q))
	require.NoError(t, err)
	defer resp.Body.Close()
	var body struct {
		Status string
		Data   struct {
			Result []struct {
				Metric map[string]string
				Value  [2]any
			}
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	require.Equal(t, "success", body.Status, q)
	out := map[string]float64{}
	for _, r := range body.Data.Result {
		var k []string
		for _, key := range keys {
			k = append(k, r.Metric[key])
		}
		v, err := strconv.ParseFloat(r.Value[1].(string), 64)
		require.NoError(t, err)
		out[strings.Join(k, ",")] = v
	}
	return out
}

// TestObservability_prometheus: a real Prometheus scrapes ptc-run serve
// --metrics; after a known mix of runs the test reads the series through
// Prometheus' HTTP API.
func TestObservability_prometheus(t *testing.T) {
	prom := findPrometheus(t)
	bin := ptcRunBinary(t)
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)
	srv := startServe(t, "serve", bin, nil, "--listen", "127.0.0.1:0", "--tools", tools, "--metrics", "--timeout", "1s")
	srv.waitListening(t)

	dir := t.TempDir()
	promAddr := freeAddr(t)
	cfg := writeFile(t, dir, "prometheus.yml", fmt.Sprintf(`global:
  scrape_interval: 1s
scrape_configs:
  - job_name: ptc
    static_configs:
      - targets: [%q]
`, srv.address()))
	cmd := exec.Command(prom, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+promAddr)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})

	// The mix: 3 ok (one calls get_weather twice), 2 exceptions (one
	// after a failed subcall), 1 timeout, 1 syntax error.
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: "http://" + srv.address() + "/mcp", DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	for _, code := range []string{
		`return 1`,
		`return 2`,
		`const [a, b] = await Promise.all([tools.get_weather({city: "Paris"}), tools.get_weather({city: "Oslo"})]); return a.tempC + b.tempC`,
		`throw new Error("no")`,
		`await tools.get_weather({city: "Atlantis"})`,
		`while (true) {}`,
		`return (`,
	} {
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": code}})
		require.NoError(t, err)
	}

	// Wait for a scrape that saw all seven runs.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if got := promQuery(t, promAddr, `sum(ptc_runs_total)`); got[""] == 7 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus has not seen the 7 runs after 60s:\n%s", log.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	assert.Equal(t, map[string]float64{"ok": 3, "exception": 2, "timeout": 1, "syntax": 1}, promQuery(t, promAddr, `ptc_runs_total`, "kind"))
	assert.Equal(t, map[string]float64{"get_weather,OK": 2, "get_weather,TOOL_FAILED": 1}, promQuery(t, promAddr, `ptc_subcalls_total`, "tool", "code"))
	assert.Equal(t, map[string]float64{"": 7}, promQuery(t, promAddr, `ptc_run_duration_seconds_count`))
	// The timeout took its second; the rest far less.
	assert.Equal(t, map[string]float64{"": 6}, promQuery(t, promAddr, `ptc_run_duration_seconds_bucket{le="0.5"}`))
	assert.Equal(t, map[string]float64{"": 0}, promQuery(t, promAddr, `ptc_runs_in_flight`))
	idle := promQuery(t, promAddr, `ptc_sandboxes_idle`)
	require.Len(t, idle, 1)
	assert.GreaterOrEqual(t, idle[""], 1.0, "the ok runs left their sandboxes idle")
}

// An OpenTelemetry setting ptc-run does not build in, set in the
// environment for other programs, is a warning: the command still runs
// (every command exited 2 with OTEL_TRACES_EXPORTER=console).
func TestObservability_unsupportedIsAWarning(t *testing.T) {
	for _, c := range []struct{ key, value, warning string }{
		{"OTEL_TRACES_EXPORTER", "console", "OTEL_TRACES_EXPORTER=console"},
		{"OTEL_TRACES_EXPORTER", "zipkin,none", ""},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json", `OTLP protocol \"http/json\"`},
	} {
		t.Run(c.value, func(t *testing.T) {
			t.Setenv(c.key, c.value)
			if c.key == "OTEL_EXPORTER_OTLP_PROTOCOL" {
				t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1") // nothing listens: export fails quietly
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"run", "-"}, strings.NewReader(`return 1 + 1`), &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			require.Equal(t, "2\n", stdout.String())
			if c.warning != "" {
				require.Contains(t, stderr.String(), c.warning)
				require.Contains(t, stderr.String(), `"level":"WARN"`)
			}
		})
	}
}
