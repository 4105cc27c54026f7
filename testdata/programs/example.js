// A small program of the kind a model writes: compute, print, return.
const orders = [
  { id: "A-1", city: "Paris", total: 42.5 },
  { id: "A-2", city: "Lyon", total: 17 },
  { id: "A-3", city: "Paris", total: 8.25 },
];
const byCity = {};
for (const o of orders) {
  byCity[o.city] = (byCity[o.city] ?? 0) + o.total;
}
await null; // top-level await works
console.log(`orders: ${orders.length}`);
console.log("largest:", orders.reduce((a, b) => (a.total > b.total ? a : b)));
return { byCity, cities: Object.keys(byCity).sort() };
