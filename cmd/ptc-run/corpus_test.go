package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCorpus_ptcRun runs a few programs of testdata/corpus through the run
// command, as a user of the CLI would, and checks that it prints the
// content Node gave (the .expected files the root package's TestCorpus
// checks the executor against) with the matching exit status. They cover
// JavaScript and TypeScript, timers, an un-awaited main, a failure and a
// run with no output.
func TestCorpus_ptcRun(t *testing.T) {
	skipUnbuilt(t)
	for _, name := range []string{
		"fanout_weather.js",
		"ts_weather_typed.ts",
		"main_unawaited.js",
		"interval_polling.js",
		"uncaught_tool_error.js",
		"no_output.js",
	} {
		t.Run(name, func(t *testing.T) {
			// Not parallel: run() creates wazero's compilation cache, whose
			// lazy version lookup (wazero 1.12 internal/version) races when
			// two are created at once.
			f := filepath.Join("..", "..", "testdata", "corpus", name)
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			want, err := os.ReadFile(strings.TrimSuffix(f, filepath.Ext(f)) + ".expected")
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
			assert.Equal(t, string(want), stdout.String())
			wantCode := 0
			if strings.HasPrefix(string(want), "Error: code run failed (") {
				wantCode = 1
			}
			assert.Equal(t, wantCode, code, stderr.String())
		})
	}
}
