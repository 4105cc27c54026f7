// ptc: tools=../tools/weather.json
// Timers beside a fan-out: an interval that ticks three times, a timeout
// that races the calls, and time measured around them.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = performance.now();
let ticks = 0;
const iv = setInterval(() => {
  if (++ticks === 3) clearInterval(iv);
}, 5);
const reports = await Promise.all(
  ["Paris", "Oslo"].map((city) => tools.get_weather({ city })),
);
const race = await Promise.race([sleep(5000).then(() => "timer"), tools.get_weather({ city: "Lima" }).then(() => "call")]);
await sleep(20);
console.log("ticks", ticks, "race won by", race);
console.log("at least 120 ms passed:", performance.now() - t0 >= 120);
return reports.map((r) => r.sky);
