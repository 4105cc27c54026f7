// ptc: tools=tools.json
// Sorting names with localeCompare and Intl.Collator.
const accounts = await tools.run_sql({ query: "SELECT * FROM accounts" });
const names = accounts.map((a) => a.name);

console.log("default sort:", [...names].sort());
console.log("localeCompare:", [...names].sort((a, b) => a.localeCompare(b)));
console.log("fr:", [...names].sort((a, b) => a.localeCompare(b, "fr")));
console.log("de base:", [...names].sort(new Intl.Collator("de", { sensitivity: "base" }).compare));

const skus = ["item10", "item2", "Item1", "item20", "item1"];
console.log("numeric:", skus.toSorted(new Intl.Collator("en", { numeric: true }).compare));
console.log("upper first:", skus.toSorted(new Intl.Collator("en", { caseFirst: "upper" }).compare));
console.log("equal ignoring accents:", "resume".localeCompare("résumé", "en", { sensitivity: "base" }) === 0);
console.log("a vs B:", "a".localeCompare("B"), "B vs a:", "B".localeCompare("a"));

const byCompany = accounts
  .filter((a) => a.active)
  .sort((a, b) => a.company.localeCompare(b.company, "en", { ignorePunctuation: true }))
  .map((a) => a.company);
return byCompany;
