// Command ptc-run runs a model-written JavaScript program in the ptc
// sandbox, as the run_code executor would, and prints what the model
// would see.
//
// Usage:
//
//	ptc-run run    [--tools FILE] [--mcp NAME=CMD|URL]... [--mcp-config FILE]... [--timeout D]
//	               [--memory SIZE] [--json] [--record OUT.json] [--deterministic [--seed N]] PROGRAM|-
//	ptc-run replay [--json] [--program NEW.js] [--live TOOL]... [--tools FILE] [--mcp NAME=CMD|URL]...
//	               [--mcp-config FILE]... REC.json
//	ptc-run sdk    [--tools FILE] [--mcp NAME=CMD|URL]... [--mcp-config FILE]...
//	ptc-run serve  [--tools FILE] [--mcp NAME=CMD|URL]... [--mcp-config FILE]... [--timeout D]
//	               [--memory SIZE] [--grace D] [--listen ADDR | --stdio] [--auth FILE | --no-auth]
//	               [--allow-origin O]... [--sessions] [--max-runs N] [--metrics]
//	ptc-run guest build [--source DIR] [--force]
//	ptc-run --version
//
// `ptc-run COMMAND -h` documents each command: its flags, the tool
// fixture format, the environment (PTC_CACHE_DIR, PTC_GUEST) and the exit
// status; the texts are helpTexts, and their golden copies are in
// testdata/help.
//
// --tools mounts the tools of a fixture file (docs/ARCHITECTURE.md, "Tool fixture
// file"): they are registered in a real registry and every subcall runs
// through the real pipeline, timeout policy included. --mcp mounts the
// tools of an MCP server as NAME__TOOL: NAME=COMMAND ARGS... starts a stdio
// server, NAME=http(s)://... reaches a streamable HTTP one; it may be
// repeated. --mcp-config FILE mounts the servers of a file in the
// mcpServers format (mcp.LoadConfig; docs/mcp-config.md), repeatable too.
// run --record writes the run's recording (recording.Recording's JSON
// form), --deterministic makes its clock virtual and its random source
// seeded (--seed). replay runs a recording's program again with its
// subcalls answered from the recording (ptc.Executor.Replay) and exits 1
// when the run leaves it. sdk prints the TypeScript declarations the model sees in
// run_code's description. serve offers run_code as an MCP tool, over
// streamable HTTP (stateless, at /mcp, health at /healthz; --listen,
// default 127.0.0.1:8080) or on stdin and stdout (--stdio), logging one
// JSON record per run on stderr; SIGINT or SIGTERM lets the runs in
// progress finish for --grace and then aborts them. guest build builds the
// sandbox's guest from the module's pinned sources into the user cache
// directory, checking it is byte for byte the guest built into ptc-run.
//
// The compiled guest is cached in $PTC_CACHE_DIR/wazero (default: ptc-run
// in the user cache directory); set PTC_CACHE_DIR= (empty) to disable
// that cache.
//
// Exit status: 0 the program succeeded, 1 the program failed (the content
// is still printed), 2 usage, configuration or fixture error.
package main
