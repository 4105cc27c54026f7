// ptc: tools=tools.json
// Typed SQL rows, a generic groupBy, and console.table of the summary.
interface SaleRow {
  id: number;
  region: "North" | "South" | "East" | "West";
  product: string;
  amount: number;
  units: number;
  sold_at: string;
}

function groupBy<T, K extends PropertyKey>(items: readonly T[], key: (item: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) (out[key(item)] ??= []).push(item);
  return out;
}

const rows = (await tools.run_sql({ query: "SELECT * FROM sales" })) as SaleRow[];
const byProduct = groupBy(rows, (r) => r.product);
const summary = Object.entries(byProduct).map(([product, list]) => ({
  product,
  orders: list.length,
  units: list.reduce((n, r) => n + r.units, 0),
  revenue: +list.reduce((n, r) => n + r.amount, 0).toFixed(2),
}));
console.table(summary);
const months = groupBy(rows, (r) => r.sold_at.slice(0, 7) as `${number}-${number}`);
console.log(Object.keys(months));
const best = summary.reduce((a, b) => (b.revenue > a.revenue ? b : a));
return `${best.product} leads with ${best.revenue.toLocaleString("en-US", { style: "currency", currency: "USD" })} over ${best.orders} orders`;
