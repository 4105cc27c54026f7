// ptc: tools=tools.json
// Aggregate SQL rows by region with reduce.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });
console.log(`Got ${rows.length} rows`);

const byRegion = rows.reduce((acc, row) => {
  const r = (acc[row.region] ??= { revenue: 0, units: 0, orders: 0 });
  r.revenue += row.amount;
  r.units += row.units;
  r.orders += 1;
  return acc;
}, {});

for (const [region, stats] of Object.entries(byRegion)) {
  stats.revenue = Number(stats.revenue.toFixed(2));
  stats.avgOrder = Number((stats.revenue / stats.orders).toFixed(2));
}

const ranking = Object.entries(byRegion)
  .sort(([, a], [, b]) => b.revenue - a.revenue)
  .map(([region, s], i) => `${i + 1}. ${region} — $${s.revenue.toFixed(2)}`);
console.log(ranking.join("\n"));

return byRegion;
