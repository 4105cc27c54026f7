// ptc: tools=tools.json
// Format money the ways models do: toLocaleString and Intl.NumberFormat.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });
const total = rows.reduce((s, r) => s + r.amount, 0);

console.log("Total:", total.toLocaleString("en-US", { style: "currency", currency: "USD" }));
console.log("Rounded:", total.toLocaleString("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }));
console.log("Plain:", total.toLocaleString());
console.log("Fixed:", total.toFixed(2));

const eur = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const jpy = new Intl.NumberFormat("ja-JP", { style: "currency", currency: "JPY" });
const inr = new Intl.NumberFormat("en-GB", { style: "currency", currency: "INR" });
const chf = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "CHF" });
const fr = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
for (const [label, f] of [["EUR", eur], ["GBP", gbp], ["JPY", jpy], ["INR", inr], ["CHF", chf], ["FR", fr]]) {
  console.log(`${label.padEnd(4)}${f.format(total)}`);
}

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
console.log("Compact:", compact.format(total), compact.format(1234567), compact.format(999));
const pct = new Intl.NumberFormat("en-US", { style: "percent", minimumFractionDigits: 1 });
console.log("Share of North:", pct.format(3940.5 / total));
console.log("Negative:", (-1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" }));
console.log("Accounting:", new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }).format(-42));
console.log("Parts:", eur.formatToParts(1234.5).map((p) => p.type).join(","));
return rows.slice(0, 3).map((r) => ({
  id: r.id,
  amount: r.amount.toLocaleString("en-US", { style: "currency", currency: "USD" }),
}));
