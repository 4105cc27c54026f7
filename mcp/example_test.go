package mcp_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Mount an MCP server's tools, then serve run_code over them as an MCP
// server of its own: a Code Mode gateway in front of the server.
func Example() {
	ctx := context.Background()
	reg := registry.New()
	fs, err := mcp.Mount(ctx, reg, mcp.Endpoint{
		Name:    "fs",
		Command: "npx",
		Args:    []string{"-y", "@modelcontextprotocol/server-filesystem", "/srv/data"},
	}, mcp.MountOptions{})
	if err != nil {
		log.Fatal(err) // the server could not start: errors.Is(err, mcp.ErrUnavailable)
	}
	defer fs.Close()
	fmt.Println(fs.Tools()) // [fs__create_directory fs__edit_file ...]

	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	pipe.Wrap(pipeline.TimeoutPolicy())
	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		log.Fatal(err)
	}
	defer ex.Close(ctx)

	srv := mcp.NewServer(ex, mcp.ServerOptions{Logger: slog.New(slog.NewJSONHandler(os.Stderr, nil))})
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", srv.Handler()))
}

func ExampleParseEndpoint() {
	ep, _ := mcp.ParseEndpoint(`fs=npx -y @modelcontextprotocol/server-filesystem "/srv/my data"`)
	fmt.Printf("%s %q\n", ep.Command, ep.Args)
	ep, _ = mcp.ParseEndpoint("search=https://mcp.example.com/mcp")
	fmt.Println(ep.URL)
	// Output:
	// npx ["-y" "@modelcontextprotocol/server-filesystem" "/srv/my data"]
	// https://mcp.example.com/mcp
}

func ExampleToolName() {
	fmt.Println(mcp.ToolName("gh", "create_issue"))
	fmt.Println(mcp.ToolName("gh", "issues.create"))
	// Output:
	// gh__create_issue
	// gh__issues_create_4d9a9bb8
}

// Read the servers of an mcpServers file, as Claude Desktop, Cursor and VS
// Code keep them, and mount each.
func ExampleReadConfig() {
	os.Setenv("DOCS_TOKEN", "example-token")
	eps, err := mcp.ReadConfig([]byte(`{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/data"],
         "tools": ["read_*", "list_*"]},
  "docs": {"type": "http", "url": "https://mcp.example.com/mcp",
           "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}, "deferLoading": true}}}`), mcp.ConfigOptions{})
	if err != nil {
		log.Fatal(err) // errors.Is(err, mcp.ErrConfig), naming the server and the key
	}
	for _, ep := range eps {
		fmt.Println(ep, ep.Tools, ep.DeferLoading)
	}
	// A mount's errors and logs show the token as ${DOCS_TOKEN}, never its value:
	// for _, ep := range eps { mcp.Mount(ctx, reg, ep, mcp.MountOptions{}) }

	// Output:
	// fs=npx -y @modelcontextprotocol/server-filesystem /srv/data [read_* list_*] false
	// docs=https://mcp.example.com/mcp [] true
}

func ExampleParseAuthConfig() {
	c, err := mcp.ParseAuthConfig([]byte(`{"principals": [
	  {"name": "team-a", "keySha256": "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b",
	   "tools": ["get_weather", "fs__read_*"], "ask": ["fs__write_file"],
	   "limits": {"concurrentRuns": 4, "runsPerMinute": 120, "timeout": "10s", "memory": "32MiB"}}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := c.Principals[0]
	fmt.Println(p.Name, p.Tools, p.Ask, p.Limits.Timeout, p.Limits.MemoryBytes>>20, "MiB")

	_, err = mcp.ParseAuthConfig([]byte(`{"principals": [{"name": "team-a", "keySha256": "not hex"}]}`))
	fmt.Println(err)
	// Output:
	// team-a [get_weather fs__read_*] [fs__write_file] 10s 32 MiB
	// auth: principals[0].keySha256: want the 64 hex digits of a sha256
}
