package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// TestURL_wpt runs the web-platform-tests' URL tests (testdata/url/wpt.js
// over the WPT data files in the directory $WPT_URL_DIR names) with Node
// 20's URL and with the guest's, reports how many each passes, and requires
// the guest to pass every test Node 20 passes. The WPT files are not in
// this repository; without WPT_URL_DIR, or without Node 20, the test is
// skipped. testdata/url/hosts.json (TestURL_hosts) holds Node's answers to
// the tests where the host matters and runs everywhere.
func TestURL_wpt(t *testing.T) {
	dir := os.Getenv("WPT_URL_DIR")
	if dir == "" {
		t.Skip("WPT_URL_DIR is not set: it names a directory holding the WPT URL data files (urltestdata.json, setters_tests.json, toascii.json, percent-encoding.json)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the WPT URL tests compare the guest with Node 20")
	}
	version, err := exec.Command(node, "--version").Output()
	require.NoError(t, err)
	if !bytes.HasPrefix(version, []byte("v20.")) {
		t.Skipf("node is %s: the WPT URL tests compare the guest with Node 20", bytes.TrimSpace(version))
	}

	src := wptProgram(t, dir)
	cmd := exec.Command(node, "-")
	cmd.Stdin = strings.NewReader(src + "\nprocess.stdout.write(JSON.stringify(wpt(URL, data)));\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	nodeRes := decodeWPTResults(t, out)

	h := newHost(t, host.Config{})
	o := h.Run(context.Background(), host.Program{
		Source: src + "\nreturn JSON.stringify(wpt(URL, data));",
		Limits: host.Limits{Timeout: 2 * time.Minute, SourceBytes: 16 << 20, ResultBytes: 16 << 20},
	})
	require.Equal(t, host.KindOK, o.Kind, "%s\n%s", o.Text(), o.Stack)
	var s string
	require.NoError(t, json.Unmarshal(o.ReturnValue, &s))
	ptcRes := decodeWPTResults(t, []byte(s))
	require.Len(t, ptcRes, len(nodeRes))

	var nodePass, ptcPass, both int
	var regressions, better, neither []string
	for i, n := range nodeRes {
		p := ptcRes[i]
		require.Equal(t, n.name, p.name)
		switch {
		case n.pass && p.pass:
			both++
		case n.pass:
			regressions = append(regressions, fmt.Sprintf("%s\n\tptc: %s", n.name, p.why))
		case p.pass:
			better = append(better, fmt.Sprintf("%s\n\tnode: %s", n.name, n.why))
		default:
			neither = append(neither, fmt.Sprintf("%s\n\tnode: %s\n\tptc:  %s", n.name, n.why, p.why))
		}
		if n.pass {
			nodePass++
		}
		if p.pass {
			ptcPass++
		}
	}
	t.Logf("WPT URL tests: %d; Node 20 passes %d, ptc %d; ptc passes %d of Node's %d, and %d Node fails; both fail %d",
		len(nodeRes), nodePass, ptcPass, both, nodePass, len(better), len(neither))
	if len(better) > 0 {
		t.Logf("ptc passes where Node 20 fails:\n%s", strings.Join(better, "\n"))
	}
	if len(neither) > 0 {
		t.Logf("both fail:\n%s", strings.Join(neither, "\n"))
	}
	if len(regressions) > 0 {
		t.Errorf("ptc fails %d tests Node 20 passes:\n%s", len(regressions), strings.Join(regressions, "\n"))
	}
}

// wptProgram is JavaScript defining wpt (testdata/url/wpt.js) and data, the
// WPT files of dir as they are (JSON is JavaScript; the files' escaped lone
// surrogates stay as they are).
func wptProgram(t *testing.T, dir string) string {
	t.Helper()
	wpt, err := os.ReadFile(filepath.Join("..", "testdata", "url", "wpt.js"))
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString("const wpt = " + strings.TrimSpace(string(wpt)) + ";\nconst data = {\n")
	for _, f := range []struct {
		key, file string
		optional  bool
	}{
		{"urltestdata", "urltestdata.json", false},
		{"urltestdataJavaScriptOnly", "urltestdata-javascript-only.json", true},
		{"setters", "setters_tests.json", false},
		{"toascii", "toascii.json", false},
		{"percentEncoding", "percent-encoding.json", false},
	} {
		raw, err := os.ReadFile(filepath.Join(dir, f.file))
		if f.optional && errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err, "WPT_URL_DIR")
		require.True(t, json.Valid(raw), "%s is not JSON", f.file)
		b.WriteString(f.key + ": " + string(raw) + ",\n")
	}
	b.WriteString("};")
	return b.String()
}

type wptResult struct {
	name string
	pass bool
	why  string
}

func decodeWPTResults(t *testing.T, b []byte) []wptResult {
	t.Helper()
	var raw [][3]any
	require.NoError(t, json.Unmarshal(b, &raw))
	res := make([]wptResult, len(raw))
	for i, r := range raw {
		name, _ := r[0].(string)
		pass, _ := r[1].(bool)
		why, _ := r[2].(string)
		res[i] = wptResult{name, pass, why}
	}
	require.NotEmpty(t, res)
	return res
}
