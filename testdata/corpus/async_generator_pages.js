// ptc: tools=tools.json
// An async generator hides the pagination; for await consumes it.
async function* ordersOf(customerId) {
  let cursor = null;
  do {
    const page = await tools.list_orders({ customerId, cursor });
    yield* page.orders;
    cursor = page.nextCursor;
  } while (cursor !== null);
}

let n = 0;
let biggest = null;
const monthly = {};
for await (const order of ordersOf("C-1001")) {
  n++;
  if (!biggest || order.total > biggest.total) biggest = order;
  const month = order.placedAt.slice(0, 7);
  monthly[month] = Math.round(((monthly[month] ?? 0) + order.total) * 100) / 100;
  if (n === 3) console.log("first three seen, still streaming…");
}
console.log(`${n} orders; biggest ${biggest.id} at $${biggest.total}`);

// Stop early: break ends the generator.
const firstTwo = [];
for await (const o of ordersOf("C-1001")) {
  firstTwo.push(o.id);
  if (firstTwo.length === 2) break;
}
console.log("first two:", firstTwo);
return monthly;
