// ptc: tools=tools.json
// Promise.all over a tool that is not parallel-safe: ptc runs the calls
// one at a time in issue order, so completion order is issue order.
const order = [];
const to = ["ada@example.com", "grace@example.com", "hedy@example.at"];
const results = await Promise.all(
  to.map((addr) =>
    tools.send_email({ to: addr, subject: "Maintenance window", body: "Saturday 02:00–04:00 UTC" }).then((r) => {
      order.push(addr);
      return r.id;
    }),
  ),
);
console.log("completed in order:", order);
return results;
