// ptc: tools=tools.json
// A typed formatter factory over Intl, for money, dates and percentages.
type Currency = "USD" | "EUR" | "GBP" | "JPY";

interface Formatters {
  money(n: number, currency?: Currency): string;
  date(d: Date | string): string;
  pct(n: number): string;
}

function makeFormatters(locale: string, timeZone = "UTC"): Formatters {
  const cache = new Map<Currency, Intl.NumberFormat>();
  const dateFmt = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone });
  const pctFmt = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  return {
    money(n, currency = "USD") {
      let f = cache.get(currency);
      if (!f) cache.set(currency, (f = new Intl.NumberFormat(locale, { style: "currency", currency })));
      return f.format(n);
    },
    date: (d) => dateFmt.format(typeof d === "string" ? new Date(d) : d),
    pct: (n) => pctFmt.format(n),
  };
}

const { orders } = await tools.list_orders({ customerId: "C-1002" });
const locales: Array<[string, string]> = [["en-US", "America/Chicago"], ["de-DE", "Europe/Berlin"], ["ja-JP", "Asia/Tokyo"], ["es-ES", "Europe/Madrid"]];
for (const [locale, tz] of locales) {
  const f = makeFormatters(locale, tz);
  const o = orders[0]!;
  console.log(`${locale}: ${o.id} ${f.money(o.total)} / ${f.money(o.total, "EUR")} on ${f.date(o.placedAt)}, ${f.pct(o.total / 1000)} of budget`);
}
return makeFormatters("en-GB").money(orders.reduce((s: number, o: { total: number }) => s + o.total, 0), "GBP");
