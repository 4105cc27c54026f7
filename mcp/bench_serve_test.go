package mcp_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
)

// benchServer serves the "double" executor with principals "bench" (a
// key, and JWTs of is when given), "quiet" and "flood"; flood's limits are
// floodLimits.
func benchServer(b *testing.B, is *issuer, floodLimits string) string {
	b.Helper()
	ex, _ := plainExecutor(b, host.Limits{})
	file := fmt.Sprintf(`{"principals": [
	  {"name": "bench", "keySha256": %q, "tools": ["*"]},
	  {"name": "team-jwt", "tools": ["*"]},
	  {"name": "quiet", "keySha256": %q, "tools": ["*"]},
	  {"name": "flood", "keySha256": %q, "tools": ["*"], "limits": {%s}}]`,
		keyHash("bench-key"), keyHash("quiet-key"), keyHash("flood-key"), floodLimits)
	if is != nil {
		file += fmt.Sprintf(`, "jwt": {"issuer": %q, "audience": "ptc", "principalClaim": "sub"}}`, is.url)
	} else {
		file += `, "jwt": {"issuer": "http://127.0.0.1:1", "audience": "ptc", "principalClaim": "sub"}}`
	}
	c, err := mcp.ParseAuthConfig([]byte(file))
	require.NoError(b, err)
	hs := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{Auth: c, Logger: slog.New(slog.DiscardHandler)}).Handler())
	b.Cleanup(hs.Close)
	return hs.URL
}

// rawCall posts a `return 1` run_code call with an Authorization header
// (none when empty) and checks its answer.
func rawCall(tb testing.TB, client *http.Client, url, authorization string) int {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(callBody(`return 1`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK && !strings.Contains(string(body), `"text":"1"`) {
		tb.Fatalf("answer: %s", body)
	}
	return resp.StatusCode
}

// BenchmarkServe_auth is the per-request cost of authentication on a
// `return 1` run over HTTP: off (no --auth), a bearer key, a JWT whose
// issuer's keys are cached. Run with -count N: the sub-benchmarks then
// interleave, as the figures in SECURITY.md were taken.
func BenchmarkServe_auth(b *testing.B) {
	is := newIssuer(b)
	ex, _ := plainExecutor(b, host.Limits{})
	off := httptest.NewServer(mcp.NewServer(ex, mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)}).Handler())
	b.Cleanup(off.Close)
	authed := benchServer(b, is, "") + "/mcp"
	tok := is.token(b, nil)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	for _, c := range []struct{ name, url, auth string }{
		{"off", off.URL + "/mcp", ""},
		{"key", authed, "Bearer bench-key"},
		{"jwt", authed, "Bearer " + tok},
	} {
		b.Run(c.name, func(b *testing.B) {
			rawCall(b, client, c.url, c.auth) // warm: the JWT's keys are fetched
			b.ResetTimer()
			for b.Loop() {
				if s := rawCall(b, client, c.url, c.auth); s != http.StatusOK {
					b.Fatalf("status %d", s)
				}
			}
		})
	}
}

// BenchmarkServe_noisyNeighbour: principal quiet's `return 1` runs, one
// after the other, alone and while principal flood floods serve from 8
// goroutines past its quota (concurrentRuns 1: the rest is 429). It
// reports quiet's p50 and p99; the target is p99 flooded within 1.5x of
// p99 alone (interleave with -count N).
func BenchmarkServe_noisyNeighbour(b *testing.B) {
	url := benchServer(b, nil, `"concurrentRuns": 1`) + "/mcp"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	measure := func(b *testing.B) {
		lat := make([]time.Duration, 0, b.N)
		rawCall(b, client, url, "Bearer quiet-key")
		b.ResetTimer()
		for b.Loop() {
			start := time.Now()
			if s := rawCall(b, client, url, "Bearer quiet-key"); s != http.StatusOK {
				b.Fatalf("quiet: status %d", s)
			}
			lat = append(lat, time.Since(start))
		}
		b.StopTimer()
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-us")
		b.ReportMetric(float64(lat[(len(lat)*99+99)/100-1].Microseconds()), "p99-us")
	}
	b.Run("alone", measure)
	b.Run("flooded", func(b *testing.B) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					s := rawCall(b, client, url, "Bearer flood-key")
					mu.Lock()
					codes[s]++
					mu.Unlock()
				}
			}()
		}
		time.Sleep(50 * time.Millisecond)
		measure(b)
		close(stop)
		wg.Wait()
		if codes[http.StatusOK] == 0 {
			b.Fatalf("the flood ran nothing: %v", codes)
		}
		b.ReportMetric(float64(codes[http.StatusTooManyRequests])/float64(codes[http.StatusOK]+codes[http.StatusTooManyRequests]), "flood-429-ratio")
	})
}
