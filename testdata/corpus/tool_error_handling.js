// ptc: tools=tools.json
// Catch ToolError and branch on err.code.
const ids = ["C-1002", "C-4040", "C-1004"];
const found = [];
for (const id of ids) {
  try {
    const c = await tools.get_customer({ id });
    found.push(c.name);
  } catch (err) {
    console.error("failed:", err.message);
    console.error(`  name=${err.name} code=${err.code} tool=${err.tool}`);
    console.error("  is Error:", err instanceof Error, "is ToolError:", err instanceof ToolError);
    console.error("  own keys:", Object.keys(err));
    console.error("  as JSON:", JSON.stringify(err));
    console.error("  String(err):", String(err));
  }
}
console.log("found:", found);

try {
  await tools.get_wether({ city: "Paris" });
} catch (err) {
  console.log("typo in the tool name ->", err.code);
}

const result = await tools.get_weather({ city: "Atlantis" }).catch((e) => ({ error: e.code, message: e.message }));
return { found, result };
