// ptc: tools=tools.json
// Plural rules, relative times, lists, units, and date parts.
const { results } = await tools.search_docs({ query: "reset password" });
const plural = new Intl.PluralRules("en-US");
const ordinal = new Intl.PluralRules("en-US", { type: "ordinal" });
const suffix = { one: "st", two: "nd", few: "rd", other: "th" };
for (const n of [0, 1, 2, 3, 11, 21, 102]) {
  console.log(`${n} result${plural.select(n) === "one" ? "" : "s"}; the ${n}${suffix[ordinal.select(n)]}`);
}
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
console.log(rtf.format(-1, "day"), "|", rtf.format(2, "week"), "|", rtf.format(-3, "month"), "|", rtf.format(0, "year"));
console.log(new Intl.RelativeTimeFormat("es").format(-5, "minute"));
const list = new Intl.ListFormat("en", { style: "long", type: "conjunction" });
console.log("Found:", list.format(results.map((r) => r.title)));
console.log(new Intl.ListFormat("en", { type: "disjunction" }).format(["EUR", "USD", "GBP"]));
console.log(new Intl.ListFormat("de").format(["Rot", "Grün", "Blau"]));
console.log(new Intl.NumberFormat("en-US", { style: "unit", unit: "kilometer-per-hour" }).format(38));
console.log(new Intl.NumberFormat("en-US", { style: "unit", unit: "megabyte", unitDisplay: "long" }).format(1.5));
console.log(new Intl.NumberFormat("en-US", { minimumIntegerDigits: 3 }).format(7));
console.log(new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).format(123456));
console.log(new Intl.NumberFormat("en-US", { signDisplay: "always" }).format(5), new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" }).format(0));
const parts = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", timeZone: "Asia/Kolkata" }).formatToParts(new Date("2024-03-28T17:30:00Z"));
console.log(Object.fromEntries(parts.filter((p) => p.type !== "literal").map((p) => [p.type, p.value])));
console.log(new Intl.DateTimeFormat("en-US").resolvedOptions().timeZone, Intl.NumberFormat().resolvedOptions().locale);
console.log(Intl.getCanonicalLocales(["EN-us", "de-de"]).join(" "));
console.log(Intl.DateTimeFormat.supportedLocalesOf(["en-US", "fr-FR", "de-DE"]));
