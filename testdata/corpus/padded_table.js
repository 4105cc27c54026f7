// ptc: tools=tools.json
// A text table built with padStart/padEnd, as models do for a quick report.
const symbols = ["ACME", "GLOBX", "NOVA", "SAP"];
const quotes = await Promise.all(symbols.map((symbol) => tools.get_stock_quote({ symbol })));

const header = ["Symbol", "Price", "Change", "Volume"];
const widths = [8, 12, 9, 12];
const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(" ");

console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join(" "));
for (const q of quotes) {
  const price = q.price.toLocaleString("en-US", { style: "currency", currency: q.currency });
  const change = `${q.changePct > 0 ? "+" : ""}${q.changePct.toFixed(2)}%`;
  console.log(line([q.symbol, price, change, q.volume.toLocaleString()]));
}
console.log("=".repeat(widths.reduce((a, b) => a + b + 1, -1)));
const gainers = quotes.filter((q) => q.changePct > 0).map((q) => q.symbol);
console.log(`Gainers: ${gainers.join(", ")} (${gainers.length}/${quotes.length})`);
