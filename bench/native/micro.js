// Small loops timed the same way natively (qjs) and in ptc (ptc-run run):
// what running QuickJS under wazero costs, operation by operation.
// RATIONALE.md, "What the engine leaves". Run by ratio.sh.
function t(name, f) {
  const n = 300000
  const t0 = performance.now()
  f(n)
  console.log(name, ((performance.now() - t0) * 1e3 / n).toFixed(4), "us")
}
t("arith", n => { let x = 0; for (let i = 0; i < n; i++) x = (x + i * 7) | 0; return x })
t("call", n => { function f(a) { return a } let x; for (let i = 0; i < n; i++) x = f(i); return x })
t("object-literal", n => { let o; for (let i = 0; i < n; i++) o = {i, name: "x", tags: [1, 2]}; return o })
t("json-parse", n => { let o; for (let i = 0; i < n; i++) o = JSON.parse('{"i":5,"name":"x","tags":[1,2]}'); return o })
t("json-stringify", n => { let s; for (let i = 0; i < n; i++) s = JSON.stringify({i, name: "x", tags: [1, 2]}); return s })
;(async () => {
  const n = 300000
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await 0
  console.log("await", ((performance.now() - t0) * 1e3 / n).toFixed(4), "us")
})()
