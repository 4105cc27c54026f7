// JSON.stringify finds cycles at any depth without searching its whole
// path at each level (stringify-cycle.patch), clears what it marked when
// it throws, and nested stringify calls (toJSON, getters) keep their own
// path.
let deep = [];
for (let i = 0; i < 100000; i++) deep = [deep];
try { JSON.stringify(deep); } catch (e) { console.log(e.name, e.message); }
const a = { x: { y: [1, 2, {}] } };
a.x.y[2].back = a;
try { JSON.stringify(a); } catch (e) { console.log(e.name, e.message); }
const b = [];
b.push(b);
try { JSON.stringify(b); } catch (e) { console.log(e.name, e.message); }
const c = { n: 1, bad: { toJSON() { throw new Error("boom"); } } };
try { JSON.stringify(c); } catch (e) { console.log(e.message); }
delete c.bad;
console.log(JSON.stringify(c));
const s = { v: 1 };
console.log(JSON.stringify([s, s, { s }]));
const outer = { inner: { toJSON() { return JSON.stringify(outer.other); } }, other: { k: [1] } };
console.log(JSON.stringify(outer));
const o2 = { get x() { return JSON.stringify(o2); } };
try { JSON.stringify(o2); } catch (e) { console.log(e.name); }
delete a.x.y[2].back;
return [a, c, s];
