package main

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/ptchost/ptc/mcp"
)

// configFiles is the repeatable --mcp-config flag: files in the
// mcpServers format (mcp.LoadConfig), read when the tools are mounted.
type configFiles []string

func (c *configFiles) String() string { return fmt.Sprint(*c) }

func (c *configFiles) Set(s string) error {
	if s == "" {
		return errors.New("want a file")
	}
	*c = append(*c, s)
	return nil
}

// servers returns the MCP servers to mount: those of --mcp, then those of
// each --mcp-config file in order. Two servers of one name are an error;
// the keys a file has and ptc ignores are logged, one warning each.
func (t *toolFlags) servers(logger *slog.Logger) ([]mcp.Endpoint, error) {
	eps := endpoints(append([]mcp.Endpoint(nil), t.mcp...))
	for _, path := range t.configs {
		more, err := mcp.LoadConfig(path, mcp.ConfigOptions{Logger: logger})
		if err != nil {
			return nil, fmt.Errorf("--mcp-config %w", err)
		}
		for _, ep := range more {
			if err := eps.add(ep); err != nil {
				return nil, fmt.Errorf("--mcp-config %s: %w", path, err)
			}
		}
	}
	return eps, nil
}

// helpMCPConfig documents the --mcp-config file in the help texts.
const helpMCPConfig = `MCP servers file (--mcp-config FILE), JSON, as Claude Desktop and Cursor
write it ("mcpServers"), or VS Code ("servers"):
  {"mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
           "env": {"LOG_LEVEL": "warn"}, "tools": ["read_*", "list_*"]},
    "docs": {"type": "http", "url": "https://mcp.example/mcp", "deferLoading": true,
             "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}},
    "crm": {"url": "https://crm.example/mcp",
            "oauth": {"tokenURL": "https://auth.example/token", "clientId": "ptc",
                      "clientSecret": "${CRM_SECRET}", "scopes": ["tools"]}}}}
  Each name is its tools' prefix (NAME__TOOL). A stdio server has command,
  args, env (added to ours) and cwd; a remote one url, headers (sent with
  every request) and type "http". ptc's own keys: tools (glob patterns
  choosing the tools to register), deferLoading (list them by name only),
  oauth (tokens by the client-credentials grant, cached and renewed).
  ${VAR} or ${env:VAR} in env, headers, url and oauth is read from the
  environment; one that is not set is an error (${VAR:-default} gives a
  default). Other keys are ignored, with a warning each.
`
