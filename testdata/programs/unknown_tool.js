// ptc: tools=../tools/weather.json
try {
  await __ptc_call("no_such_tool", { a: 1 });
} catch (e) {
  console.log(e.name, e.code, e.tool, e.message, e instanceof Error);
}
