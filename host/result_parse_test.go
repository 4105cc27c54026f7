package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ptchost/ptc/host"
)

// sameAsJSONParse is a program that receives a subcall's value (parsed by
// the guest's direct parser when it can) and the same JSON as text, parses
// the text with JSON.parse and compares the two: types, -0, key order,
// property attributes, prototypes.
const sameAsJSONParse = `
function same(a, b, path) {
  if (typeof a !== typeof b) return path + ": " + typeof a + " vs " + typeof b
  if (typeof a === "number") return Object.is(a, b) ? "" : path + ": " + a + " vs " + b
  if (a === null || typeof a !== "object") return a === b ? "" : path + ": " + a + " vs " + b
  if (b === null) return path + ": null"
  if (Array.isArray(a) !== Array.isArray(b)) return path + ": array vs not"
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return path + ": prototype"
  if (Object.isExtensible(a) !== Object.isExtensible(b)) return path + ": extensible"
  const ka = Reflect.ownKeys(a), kb = Reflect.ownKeys(b)
  if (ka.join("\u0001") !== kb.join("\u0001")) return path + ": keys " + JSON.stringify(ka) + " vs " + JSON.stringify(kb)
  for (const k of ka) {
    const da = Object.getOwnPropertyDescriptor(a, k), db = Object.getOwnPropertyDescriptor(b, k)
    for (const f of ["writable", "enumerable", "configurable"]) {
      if (da[f] !== db[f]) return path + "." + k + ": " + f
    }
    const d = same(da.value, db.value, path + "." + String(k))
    if (d) return d
  }
  return ""
}
const v = await __ptc_call("value", 0)
const t = await __ptc_call("text", 0)
return same(v, JSON.parse(t), "value") || "same"`

// checkResultParse runs sameAsJSONParse with data as the subcall's value.
func checkResultParse(t testing.TB, h *host.Host, data string) {
	t.Helper()
	text, _ := json.Marshal(data)
	d := host.DispatcherFunc(func(_ context.Context, c host.Call) host.Reply {
		if c.Name == "value" {
			return host.Reply{Value: json.RawMessage(data)}
		}
		return host.Reply{Value: text}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: sameAsJSONParse})
	if out.Kind != host.KindOK || out.Text() != "same" {
		t.Fatalf("value %.200q: %s %s", data, out.Kind, out.Text())
	}
}

var resultParseCases = []string{
	`{"i":5,"name":"x","tags":[1,2]}`,
	`0`, `-0`, `-0.0`, `0.1`, `-12.5e-3`, `1E2`, `1e+2`,
	`1e400`, `-1e400`, `1e-400`, `-1e-400`,
	`123456789`, `-123456789`, `1234567890`, `4294967295`, `4294967296`, `12345678901234567890`,
	`1.7976931348623157e308`, `5e-324`, `0.30000000000000004`,
	`{"__proto__":1}`, `{"__proto__":{"a":1}}`, `{"a":1,"a":2}`, `{"a":1,"b":2,"a":3}`,
	`{"b":1,"1":2,"0":3,"a":4}`, `{"4294967295":1,"4294967294":2}`, `{"":0}`, `{"-0":1,"01":2}`,
	`[]`, `{}`, `[[[[]]]]`, `[{},{"a":[]}]`, `[true,false,null]`, `true`, `false`, `null`,
	` {"a" : [ 1 , 2 ] } `, "\t\n\r[1]\n", `""`, `"plain"`, `"with \"quote\""`,
	`"é"`, `{"é":1}`, `"a\nb"`, `{"a\u0000":1}`, `"\ud800"`, `"\ud83d\ude00"`, "\"\u007f\"",
	strings.Repeat("[", 31) + strings.Repeat("]", 31),
	strings.Repeat("[", 33) + "1" + strings.Repeat("]", 33),
	strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40),
	`[` + strings.Repeat(`1,`, 999) + `1]`,
}

// TestResultParse: the guest's direct parser of subcall values gives what
// JSON.parse gives, and leaves to it what it does not take.
func TestResultParse(t *testing.T) {
	h := newHost(t, host.Config{})
	for _, c := range resultParseCases {
		checkResultParse(t, h, c)
	}
}

func FuzzResultParse(f *testing.F) {
	for _, c := range resultParseCases {
		f.Add(c)
	}
	h := newHost(f, host.Config{})
	f.Fuzz(func(t *testing.T, data string) {
		if len(data) > 1<<12 || !utf8.ValidString(data) || !json.Valid([]byte(data)) {
			return
		}
		checkResultParse(t, h, data)
	})
}
