// ptc: tools=tools.json
// What console.log does with deep and long values, and console.dir.
const rows = await tools.run_sql({ query: "SELECT * FROM sales" });
const tree = { year: 2024, quarters: { q1: { months: { jan: { regions: { north: rows[0] } } } } } };
console.log(tree);
console.dir(tree, { depth: null });
console.dir(tree, { depth: 0 });
console.log(rows.slice(0, 2));
console.log(rows.map((r) => r.amount));
console.log(Array.from({ length: 120 }, (_, i) => i));
console.log("x".repeat(120));
console.log(["x".repeat(90)]);
console.log({ long: "y".repeat(10000).length, s: "short" });
console.log([[[[["five levels"]]]]]);
console.log({ a: 1, b: "two", c: [3], d: { e: 4 }, f: null, g: undefined, h: true, i: 1.5e-7, j: 2e21 });
console.log(Object.create(null));
console.log([ , 1, , 2, , ]);
console.log(new Array(5));
const o = { name: "loop" };
o.self = o;
o.list = [o, { back: o }];
console.log(o);
