// ptc: tools=tools.json
// Set algebra over customer tags, done by hand as models write it.
const ids = ["C-1001", "C-1002", "C-1004", "C-1005"];
const customers = await Promise.all(ids.map((id) => tools.get_customer({ id })));
const tagSets = customers.map((c) => new Set(c.tags));

const union = new Set(tagSets.flatMap((s) => [...s]));
const everyone = [...union].filter((t) => tagSets.every((s) => s.has(t)));
const vip = new Set(customers.filter((c) => c.tags.includes("vip")).map((c) => c.id));
const beta = new Set(customers.filter((c) => c.tags.includes("beta")).map((c) => c.id));
const vipNotBeta = new Set([...vip].filter((id) => !beta.has(id)));
const both = new Set([...vip].filter((id) => beta.has(id)));

console.log("all tags:", union);
console.log("shared by everyone:", everyone);
console.log("vip:", vip, "beta:", beta);
console.log("vip but not beta:", vipNotBeta);
console.log("both:", [...both]);
console.log("sizes:", union.size, vip.size, beta.size);
const seen = new Set();
const dupes = ["a", "b", "a", "c", "b"].filter((x) => seen.has(x) || !seen.add(x));
console.log("duplicates:", dupes);
return { tags: [...union].sort(), vipNotBeta: [...vipNotBeta] };
