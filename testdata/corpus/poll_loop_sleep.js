// ptc: tools=tools.json
// The other polling shape: a loop with a sleep and a maximum.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForJob(jobId, { intervalMs = 50, maxPolls = 10 } = {}) {
  for (let poll = 1; poll <= maxPolls; poll++) {
    const status = await tools.get_job_status({ jobId, poll });
    const bar = "#".repeat(status.progress / 10).padEnd(10, ".");
    console.log(`[${bar}] ${String(status.progress).padStart(3)}% ${status.status}`);
    if (status.status === "done") return status;
    await sleep(intervalMs);
  }
  throw new Error(`job ${jobId} did not finish`);
}

const done = await waitForJob("nightly-export");
return done;
