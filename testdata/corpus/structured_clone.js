// ptc: tools=tools.json
// structuredClone keeps Dates, Maps and Sets and breaks shared references.
const customer = await tools.get_customer({ id: "C-1004" });
const record = {
  ...customer,
  since: new Date(customer.since),
  flags: new Set(customer.tags),
  scores: new Map([["nps", 9], ["csat", 4.5]]),
  history: [{ event: "signup" }],
};
const copy = structuredClone(record);
copy.history.push({ event: "upgrade" });
copy.flags.add("churn-risk");
copy.scores.set("nps", 6);
copy.since.setUTCFullYear(2020);

console.log("original history:", record.history.length, "copy history:", copy.history.length);
console.log("original flags:", record.flags, "copy flags:", copy.flags);
console.log("dates:", record.since.toISOString(), copy.since.toISOString());
console.log("same object?", copy === record, copy.history === record.history);
console.log("copy is a Date:", copy.since instanceof Date, "a Map:", copy.scores instanceof Map);

const cyclic = { name: "node" };
cyclic.self = cyclic;
const c2 = structuredClone(cyclic);
console.log("cycle kept:", c2.self === c2, c2 !== cyclic);

try {
  structuredClone({ fn() {} });
} catch (e) {
  console.log("functions cannot be cloned:", e.name);
}
return copy.scores;
