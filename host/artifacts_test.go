package host_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// The scripts' bytecode is kept beside the compilation cache: a second
// host reads it instead of compiling it, and one that does not match its
// checksum is compiled and written again.
func TestHost_New_scriptArtifacts(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	run := func() (time.Duration, string) {
		began := time.Now()
		h := newHost(t, host.Config{CompilationCacheDir: dir})
		took := time.Since(began)
		out := h.Run(ctx, host.Program{Source: `console.log({a: [1, 2]}); return new Intl.NumberFormat("de-DE").format(1234.5)`})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		require.NoError(t, h.Close(ctx))
		return took, out.Text()
	}
	_, first := run()
	require.Equal(t, "{ a: [ 1, 2 ] }\n1.234,5", first)
	files, err := filepath.Glob(filepath.Join(dir, "ptc-bytecode-*.bin"))
	require.NoError(t, err)
	require.Len(t, files, 2, "the scripts and the Intl bundle")
	snaps, err := filepath.Glob(filepath.Join(dir, "ptc-snapshot-*.bin"))
	require.NoError(t, err)
	require.Len(t, snaps, 1, "the initialised guest")
	instrumented, err := filepath.Glob(filepath.Join(dir, "ptc-instrumented-*.bin"))
	require.NoError(t, err)
	require.Len(t, instrumented, 1, "the instrumented guest")
	files = append(append(files, snaps...), instrumented...)
	_, second := run()
	require.Equal(t, first, second)

	// A damaged artifact is ignored and written again.
	orig := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		orig[f] = append([]byte(nil), b...)
		b[len(b)/2] ^= 0xff
		require.NoError(t, os.WriteFile(f, b, 0o644))
	}
	_, third := run()
	require.Equal(t, first, third)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.Equal(t, orig[f], b, "rewritten whole")
	}
}
