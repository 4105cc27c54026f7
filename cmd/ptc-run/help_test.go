package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/guestfile"
)

var update = flag.Bool("update", false, "rewrite the golden help texts in testdata/help")

// TestHelp compares each command's -h output with testdata/help/*.txt
// (go test -run TestHelp -update rewrites them).
func TestHelp(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"ptc-run", []string{"-h"}},
		{"ptc-run", []string{"--help"}},
		{"ptc-run", []string{"help"}},
		{"run", []string{"run", "-h"}},
		{"run", []string{"run", "--help"}},
		{"run", []string{"help", "run"}},
		{"sdk", []string{"sdk", "-h"}},
		{"serve", []string{"serve", "--help"}},
		{"guest-build", []string{"guest", "build", "-h"}},
		{"guest-build", []string{"guest", "-h"}},
		{"guest-build", []string{"help", "guest", "build"}},
	} {
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), c.args, nil, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			require.Empty(t, stderr.String())
			path := filepath.Join("testdata", "help", c.golden+".txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, stdout.Bytes(), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "go test -run TestHelp -update writes it")
			require.Equal(t, string(want), stdout.String(), "help changed: if on purpose, go test -run TestHelp -update")
			for i, line := range strings.Split(stdout.String(), "\n") {
				require.LessOrEqual(t, len([]rune(line)), 100, "line %d too long: %q", i+1, line)
			}
		})
	}
}

// TestHelp_everyFlag checks that each command's help documents every flag
// the command defines, so a new flag cannot go undocumented.
func TestHelp_everyFlag(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	for name, cmd := range map[string]func() error{
		"run":         func() error { _, err := cmdRun(ctx, []string{"-h"}, nil, &out, &out); return err },
		"sdk":         func() error { return cmdSDK(ctx, []string{"-h"}, &out, &out) },
		"serve":       func() error { return cmdServe(ctx, []string{"-h"}, nil, &out, &out) },
		"guest build": func() error { return cmdGuestBuild(ctx, []string{"-h"}, &out, &out) },
	} {
		var he *helpError
		require.True(t, errors.As(cmd(), &he), name)
		require.Equal(t, name, he.cmd)
		require.NotEmpty(t, he.flags, name)
		for _, f := range he.flags {
			doc := regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(f.Name) + `\b(.*\n {10,}.*)*`).FindString(helpTexts[name])
			require.NotEmpty(t, doc, "%s -h does not document --%s", name, f.Name)
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" {
				require.Contains(t, strings.Join(strings.Fields(doc), " "), "(default "+f.DefValue+")", "%s -h: --%s", name, f.Name)
			}
		}
	}
	require.Empty(t, out.String())
}

func TestRun_durationNeedsUnit(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--timeout", "5", "-"}, `invalid value "5" for flag -timeout: use a unit, e.g. 5s`},
		{[]string{"run", "--timeout", "1.5", "-"}, "use a unit, e.g. 1.5s"},
		{[]string{"run", "--timeout", "soon", "-"}, "want a duration with a unit, e.g. 500ms, 5s, 2m, 1h30m"},
		{[]string{"serve", "--timeout", "30"}, "use a unit, e.g. 30s"},
		{[]string{"serve", "--grace", "10"}, `flag -grace: use a unit, e.g. 10s`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader("return 1"), &stdout, &stderr)
		require.Equal(t, 2, code, "%q", c.args)
		require.Contains(t, stderr.String(), c.want)
		require.Contains(t, stderr.String(), "Run 'ptc-run "+c.args[0]+" -h' for its flags.")
		require.Empty(t, stdout.String())
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "version"} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run(context.Background(), []string{arg}, nil, &stdout, &stderr))
		require.Empty(t, stderr.String())
		lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		require.Len(t, lines, 4, stdout.String())
		require.Regexp(t, `^ptc-run github.com/ptchost/ptc \S+.* go1\.`, lines[0])
		require.Equal(t, "guest ptc-quickjs.wasm sha256:"+guestfile.WasmDigest(), lines[1])
		require.Equal(t, "guest intl.js sha256:"+guestfile.IntlDigest(), lines[2])
		require.Regexp(t, `^guest found: (embedded|/.*|not found: run go run github.com/ptchost/ptc/cmd/ptc-run@\S+ guest build)$`, lines[3])
	}
}

func TestGuest_usage(t *testing.T) {
	for _, args := range [][]string{
		{"guest"},
		{"guest", "bogus"},
		{"guest", "build", "extra"},
		{"guest", "build", "--nope"},
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, run(context.Background(), args, nil, &stdout, &stderr), "%q", args)
		require.Contains(t, stderr.String(), "usage:")
		require.Contains(t, stderr.String(), "Run 'ptc-run guest build -h' for its flags.")
		require.Empty(t, stdout.String())
	}
}

// TestGuestBuild_alreadyThere: with the guest already in the cache, guest
// build says so and builds nothing.
func TestGuestBuild_alreadyThere(t *testing.T) {
	g, err := guestfile.Find("")
	if err != nil {
		t.Skip("guest not built: run make guest")
	}
	dir := t.TempDir()
	t.Setenv("PTC_CACHE_DIR", dir)
	gd := guestfile.CacheGuestDir()
	require.NoError(t, os.MkdirAll(gd, 0o755))
	wasmName, intlName := guestfile.CacheNames()
	require.NoError(t, os.WriteFile(filepath.Join(gd, wasmName), g.Wasm, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(gd, intlName), func() []byte { b, err := g.Intl(); require.NoError(t, err); return b }(), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"guest", "build"}, nil, &stdout, &stderr), stderr.String())
	require.Equal(t, "guest: "+gd+" already holds the guest (sha256 "+guestfile.WasmDigest()+"); --force rebuilds it\n", stdout.String())
}

func TestGuestBuild_badSource(t *testing.T) {
	t.Setenv("PTC_CACHE_DIR", t.TempDir())
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, run(context.Background(), []string{"guest", "build", "--source", t.TempDir()}, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "not a github.com/ptchost/ptc source tree")
}

func TestServe_maxRunsUsage(t *testing.T) {
	for _, arg := range []string{"0", "-3"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"serve", "--stdio", "--max-runs", arg}, strings.NewReader(""), &stdout, &stderr)
		require.Equal(t, 2, code, arg)
		require.Contains(t, stderr.String(), "--max-runs "+arg+": want a positive number")
	}
}
