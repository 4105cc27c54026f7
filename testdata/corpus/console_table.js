// ptc: tools=tools.json
// console.table over SQL rows, all columns and a chosen few.
const rows = await tools.run_sql({ query: "SELECT * FROM support_tickets WHERE status = 'open'" });
console.table(rows.map(({ id, priority, subject }) => ({ id, priority, subject })));
console.table(rows, ["account_id", "priority"]);
const counts = rows.reduce((acc, r) => ({ ...acc, [r.priority]: (acc[r.priority] ?? 0) + 1 }), {});
console.table(counts);
console.table([[1, 2], [3, 4]]);
console.table(["a", "b"]);
return `${rows.length} open tickets`;
