// ptc: tools=tools.json
// console.group indentation, console.count and console.assert.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });
const regions = [...new Set(rows.map((r) => r.region))].sort();
console.group("Sales by region");
for (const region of regions) {
  const list = rows.filter((r) => r.region === region);
  console.group(`${region} (${list.length})`);
  for (const r of list) {
    console.log(`${r.sold_at} ${r.product.padEnd(6)} ${r.amount.toFixed(2).padStart(8)}`);
    console.count(r.product);
  }
  console.groupEnd();
}
console.groupEnd();
console.log("back at the top level");
console.assert(rows.length === 12, "expected 12 rows");
console.assert(rows.every((r) => r.amount < 2000), "some sale is over %d", 2000);
console.countReset("Widget");
console.count("Widget");
console.group();
console.info({ multi: "line\nvalue", list: [1, 2] });
console.groupEnd();
