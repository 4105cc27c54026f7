// ptc: tools=../tools/misc.json
// append_log is not parallel-safe: even under Promise.all its calls run
// one at a time, in the order the program issued them, although the first
// takes longest.
const done = [];
await Promise.all(
  ["first", "second", "third"].map((line) => tools.append_log({ line }).then((r) => done.push(r))),
);
return done;
