// ptc: tools=tools.json
// Convert an invoice total into several currencies; one pair is unsupported.
const amountUSD = 12_500;
const targets = ["EUR", "GBP", "JPY", "CHF", "INR", "BTC"];
const settled = await Promise.allSettled(targets.map((to) => tools.get_exchange_rate({ from: "USD", to })));

const locales = { EUR: "de-DE", GBP: "en-GB", JPY: "ja-JP", CHF: "fr-FR", INR: "en-GB" };
const converted = {};
settled.forEach((r, i) => {
  const to = targets[i];
  if (r.status === "rejected") {
    console.log(`${to}: skipped (${r.reason.code}: ${r.reason.message})`);
    return;
  }
  const value = amountUSD * r.value.rate;
  converted[to] = Math.round(value * 100) / 100;
  const formatted = new Intl.NumberFormat(locales[to], { style: "currency", currency: to }).format(value);
  console.log(`${to}: ${formatted} (rate ${r.value.rate}, as of ${r.value.asOf})`);
});
console.log(settled.map((r) => r.status));
return converted;
