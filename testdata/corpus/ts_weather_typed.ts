// ptc: tools=tools.json
// What a model writes after seeing `declare const tools: {...}`: interfaces,
// a typed async helper and a generic.
interface Weather {
  city: string;
  tempC: number;
  humidity: number;
  condition: string;
  windKph: number;
}

declare const tools: {
  get_weather(args: { city: string; units?: "metric" | "imperial" }): Promise<Weather>;
};

function maxBy<T>(items: T[], key: (item: T) => number): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (best === undefined || key(item) > key(best)) best = item;
  }
  return best;
}

const toF = (c: number): number => Math.round((c * 9) / 5 + 32);

async function report(cities: string[]): Promise<Weather[]> {
  return Promise.all(cities.map((city) => tools.get_weather({ city })));
}

const data: Weather[] = await report(["Paris", "Reykjavík", "São Paulo", "Tokyo"]);
for (const w of data) {
  console.log(`${w.city.padEnd(10)} ${w.tempC.toFixed(1).padStart(5)}°C ${String(toF(w.tempC)).padStart(3)}°F  ${w.condition}`);
}
const windiest = maxBy(data, (w) => w.windKph)!;
const freezing: string[] = data.filter((w) => w.tempC < 0).map((w) => w.city);
return { windiest: windiest.city, freezing, meanHumidity: data.reduce((s, w) => s + w.humidity, 0) / data.length };
