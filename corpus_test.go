package ptc_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/fixture"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// corpusDir holds programs written the way models write programmatic tool
// calls, JavaScript and TypeScript, each with the content Node 20 gives for
// it (NAME.expected, made by gen.sh through harness.mjs).
const corpusDir = "testdata/corpus"

// TestCorpus runs every corpus program through the executor with the
// fixture tools its directive names and compares the content with what
// Node printed. It reports how many match; each mismatch fails its subtest
// with a diff. Run it alone with: go test -run TestCorpus .
func TestCorpus(t *testing.T) {
	progs := corpusPrograms(t)
	var (
		mu     sync.Mutex
		failed []string
	)
	t.Run("program", func(t *testing.T) {
		for _, f := range progs {
			name := filepath.Base(f)
			t.Run(name, func(t *testing.T) {
				// Not parallel: the programs sleep, poll and race timers
				// against tool delays of tens of milliseconds, which 60
				// programs at once on 2 cores under -race would skew.
				want, err := os.ReadFile(strings.TrimSuffix(f, filepath.Ext(f)) + ".expected")
				require.NoError(t, err, "run testdata/corpus/gen.sh")
				got, isErr := runCorpusProgram(t, f)
				wantErr := strings.HasPrefix(string(want), "Error: code run failed (")
				ok := assert.Equal(t, string(want), got, "content of %s", name)
				ok = assert.Equal(t, wantErr, isErr, "IsError of %s", name) && ok
				if !ok {
					mu.Lock()
					failed = append(failed, name)
					mu.Unlock()
				}
			})
		}
	})
	slices.Sort(failed)
	t.Logf("%d/%d programs match", len(progs)-len(failed), len(progs))
	if len(failed) > 0 {
		t.Errorf("%d programs differ from Node's output: %s", len(failed), strings.Join(failed, ", "))
	}
}

// corpusPrograms lists the corpus's programs, JavaScript and TypeScript.
func corpusPrograms(t *testing.T) []string {
	t.Helper()
	js, err := filepath.Glob(filepath.Join(corpusDir, "*.js"))
	require.NoError(t, err)
	ts, err := filepath.Glob(filepath.Join(corpusDir, "*.ts"))
	require.NoError(t, err)
	progs := append(js, ts...)
	slices.Sort(progs)
	require.NotEmpty(t, progs)
	return progs
}

// runCorpusProgram runs the program in file f as run_code and returns the
// content as ptc-run prints it (with its final newline) and whether the
// result is an error.
func runCorpusProgram(t *testing.T, f string) (string, bool) {
	t.Helper()
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	lim, tools := corpusDirective(t, f, string(src))
	fx := newFixture(t, lim, tools...)
	r := fx.runBatch(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(string(src))}})
	return registry.PlainText(r.Content) + "\n", r.IsError
}

// corpusDirective reads the program's "// ptc: tools=FILE timeout=D"
// line: the fixture tools (relative to the program) and limits.
func corpusDirective(t *testing.T, f, src string) (host.Limits, []*registry.Tool) {
	t.Helper()
	var lim host.Limits
	var tools []*registry.Tool
	m := directive.FindStringSubmatch(src)
	if m == nil {
		return lim, nil
	}
	for _, kv := range strings.Fields(m[1]) {
		k, v, _ := strings.Cut(kv, "=")
		var err error
		switch k {
		case "tools":
			var fx *fixture.File
			fx, err = fixture.Load(filepath.Join(filepath.Dir(f), v))
			if err == nil {
				tools = fx.Tools()
			}
		case "timeout":
			lim.Timeout, err = time.ParseDuration(v)
		case "memory":
			lim.MemoryBytes, err = strconv.ParseUint(v, 10, 64)
		default:
			t.Fatalf("%s: unknown directive %q", f, k)
		}
		require.NoError(t, err, "%s: directive %s", f, kv)
	}
	return lim, tools
}
