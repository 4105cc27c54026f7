package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/internal/mcptest"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// TestDeclarations_filesystemServer measures run_code's declarations over
// the real filesystem server's tools: in full, within the default budget,
// and with the server's tools deferred (listed by name and first sentence,
// found with tools.$search).
func TestDeclarations_filesystemServer(t *testing.T) {
	h := sharedHost(t)
	node, args := mcptest.Filesystem(t, t.TempDir())
	sizes := map[string]int{}
	for _, c := range []struct {
		name   string
		budget int
		deferL bool
	}{{"full", -1, false}, {"default budget", 0, false}, {"deferred", 0, true}} {
		reg := registry.New()
		m, err := mcp.Mount(context.Background(), reg, mcp.Endpoint{Name: "fs", Command: node, Args: args}, mcp.MountOptions{DeferLoading: c.deferL})
		require.NoError(t, err)
		t.Cleanup(func() { m.Close() })
		pipe, err := pipeline.New(pipeline.Config{Registry: reg})
		require.NoError(t, err)
		ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: h, DeclarationBytes: c.budget})
		require.NoError(t, err)
		decls := ex.Declarations(registry.Scope{}, nil)
		sizes[c.name] = len(decls)
		if c.name == "full" {
			schemas := 0
			for _, d := range reg.Definitions(registry.Scope{}, nil) {
				b, err := json.Marshal(map[string]any{"name": d.Name(), "description": d.Schema().Description, "inputSchema": d.Schema().Parameters, "outputSchema": d.OutputSchema()})
				require.NoError(t, err)
				schemas += len(b)
			}
			native := 0
			for _, d := range reg.Definitions(registry.Scope{}, nil) {
				b, err := json.Marshal(d.Schema())
				require.NoError(t, err)
				native += len(b)
			}
			t.Logf("filesystem server: declarations %d bytes = %.1f%% of its tools' JSON as the model sees them natively (name, description, parameters: %d bytes), %.1f%% of them with their output schemas (%d bytes)",
				len(decls), 100*float64(len(decls))/float64(native), native, 100*float64(len(decls))/float64(schemas), schemas)
			// Every description is kept, and the output types are declared.
			for _, d := range reg.Definitions(registry.Scope{}, nil) {
				require.Contains(t, decls, strings.ReplaceAll(d.Schema().Description, "*/", `*\/`)) // as a doc comment writes it
			}
			require.Contains(t, decls, "type FsReadArgs = {\n  path: string;\n  /** If provided, returns only the last N lines of the file */ tail?: number;")
			require.Contains(t, decls, "fs__read_text_file(args: FsReadArgs): Promise<FsResult>;")
			require.Contains(t, decls, "type FsResult = { content: string };")
			require.Contains(t, decls, "fs__create_directory(args: { path: string }): Promise<FsResult>;")
			require.LessOrEqual(t, len(decls)*100, native*80, "declarations grew past 80%% of the native tools' JSON")
		}
		require.Contains(t, decls, "fs__read_text_file")
		t.Logf("filesystem server, %d tools, %s: %d bytes of declarations", len(m.Tools()), c.name, len(decls))
		ex.Close(context.Background())
		m.Close()
	}
	require.Less(t, sizes["deferred"], sizes["full"]/2)
}
