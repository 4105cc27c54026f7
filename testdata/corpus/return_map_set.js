// ptc: tools=tools.json
// Returning values JSON cannot hold: shown the way util.inspect shows them.
const rows = await tools.run_sql({ query: "SELECT * FROM accounts" });
const byPlan = new Map();
for (const a of rows) {
  const entry = byPlan.get(a.plan) ?? { accounts: new Set(), mrr: 0 };
  entry.accounts.add(a.id);
  entry.mrr += a.mrr;
  byPlan.set(a.plan, entry);
}
return {
  byPlan,
  countries: new Set(rows.map((r) => r.country)),
  churned: rows.filter((r) => !r.active).map((r) => r.id),
  lastSignup: undefined,
  ratio: NaN,
};
