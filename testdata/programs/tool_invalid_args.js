// ptc: tools=../tools/weather.json
// Arguments are validated against the tool's schema before it runs.
for (const args of [{ town: "Paris" }, { city: "Paris", units: "kelvin" }, { city: 7 }]) {
  try {
    await tools.get_weather(args);
  } catch (e) {
    console.log(JSON.stringify(args), "->", e.code, e.message);
  }
}
