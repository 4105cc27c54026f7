// ptc: tools=tools.json
// catch (err: unknown) narrowed to the ToolError the runtime declares.
declare class ToolError extends Error {
  code: string;
  tool: string;
}

function isToolError(e: unknown): e is ToolError {
  return e instanceof Error && e.name === "ToolError" && "code" in e;
}

const queries: string[] = ["SELECT COUNT(*) AS n FROM accounts WHERE active", "DROP TABLE accounts", "SELECT * FROM nope"];
const outcomes: { query: string; ok: boolean; detail: string }[] = [];
for (const query of queries) {
  try {
    const rows = (await tools.run_sql({ query })) as Array<{ n: number }>;
    outcomes.push({ query, ok: true, detail: `n=${rows[0]!.n}` });
  } catch (err: unknown) {
    if (isToolError(err)) {
      console.error(`[${err.code}] ${err.tool}: ${err.message}`);
      outcomes.push({ query, ok: false, detail: err.code });
    } else {
      throw err;
    }
  }
}
console.table(outcomes);
try {
  await (tools as any).list_tables({});
} catch (err) {
  console.log("list_tables:", (err as ToolError).code, isToolError(err));
}
return outcomes.filter((o) => o.ok).length;
