// ptc: tools=tools.json
// A discriminated union for results, narrowed with switch and in.
type Ok<T> = { ok: true; value: T };
type Err = { ok: false; error: string; code?: string };
type Result<T> = Ok<T> | Err;

interface Quote {
  symbol: string;
  price: number;
  currency: string;
  changePct: number;
}

async function safeQuote(symbol: string): Promise<Result<Quote>> {
  try {
    return { ok: true, value: (await tools.get_stock_quote({ symbol })) as Quote };
  } catch (e: unknown) {
    const err = e as { message: string; code?: string };
    return { ok: false, error: err.message, code: err.code };
  }
}

const symbols: readonly string[] = ["ACME", "BOGUS", "SAP"];
const results = await Promise.all(symbols.map(safeQuote));
const lines: string[] = [];
results.forEach((r, i) => {
  switch (r.ok) {
    case true:
      lines.push(`${r.value.symbol}: ${r.value.price} ${r.value.currency} (${r.value.changePct >= 0 ? "▲" : "▼"}${Math.abs(r.value.changePct)}%)`);
      break;
    case false:
      lines.push(`${symbols[i]}: error ${"code" in r ? r.code : "?"} – ${r.error}`);
      break;
  }
});
console.log(lines.join("\n"));
const ok = results.filter((r): r is Ok<Quote> => r.ok).map((r) => r.value.symbol);
return { ok, failed: results.length - ok.length };
