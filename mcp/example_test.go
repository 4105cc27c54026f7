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
