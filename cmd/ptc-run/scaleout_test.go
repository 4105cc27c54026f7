//go:build linux

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The load of TestServe_scaleOut.
const (
	scaleReplicas  = 3
	scaleClients   = 50
	scalePerClient = 10
	scalePrograms  = scaleClients * scalePerClient
	// scaleCallTimeout bounds each program, connecting included: no call
	// may hang.
	scaleCallTimeout = 30 * time.Second
)

// scaleCities are the get_weather answers of testdata/tools/weather.json.
var scaleCities = []struct {
	name  string
	tempC int
}{{"Paris", 21}, {"Oslo", -3}, {"Lima", 18}}

// scaleProgram returns program i and the content it must answer: it sums
// 1..i, calls get_weather and, for every other i, sleeps 20 ms, so the load
// lasts long enough to kill a replica in the middle of it.
func scaleProgram(i int) (code, want string) {
	c := scaleCities[i%len(scaleCities)]
	sleep := ""
	if i%2 == 0 {
		sleep = "await new Promise(r => setTimeout(r, 20));\n"
	}
	code = fmt.Sprintf(`let sum = 0;
for (let k = 1; k <= %d; k++) sum += k;
const w = await tools.get_weather({city: %q});
%sreturn {i: %d, sum, w: w.tempC};`, i, c.name, sleep, i)
	want = fmt.Sprintf(`{"i": %d, "sum": %d, "w": %d}`, i, i*(i+1)/2, c.tempC)
	return code, want
}

// TestServe_scaleOut runs three ptc-run serve replicas behind haproxy,
// drives 500 programs through it from 50 MCP clients, SIGKILLs one replica
// after a third of them completed, and checks that every call returned,
// each with its exact answer or a clear error, that the errors are few
// (only the calls in flight on the killed replica), and that the two
// survivors served the rest.
func TestServe_scaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the scale-out test starts three servers and haproxy")
	}
	skipUnbuilt(t)
	testStart := time.Now()
	haproxy := findHAProxy(t)

	dir := t.TempDir()
	buildStart := time.Now()
	// Built without -race whatever the test binary is: the replicas are
	// the system under load, not the code under the race detector.
	bin := ptcRunBinary(t)
	buildTime := time.Since(buildStart)
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)

	// The first replica fills the compilation cache (PTC_CACHE_DIR, set by
	// TestMain) before the others start and read it.
	replicas := make([]*replica, scaleReplicas)
	for i := range replicas {
		replicas[i] = startReplica(t, fmt.Sprintf("r%d", i), bin, tools)
		if i == 0 {
			replicas[0].waitListening(t)
		}
	}
	for _, r := range replicas[1:] {
		r.waitListening(t)
	}
	front := startHAProxy(t, haproxy, dir, replicas)
	url := "http://" + front + "/mcp"

	// The load: each client has its own HTTP client and MCP session.
	calls := make([]scaleCall, scalePrograms)
	var completed atomic.Int64
	killNow := make(chan struct{})
	var wg sync.WaitGroup
	for c := range scaleClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runClient(url, calls[c*scalePerClient:(c+1)*scalePerClient], c*scalePerClient, func() {
				if completed.Add(1) == scalePrograms/3 {
					close(killNow)
				}
			})
		}()
	}
	allDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(allDone)
	}()

	victim := replicas[1]
	atKill := make([]int, scaleReplicas)
	select {
	case <-killNow:
	case <-allDone:
		t.Fatal("every program completed before the replica was to be killed")
	case <-time.After(2 * time.Minute):
		t.Fatalf("only %d of %d programs completed in 2 minutes", completed.Load(), scalePrograms)
	}
	for i, r := range replicas {
		atKill[i] = r.runCount()
	}
	killedAt := time.Now()
	require.NoError(t, victim.cmd.Process.Kill())
	victim.wait()
	deadAt := time.Now()
	t.Logf("killed %s (SIGKILL) after %d completed programs, gone after %v; runs logged per replica then: %v",
		victim.name, scalePrograms/3, deadAt.Sub(killedAt).Round(time.Millisecond), atKill)

	// Every call returns: each has its own deadline, so this only waits.
	select {
	case <-allDone:
	case <-time.After(scaleCallTimeout * scalePerClient):
		t.Fatalf("calls still pending: only %d of %d completed", completed.Load(), scalePrograms)
	}

	// Stop the survivors as SIGTERM does in production, so their logs are
	// read to the end; a graceful stop exits 0.
	for _, r := range replicas {
		if r == victim {
			continue
		}
		require.NoError(t, r.cmd.Process.Signal(syscall.SIGTERM))
		r.wait()
		require.NoError(t, r.exitErr, "%s did not stop cleanly:\n%s", r.name, r.tail())
	}

	// Every result is exact or a clear error; the errors are the calls in
	// flight on the killed replica.
	var (
		ok, transportErrs, runErrs int
		startedAfter               int // run results of calls started after the kill
		latencies                  []time.Duration
		first, last                = calls[0].start, calls[0].end
	)
	for i, c := range calls {
		first, last = minTime(first, c.start), maxTime(last, c.end)
		switch {
		case c.err != nil:
			transportErrs++
			require.NotErrorIs(t, c.err, context.DeadlineExceeded, "program %d hung", i)
			// In flight on the killed replica: sent before it was gone,
			// failed once it was killed.
			require.True(t, c.start.Before(deadAt) && c.end.After(killedAt),
				"program %d failed but was not in flight at the kill (started %v, ended %v after it; the replica was gone after %v): %v",
				i, c.start.Sub(killedAt), c.end.Sub(killedAt), deadAt.Sub(killedAt), c.err)
			if transportErrs <= 3 {
				t.Logf("program %d: transport error: %v", i, c.err)
			}
			continue
		case c.isError:
			runErrs++
			require.NotEmpty(t, c.text, "program %d: an error result with no text", i)
			t.Logf("program %d: error result: %s", i, c.text)
		default:
			_, want := scaleProgram(i)
			require.Equal(t, want, c.text, "program %d: content", i)
			require.Equal(t, `{"returnValue":`+compactJSON(t, want)+`}`, c.structured, "program %d: structuredContent", i)
			ok++
			latencies = append(latencies, c.end.Sub(c.start))
		}
		if c.start.After(killedAt) {
			startedAfter++
		}
	}
	errs := transportErrs + runErrs
	require.Equal(t, scalePrograms, ok+errs)
	require.LessOrEqual(t, errs, scaleClients, "too many errors: more than the calls that can have been in flight")

	// The replicas' logs: one "run" record per run, in the replica that ran
	// it. Each served its share before the kill; the killed one's count
	// stops (but for records it wrote just before dying); the survivors
	// served every call started after the kill.
	final := make([]int, scaleReplicas)
	total, afterKill := 0, 0
	for i, r := range replicas {
		final[i] = r.runCount()
		total += final[i]
		require.Positive(t, atKill[i], "%s ran nothing before the kill", r.name)
		if r == victim {
			require.LessOrEqual(t, final[i]-atKill[i], scaleClients, "%s logged runs after the kill", r.name)
			continue
		}
		require.Positive(t, final[i]-atKill[i], "%s ran nothing after the kill", r.name)
		afterKill += final[i] - atKill[i]
	}
	require.GreaterOrEqual(t, afterKill, startedAfter, "the survivors logged fewer runs after the kill than calls started after it")
	// Each answered run was logged once; a run logged but unanswered can
	// only be one the killed replica finished just before it died.
	require.GreaterOrEqual(t, total, ok+runErrs, "answered runs missing from the logs")
	require.LessOrEqual(t, total, ok+runErrs+transportErrs, "more runs logged than calls made")

	slices.Sort(latencies)
	elapsed := last.Sub(first)
	throughput := float64(scalePrograms) / elapsed.Seconds()
	p50, p99 := percentile(latencies, 50), percentile(latencies, 99)
	line := fmt.Sprintf("scale-out: %d programs from %d MCP clients over %d ptc-run serve replicas behind haproxy, one SIGKILLed after %d: "+
		"%.0f programs/s, p50 %v, p99 %v, %d errors (%d transport, %d run), runs per replica %v at the kill and %v in all (killed %s), load %v, test %v (build %v)",
		scalePrograms, scaleClients, scaleReplicas, scalePrograms/3,
		throughput, p50.Round(time.Millisecond), p99.Round(time.Millisecond), errs, transportErrs, runErrs, atKill, final, victim.name,
		elapsed.Round(time.Millisecond), time.Since(testStart).Round(100*time.Millisecond), buildTime.Round(100*time.Millisecond))
	t.Log(line)
	// PTC_SCALEOUT_REPORT names a file to append the line to, for quoting
	// figures from a run without -v.
	if path := os.Getenv("PTC_SCALEOUT_REPORT"); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		require.NoError(t, err)
		_, err = fmt.Fprintln(f, line)
		require.NoError(t, errors.Join(err, f.Close()))
	}
}

// scaleCall is what one program's call returned.
type scaleCall struct {
	start, end time.Time
	err        error  // a transport error: no result
	isError    bool   // the result's IsError
	text       string // the result's text content
	structured string // the result's structuredContent as JSON
}

// runClient runs the programs first, first+1, ... one after the other on
// its own MCP session through url, recording each in calls, and calls done
// after each. After a transport error it connects anew, as a client would.
func runClient(url string, calls []scaleCall, first int, done func()) {
	httpc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2}}
	defer httpc.CloseIdleConnections()
	var cs *sdk.ClientSession
	defer func() {
		if cs != nil {
			cs.Close()
		}
	}()
	for j := range calls {
		c := &calls[j]
		code, _ := scaleProgram(first + j)
		c.start = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), scaleCallTimeout)
		if cs == nil {
			cl := sdk.NewClient(&sdk.Implementation{Name: "scaleout", Version: "1"}, nil)
			cs, c.err = cl.Connect(ctx, &sdk.StreamableClientTransport{
				Endpoint: url, HTTPClient: httpc, DisableStandaloneSSE: true, MaxRetries: -1,
			}, nil)
		}
		if c.err == nil {
			var res *sdk.CallToolResult
			res, c.err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": code}})
			if c.err == nil {
				c.isError = res.IsError
				for _, p := range res.Content {
					if tc, ok := p.(*sdk.TextContent); ok {
						c.text += tc.Text
					}
				}
				b, _ := json.Marshal(res.StructuredContent)
				c.structured = string(b)
			}
		}
		cancel()
		c.end = time.Now()
		if c.err != nil && cs != nil {
			cs.Close()
			cs = nil
		}
		done()
	}
}

// replica is one ptc-run serve process and what its log said.
type replica struct {
	name    string
	cmd     *exec.Cmd
	addr    chan string   // the listening address, once
	exited  chan struct{} // closed once the process exited and its log was read
	exitErr error         // cmd.Wait's, once exited is closed

	mu       sync.Mutex
	runs     int            // "run" records
	sessions map[string]int // "run" records by session (serve --sessions)
	results  map[string]int // "tool result" records by tool
	lines    []string       // the last lines of stderr, for failure messages
}

// startReplica starts `ptc-run serve` on a free loopback port, with extra
// flags; the test's cleanup kills it if it still runs.
func startReplica(t *testing.T, name, bin, tools string, extra ...string) *replica {
	t.Helper()
	r := &replica{
		name:   name,
		cmd:    exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--tools", tools, "--timeout", "10s"}, extra...)...),
		addr:   make(chan string, 1),
		exited: make(chan struct{}),
	}
	// Killed with the test binary, should it die without its cleanups.
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
		r.cmd.Process.Kill()
		r.wait()
	})
	return r
}

// readLog reads the JSON log lines of the replica until its stderr closes.
func (r *replica) readLog(sc *bufio.Scanner) {
	for sc.Scan() {
		line := sc.Text()
		var rec struct{ Msg, Addr, Session, Tool string }
		json.Unmarshal([]byte(line), &rec)
		r.mu.Lock()
		r.lines = append(r.lines, line)
		if len(r.lines) > 20 {
			r.lines = r.lines[1:]
		}
		switch rec.Msg {
		case "tool result":
			if r.results == nil {
				r.results = map[string]int{}
			}
			r.results[rec.Tool]++
		case "listening":
			r.addr <- rec.Addr
		case "run":
			r.runs++
			if rec.Session != "" {
				if r.sessions == nil {
					r.sessions = map[string]int{}
				}
				r.sessions[rec.Session]++
			}
		}
		r.mu.Unlock()
	}
}

func (r *replica) waitListening(t *testing.T) {
	t.Helper()
	select {
	case a := <-r.addr:
		r.addr <- a
	case <-r.exited:
		t.Fatalf("%s exited before listening: %v\n%s", r.name, r.exitErr, r.tail())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s not listening after 30s:\n%s", r.name, r.tail())
	}
}

func (r *replica) address() string {
	a := <-r.addr
	r.addr <- a
	return a
}

// wait returns once the process exited and its log was read.
func (r *replica) wait() { <-r.exited }

func (r *replica) runCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs
}

// toolResults is how many "tool result" records the replica logged for tool.
func (r *replica) toolResults(tool string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results[tool]
}

func (r *replica) tail() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

// startHAProxy runs haproxy in the foreground, balancing round robin over
// the replicas with health checks on /healthz (and the extra lines in its
// proxy section), and returns its address once it answers.
func startHAProxy(t *testing.T, bin, dir string, replicas []*replica, extra ...string) string {
	t.Helper()
	front := freeAddr(t)
	var servers strings.Builder
	for _, r := range replicas {
		fmt.Fprintf(&servers, "    server %s %s check inter 200ms fall 2 rise 1\n", r.name, r.address())
	}
	// A refused connection (the killed replica, until its checks fail) is
	// retried on another server: redispatch on every retry, after the
	// connect timeout's turn-around (so keep it short: all is loopback).
	cfg := fmt.Sprintf(`global
    maxconn 1024

defaults
    mode http
    timeout connect 500ms
    timeout client 60s
    timeout server 60s
    timeout check 2s
    retries 2
    option redispatch 1
    option http-server-close

listen mcp
    bind %s
    balance roundrobin
    option httpchk GET /healthz
%s%s`, front, strings.Join(extra, ""), servers.String())
	path := filepath.Join(dir, "haproxy.cfg")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o644))
	if out, err := exec.Command(bin, "-c", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s\n%s", err, out, cfg)
	}

	cmd := exec.Command(bin, "-f", path, "-db")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("haproxy output:\n%s", out.String())
		}
	})

	// Ready when a health request goes through it to a replica.
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + front + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return front
			}
		}
		select {
		case <-exited:
			t.Fatalf("haproxy exited:\n%s", out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy not ready after 10s (%v):\n%s", err, out.String())
		}
	}
}

// findHAProxy returns the haproxy binary, installing it with
// scripts/install-haproxy.sh when it is missing; it skips the test when
// neither works.
func findHAProxy(t *testing.T) string {
	t.Helper()
	look := func() string {
		if p, err := exec.LookPath("haproxy"); err == nil {
			return p
		}
		// Debian installs it in /usr/sbin, not on every user's PATH.
		if _, err := os.Stat("/usr/sbin/haproxy"); err == nil {
			return "/usr/sbin/haproxy"
		}
		return ""
	}
	if p := look(); p != "" {
		return p
	}
	out, err := exec.Command("sh", "../../scripts/install-haproxy.sh").CombinedOutput()
	if err != nil {
		t.Skipf("haproxy not found and scripts/install-haproxy.sh failed (%v):\n%s", err, out)
	}
	if p := look(); p != "" {
		return p
	}
	t.Skipf("haproxy not found after scripts/install-haproxy.sh:\n%s", out)
	return ""
}

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// lockedBuffer is an io.Writer safe for the two copiers of a process's
// stdout and stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// percentile returns the p-th percentile of sorted durations (nearest
// rank).
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[max(i, 1)-1]
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
