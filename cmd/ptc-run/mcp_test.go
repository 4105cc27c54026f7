package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/mcptest"
)

// everythingFlag is the --mcp value that mounts the reference server as
// "ev"; extra words mark its command line (see serverProcesses).
func everythingFlag(t *testing.T, extra ...string) string {
	t.Helper()
	node, args := mcptest.Everything(t)
	return "ev=" + strings.Join(append(append([]string{node}, args...), extra...), " ")
}

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRun_mcp(t *testing.T) {
	skipUnbuilt(t)
	ev := everythingFlag(t)
	code, out, errs := runCLI(t, `
const [s, e] = await Promise.all([tools.ev__get_sum({a: 2, b: 3}), tools.ev__echo({message: "hi"})]);
console.log(s);
const w = await tools.ev__get_structured_content({location: "Chicago"});
await tools.ev__get_tiny_image({});
return {e, humidity: w.humidity};`, "run", "--mcp", ev, "--tools", "../../testdata/tools/weather.json", "-")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "The sum of 2 and 3 is 5.\n{\"e\": \"Echo: hi\", \"humidity\": 82}\nImage from ev__get-tiny-image (call 4):\n[image image/png 4033 bytes]\n", out)

	// --json carries the subcalls with their tools' own names.
	code, out, errs = runCLI(t, `return await tools.ev__echo({message: 7})`, "run", "--json", "--mcp", ev, "-")
	require.Equal(t, 1, code, errs)
	var got struct {
		Subcalls []struct {
			Tool string
			Code *string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Equal(t, "ev__echo", got.Subcalls[0].Tool)
	require.Equal(t, "INVALID_ARGUMENTS", *got.Subcalls[0].Code)
}

func TestRun_mcpUnavailable(t *testing.T) {
	for _, flag := range []string{"x=/nonexistent/mcp-server", "x=", "bad name=cmd", "x=https://"} {
		code, out, errs := runCLI(t, `return 1`, "run", "--mcp", flag, "-")
		require.Equal(t, 2, code, flag)
		require.Empty(t, out)
		require.Contains(t, errs, "ptc-run: ", flag)
	}
	code, _, errs := runCLI(t, ``, "run", "--mcp", "x=/nonexistent/mcp-server", "-")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "MCP server x=/nonexistent/mcp-server could not be started or initialised")
}

func TestSDK_mcp(t *testing.T) {
	skipUnbuilt(t)
	code, out, errs := runCLI(t, "", "sdk", "--mcp", everythingFlag(t))
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "  ev__echo(args: { /** Message to echo */ message: string }): Promise<unknown>;")
	require.Contains(t, out, `Calls the tool "ev__get-sum".`)
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// ptcRunBinary builds ptc-run once (without -race, whatever the test
// binary is) for the tests that need a process.
func ptcRunBinary(t *testing.T) string {
	t.Helper()
	skipUnbuilt(t)
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ptc-run-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "ptc-run")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, binErr)
	return binPath
}

// serverProcesses returns the pids of live processes whose command line
// holds marker.
func serverProcesses(marker string) []string {
	var pids []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte(marker)) {
			stat, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "stat"))
			if i := bytes.LastIndexByte(stat, ')'); i >= 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
				continue // a zombie waits for its parent, it runs nothing
			}
			pids = append(pids, filepath.Base(filepath.Dir(f)))
		}
	}
	return pids
}

// TestRun_mcpSignals: SIGINT or SIGTERM during a run ends ptc-run promptly,
// with the aborted content, and leaves no server process behind; so does
// a run's timeout.
func TestRun_mcpSignals(t *testing.T) {
	bin := ptcRunBinary(t)
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"SIGTERM", syscall.SIGTERM, nil},
		{"SIGINT", syscall.SIGINT, nil},
		{"timeout", 0, []string{"--timeout", "1s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			marker := fmt.Sprintf("ptc-test-marker-%d-%s", os.Getpid(), c.name)
			// The program tells the test it is in its long call by writing
			// a file through the reference filesystem server.
			dir := t.TempDir()
			fsNode, fsArgs := mcptest.Filesystem(t, dir)
			args := append([]string{"run", "--mcp", everythingFlag(t, marker),
				"--mcp", "fs=" + strings.Join(append([]string{fsNode}, fsArgs...), " ")}, c.args...)
			cmd := exec.Command(bin, append(args, "-")...)
			ready := filepath.Join(dir, "ready")
			cmd.Stdin = strings.NewReader(`await tools.ev__echo({message: "up"}); console.log("up");
await tools.fs__write_file({path: ` + strconv.Quote(ready) + `, content: "up"});
await tools.ev__trigger_long_running_operation({duration: 60, steps: 60});`)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			pr, pw, err := os.Pipe()
			require.NoError(t, err)
			cmd.Stderr = pw
			require.NoError(t, cmd.Start())
			pw.Close()
			var errOut bytes.Buffer
			copied := make(chan struct{})
			go func() { bufio.NewReader(pr).WriteTo(&errOut); close(copied) }()
			deadline := time.Now().Add(30 * time.Second)
			for {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				require.True(t, time.Now().Before(deadline), "the program never reached its long call")
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond) // the long call is under way
			start := time.Now()
			if c.sig != 0 {
				require.NoError(t, cmd.Process.Signal(c.sig))
			}
			err = cmd.Wait()
			require.Less(t, time.Since(start), 10*time.Second)
			<-copied
			require.Error(t, err, "exit status 1: the run failed")
			t.Logf("exit: %v; stderr: %s", err, errOut.String())
			if c.sig != 0 {
				require.Contains(t, stdout.String(), "Error: code run failed (aborted)")
			} else {
				require.Contains(t, stdout.String(), "Error: code run failed (timeout)")
			}
			require.Contains(t, stdout.String(), "Captured output:\nup")
			for len(serverProcesses(marker))+len(serverProcesses(dir)) > 0 {
				require.True(t, time.Now().Before(deadline), "server processes left: %v %v", serverProcesses(marker), serverProcesses(dir))
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// serveStdio starts ptc-run serve --stdio and connects a Go SDK client.
func TestServe_stdio(t *testing.T) {
	bin := ptcRunBinary(t)
	cmd := exec.Command(bin, "serve", "--stdio", "--tools", "../../testdata/tools/weather.json", "--mcp", everythingFlag(t))
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	require.Contains(t, tools.Tools[0].Description, "ev__echo(args: {")
	require.Contains(t, tools.Tools[0].Description, "get_weather(args: {")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{
		"code": `const r = await tools.ev__get_sum({a: 20, b: 22}); await tools.ev__get_tiny_image({}); return r`,
	}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Equal(t, "The sum of 20 and 22 is 42.", res.Content[0].(*sdk.TextContent).Text)
	require.Equal(t, "Image from ev__get-tiny-image (call 2):", res.Content[1].(*sdk.TextContent).Text)
	require.Equal(t, "image/png", res.Content[2].(*sdk.ImageContent).MIMEType)
	sc, _ := json.Marshal(res.StructuredContent)
	require.JSONEq(t, `{"returnValue":"The sum of 20 and 22 is 42."}`, string(sc))
}

// TestServe_http starts ptc-run serve on a free port and runs programs
// through the Go SDK's streamable HTTP client; SIGTERM then lets a run in
// progress finish within --grace.
func TestServe_http(t *testing.T) {
	bin := ptcRunBinary(t)
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--grace", "5s", "--tools", "../../testdata/tools/weather.json")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	lines := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var rec map[string]any
			if json.Unmarshal(sc.Bytes(), &rec) == nil {
				lines <- rec
			}
		}
		close(lines)
	}()
	var url string
	for rec := range lines {
		if rec["msg"] == "listening" {
			url = rec["mcp"].(string)
			break
		}
	}
	require.NotEmpty(t, url)
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	call := func(code string) *sdk.CallToolResult {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": code}})
		require.NoError(t, err)
		return res
	}
	res := call(`return (await tools.get_weather({city: "Paris"})).tempC`)
	require.False(t, res.IsError)
	require.Equal(t, "21", res.Content[0].(*sdk.TextContent).Text)
	// The subcall's "tool result" (the pipeline's slog result logger), then
	// the run's record; the subcall's parent is the run's token.
	sub := <-lines
	require.Equal(t, "tool result", sub["msg"])
	require.Equal(t, "get_weather", sub["tool"])
	rec := <-lines
	require.Equal(t, "run", rec["msg"])
	require.Equal(t, rec["token"], sub["parent"])
	require.Equal(t, "ok", rec["kind"])
	require.EqualValues(t, 1, rec["subcalls"])
	require.Contains(t, rec, "duration_ms")

	done := make(chan *sdk.CallToolResult)
	go func() { done <- call(`await new Promise(r => setTimeout(r, 1000)); return "done"`) }()
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	res = <-done
	require.False(t, res.IsError, "the run in progress finished within the grace")
	require.Equal(t, "done", res.Content[0].(*sdk.TextContent).Text)
	require.NoError(t, cmd.Wait())
}
