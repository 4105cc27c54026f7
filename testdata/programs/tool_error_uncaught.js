// ptc: tools=../tools/weather.json
// An uncaught tool error fails the run; what was printed is kept.
console.log("looking up Atlantis");
const w = await tools.get_weather({ city: "Atlantis" });
return w.tempC;
