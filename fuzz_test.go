package ptc_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// FuzzExecuteSubcall drives the executor's side of the guest boundary: a
// program calls any tool name with any argument value, possibly several
// times at once, against typed, raw and serial tools. Whatever it sends,
// Execute must settle with consistent results: one record per call, the
// program's view matching the record, and content that says what happened.
func FuzzExecuteSubcall(f *testing.F) {
	f.Add("get_weather", `{"city":"Paris"}`, uint8(1))
	f.Add("get_weather", `{"city":7}`, uint8(3))
	f.Add("echo", `[1,"\u2028",{"a":null}]`, uint8(2))
	f.Add("serial", `{}`, uint8(5))
	f.Add("__proto__", `"x"`, uint8(1))
	f.Add("", `null`, uint8(0))
	f.Add("echo", `{"deep":[[[[[[[[[[1]]]]]]]]]]}`, uint8(4))
	f.Fuzz(func(t *testing.T, name, args string, n uint8) {
		if !json.Valid([]byte(args)) {
			args = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(args) + `"`
			if !json.Valid([]byte(args)) {
				t.Skip()
			}
		}
		h := fuzzHarness(t)
		calls := int(n%6) + 1
		nameJS, _ := json.Marshal(name)
		code := `const name = ` + string(nameJS) + `; const args = ` + args + `;
			const rs = await Promise.allSettled(Array.from({length: ` + string(rune('0'+calls)) + `}, () => __ptc_call(name, args)));
			return rs.map((r) => r.status === "fulfilled" ? "ok" : r.reason.code);`
		r := h.run(t, code)
		if len(r.Content) == 0 {
			t.Fatal("no content")
		}
		if r.Run == nil {
			t.Fatalf("program did not run: %s", ptc.ContentText(r.Content))
		}
		if r.Run.Kind == host.KindMemory || r.Run.Kind == host.KindTimeout {
			return // a huge literal can exhaust the program itself
		}
		if r.Run.Kind != host.KindOK {
			t.Fatalf("%s", ptc.ContentText(r.Content))
		}
		var seen []string
		if err := json.Unmarshal(r.Run.ReturnValue, &seen); err != nil || len(seen) != calls {
			t.Fatalf("return value %s (%v)", r.Run.ReturnValue, err)
		}
		if len(r.Subcalls) != calls {
			t.Fatalf("%d subcalls recorded, %d made", len(r.Subcalls), calls)
		}
		for i, sc := range r.Subcalls {
			if sc.N != i+1 {
				t.Fatalf("subcall numbers %d at %d", sc.N, i)
			}
			want := "ok"
			if !sc.OK {
				want = string(sc.Code)
			}
			if !sc.Received {
				t.Fatalf("subcall %d not received although awaited", sc.N)
			}
			found := false
			for _, s := range seen {
				found = found || s == want
			}
			if !found {
				t.Fatalf("program saw %q; record says %q", seen, want)
			}
		}
	})
}

// fuzzHarness mounts the fuzz target's tools: a typed one, a raw echo, a
// serial one, and a guard that denies arguments mentioning "deny". The
// host is shared and the prelude is the same each time, so this is cheap.
func fuzzHarness(t *testing.T) *harness {
	echo := rawTool("echo", registry.Parallel, func(_ context.Context, a json.RawMessage) (any, error) { return a, nil })
	serial := rawTool("serial", registry.Serial, func(_ context.Context, a json.RawMessage) (any, error) { return len(a), nil })
	h := newFixture(t, host.Limits{}, weatherTool(), echo, serial)
	h.pipe.Guard(func(inv *pipeline.Invocation) string {
		if strings.Contains(string(inv.Arguments()), "deny") {
			return "denied by the fuzz guard"
		}
		return ""
	})
	return h
}
