package sdkgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJS_node runs the prelude in Node.js, when it is installed, with a
// stub __ptc_call and a stand-in for the guest's __ptc_tools (which makes
// tools a Proxy). The real guest (QuickJS) runs it in the executor's tests.
func TestJS_node(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the guest checks the prelude elsewhere")
	}
	tools := []Tool{{Name: "get_weather"}, {Name: "web-search"}, {Name: "delete"}, {Name: "a_b"}, {Name: "a-b"}}
	script := `"use strict";
const calls = [];
Object.defineProperty(globalThis, "__ptc_call", { value: (name, args) => { calls.push([name, args]); return Promise.resolve(name); } });
let docs;
Object.defineProperty(globalThis, "__ptc_tools", { value: (methods, d) => { docs = JSON.parse(d); Object.defineProperty(globalThis, "tools", { value: Object.freeze(methods) }); } });
(0, eval)(` + quote(JS(tools)) + `);
const assert = (c, m) => { if (!c) throw new Error(m); };
assert(Object.isFrozen(tools), "tools is not frozen");
const d = Object.getOwnPropertyDescriptor(globalThis, "tools");
assert(!d.writable && !d.configurable && !d.enumerable, "bad descriptor");
assert(Object.keys(tools).join() === "get_weather,web_search,delete_,a_b,a_b_2", Object.keys(tools).join());
assert(docs.map((d) => d[0]).join() === Object.keys(tools).join(), "docs " + JSON.stringify(docs));
assert(docs[1][2] === '/** Calls the tool "web-search". */\nweb_search(args?: unknown): Promise<unknown>;', docs[1][2]);
(async () => {
  assert(await tools.web_search({ q: 1 }) === "web-search", "result");
  await tools.delete_();
  await tools.a_b_2({});
  assert(calls.map((c) => c[0]).join() === "web-search,delete,a-b", calls.map((c) => c[0]).join());
  console.log("ok");
})().catch((e) => { console.log(String(e)); process.exit(1); });
`
	path := filepath.Join(t.TempDir(), "prelude.js")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("node: %v\n%s", err, out)
	}
}
