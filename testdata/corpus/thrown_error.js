// ptc: tools=tools.json
// The program throws its own error after printing: the run fails with it.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });
const west = rows.filter((r) => r.region === "West");
console.log(`West: ${west.length} rows`);
const central = rows.filter((r) => r.region === "Central");
if (central.length === 0) {
  throw new Error("no sales rows for region Central");
}
return central;
