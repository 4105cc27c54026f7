package ptc_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/fixture"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

var directive = regexp.MustCompile(`(?m)^// ptc: (.*)$`)

// TestExecute_testdata runs every program of testdata/programs through the
// executor, with the fixture tools its directive names, and compares the
// content with the .expected file beside it (what ptc-run prints).
func TestExecute_testdata(t *testing.T) {
	files, err := filepath.Glob("testdata/programs/*.js")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".js"), func(t *testing.T) {
			t.Parallel()
			src, lim, tools := loadProgram(t, f)
			want, err := os.ReadFile(strings.TrimSuffix(f, ".js") + ".expected")
			require.NoError(t, err)
			fx := newFixture(t, lim, tools...)
			r := fx.runBatch(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{runCall(src)}})
			require.Equal(t, string(want), registry.PlainText(r.Content)+"\n")
			require.Equal(t, strings.HasPrefix(string(want), "Error: code run failed ("), r.IsError)
		})
	}
}

// loadProgram reads a program of testdata/programs with the limits and
// fixture tools its "// ptc:" directive names.
func loadProgram(t testing.TB, f string) (src string, lim host.Limits, tools []*registry.Tool) {
	t.Helper()
	b, err := os.ReadFile(f)
	require.NoError(t, err)
	if m := directive.FindStringSubmatch(string(b)); m != nil {
		for _, kv := range strings.Fields(m[1]) {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "tools":
				fx, err := fixture.Load(filepath.Join(filepath.Dir(f), v))
				require.NoError(t, err)
				tools = fx.Tools()
			case "timeout":
				lim.Timeout, err = time.ParseDuration(v)
				require.NoError(t, err)
			case "memory":
				lim.MemoryBytes, err = strconv.ParseUint(v, 10, 64)
				require.NoError(t, err)
			default:
				t.Fatalf("unknown directive %q", k)
			}
		}
	}
	return string(b), lim, tools
}
