package bench

import (
	"strconv"
	"strings"
)

// Workload is one program every engine runs, with the value it must return.
type Workload struct {
	// ID names the workload in flags and JSON.
	ID string
	// Title is how RESULTS.md names it.
	Title string
	// Source is the body of an async function (top-level await and return).
	Source string
	// Want is the JSON text of the value Source returns.
	Want string
	// Runs is how many runs, one after the other, make one sample; the
	// sample is their mean.
	Runs int
}

// jsonItem is the element the JSON workload repeats.
const jsonItem = `{"id":12345,"name":"item-name","tags":["alpha","beta"],"score":12.5,"ok":true}`

// jsonItems is how many elements make the JSON text about 1 MB.
const jsonItems = 1_000_000 / (len(jsonItem) + 1)

// Workloads returns the in-process workloads (2 to 6 of issue 15), in the
// order RESULTS.md lists them.
func Workloads() []Workload {
	jsonLen := jsonItems*(len(jsonItem)+1) + 1 // n items, n-1 commas, two brackets
	return []Workload{
		{
			ID: "return1", Title: "warm `return 1` (fresh sandbox per run)",
			Source: `return 1`, Want: "1", Runs: 200,
		},
		{
			ID: "subcalls1000", Title: "1000 sequential subcalls with object arguments",
			Source: `let s = 0
for (let i = 0; i < 1000; i++) {
  const r = await tools.echo({i, name: "x", tags: [1, 2]})
  s += r.i
}
return s`,
			Want: "499500", Runs: 3,
		},
		{
			ID: "fanout50", Title: "`Promise.all` of 50 subcalls of 50 ms",
			Source: `const r = await Promise.all(Array.from({length: 50}, () => tools.sleep({ms: 50})))
return r.length`,
			Want: "50", Runs: 2,
		},
		{
			ID: "fib27", Title: "fib(27), recursive",
			Source: `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
return fib(27)`,
			Want: "196418", Runs: 1,
		},
		{
			ID: "json1mb", Title: "JSON.parse + JSON.stringify of 1 MB",
			Source: "const item = " + strconv.Quote(jsonItem) + "\n" +
				"const s = \"[\" + new Array(" + strconv.Itoa(jsonItems) + ").fill(item).join(\",\") + \"]\"\n" +
				"return JSON.stringify(JSON.parse(s)).length",
			Want: strconv.Itoa(jsonLen), Runs: 2,
		},
	}
}

// Return1 is the program of the throughput and cold-start workloads.
const Return1 = `return 1`

// IdleProgram is the program of the idle-RSS workload: it blocks in a
// subcall until the benchmark releases it.
const IdleProgram = `return await tools.wait({})`

// IdleWant is what IdleProgram returns once released.
const IdleWant = `"released"`

// Prelude defines the tools object over the guest's __ptc_call, for the
// engines that run our guest without the executor's generated SDK (the
// bare host and the wasmtime-hosted guest).
const Prelude = `globalThis.tools = Object.freeze({
  echo: (a) => __ptc_call("echo", a),
  sleep: (a) => __ptc_call("sleep", a),
  wait: (a) => __ptc_call("wait", a),
});`

// Normalize makes an engine's JSON result comparable with Want: it trims
// white space.
func Normalize(s string) string { return strings.TrimSpace(s) }
