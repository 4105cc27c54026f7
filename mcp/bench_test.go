package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// BenchmarkMount_echo is a subcall round trip to a stdio server: the
// pipeline (validation against the server's schema, the timeout policy)
// and the Go SDK to the reference server's echo and back.
func BenchmarkMount_echo(b *testing.B) {
	reg := registry.New()
	node, args := mcptestEverything(b)
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "ev", Command: node, Args: args}, mcp.MountOptions{})
	require.NoError(b, err)
	defer c.Close()
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(b, err)
	pipe.Wrap(pipeline.TimeoutPolicy())
	call := pipeline.RawCall{ID: "1", Name: "ev__echo", Arguments: json.RawMessage(`{"message":"hello"}`)}
	b.ResetTimer()
	for b.Loop() {
		if o := pipe.Call(context.Background(), call, pipeline.Env{}); o.Err() != nil {
			b.Fatal(o.Content())
		}
	}
}

// BenchmarkMount_program is one run_code program making one subcall to
// the stdio server.
func BenchmarkMount_program(b *testing.B) {
	reg := registry.New()
	node, args := mcptestEverything(b)
	c, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "ev", Command: node, Args: args}, mcp.MountOptions{})
	require.NoError(b, err)
	defer c.Close()
	f := &fixture{reg: reg}
	f.pipe, err = pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(b, err)
	ex := newExecutorB(b, f.pipe)
	call := runCall(`return await tools.ev__echo({message: "hello"})`)
	b.ResetTimer()
	for b.Loop() {
		if r := ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{call}})[0]; r.IsError {
			b.Fatal(r.Content)
		}
	}
}

// BenchmarkServe_http is serve's throughput over streamable HTTP on
// loopback: `return 1` programs from GOMAXPROCS×4 clients, each its own
// MCP session; it reports runs/s and the p99 latency.
func BenchmarkServe_http(b *testing.B) {
	ex, _ := plainExecutor(b, host.Limits{})
	s := mcp.NewServer(ex, mcp.ServerOptions{})
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	var (
		mu    sync.Mutex
		lat   []time.Duration
		start = time.Now()
	)
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp", DisableStandaloneSSE: true}, nil)
		if err != nil {
			b.Error(err)
			return
		}
		defer cs.Close()
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_code", Arguments: map[string]string{"code": "return 1"}})
			if err != nil || res.IsError {
				b.Error(err, res)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "runs/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}

func newExecutorB(b *testing.B, pipe *pipeline.Pipeline) *ptc.Executor {
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(b)})
	require.NoError(b, err)
	b.Cleanup(func() { ex.Close(context.Background()) })
	return ex
}

func runCall(code string) pipeline.RawCall {
	args, _ := json.Marshal(map[string]string{"code": code})
	return pipeline.RawCall{ID: "1", Name: ptc.ToolName, Arguments: args}
}
