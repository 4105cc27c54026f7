// ptc: tools=tools.json
// BigInt for exact totals in cents; a returned BigInt is shown by inspect.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });
const cents = rows.reduce((s, r) => s + BigInt(Math.round(r.amount * 100)), 0n);
console.log("total cents:", cents);
console.log("dollars:", `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`);
console.log("float sum:", rows.reduce((s, r) => s + r.amount, 0));
console.log("0.1 + 0.2 =", 0.1 + 0.2, "| toFixed:", (0.1 + 0.2).toFixed(2));
console.log("max safe:", Number.MAX_SAFE_INTEGER, "next:", BigInt(Number.MAX_SAFE_INTEGER) + 2n);
console.log("typeof:", typeof cents, "| String:", String(cents), "| toLocaleString:", cents.toLocaleString("en-US"));
try {
  JSON.stringify({ cents });
} catch (e) {
  console.log("JSON.stringify refuses BigInt:", e.name);
}
console.log(JSON.stringify({ cents: cents.toString() }));
return { cents, units: rows.reduce((s, r) => s + r.units, 0) };
