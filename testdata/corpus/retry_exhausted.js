// ptc: tools=tools.json
// A retry helper that gives up: the last error is reported, not thrown.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function retry(fn, { retries = 3, baseMs = 50 } = {}) {
  let lastError;
  for (let attempt = 1; attempt <= retries; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      lastError = e;
      console.error(`attempt ${attempt}/${retries} failed:`, e.message);
      if (attempt < retries) await sleep(baseMs * 2 ** (attempt - 1));
    }
  }
  throw lastError;
}

try {
  await retry((attempt) => tools.fetch_report({ reportId: "broken", attempt }));
  console.log("unexpected success");
} catch (err) {
  console.error("giving up:", err.name, err.code, err.tool);
}

const ok = await retry((attempt) => tools.fetch_report({ reportId: "q1-revenue", attempt }), { retries: 5, baseMs: 20 });
return `report ${ok.reportId} is ${ok.status} with ${ok.rows.length} rows`;
