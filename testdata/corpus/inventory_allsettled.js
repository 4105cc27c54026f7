// ptc: tools=tools.json
// Promise.allSettled over an inventory check; find what to reorder.
const skus = ["WID-001", "GAD-002", "GIZ-003", "XXX-999", "DOO-004"];
const results = await Promise.allSettled(skus.map((sku) => tools.get_inventory({ sku })));

const items = [];
const errors = [];
results.forEach((r, i) => {
  if (r.status === "fulfilled") items.push(r.value);
  else errors.push({ sku: skus[i], code: r.reason.code, message: r.reason.message });
});

const reorder = items
  .filter((it) => it.stock < it.reorderLevel)
  .map((it) => ({ sku: it.sku, name: it.name, shortBy: it.reorderLevel - it.stock, cost: (it.reorderLevel - it.stock) * it.unitCost }));
const stockValue = items.reduce((s, it) => s + it.stock * it.unitCost, 0);

console.log(`checked ${skus.length} SKUs: ${items.length} found, ${errors.length} failed`);
console.log("errors:", errors);
for (const r of reorder) console.log(`REORDER ${r.sku} (${r.name}): short by ${r.shortBy}, ~$${r.cost.toFixed(2)}`);
const byWarehouse = {};
for (const it of items) (byWarehouse[it.warehouse] ??= []).push(it.sku);
return { stockValue: stockValue.toFixed(2), reorder: reorder.map((r) => r.sku), byWarehouse };
