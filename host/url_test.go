package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// urlRow is one row of testdata/url/hosts.json (written by
// testdata/url/gen.js from Node 20): a parse (input, base) or a host or
// hostname setter, and what Node's URL gave.
type urlRow struct {
	From string          `json:"from"`
	Node json.RawMessage `json:"node"`
}

// urlKnownDifference is one entry of testdata/url/known-differences.json:
// a row on which the guest is meant to differ from Node 20, and why.
type urlKnownDifference struct {
	From   string `json:"from"`
	Reason string `json:"reason"`
}

// urlTableProgram is a program that runs testdata/url/observe.js over rows
// (JSON text) with the guest's own URL and returns, as a JSON string, one
// observation per row.
func urlTableProgram(t *testing.T, rows []byte) string {
	t.Helper()
	observe, err := os.ReadFile(filepath.Join("..", "testdata", "url", "observe.js"))
	require.NoError(t, err)
	return `const observe = ` + strings.TrimSpace(string(observe)) + `;
const rows = ` + string(rows) + `;
const out = [];
for (const row of rows) out.push(observe(URL, row));
return JSON.stringify(out);`
}

// TestURL_hosts runs every row of testdata/url/hosts.json — Node 20's
// answers to the web-platform-tests' URL cases in which the host matters,
// and a few of our own — through the guest's URL, and requires the guest's
// href, host and hostname (or its TypeError) to be Node's, except on the
// rows testdata/url/known-differences.json lists with a reason.
func TestURL_hosts(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "url", "hosts.json"))
	require.NoError(t, err)
	var rows []urlRow
	require.NoError(t, json.Unmarshal(raw, &rows))
	require.GreaterOrEqual(t, len(rows), 900)

	known := map[string]string{}
	kraw, err := os.ReadFile(filepath.Join("..", "testdata", "url", "known-differences.json"))
	require.NoError(t, err)
	var kd []urlKnownDifference
	require.NoError(t, json.Unmarshal(kraw, &kd))
	for _, k := range kd {
		require.NotEmpty(t, k.Reason, "known difference %q has no reason", k.From)
		known[k.From] = k.Reason
	}

	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{
		Source: urlTableProgram(t, raw),
		Limits: host.Limits{Timeout: 2 * time.Minute, SourceBytes: 4 << 20, ResultBytes: 4 << 20},
	})
	require.Equal(t, host.KindOK, out.Kind, "%s\n%s", out.Text(), out.Stack)
	var s string
	require.NoError(t, json.Unmarshal(out.ReturnValue, &s))
	var got []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(s), &got))
	require.Len(t, got, len(rows))

	var bad, stale []string
	differ := 0
	seen := map[string]bool{}
	for i, row := range rows {
		require.False(t, seen[row.From], "two rows named %q", row.From)
		seen[row.From] = true
		same := webSameJSON(row.Node, got[i])
		reason, isKnown := known[row.From]
		switch {
		case !same && isKnown:
			differ++
			t.Logf("known difference %s (%s)\n\tnode: %s\n\tptc:  %s", row.From, reason, row.Node, got[i])
		case !same:
			bad = append(bad, fmt.Sprintf("%s\n\tnode: %s\n\tptc:  %s", row.From, row.Node, got[i]))
		case isKnown:
			stale = append(stale, row.From)
		}
	}
	for from := range known {
		if !seen[from] {
			stale = append(stale, from+" (no such row)")
		}
	}
	t.Logf("%d rows: %d as Node 20, %d known differences", len(rows), len(rows)-differ-len(bad), differ)
	if len(bad) > 0 {
		t.Errorf("%d rows differ from Node 20:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	if len(stale) > 0 {
		t.Errorf("known differences that are not: %s", strings.Join(stale, ", "))
	}
}
