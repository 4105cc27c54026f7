//go:build linux

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/pgtest"
	"github.com/ptchost/ptc/mcp"
)

// TestServe_durableFleet runs three serve replicas sharing a PostgreSQL
// run store behind haproxy. A run_code request that names its run is sent;
// the replica running it is SIGKILLed while the run waits in a slow tool;
// the client's retry of the same request, landing on a survivor, resumes
// the run there: the call that settled before the kill is answered from
// the store (no replica calls it again), the one in flight (not
// idempotent) settles UNAVAILABLE; a further retry gives the same bytes
// and calls nothing.
func TestServe_durableFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: starts PostgreSQL, three servers and haproxy")
	}
	skipUnbuilt(t)
	haproxy := findHAProxy(t)
	storeURL := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	bin := ptcRunBinary(t)
	tools := filepath.Join(dir, "tools.json")
	require.NoError(t, os.WriteFile(tools, []byte(`{"tools":[
		{"name":"fast","parallelSafe":true,"responses":[{"value":{"n":7}}]},
		{"name":"slow","parallelSafe":true,"responses":[{"value":"late","delayMs":60000}]}]}`), 0o644))
	replicas := make([]*replica, 3)
	for i := range replicas {
		replicas[i] = startReplica(t, "d"+string(rune('0'+i)), bin, tools, "--store", storeURL, "--no-auth", "--timeout", "2m")
		replicas[i].waitListening(t)
	}
	url := "http://" + startHAProxy(t, haproxy, dir, replicas) + "/mcp"
	const program = `const a = await tools.fast({});
const b = await tools.slow({}).catch(e => e.code);
return [a.n, b]`
	call := func(ctx context.Context) (string, error) {
		cl := sdk.NewClient(&sdk.Implementation{Name: "durable", Version: "1"}, nil)
		cs, err := cl.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if err != nil {
			return "", err
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": program},
			Meta: sdk.Meta{mcp.RunIDMetaKey: "job-42"}})
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(res)
		return string(b), nil
	}
	firstErr := make(chan error, 1)
	go func() {
		_, err := call(context.Background())
		firstErr <- err
	}()
	// The replica that logged fast's result runs the program.
	var victim *replica
	deadline := time.Now().Add(30 * time.Second)
	for victim == nil {
		for _, r := range replicas {
			if r.toolResults("fast") == 1 {
				victim = r
			}
		}
		require.True(t, time.Now().Before(deadline), "no replica called fast")
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // slow is in flight
	require.NoError(t, victim.cmd.Process.Kill())
	victim.wait()
	require.Error(t, <-firstErr, "the request died with its replica")

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	start := time.Now()
	got, err := call(ctx)
	require.NoError(t, err)
	t.Logf("resumed on a survivor after %v (the lease is 10 s)", time.Since(start).Round(time.Millisecond))
	require.Contains(t, got, `[7, \"UNAVAILABLE\"]`)
	fast := 0
	for _, r := range replicas {
		fast += r.toolResults("fast")
	}
	require.Equal(t, 1, fast, "fast settled before the kill: no replica called it again")
	again, err := call(ctx)
	require.NoError(t, err)
	require.Equal(t, got, again, "the stored result, byte for byte")
	for _, r := range replicas {
		require.Zero(t, r.toolResults("slow"), "%s: slow never settled, nor was it made again", r.name)
	}
}
