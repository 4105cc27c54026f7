// ptc: tools=tools.json
// Promise.race against a timeout: the slow metric loses, the fast one wins.
function withTimeout(promise, ms, label) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${ms}ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const metrics = ["active_users", "churn"];
const out = {};
for (const metric of metrics) {
  try {
    const r = await withTimeout(tools.slow_analytics({ metric }), 200, metric);
    out[metric] = r.value;
    console.log(`${metric}: ${r.value}`);
  } catch (e) {
    out[metric] = null;
    console.log(`${metric}: ${e.message}`);
  }
}
return out;
