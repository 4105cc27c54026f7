// ptc: tools=tools.json
// Random ids and timings are never printed, only their shape.
const uuid = crypto.randomUUID();
console.log("uuid v4 shape:", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid));
const ids = new Set(Array.from({ length: 100 }, () => crypto.randomUUID()));
console.log("100 distinct:", ids.size === 100);
const bytes = crypto.getRandomValues(new Uint8Array(16));
console.log("random bytes:", bytes.length, bytes.constructor.name);
const r = Math.random();
console.log("Math.random in [0,1):", r >= 0 && r < 1);

const t0 = performance.now();
await tools.get_weather({ city: "Tokyo" });
const elapsed = performance.now() - t0;
console.log("performance.now is a number:", typeof t0 === "number", "elapsed >= 0:", elapsed >= 0);
console.log("Date.now is an integer:", Number.isInteger(Date.now()));
const requestId = `req_${uuid.slice(0, 8)}`;
return { requestIdLength: requestId.length, startsWith: requestId.startsWith("req_") };
