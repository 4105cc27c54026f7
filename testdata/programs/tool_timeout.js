// ptc: tools=../tools/misc.json
// slow_tool declares timeoutMs 100 and answers after 10 s: the pipeline's
// timeout policy fails the subcall, and the program goes on.
try {
  await tools.slow_tool();
} catch (e) {
  return `${e.code}: ${e.tool}`;
}
