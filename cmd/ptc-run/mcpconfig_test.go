package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/mcptest"
)

// quote is v as JSON, for writing config files.
func quote(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// shapes are config files as Claude Desktop, Cursor and VS Code document
// them, each mounting the reference server "everything" as ev (over stdio
// in Claude Desktop's, whose file has only stdio servers; over streamable
// HTTP behind a bearer token in the others') and the filesystem server as
// fs.
func shapes(t *testing.T, evURL, dir string) map[string]string {
	evNode, evArgs := mcptest.Everything(t)
	fsNode, fsArgs := mcptest.Filesystem(t, dir)
	return map[string]string{
		// claude_desktop_config.json: "mcpServers", command/args/env.
		"claude_desktop_config.json": `{
  "mcpServers": {
    "ev": {
      "command": ` + quote(evNode) + `,
      "args": ` + quote(evArgs) + `,
      "env": {"PTC_SHAPE": "claude"}
    },
    "fs": {
      "command": ` + quote(fsNode) + `,
      "args": ` + quote(fsArgs) + `
    }
  },
  "globalShortcut": ""
}`,
		// .cursor/mcp.json: "mcpServers"; a remote server is a url with
		// headers, ${env:NAME} interpolated.
		"cursor-mcp.json": `{
  "mcpServers": {
    "ev": {
      "url": ` + quote(evURL) + `,
      "headers": {"Authorization": "Bearer ${env:EV_TOKEN}"}
    },
    "fs": {
      "type": "stdio",
      "command": ` + quote(fsNode) + `,
      "args": ` + quote(fsArgs) + `,
      "env": {"PTC_SHAPE": "cursor"},
      "envFile": ".env"
    }
  }
}`,
		// .vscode/mcp.json: "servers" with a type each, and "inputs"
		// (prompts VS Code shows; ptc reads the environment instead).
		"vscode-mcp.json": `{
  "inputs": [
    {"type": "promptString", "id": "ev-token", "description": "Everything token", "password": true}
  ],
  "servers": {
    "ev": {
      "type": "http",
      "url": ` + quote(evURL) + `,
      "headers": {"Authorization": "Bearer ${env:EV_TOKEN}"}
    },
    "fs": {
      "type": "stdio",
      "command": ` + quote(fsNode) + `,
      "args": ` + quote(fsArgs) + `,
      "dev": {"watch": "src/**/*.ts"}
    }
  }
}`,
	}
}

// TestMCPConfig_shapes: the three hosts' files mount the same servers
// (sdk prints the same declarations), the keys ptc does not use are
// warned about once each, and env reaches a stdio server.
func TestMCPConfig_shapes(t *testing.T) {
	skipUnbuilt(t)
	const token = "ev-token-for-shapes"
	proxy := mcptest.NewBearerProxy(t, mcptest.StartEverythingHTTP(t), token)
	t.Setenv("EV_TOKEN", token)
	dir := t.TempDir()
	writeFile(t, dir, "note.txt", "a note")
	sdks := map[string]string{}
	for name, content := range shapes(t, proxy.URL, dir) {
		path := writeFile(t, t.TempDir(), name, content)
		code, out, errs := runCLI(t, "", "sdk", "--mcp-config", path)
		require.Equal(t, 0, code, "%s: %s", name, errs)
		require.Contains(t, out, "ev__echo(args: {", name)
		require.Contains(t, out, "fs__read_text_file(args: FsReadArgs)", name)
		sdks[name] = out
		// One warning per key ignored.
		ignored := map[string]int{"claude_desktop_config.json": 1, "cursor-mcp.json": 1, "vscode-mcp.json": 2}[name]
		require.Equal(t, ignored, strings.Count(errs, `"msg":"mcp config: key ignored"`), "%s: %s", name, errs)
	}
	require.True(t, proxy.Sent("Bearer "+token))
	// The same tools; over HTTP the SDK gives the schemas' properties in
	// its own order (the order as written is kept over stdio only).
	declared := regexp.MustCompile(`(?m)^  (\w+)\(`)
	require.Equal(t, declared.FindAllString(sdks["claude_desktop_config.json"], -1), declared.FindAllString(sdks["cursor-mcp.json"], -1))
	require.Equal(t, sdks["cursor-mcp.json"], sdks["vscode-mcp.json"])

	// env reaches the stdio server; --mcp-config goes with --tools and --mcp.
	claude := writeFile(t, t.TempDir(), "claude.json", shapes(t, proxy.URL, dir)["claude_desktop_config.json"])
	fsNode, fsArgs := mcptest.Filesystem(t, dir)
	code, out, errs := runCLI(t, `
const env = await tools.ev__get_env({}); // its JSON text, parsed
const note = await tools.fs2__read_text_file({path: `+quote(filepath.Join(dir, "note.txt"))+`});
const w = await tools.get_weather({city: "Paris"});
return [env.PTC_SHAPE, note.content, w.tempC].join(" ")`,
		"run", "--mcp-config", claude, "--tools", "../../testdata/tools/weather.json",
		"--mcp", "fs2="+strings.Join(append([]string{fsNode}, fsArgs...), " "), "-")
	require.Equal(t, 0, code, out+errs)
	require.Equal(t, "claude a note 21\n", out)

	// A server named twice, by --mcp and by a file, is refused.
	code, _, errs = runCLI(t, `return 1`, "run", "--mcp-config", claude, "--mcp", "fs="+fsNode, "-")
	require.Equal(t, 2, code)
	require.Contains(t, errs, `two MCP servers named "fs"`)
}

// TestMCPConfig_errors: a malformed file exits 2 with a message naming
// the file, the server and the key; a missing variable names the
// variable.
func TestMCPConfig_errors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PTC_TEST_UNSET", "")
	for _, c := range []struct{ file, want string }{
		{`{"mcpServers": {"fs": {"command": "x", "args": "-v"}}}`, `server "fs": key "args": want an array of strings`},
		{`{"mcpServers": {"docs": {"url": "https://h/", "headers": {"Authorization": "Bearer ${PTC_TEST_UNSET}"}}}}`,
			`server "docs": key "headers.Authorization": the environment variable PTC_TEST_UNSET is not set`},
		{"{\"mcpServers\": {\n  \"fs\": {\"command\": \"x\"} \"y\"}}", `malformed JSON: line 2, column`},
	} {
		path := writeFile(t, dir, "bad.json", c.file)
		for _, cmd := range [][]string{{"run", "-"}, {"sdk"}, {"serve", "--stdio"}} {
			args := append([]string{cmd[0], "--mcp-config", path}, cmd[1:]...)
			code, out, errs := runCLI(t, "return 1", args...)
			require.Equal(t, 2, code, "%v: %s", args, errs)
			require.Empty(t, out)
			require.Contains(t, errs, "ptc-run: --mcp-config "+path+": mcp: bad config: "+c.want, args)
		}
	}
	code, _, errs := runCLI(t, "", "sdk", "--mcp-config", filepath.Join(dir, "missing.json"))
	require.Equal(t, 2, code)
	require.Contains(t, errs, "missing.json: no such file")
}

// TestMCPConfig_tokenRotation: a remote server behind a bearer token, its
// token from ${EV_TOKEN}: a process without the variable exits 2 naming
// it; with the right token the tools are mounted and callable; once the
// server's token is rotated, a process with the old one exits 2 saying
// which variable to set, and a new process with the new one works.
func TestMCPConfig_tokenRotation(t *testing.T) {
	bin := ptcRunBinary(t)
	proxy := mcptest.NewBearerProxy(t, mcptest.StartEverythingHTTP(t), "token-one-aaaa")
	path := writeFile(t, t.TempDir(), "mcp.json", `{"mcpServers": {"ev": {"url": `+quote(proxy.URL)+`,
  "headers": {"Authorization": "Bearer ${EV_TOKEN}"}}}}`)
	ptcRun := func(token string) (int, string, string) {
		cmd := exec.Command(bin, "run", "--mcp-config", path, "-")
		cmd.Env = os.Environ()
		if token != "" {
			cmd.Env = append(cmd.Env, "EV_TOKEN="+token)
		}
		cmd.Stdin = strings.NewReader(`return await tools.ev__get_sum({a: 1, b: 2})`)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		return code, stdout.String(), stderr.String()
	}
	code, _, errs := ptcRun("")
	require.Equal(t, 2, code)
	require.Contains(t, errs, `server "ev": key "headers.Authorization": the environment variable EV_TOKEN is not set`)

	code, out, errs := ptcRun("token-one-aaaa")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "The sum of 1 and 2 is 3.\n", out)

	proxy.Rotate("token-two-bbbb")
	code, _, errs = ptcRun("token-one-aaaa")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "MCP server ev="+proxy.URL+" answered 401 Unauthorized: it needs credentials; the header Authorization it was sent was refused: set EV_TOKEN to a valid credential")
	require.NotContains(t, errs, "token-one-aaaa")

	code, out, errs = ptcRun("token-two-bbbb")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "The sum of 1 and 2 is 3.\n", out)
}

// TestMCPConfig_secrets plants secrets (a token from the environment, a
// literal API key header, a token in a URL) and greps every output for
// them: stdout and stderr of run (--json, --record), sdk, replay, serve
// (its logs) and --version, the recording, and the errors of a refused
// token and of an unreachable server.
func TestMCPConfig_secrets(t *testing.T) {
	bin := ptcRunBinary(t)
	const token, apiKey = "planted-token-5b2e91", "planted-apikey-77c0d3"
	proxy := mcptest.NewBearerProxy(t, mcptest.StartEverythingHTTP(t), token)
	proxy.RotateOn("rotate-the-token", "another-token")
	dir := t.TempDir()
	cfg := writeFile(t, dir, "mcp.json", `{"mcpServers": {"ev": {"url": `+quote(proxy.URL+"?k=${EV_TOKEN}")+`,
  "headers": {"Authorization": "Bearer ${EV_TOKEN}", "X-Api-Key": "`+apiKey+`"}}}}`)
	down := writeFile(t, dir, "down.json", `{"mcpServers": {"down": {"url": "http://127.0.0.1:1/mcp?key=${EV_TOKEN}",
  "headers": {"X-Api-Key": "`+apiKey+`"}}}}`)
	env := append(os.Environ(), "EV_TOKEN="+token)
	var outputs []string // every output, labelled
	ptcRun := func(stdin string, args ...string) int {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = env, dir
		cmd.Stdin = strings.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		outputs = append(outputs, strings.Join(args, " ")+" stdout:\n"+stdout.String(), strings.Join(args, " ")+" stderr:\n"+stderr.String())
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	}
	program := `const s = await tools.ev__get_sum({a: 1, b: 2});
let e; try { await tools.ev__echo({message: "rotate-the-token"}); } catch (err) { e = String(err); }
return [s, e]`
	require.Equal(t, 0, ptcRun(program, "run", "--json", "--record", "rec.json", "--mcp-config", cfg, "-"))
	require.Contains(t, outputs[len(outputs)-2], "set EV_TOKEN to a valid credential", "the refused call's error is in --json")
	proxy.Rotate(token)
	require.Equal(t, 0, ptcRun("", "replay", "--json", "--live", "ev__get-sum", "--mcp-config", cfg, "rec.json"))
	require.Equal(t, 0, ptcRun("", "sdk", "--mcp-config", cfg))
	require.Equal(t, 0, ptcRun("", "--version"))
	require.Equal(t, 2, ptcRun("return 1", "run", "--mcp-config", down, "-"))
	require.Contains(t, outputs[len(outputs)-1], "MCP server down=http://127.0.0.1:1/mcp?key=${EV_TOKEN} could not be started")
	proxy.Rotate("yet-another-token")
	require.Equal(t, 2, ptcRun("return 1", "run", "--mcp-config", cfg, "-"))
	require.Contains(t, outputs[len(outputs)-1], "set EV_TOKEN to a valid credential")
	proxy.Rotate(token)

	// serve: its logs, and the answers a client gets.
	cmd := exec.Command(bin, "serve", "--stdio", "--mcp-config", cfg)
	cmd.Env, cmd.Dir = env, dir
	var serveErr bytes.Buffer
	cmd.Stderr = &serveErr
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": program}})
	require.NoError(t, err)
	answer, _ := json.Marshal(res)
	require.Contains(t, string(answer), "set EV_TOKEN to a valid credential")
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	listed, _ := json.Marshal(tools)
	require.NoError(t, cs.Close())
	outputs = append(outputs, "serve answer:\n"+string(answer), "serve tools:\n"+string(listed), "serve stderr:\n"+serveErr.String())

	rec, err := os.ReadFile(filepath.Join(dir, "rec.json"))
	require.NoError(t, err)
	outputs = append(outputs, "recording:\n"+string(rec))

	require.True(t, proxy.Sent("Bearer "+token), "the token was sent: the test can fail")
	for _, o := range outputs {
		for _, s := range []string{token, apiKey} {
			require.NotContains(t, o, s)
		}
	}
}
