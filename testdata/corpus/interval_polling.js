// ptc: tools=tools.json
// Poll a job with setInterval until it is done, then clearInterval.
const jobId = "export-2024-03";
let polls = 0;

const result = await new Promise((resolve, reject) => {
  const timer = setInterval(async () => {
    polls++;
    try {
      const s = await tools.get_job_status({ jobId, poll: polls });
      console.log(`poll ${polls}: ${s.status} ${s.progress}%`);
      if (s.status === "done") {
        clearInterval(timer);
        resolve(s);
      }
    } catch (e) {
      clearInterval(timer);
      reject(e);
    }
  }, 100);
});

console.log(`export finished after ${polls} polls`);
return { file: result.file, rows: result.rows };
