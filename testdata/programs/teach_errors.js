// ptc: tools=../tools/weather.json
for (const f of [() => tools.get_wether({city: "Paris"}), () => tools.get_weather("Paris"), () => tools.get_weather({cty: "Paris"}), () => tools.get_weather({city: 3})]) {
  try { await f(); } catch (e) { console.log(e.code + ": " + e.message); }
}
