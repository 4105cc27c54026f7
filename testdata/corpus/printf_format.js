// ptc: tools=tools.json
// console.log format specifiers, as in Node's util.format.
const c = await tools.get_customer({ id: "C-1005" });
const { orders } = await tools.list_orders({ customerId: c.id });
const total = orders.reduce((s, o) => s + o.total, 0);

console.log("%s has %d orders totalling %f USD", c.name, orders.length, total);
console.log("%i%% of target", 87.9);
console.log("integer of a string: %d, %i", "42", "3.9");
console.log("JSON: %j", { id: c.id, tags: c.tags });
console.log("object: %O", { id: c.id, tags: c.tags });
console.log("%s", { nested: { deep: { deeper: { deepest: 1 } } } });
console.log("%s and %s", "only one");
console.log("extra args:", "%s", "a", "b", 3);
console.log("%c styled %c text", "color: red", "font-weight: bold");
console.log("string of array: %s", [1, 2, 3]);
console.log("%s", null, undefined, 5n);
console.log("%d", 2n ** 64n);
console.info("info:", c.email);
console.warn("warn: tier is %s", c.tier);
console.debug("debug %o", "text");
