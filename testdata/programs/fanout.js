// ptc: tools=../tools/weather.json
// Fan out over a fixture tool with Promise.all, handle the one failure,
// and return a summary: the kind of program run_code exists for.
const cities = ["Paris", "Oslo", "Lima", "Atlantis"];
const reports = await Promise.all(
  cities.map(async (city) => {
    try {
      return { city, ...(await tools.get_weather({ city })) };
    } catch (e) {
      console.log(`skipped ${city}: ${e.code} (${e.message})`);
      return null;
    }
  }),
);
const ok = reports.filter(Boolean);
const warmest = ok.reduce((a, b) => (a.tempC >= b.tempC ? a : b));
console.log(`${ok.length} of ${cities.length} cities answered`);
return {
  warmest: warmest.city,
  averageC: Math.round((ok.reduce((s, r) => s + r.tempC, 0) / ok.length) * 10) / 10,
  skies: Object.fromEntries(ok.map((r) => [r.city, r.sky])),
};
