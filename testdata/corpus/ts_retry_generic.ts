// ptc: tools=tools.json
// A typed retry helper with exponential backoff and an options type.
interface RetryOptions {
  retries: number;
  baseDelayMs: number;
  onRetry?: (attempt: number, err: Error) => void;
}

const sleep = (ms: number): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  let last: unknown;
  for (let attempt = 1; attempt <= opts.retries; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      last = err;
      opts.onRetry?.(attempt, err as Error);
      if (attempt < opts.retries) await sleep(opts.baseDelayMs * 2 ** (attempt - 1));
    }
  }
  throw last;
}

type ReportRow = { month: string; revenue: number; costs: number };
type Report = { reportId: string; status: string; rows: ReportRow[] };

const report = await withRetry<Report>((attempt) => tools.fetch_report({ reportId: "q1-revenue", attempt }), {
  retries: 4,
  baseDelayMs: 100,
  onRetry: (n, err) => console.log(`retry #${n}: ${err.message}`),
});

const profit = report.rows.map(({ month, revenue, costs }): [string, number] => [month, +(revenue - costs).toFixed(2)]);
console.log(new Map(profit));
return Object.fromEntries(profit);
