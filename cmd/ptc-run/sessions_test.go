//go:build linux

package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// haproxySessions routes a request to the replica that created its
// Mcp-Session-Id: the id of each initialize's response is stored with the
// server that answered, and requests carrying it stick to that server.
const haproxySessions = `    stick-table type string len 128 size 100k expire 30m
    stick on req.hdr(Mcp-Session-Id)
    stick store-response res.hdr(Mcp-Session-Id)
`

// TestServe_sessionsScaleOut runs three ptc-run serve --sessions replicas
// behind haproxy routing on Mcp-Session-Id: each session's calls all land
// on the replica that holds it; SIGKILLing one replica fails only its
// sessions, and the others go on.
func TestServe_sessionsScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: starts three servers and haproxy")
	}
	skipUnbuilt(t)
	haproxy := findHAProxy(t)
	bin := ptcRunBinary(t)
	tools, err := filepath.Abs("../../testdata/tools/weather.json")
	require.NoError(t, err)
	replicas := make([]*replica, 3)
	for i := range replicas {
		replicas[i] = startReplica(t, fmt.Sprintf("s%d", i), bin, tools, "--sessions")
		if i == 0 {
			replicas[0].waitListening(t)
		}
	}
	for _, r := range replicas[1:] {
		r.waitListening(t)
	}
	url := "http://" + startHAProxy(t, haproxy, t.TempDir(), replicas, haproxySessions) + "/mcp"

	const clients, calls = 9, 4
	sessions := make([]*sdk.ClientSession, clients)
	for i := range sessions {
		c := sdk.NewClient(&sdk.Implementation{Name: "sessions", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		sessions[i] = cs
	}
	call := func(cs *sdk.ClientSession, i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": fmt.Sprintf(`return %d`, i)}})
		if err != nil {
			return err
		}
		if got := res.Content[0].(*sdk.TextContent).Text; got != fmt.Sprint(i) {
			return fmt.Errorf("got %q, want %d", got, i)
		}
		return nil
	}
	var wg sync.WaitGroup
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range calls {
				require.NoError(t, call(cs, i*100+j))
			}
		}()
	}
	wg.Wait()

	// Every session's runs were logged by one replica, all of them. A
	// replica logs a run as it ends, which can be after its client has the
	// result: wait for the log lines before reading them.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		total := 0
		for _, r := range replicas {
			total += r.runCount()
		}
		if total >= clients*calls || time.Now().After(deadline) {
			break
		}
	}
	owner := map[string]*replica{}
	for _, r := range replicas {
		r.mu.Lock()
		counts := maps.Clone(r.sessions)
		r.mu.Unlock()
		for id, n := range counts {
			require.Nil(t, owner[id], "session %s ran on two replicas", id)
			owner[id] = r
			require.Equal(t, calls, n, "session %s on %s", id, r.name)
		}
	}
	require.Len(t, owner, clients)
	used := map[*replica]bool{}
	for _, cs := range sessions {
		require.NotNil(t, owner[cs.ID()], "session %s", cs.ID())
		used[owner[cs.ID()]] = true
	}
	require.Greater(t, len(used), 1, "the sessions were spread over the replicas")

	// Kill the replica holding the first session: its sessions fail, the
	// others still work.
	victim := owner[sessions[0].ID()]
	require.NoError(t, victim.cmd.Process.Kill())
	victim.wait()
	lost := 0
	for i, cs := range sessions {
		err := call(cs, 1000+i)
		if owner[cs.ID()] == victim {
			require.Error(t, err, "a session of the killed replica")
			lost++
			continue
		}
		require.NoError(t, err, "session %s on %s", cs.ID(), owner[cs.ID()].name)
	}
	t.Logf("%d sessions over %d replicas; killing %s lost its %d sessions, the other %d went on", clients, len(replicas), victim.name, lost, clients-lost)
}
