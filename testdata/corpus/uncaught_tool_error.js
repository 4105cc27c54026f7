// ptc: tools=tools.json
// An uncaught tool error fails the run; what was printed is kept.
const quotes = {};
for (const symbol of ["ACME", "NOVA", "ZZZZ"]) {
  console.log(`fetching ${symbol}`);
  const q = await tools.get_stock_quote({ symbol });
  quotes[symbol] = q.price;
}
return quotes;
