// ptc: tools=tools.json
// Group rows into a Map and print it the way Node does.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });

const byProduct = new Map();
for (const row of rows) {
  if (!byProduct.has(row.product)) byProduct.set(row.product, []);
  byProduct.get(row.product).push(row.id);
}
console.log(byProduct);

const revenue = new Map();
for (const { product, amount } of rows) {
  revenue.set(product, (revenue.get(product) ?? 0) + amount);
}
console.log("revenue by product:", revenue);
console.log("products:", new Set(rows.map((r) => r.product)));

const months = new Map();
for (const row of rows) {
  const month = row.sold_at.slice(0, 7);
  months.set(month, (months.get(month) ?? 0) + row.units);
}
console.log([...months.entries()]);
console.log(Object.fromEntries(months));
return months;
