// ptc: tools=tools.json
// Fan out over cities with Promise.all, then sum and average.
const cities = ["Paris", "London", "Tokyo", "New York", "Sydney"];
const results = await Promise.all(cities.map((city) => tools.get_weather({ city })));

const total = results.reduce((sum, w) => sum + w.tempC, 0);
const avg = total / results.length;
const warmest = results.reduce((a, b) => (b.tempC > a.tempC ? b : a));
const coldest = results.reduce((a, b) => (b.tempC < a.tempC ? b : a));

for (const w of results) {
  console.log(`${w.city}: ${w.tempC}°C, ${w.condition}`);
}
console.log(`Average temperature: ${avg.toFixed(1)}°C`);

return {
  average: Math.round(avg * 100) / 100,
  warmest: { city: warmest.city, tempC: warmest.tempC },
  coldest: { city: coldest.city, tempC: coldest.tempC },
  humid: results.filter((w) => w.humidity > 60).map((w) => w.city),
};
