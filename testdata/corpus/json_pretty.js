// ptc: tools=tools.json
// JSON.stringify(x, null, 2) printed, replacers, and a string returned.
const accounts = await tools.run_sql({ query: "SELECT * FROM accounts" });
const summary = {
  generatedAt: new Date("2024-03-28T12:00:00Z"),
  count: accounts.length,
  plans: [...new Set(accounts.map((a) => a.plan))],
  top: accounts.toSorted((a, b) => b.mrr - a.mrr).slice(0, 2).map(({ name, mrr }) => ({ name, mrr })),
  note: undefined,
};
console.log(JSON.stringify(summary, null, 2));
console.log(JSON.stringify(accounts[0], ["id", "name", "plan"]));
console.log(JSON.stringify(accounts[1], (key, value) => (key === "mrr" ? `$${value}` : value), "\t"));
console.log(JSON.stringify({ a: [1, { b: 2 }], s: "line\nbreak \"q\" \u00e9 \t" }));
console.log(JSON.stringify([undefined, () => 1, Symbol("x"), NaN, Infinity, -0]));
console.log(JSON.stringify("plain"), JSON.stringify(null), JSON.stringify(undefined));
const parsed = JSON.parse('{"n": 1e3, "big": 12345678901234567890, "list": [true, false, null]}');
console.log(parsed, typeof parsed.big);
return JSON.stringify({ ok: true, count: summary.count }, null, 2);
