// ptc: tools=tools.json
// Classes with parameter properties, private/readonly members, an abstract
// base and an interface: what a model writes for a small domain model.
interface Priced {
  priceIn(currency: string): number;
}

abstract class Asset implements Priced {
  constructor(public readonly symbol: string, protected readonly quantity: number) {}
  abstract priceIn(currency: string): number;
  describe(): string {
    return `${this.quantity} × ${this.symbol}`;
  }
}

class Stock extends Asset {
  constructor(symbol: string, quantity: number, private readonly quote: { price: number; currency: string }, private readonly fx: Map<string, number>) {
    super(symbol, quantity);
  }
  priceIn(currency: string): number {
    const rate = this.quote.currency === currency ? 1 : this.fx.get(`${this.quote.currency}->${currency}`);
    if (rate === undefined) throw new Error(`no rate ${this.quote.currency}->${currency}`);
    return this.quantity * this.quote.price * rate;
  }
}

const [acme, sap, eurUsd] = await Promise.all([
  tools.get_stock_quote({ symbol: "ACME" }),
  tools.get_stock_quote({ symbol: "SAP" }),
  tools.get_exchange_rate({ from: "EUR", to: "USD" }),
]);
const fx = new Map<string, number>([["EUR->USD", eurUsd.rate]]);
const portfolio: Asset[] = [new Stock("ACME", 40, acme, fx), new Stock("SAP", 25, sap, fx)];

let total = 0;
for (const a of portfolio) {
  const usd = a.priceIn("USD");
  total += usd;
  console.log(`${a.describe().padEnd(10)} ${usd.toLocaleString("en-US", { style: "currency", currency: "USD" })}`);
}
console.log(portfolio[0]);
return { total: Math.round(total * 100) / 100, holdings: portfolio.map((p) => p.symbol) };
