package mcp_test

import (
	"context"
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
		require.Contains(t, decls, "fs__read_text_file")
		t.Logf("filesystem server, %d tools, %s: %d bytes of declarations", len(m.Tools()), c.name, len(decls))
		ex.Close(context.Background())
		m.Close()
	}
	require.Less(t, sizes["deferred"], sizes["full"]/2)
}
