// ptc: tools=tools.json
// Follow the cursor until the last page.
const customerId = "C-1001";
let cursor = null;
let page = 0;
const all = [];
do {
  const res = await tools.list_orders({ customerId, cursor, limit: 4 });
  page++;
  console.log(`page ${page}: ${res.orders.length} orders`);
  all.push(...res.orders);
  cursor = res.nextCursor;
} while (cursor);

const delivered = all.filter((o) => o.status === "delivered");
const spent = delivered.reduce((s, o) => s + o.total, 0);
console.log(`fetched ${all.length} orders in ${page} pages`);
return {
  customerId,
  orders: all.length,
  delivered: delivered.length,
  spent: Math.round(spent * 100) / 100,
  byStatus: all.reduce((acc, o) => {
    acc[o.status] = (acc[o.status] || 0) + 1;
    return acc;
  }, {}),
  newest: all[0].id,
  oldest: all.at(-1).id,
};
