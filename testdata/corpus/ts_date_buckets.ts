// ptc: tools=tools.json
// Date arithmetic in UTC: weekday names, ISO weeks and day buckets.
interface Order {
  id: string;
  total: number;
  placedAt: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  const week = Math.ceil(((t.getTime() - yearStart.getTime()) / DAY_MS + 1) / 7);
  return `${t.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

const pages = await Promise.all([
  tools.list_orders({ customerId: "C-1001" }),
  tools.list_orders({ customerId: "C-1002" }),
  tools.list_orders({ customerId: "C-1005" }),
]);
const orders: Order[] = pages.flatMap((p: { orders: Order[] }) => p.orders);

const byWeekday = new Map<string, number>();
const byWeek: Record<string, string[]> = {};
for (const o of orders) {
  const d = new Date(o.placedAt);
  const weekday = d.toLocaleDateString("en-US", { weekday: "short" });
  byWeekday.set(weekday, (byWeekday.get(weekday) ?? 0) + 1);
  (byWeek[isoWeek(d)] ??= []).push(o.id);
}
console.log(byWeekday);

const reference = new Date("2024-03-31T00:00:00Z");
const ages = orders.map((o) => Math.floor((reference.getTime() - Date.parse(o.placedAt)) / DAY_MS));
console.log("days since each order:", ages.join(", "));
const nextMonday = new Date(reference);
nextMonday.setUTCDate(reference.getUTCDate() + ((8 - reference.getUTCDay()) % 7 || 7));
console.log("next Monday:", nextMonday.toDateString(), "|", nextMonday.toISOString().slice(0, 10));
console.log("end of February 2024:", new Date(Date.UTC(2024, 2, 0)).getUTCDate());
console.log("local getters (TZ=UTC):", new Date(2024, 0, 31, 23, 59).toISOString(), new Date("2024-03-10").getTimezoneOffset());
return byWeek;
