// ptc: tools=tools.json
// Dates from tool data, formatted for people.
const customer = await tools.get_customer({ id: "C-1001" });
const since = new Date(customer.since);

console.log("ISO:", since.toISOString());
console.log("Long:", since.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" }));
console.log("Weekday:", since.toLocaleDateString("en-US", { weekday: "long", month: "short", day: "numeric" }));
console.log("Default date:", since.toLocaleDateString());
console.log("Default:", since.toLocaleString());
console.log("Time:", since.toLocaleTimeString("en-US"));
console.log("en-GB:", since.toLocaleDateString("en-GB"));
console.log("de-DE:", since.toLocaleDateString("de-DE", { dateStyle: "full" }));
console.log("fr-FR:", since.toLocaleDateString("fr-FR", { month: "long", year: "numeric" }));
console.log("String:", since.toString());
console.log("UTC:", since.toUTCString());

const zones = ["America/New_York", "Europe/Paris", "Asia/Tokyo", "Australia/Sydney"];
for (const timeZone of zones) {
  const f = new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "medium", timeStyle: "short" });
  console.log(`${timeZone}: ${f.format(since)}`);
}
const tzName = new Intl.DateTimeFormat("en-US", { timeZone: "America/Los_Angeles", hour: "numeric", minute: "2-digit", timeZoneName: "short" });
console.log("LA:", tzName.format(new Date("2024-07-04T18:00:00Z")));

const asOf = new Date("2024-03-28T00:00:00Z");
const days = Math.floor((asOf - since) / 86_400_000);
const years = (days / 365.25).toFixed(1);
console.log(`Customer for ${days} days (~${years} years)`);
return { name: customer.name, since: since.toLocaleDateString("en-US", { month: "long", year: "numeric" }), days };
