package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/guest/quickjs"
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
	if _, err := quickjs.Wasm(); err != nil {
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
	require.Equal(t, map[string]any{"kind": "exception", "message": "Error: b (line 1)"}, got["error"])
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
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		require.Equal(t, 2, code, "%q", args)
		require.NotEmpty(t, stderr.String())
		require.Empty(t, stdout.String())
	}
}
