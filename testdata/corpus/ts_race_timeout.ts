// ptc: tools=tools.json
// A typed timeout wrapper with Promise.race and a custom error class.
class TimeoutError extends Error {
  constructor(public readonly label: string, public readonly ms: number) {
    super(`${label} did not answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

function timeout<T>(p: Promise<T>, ms: number, label: string): Promise<T> {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    handle = setTimeout(() => reject(new TimeoutError(label, ms)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(handle));
}

interface Metric {
  metric: string;
  value: number | null;
}

const names = ["churn", "active_users"] as const;
const settled = await Promise.allSettled(names.map((metric) => timeout<Metric>(tools.slow_analytics({ metric }), 250, metric)));
const summary: Record<string, number | string> = {};
settled.forEach((s, i) => {
  if (s.status === "fulfilled") {
    summary[names[i]] = s.value.value ?? "n/a";
  } else {
    const e = s.reason as TimeoutError;
    summary[names[i]] = `${e.name}: ${e.message}`;
    console.log(e instanceof TimeoutError, e instanceof Error, e.label, e.ms);
  }
});
return summary;
