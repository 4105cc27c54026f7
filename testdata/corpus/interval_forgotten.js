// ptc: tools=tools.json
// A heartbeat interval nobody clears: once the body has settled and only
// the interval is left, the run ends (it does not keep the run alive).
let beats = 0;
setInterval(() => {
  beats++;
  console.log(`heartbeat ${beats}`);
}, 150);

const [paris, london] = await Promise.all([
  tools.get_weather({ city: "Paris" }),
  tools.get_weather({ city: "London" }),
]);
const diff = paris.tempC - london.tempC;
console.log(`Paris is ${diff.toFixed(1)}°C warmer than London`);
return { paris: paris.condition, london: london.condition };
