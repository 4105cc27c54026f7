// A client of ptc-run serve made with the official MCP TypeScript SDK, for
// cmd/ptc-run's tests. Usage:
//
//   node client.mjs URL AUTHORIZATION MODE CODE
//
// AUTHORIZATION is the header's value ("" for none); MODE is "plain", or
// "elicit-accept", "elicit-decline" or "elicit-cancel" to declare
// elicitation and answer every request so. It lists the tools, calls
// run_code with CODE and prints one JSON line: the tool names, run_code's
// description, the result's text and isError, the elicitation messages and
// the session id; or {"error": ...} when a request failed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, authorization, mode, code] = process.argv.slice(2);
const elicit = mode.startsWith('elicit-');
const elicited = [];
const client = new Client({ name: 'ptc-test', version: '1' }, { capabilities: elicit ? { elicitation: {} } : {} });
if (elicit) {
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    elicited.push(req.params.message);
    return { action: mode.slice('elicit-'.length), content: {} };
  });
}
const headers = authorization ? { Authorization: authorization } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
let out;
try {
  await client.connect(transport);
  const tools = await client.listTools();
  const res = await client.callTool({ name: 'run_code', arguments: { code } });
  out = {
    tools: tools.tools.map((t) => t.name),
    description: tools.tools[0]?.description ?? '',
    text: res.content.map((c) => c.text ?? '').join(''),
    isError: !!res.isError,
    elicited,
    session: transport.sessionId ?? '',
  };
} catch (e) {
  out = { error: String(e), code: e.code ?? null };
}
console.log(JSON.stringify(out));
await client.close().catch(() => {});
