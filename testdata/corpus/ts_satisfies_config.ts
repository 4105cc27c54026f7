// ptc: tools=tools.json
// satisfies, as const, keyof and mapped types for a small config.
type Currency = "USD" | "EUR" | "GBP" | "JPY";
interface Market {
  currency: Currency;
  locale: string;
  vat: number;
}

const markets = {
  us: { currency: "USD", locale: "en-US", vat: 0 },
  de: { currency: "EUR", locale: "de-DE", vat: 0.19 },
  uk: { currency: "GBP", locale: "en-GB", vat: 0.2 },
  jp: { currency: "JPY", locale: "ja-JP", vat: 0.1 },
} satisfies Record<string, Market>;

type MarketKey = keyof typeof markets;
const order = ["us", "de", "uk", "jp"] as const satisfies readonly MarketKey[];

const rates: Partial<Record<Currency, number>> = { USD: 1 };
for (const to of ["EUR", "GBP", "JPY"] as const) {
  const r = await tools.get_exchange_rate({ from: "USD", to });
  rates[to] = r.rate;
}

const netUSD = 199;
const prices = {} as Record<MarketKey, string>;
for (const key of order) {
  const m: Market = markets[key];
  const gross = netUSD * rates[m.currency]! * (1 + m.vat);
  prices[key] = new Intl.NumberFormat(m.locale, { style: "currency", currency: m.currency }).format(gross);
  console.log(`${key}: ${prices[key]} (VAT ${(m.vat * 100).toFixed(0)}%)`);
}
return prices;
