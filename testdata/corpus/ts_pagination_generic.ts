// ptc: tools=tools.json
// A generic pagination helper over a typed page.
interface Order {
  id: string;
  total: number;
  currency: string;
  status: "processing" | "shipped" | "delivered" | "cancelled" | "refunded";
  placedAt: string;
  items: number;
}
interface Page<T> {
  orders: T[];
  nextCursor: string | null;
}
type Fetcher<T> = (cursor: string | null) => Promise<Page<T>>;

async function collect<T>(fetch: Fetcher<T>, maxPages = 10): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const page: Page<T> = await fetch(cursor);
    out.push(...page.orders);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

const orders = await collect<Order>((cursor) => tools.list_orders({ customerId: "C-1001", cursor }));
const byStatus = orders.reduce<Record<string, number>>((acc, o) => {
  acc[o.status] = (acc[o.status] ?? 0) + 1;
  return acc;
}, {});
const items: number = orders.reduce((n, o) => n + o.items, 0);
console.log(`${orders.length} orders, ${items} items`);
console.log(byStatus);
return orders.filter((o) => o.total > 100).map((o) => `${o.id}: ${o.total.toFixed(2)} ${o.currency}`);
