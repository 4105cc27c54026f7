// Package mcp connects ptc to the Model Context Protocol in both
// directions, with the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// # Mount: an MCP server's tools in the registry
//
// [Mount] connects to a server over stdio (a command) or streamable HTTP (a
// URL), lists its tools and registers each in a [registry.Registry] as a
// raw-JSON-Schema tool named NAME__TOOL. A call then goes through the
// pipeline like any other: the arguments are validated against the
// server's input schema, the server's result becomes content parts (text,
// images, audio and resources) and a canonical value (the structured
// content when the server sends one, else the text, parsed when it is
// JSON), and a result marked isError fails the call with the server's text
// (TOOL_FAILED). A tool annotated readOnlyHint runs in parallel with other
// parallel calls; every other tool is serial. The server's
// notifications/tools/list_changed re-synchronise the registrations. A
// cancelled call reaches the server as notifications/cancelled. A server
// that exits is restarted on the next call, with a bounded backoff.
//
// # Config: the servers people already have
//
// [ReadConfig] and [LoadConfig] read the JSON file most MCP hosts share
// (Claude Desktop's and Cursor's "mcpServers", VS Code's "servers") into
// endpoints to mount: stdio servers with their environment and working
// directory, remote ones with the headers sent on every request or an
// OAuth client-credentials grant ([OAuth]), ${VAR}s read from the
// environment, and ptc's own choice of each server's tools
// ([Endpoint.Tools]) and [Endpoint.DeferLoading]. A remote server that
// answers 401 is [ErrUnavailable] with a message saying which header or
// variable to set; the values that came from variables, the headers and
// the OAuth secret never appear in the mount's errors or logs.
//
// # Serve: run_code as an MCP server
//
// [NewServer] exposes an executor's run_code as an MCP tool whose
// description is [ptc.Executor.RunCodeSchema]'s. [Server.Handler] answers
// streamable HTTP at /mcp in the SDK's stateless mode (any replica serves
// any request, so N replicas scale behind an ordinary load balancer) and
// health at /healthz; [Server.ServeStdio] speaks MCP on a pair of streams.
// [Server.Shutdown] lets the runs in progress finish within a grace period
// and then aborts them.
//
// Over HTTP the handler refuses a request whose Origin is not allowed
// (ServerOptions.AllowOrigins) and answers malformed JSON-RPC with the
// error codes stdio gives. With ServerOptions.Auth ([AuthConfig], read by
// [ParseAuthConfig]) every request must name a principal, by a bearer key
// or a JWT access token verified with go-oidc; each principal is an agent
// of the registry restricted to its tool patterns, with its own limits and
// quotas (HTTP 429), and its ask patterns put its subcalls to the person
// behind the client (elicitation/create) in a session
// (ServerOptions.Sessions). [AuditHandler] makes log records name the
// principal and session. docs/serve.md is the operator's guide.
package mcp
