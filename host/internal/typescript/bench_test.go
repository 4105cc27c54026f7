package typescript

import (
	"strings"
	"testing"
)

// benchTS is a realistic TypeScript program of 50 lines: interfaces,
// generics, an enum, typed async functions, assertions and a loop over
// tool results.
const benchTS = `interface Customer {
  id: number;
  name: string;
  email?: string;
  tier: Tier;
}
interface Order<T = number> {
  id: string;
  customerId: number;
  total: T;
  items: Array<{ sku: string; qty: number }>;
}
enum Tier { Free = "free", Pro = "pro", Enterprise = "enterprise" }
type Summary = { customer: string; orders: number; spent: number };
function assertNever(x: never): never {
  throw new Error("unexpected: " + (x as unknown as string));
}


function groupBy<T, K extends string | number>(rows: readonly T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k) ?? [];
    list.push(r);
    out.set(k, list);
  }
  return out;
}

async function fetchOrders(customerId: number, limit: number = 50): Promise<Order[]> {
  const res = await tools.query_orders({ customer_id: customerId, limit }) as { rows: Order[] };
  return res.rows;
}

const customers = (await tools.list_customers({ tier: Tier.Pro })) as Customer[];
const summaries: Summary[] = [];
for (const c of customers) {
  const orders: Order[] = await fetchOrders(c.id);
  const bySku = groupBy(orders.flatMap((o) => o.items), (i) => i.sku);
  const spent = orders.reduce<number>((s, o) => s + o.total, 0);
  if (spent <= 0) continue;
  summaries.push({ customer: c.name, orders: orders.length, spent });
  console.log(` + "`${c.name}: ${bySku.size} distinct SKUs`" + `);
}
summaries.sort((a: Summary, b: Summary): number => b.spent - a.spent);
const top = summaries.slice(0, 5)!;
const label = (s: Summary): string => ` + "`${s.customer} (${s.orders} orders)`" + `;
console.log(top.map(label).join("\n"));
return { count: summaries.length, top: top satisfies Summary[] };
`

// benchJS is a plain JavaScript program of 50 lines doing the same kind of
// work.
const benchJS = `// Summarise what the pro customers spent.
const TIERS = { free: "free", pro: "pro", enterprise: "enterprise" };

function groupBy(rows, key) {
  const out = new Map();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k) ?? [];
    list.push(r);
    out.set(k, list);
  }
  return out;
}

async function fetchOrders(customerId, limit = 50) {
  const res = await tools.query_orders({ customer_id: customerId, limit });
  return res.rows;
}

function money(n) {
  return "$" + n.toFixed(2);
}

const customers = await tools.list_customers({ tier: TIERS.pro });
const summaries = [];
let skipped = 0;
for (const c of customers) {
  const orders = await fetchOrders(c.id);
  const bySku = groupBy(orders.flatMap((o) => o.items), (i) => i.sku);
  const spent = orders.reduce((s, o) => s + o.total, 0);
  if (spent <= 0) {
    skipped++;
    continue;
  }
  summaries.push({ customer: c.name, orders: orders.length, spent });
  console.log(` + "`${c.name}: ${bySku.size} distinct SKUs, ${money(spent)}`" + `);
}
summaries.sort((a, b) => b.spent - a.spent);
const top = summaries.slice(0, 5);
const label = (s) => ` + "`${s.customer} (${s.orders} orders)`" + `;
console.log(top.map(label).join("\n"));
if (skipped) {
  console.log(` + "`skipped ${skipped} customers without spend`" + `);
}
const totals = {
  count: summaries.length,
  spent: summaries.reduce((s, x) => s + x.spent, 0),
  top,
};
return totals;
`

func benchStrip(b *testing.B, src string) {
	if n := strings.Count(src, "\n"); n != 50 {
		b.Fatalf("program has %d lines, want 50", n)
	}
	if _, _, err := Strip(src); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := Strip(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStrip is what the host pays for a TypeScript program, after the
// guest's parse of it failed.
func BenchmarkStrip(b *testing.B) { benchStrip(b, benchTS) }

// BenchmarkStrip_plainJS is what detecting TypeScript in Go would cost a
// plain JavaScript program: the host does not pay it, since it strips
// only after the guest's parse fails.
func BenchmarkStrip_plainJS(b *testing.B) { benchStrip(b, benchJS) }
