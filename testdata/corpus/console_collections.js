// ptc: tools=tools.json
// Printing collections and nested values with console.log.
const [ada, grace] = await Promise.all([
  tools.get_customer({ id: "C-1001" }),
  tools.get_customer({ id: "C-1002" }),
]);
console.log(ada);
console.log([ada, grace].map(({ id, name, tier }) => ({ id, name, tier })));
const tiers = new Map([[ada.tier, [ada.id]], [grace.tier, [grace.id]]]);
console.log(tiers);
console.log(new Set([...ada.tags, ...grace.tags]));
console.log({ nested: { level1: { level2: { level3: { level4: "deep" } } } } });
console.log("customers:", 2, "tags:", ada.tags, "ok:", true, null, undefined);
console.log([1, "two", { three: 3 }, [4, [5, [6, [7]]]]]);
console.log({ empty: {}, list: [], str: "it's", n: -0, nan: NaN, inf: -Infinity });
console.log(new Map(), new Set(), [undefined, null]);
console.log({ date: new Date(ada.since), re: /ab+c/gi, fn: function named() {}, arrow: () => 1 });
console.log([new Map([["k", new Map([["inner", [1, 2]]])]])]);
console.log(Array.from({ length: 30 }, (_, i) => i * 3));
console.log("%s is a %s customer", ada.name, ada.tier);
console.log(Symbol("tag"), 10n, [1.5, -2.25]);
console.log("multi\nline", "string");
console.log(["it's", 'say "hi"', `both ' and "`]);
