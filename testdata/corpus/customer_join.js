// ptc: tools=tools.json
// Join customers with their orders: parallel lookups, then rank spenders.
const ids = ["C-1001", "C-1002", "C-1003", "C-1004", "C-1005"];
const customers = await Promise.all(ids.map((id) => tools.get_customer({ id })));

async function allOrders(customerId) {
  const out = [];
  let cursor;
  do {
    const page = await tools.list_orders({ customerId, ...(cursor ? { cursor } : {}) });
    out.push(...page.orders);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

const orders = await Promise.all(customers.map((c) => allOrders(c.id)));
const usd = (n) => n.toLocaleString("en-US", { style: "currency", currency: "USD" });

const ranked = customers
  .map((c, i) => {
    const paid = orders[i].filter((o) => !["cancelled", "refunded"].includes(o.status));
    return { name: c.name, tier: c.tier, orders: paid.length, spent: paid.reduce((s, o) => s + o.total, 0) };
  })
  .sort((a, b) => b.spent - a.spent);

ranked.forEach((r, i) => console.log(`${i + 1}. ${r.name.padEnd(18)} ${r.tier.padEnd(7)} ${String(r.orders).padStart(2)} orders ${usd(r.spent).padStart(10)}`));
const noOrders = ranked.filter((r) => r.orders === 0).map((r) => r.name);
console.log("No orders:", noOrders.length ? noOrders.join(", ") : "none");
return { topSpender: ranked[0].name, total: usd(ranked.reduce((s, r) => s + r.spent, 0)) };
