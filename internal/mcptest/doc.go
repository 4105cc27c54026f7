// Package mcptest gives tests the MCP servers nobody here wrote: the npm
// packages @modelcontextprotocol/server-everything and server-filesystem,
// pinned by
// mcp/testdata/everything/package-lock.json and installed by
// `make mcp-servers` (or by the first test that needs it, when npm is
// there).
package mcptest
