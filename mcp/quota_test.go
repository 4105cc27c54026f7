package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
)

// callBody is a tools/call of run_code with code, as a raw JSON-RPC body.
func callBody(code string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "run_code", "arguments": map[string]string{"code": code}}})
	return string(b)
}

// callText posts a run_code call as key and returns the status, the
// Retry-After header and the result's text (or the error's message).
func callText(t testing.TB, url, key, code string) (int, string, string) {
	t.Helper()
	status, hdr, body := post(t, url, callBody(code), "Authorization", "Bearer "+key, "Mcp-Protocol-Version", "2025-06-18")
	var m struct {
		Result struct {
			Content []struct{ Text string }
		}
		Error struct{ Message string }
	}
	require.NoError(t, json.Unmarshal([]byte(body), &m), body)
	if len(m.Result.Content) > 0 {
		return status, hdr.Get("Retry-After"), m.Result.Content[0].Text
	}
	return status, hdr.Get("Retry-After"), m.Error.Message
}

func quotaServer(t *testing.T, lim host.Limits, principals string) string {
	t.Helper()
	ex, _ := plainExecutor(t, lim)
	c, err := mcp.ParseAuthConfig([]byte(`{"principals": [` + principals + `]}`))
	require.NoError(t, err)
	hs := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Limits: lim}).Handler())
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

func principal(name, limits string) string {
	return fmt.Sprintf(`{"name": %q, "keySha256": %q, "tools": ["*"], "limits": {%s}}`, name, keyHash("key-"+name), limits)
}

func TestServer_quotaRate(t *testing.T) {
	url := quotaServer(t, host.Limits{}, principal("slow", `"runsPerMinute": 5`)+","+principal("free", ""))
	for i := range 5 {
		status, _, txt := callText(t, url, "key-slow", `return `+strconv.Itoa(i))
		require.Equal(t, http.StatusOK, status, txt)
		require.Equal(t, strconv.Itoa(i), txt)
	}
	status, retry, txt := callText(t, url, "key-slow", `return 5`)
	require.Equal(t, http.StatusTooManyRequests, status, txt)
	secs, err := strconv.Atoi(retry)
	require.NoError(t, err)
	require.True(t, secs >= 1 && secs <= 12, "Retry-After %q: one run's share of a minute", retry)
	require.Contains(t, txt, "runsPerMinute 5")
	// Other principals and other requests are not limited.
	status, _, _ = callText(t, url, "key-free", `return 1`)
	require.Equal(t, http.StatusOK, status)
	status, _, _ = post(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Authorization", "Bearer key-slow")
	require.Equal(t, http.StatusOK, status)
}

func TestServer_quotaConcurrent(t *testing.T) {
	url := quotaServer(t, host.Limits{}, principal("two", `"concurrentRuns": 2`))
	// Three at once: two run, one is refused at once.
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[int]int{}
	var retry, refused string
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, ra, txt := callText(t, url, "key-two", `await new Promise(r => setTimeout(r, 2000)); return "slow"`)
			mu.Lock()
			defer mu.Unlock()
			got[status]++
			if status == http.StatusTooManyRequests {
				retry, refused = ra, txt
			} else {
				require.Equal(t, "slow", txt)
			}
		}()
	}
	wg.Wait()
	require.Equal(t, map[int]int{http.StatusOK: 2, http.StatusTooManyRequests: 1}, got)
	require.Equal(t, "1", retry)
	require.Contains(t, refused, "concurrentRuns 2")
	// The slots are released.
	for range 3 {
		status, _, txt := callText(t, url, "key-two", `return 3`)
		require.Equal(t, http.StatusOK, status, txt)
	}
}

func TestServer_quotaCaps(t *testing.T) {
	url := quotaServer(t, host.Limits{Timeout: 2 * time.Second},
		principal("short", `"timeout": "300ms"`)+","+principal("small", `"memory": "16MiB"`)+","+principal("long", `"timeout": "1h", "memory": "1GiB"`))
	sleep := `await new Promise(r => setTimeout(r, 1000)); return "woke"`
	_, _, txt := callText(t, url, "key-short", sleep)
	require.Equal(t, "Error: code run failed (timeout): program exceeded its time limit of 300ms", txt)
	_, _, txt = callText(t, url, "key-long", sleep)
	require.Equal(t, "woke", txt, "a limit higher than serve's does not lower it")
	_, _, txt = callText(t, url, "key-long", `await new Promise(r => setTimeout(r, 5000)); return "woke"`)
	require.Equal(t, "Error: code run failed (timeout): program exceeded its time limit of 2s", txt, "nor raise it")

	alloc := `const a = []; for (let i = 0; i < 24; i++) a.push(new Uint8Array(1 << 20).fill(1)); return a.length`
	_, _, txt = callText(t, url, "key-small", alloc)
	require.Contains(t, txt, "code run failed (memory)")
	_, _, txt = callText(t, url, "key-long", alloc)
	require.Equal(t, "24", txt)
}
