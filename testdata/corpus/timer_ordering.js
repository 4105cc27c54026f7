// ptc: tools=tools.json
// Timers, microtasks and a tool call interleave in a fixed order.
const log = (msg) => console.log(msg);
setTimeout(() => log("timeout 400ms"), 400);
setTimeout(() => log("timeout 0ms"), 0);
const cancelled = setTimeout(() => log("never printed"), 30);
clearTimeout(cancelled);
Promise.resolve().then(() => log("microtask"));
queueMicrotask(() => log("queueMicrotask"));
log("sync");

const weather = tools.get_weather({ city: "New York" }).then((w) => log(`tool answered: ${w.condition}`));
await new Promise((r) => setTimeout(r, 150));
log("after 150ms sleep");
await weather;

let ticks = 0;
const id = setInterval(() => {
  ticks++;
  log(`tick ${ticks}`);
  if (ticks === 3) clearInterval(id);
}, 50);
log("body returns now; timers still pending");
return "returned";
