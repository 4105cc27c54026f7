package host_test

import (
	"bytes"
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

// The image after a prelude is kept too: a second host starts its run
// from it (the prelude's effects are there, the prelude is not evaluated
// again), a damaged one is built and written again, and the image that
// holds the Intl pack is not kept.
func TestHost_preludeArtifacts(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	const prelude = `globalThis.greeting = "hello"; globalThis.evaluated = (globalThis.evaluated ?? 0) + 1;`
	run := func(src string) string {
		h := newHost(t, host.Config{CompilationCacheDir: dir})
		out := h.Run(ctx, host.Program{Source: src, Prelude: prelude})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		require.NoError(t, h.Close(ctx))
		return out.Text()
	}
	const prog = `return greeting + " " + evaluated`
	require.Equal(t, "hello 1", run(prog))
	files, err := filepath.Glob(filepath.Join(dir, "ptc-prelude-*.bin"))
	require.NoError(t, err)
	require.Len(t, files, 1, "the image after the prelude")
	orig, err := os.ReadFile(files[0])
	require.NoError(t, err)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(files[0], old, old))
	require.Equal(t, "hello 1", run(prog), "from the kept image")
	st, err := os.Stat(files[0])
	require.NoError(t, err)
	require.True(t, st.ModTime().Equal(old), "read, not written again")

	damaged := bytes.Clone(orig)
	damaged[len(damaged)/2] ^= 0xff
	require.NoError(t, os.WriteFile(files[0], damaged, 0o644))
	require.Equal(t, "hello 1", run(prog))
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	require.Equal(t, orig, b, "rewritten whole")

	// A program using Intl is served from an image holding the pack once
	// it is built (in the background); that image is not written.
	h := newHost(t, host.Config{CompilationCacheDir: dir})
	for range 2 {
		out := h.Run(ctx, host.Program{Source: `return new Intl.NumberFormat("de-DE").format(1234.5)`, Prelude: prelude})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		require.Equal(t, "1.234,5", out.Text())
	}
	require.NoError(t, h.Close(ctx))
	files, err = filepath.Glob(filepath.Join(dir, "ptc-prelude-*.bin"))
	require.NoError(t, err)
	require.Len(t, files, 1, "no image with the Intl pack")
}
