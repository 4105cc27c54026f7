package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/guestfile"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ptc-run-test-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("PTC_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func skipUnbuilt(t *testing.T) {
	if _, err := guestfile.Find(""); err != nil {
		t.Skip("guest not built: run make guest")
	}
}

var directive = regexp.MustCompile(`(?m)^// ptc: (.*)$`)

// TestRun_programs runs ptc-run over testdata/programs and checks stdout
// against the .expected files and the exit status against the outcome.
func TestRun_programs(t *testing.T) {
	skipUnbuilt(t)
	files, err := filepath.Glob("../../testdata/programs/*.js")
	require.NoError(t, err)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".js"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			want, err := os.ReadFile(strings.TrimSuffix(f, ".js") + ".expected")
			require.NoError(t, err)
			args := []string{"run"}
			if m := directive.FindStringSubmatch(string(src)); m != nil {
				for _, kv := range strings.Fields(m[1]) {
					k, v, _ := strings.Cut(kv, "=")
					if k == "tools" {
						v = filepath.Join(filepath.Dir(f), v)
					}
					args = append(args, "--"+k, v)
				}
			}
			args = append(args, f)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, nil, &stdout, &stderr)
			require.Equal(t, string(want), stdout.String())
			wantCode := 0
			if strings.HasPrefix(string(want), "Error: code run failed (") {
				wantCode = 1
			}
			require.Equal(t, wantCode, code, stderr.String())
		})
	}
}

func TestRun_json(t *testing.T) {
	skipUnbuilt(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--json", "-"},
		strings.NewReader(`console.log("a"); throw new Error("b")`), &stdout, &stderr)
	require.Equal(t, 1, code)
	var got map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))
	require.Equal(t, true, got["isError"])
	require.Equal(t, map[string]any{"kind": "exception", "message": "Error: b (line 1)", "info": nil}, got["error"])
	require.Equal(t, []any{"a"}, got["output"])
	require.Nil(t, got["returnValue"])
	require.Equal(t, []any{}, got["subcalls"])
	require.Equal(t, []any{map[string]any{"type": "text", "text": "Error: code run failed (exception): Error: b (line 1)\n\nCaptured output:\na"}}, got["content"])
	stats := got["stats"].(map[string]any)
	require.Contains(t, stats, "wallMs")
	require.Contains(t, stats, "memoryBytes")
	require.EqualValues(t, 0, stats["subcalls"])
}

func TestRun_usage(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"bogus"},
		{"run"},
		{"run", "a.js", "b.js"},
		{"run", "--memory", "lots", "a.js"},
		{"run", "--timeout", "-1s", "a.js"},
		{"run", "--nope", "a.js"},
		{"run", "/does/not/exist.js"},
		{"run", "--run-id", "x", "a.js"},
		{"run", "--store", "mysql://h/db", "-"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		require.Equal(t, 2, code, "%q", args)
		require.NotEmpty(t, stderr.String())
		require.Empty(t, stdout.String())
	}
}

func TestRun_badFixture(t *testing.T) {
	skipUnbuilt(t)
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"tools[0].responses[0]: exactly one of":    `{"tools":[{"name":"x","responses":[{"value":1,"error":"e"}]}]}`,
		"tools[1].name: duplicate tool name":       `{"tools":[{"name":"x","responses":[]},{"name":"x","responses":[]}]}`,
		"tools[0]: unknown field \"parralelSafe\"": `{"tools":[{"name":"x","parralelSafe":true,"responses":[]}]}`,
		"tools[0].responses[0].images[0].path":     `{"tools":[{"name":"x","responses":[{"value":1,"images":[{"mimeType":"image/png","path":"nope.png"}]}]}]}`,
	} {
		path := filepath.Join(dir, "f.json")
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
		for _, args := range [][]string{{"run", "--tools", path, "-"}, {"sdk", "--tools", path}} {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, strings.NewReader("return 1"), &stdout, &stderr)
			require.Equal(t, 2, code)
			require.Contains(t, stderr.String(), name)
			require.Empty(t, stdout.String())
		}
	}
}

func TestRun_jsonSubcalls(t *testing.T) {
	skipUnbuilt(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--json", "--tools", "../../testdata/tools/weather.json", "../../testdata/programs/tool_image.js"}, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var got struct {
		Content  []map[string]any
		Subcalls []map[string]any
		Stats    map[string]any
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))
	require.Len(t, got.Subcalls, 2)
	require.Equal(t, float64(1), got.Subcalls[0]["n"])
	require.Equal(t, "radar_image", got.Subcalls[0]["tool"])
	require.Equal(t, map[string]any{"city": "Paris"}, got.Subcalls[0]["arguments"])
	require.Equal(t, true, got.Subcalls[0]["ok"])
	require.Contains(t, got.Subcalls[0], "code")
	require.Nil(t, got.Subcalls[0]["code"], "code is null on success")
	require.Equal(t, false, got.Subcalls[1]["ok"])
	require.Equal(t, "TOOL_FAILED", got.Subcalls[1]["code"])
	require.Contains(t, got.Subcalls[1], "durationMs")
	require.EqualValues(t, 2, got.Stats["subcalls"])
	require.Len(t, got.Content, 3)
	require.Equal(t, "Image from radar_image (call 1):", got.Content[1]["text"])
	require.Equal(t, "image", got.Content[2]["type"])
	require.Equal(t, "image/png", got.Content[2]["mimeType"])
	png, err := os.ReadFile("../../testdata/tools/pixel.png")
	require.NoError(t, err)
	require.Equal(t, base64.StdEncoding.EncodeToString(png), got.Content[2]["data"])
}

func TestSDK(t *testing.T) {
	skipUnbuilt(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"sdk", "--tools", "../../testdata/tools/weather.json"}, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.True(t, strings.HasPrefix(stdout.String(), "declare const tools: {\n  /** Current weather for a city. */\n  get_weather(args: { /** City name */ city: string; units?: \"metric\" | \"imperial\" }): Promise<{ tempC: number; sky: string }>;\n"), stdout.String())

	for _, args := range [][]string{{"sdk"}, {"sdk", "--tools", "a.json", "extra"}} {
		stdout.Reset()
		stderr.Reset()
		require.Equal(t, 2, run(context.Background(), args, nil, &stdout, &stderr))
		require.Contains(t, stderr.String(), "usage:")
	}
}

func TestRun_flagsAfterProgram(t *testing.T) {
	skipUnbuilt(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "-", "--json", "--timeout", "5s"}, strings.NewReader(`return 1`), &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), `"returnValue":1`)
}

func TestRun_limitsOutOfRange(t *testing.T) {
	skipUnbuilt(t)
	for _, mem := range []string{"1000", "99999999999"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"run", "--memory", mem, "-"}, strings.NewReader(`return 1`), &stdout, &stderr)
		require.Equal(t, 2, code, mem)
		require.Contains(t, stderr.String(), "memory limit")
		require.Empty(t, stdout.String())
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"67108864", 64 << 20, true}, {"64MiB", 64 << 20, true}, {"512KiB", 512 << 10, true},
		{"1GiB", 1 << 30, true}, {"100MB", 100e6, true}, {"2048B", 2048, true}, {"64 MiB", 64 << 20, true},
		{"0", 0, false}, {"lots", 0, false}, {"-1MiB", 0, false}, {"1.5MiB", 0, false}, {"99999999999999GiB", 0, false},
	} {
		got, err := parseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// Issue 10: --timeout 1ns used to succeed; sizes take units.
func TestRun_tinyTimeoutAndMemoryUnits(t *testing.T) {
	skipUnbuilt(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--timeout", "1ns", "-"}, strings.NewReader(`return 1`), &stdout, &stderr)
	require.Equal(t, 1, code, stderr.String())
	require.Contains(t, stdout.String(), "(timeout)")
	stdout.Reset()
	code = run(context.Background(), []string{"run", "--memory", "32MiB", "-"}, strings.NewReader(`try { const a = []; for (;;) a.push([1, 2]) } catch (e) { return "caught" }`), &stdout, &stderr)
	require.Equal(t, 1, code, stderr.String())
	require.Contains(t, stdout.String(), "(memory): out of memory: the program exceeded its memory limit of 32 MiB")
}

// Issue 10: unpaired surrogates came out as three U+FFFD in text output,
// one in the content and raw in --json. One rule now: one U+FFFD each.
func TestRun_unpairedSurrogates(t *testing.T) {
	skipUnbuilt(t)
	src := `console.log("a\ud800b\udc00\ud83d\ude00"); return "x\udfff"`
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"run", "-"}, strings.NewReader(src), &stdout, &stderr), stderr.String())
	require.Equal(t, "a\uFFFDb\uFFFD\U0001F600\nx\uFFFD\n", stdout.String())
	stdout.Reset()
	require.Equal(t, 0, run(context.Background(), []string{"run", "--json", "-"}, strings.NewReader(src), &stdout, &stderr), stderr.String())
	var out struct {
		Output      []string        `json:"output"`
		ReturnValue json.RawMessage `json:"returnValue"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out))
	require.Equal(t, []string{"a\uFFFDb\uFFFD\U0001F600"}, out.Output)
	require.Equal(t, "\"x\uFFFD\"", string(out.ReturnValue))
}

// run --store --run-id: the same ID again prints the stored result (the
// same random number), without running the program again.
func TestRun_store(t *testing.T) {
	skipUnbuilt(t)
	store := "sqlite:" + filepath.Join(t.TempDir(), "runs.db")
	prog := filepath.Join(t.TempDir(), "p.js")
	require.NoError(t, os.WriteFile(prog, []byte(`console.log(Math.random()); return "done"`), 0o644))
	outs := make([]string, 2)
	for i := range outs {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"run", "--store", store, "--run-id", "job-1", prog}, nil, &stdout, &stderr)
		require.Equal(t, 0, code, stderr.String())
		require.Equal(t, "run ID: job-1\n", stderr.String())
		outs[i] = stdout.String()
	}
	require.Equal(t, outs[0], outs[1])
	require.NoError(t, os.WriteFile(prog, []byte(`return "another"`), 0o644))
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--store", store, "--run-id", "job-1", prog}, nil, &stdout, &stderr)
	require.Equal(t, 1, code)
	require.Contains(t, stdout.String(), `run "job-1" was stored for other code: the program`)
}

// replay --store --run-id replays what a store holds of a run.
func TestReplay_store(t *testing.T) {
	skipUnbuilt(t)
	store := "sqlite:" + filepath.Join(t.TempDir(), "runs.db")
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--tools", tools, "--store", store, "--run-id", "w1", "-"},
		strings.NewReader(`const w = await tools.get_weather({city: "Paris"}); console.log(Math.random() < 1); return w`), &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	first := stdout.String()
	stdout.Reset()
	stderr.Reset()
	code = run(context.Background(), []string{"replay", "--store", store, "--run-id", "w1"}, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Equal(t, first, stdout.String())
	code = run(context.Background(), []string{"replay", "--store", store}, nil, &stdout, &stderr)
	require.Equal(t, 2, code)
}
