package ptc_test

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/sdkgen"
)

// FuzzPrelude checks the generated SDK in the real guest: for any tool
// names, description and parameter schema, the prelude evaluates, tools is
// frozen, and each method calls its tool by its real name.
func FuzzPrelude(f *testing.F) {
	f.Add("get_weather", "web-search", "Current weather.", []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`))
	f.Add("delete", "delete_", "ends */ here", []byte(`{"oneOf":[true,false]}`))
	f.Add("__proto__", "constructor", "\u2028\u2029", []byte(`null`))
	f.Add("x\"y'z\\", "😀\u2028", "</script>", []byte(`{"$ref":"#"}`))
	f.Add("3d", "a-b", "", []byte(nil))
	f.Fuzz(func(t *testing.T, name1, name2, desc string, params []byte) {
		if !utf8.ValidString(name1) || !utf8.ValidString(name2) {
			t.Skip("the host refuses tool names that are not UTF-8")
		}
		h := sharedHost(t)
		tools := []sdkgen.Tool{{Name: name1, Description: desc, Parameters: params}, {Name: name2}}
		methods, _ := json.Marshal(sdkgen.MethodNames(tools))
		d := dispatchFunc(func(_ context.Context, c host.Call) host.Reply {
			v, _ := json.Marshal(c.Name)
			return host.Reply{Value: v}
		})
		out := h.Run(context.Background(), host.Program{
			Prelude:    sdkgen.JS(tools),
			Dispatcher: d,
			Source: `
				if (!Object.isFrozen(tools)) throw new Error("tools is not frozen");
				// The methods are own properties (no proxy trap on the way);
				// other names still reach the proxy behind them.
				if (typeof tools["\u0000nope"] !== "function" || tools.then !== undefined) throw new Error("the fallback is gone");
				const got = [];
				for (const m of ` + string(methods) + `) {
					if (!Object.prototype.hasOwnProperty.call(tools, m)) throw new Error(m + " is not an own property");
					got.push(await tools[m]({}));
				}
				return got;`,
		})
		if out.Kind != host.KindOK {
			t.Fatalf("%s\nprelude:\n%s", out.Text(), sdkgen.JS(tools))
		}
		var got []string
		if err := json.Unmarshal(out.ReturnValue, &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0] != name1 || got[1] != name2 {
			t.Fatalf("methods called %q, want %q and %q", got, name1, name2)
		}
	})
}

// dispatchFunc adapts a function to a host.Dispatcher.
type dispatchFunc func(ctx context.Context, call host.Call) host.Reply

// Dispatch calls f.
func (f dispatchFunc) Dispatch(ctx context.Context, call host.Call) host.Reply { return f(ctx, call) }
