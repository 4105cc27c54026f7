// ptc: tools=tools.json
// A returned value with containers of every size, to pin down the layout
// rule: short containers on one line, long ones one member per line.
const rows = await tools.run_sql({ query: "SELECT * FROM sales WHERE region = $1", params: ["North"] });
return {
  region: "North",
  count: rows.length,
  ids: rows.map((r) => r.id),
  empty: { list: [], map: {} },
  rows,
  matrix: [[1, 2, 3], [4, 5, 6]],
  longList: Array.from({ length: 30 }, (_, i) => i * 11),
  deep: { a: { b: { c: { d: { e: "fits on one line" } } } } },
  deepLong: { a: { b: { c: { d: { e: "this string is long enough to push the line past eighty columns" } } } } },
  mixed: [1, "two", null, true, { three: 3 }, [4]],
};
