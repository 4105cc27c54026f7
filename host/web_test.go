package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// webCase is one row of testdata/web/cases.json (written by
// testdata/web/gen.js from Node 20).
type webCase struct {
	Name     string          `json:"name"`
	Code     string          `json:"code"`
	Isolate  bool            `json:"isolate"`
	Expected json.RawMessage `json:"expected"`
}

// webJSPath is guest/quickjs/js/web.js, or $PTC_WEB_JS: the table can be
// run against a minified build of it.
func webJSPath() string {
	if p := os.Getenv("PTC_WEB_JS"); p != "" {
		return p
	}
	return "../guest/quickjs/js/web.js"
}

// webNatives stands in for the host's natives: Math.random bytes and the
// Date clock, captured so that a case replacing built-ins cannot reach them.
// domainToASCII reaches the host's through the guest's own URL (loaded
// before the prelude replaces it): the host of http://d/ is d's domain to
// ASCII, serialised as web.js would. A domain holding an ASCII forbidden
// domain code point is null, as it would be in the end anyway, since such a
// code point stays in the domain's ASCII form (and would end the host
// early here).
const webNatives = `((U8, random, dateNow, RealURL, forbidden) => ({
  randomBytes(n) { const b = new U8(n); for (let i = 0; i < n; i++) b[i] = random() * 256 | 0; return b.buffer; },
  now: ((t0) => () => dateNow() - t0)(dateNow()),
  timeOrigin: dateNow(),
  domainToASCII(d) {
    if (forbidden(d)) return null;
    try { return new RealURL('http://' + d + '/').hostname; } catch { return null; }
  },
}))(Uint8Array, Math.random, Date.now, URL, RegExp.prototype.test.bind(/[\0-\x20#%/:<>?@[\\\]^|\x7f]/))`

// webPrelude evaluates guest/quickjs/js/web.js with the natives expression
// given and installs what it returns as non-enumerable globals, as the host
// will.
func webPrelude(t *testing.T, natives string) string {
	t.Helper()
	src, err := os.ReadFile(webJSPath())
	require.NoError(t, err)
	return `{
  const web = (` + string(src) + `)(` + natives + `);
  for (const k of Object.keys(web)) Object.defineProperty(globalThis, k, { value: web[k], writable: true, configurable: true });
}`
}

// webHarness is the program that runs codes and returns, as a JSON string,
// one {"v": value} or {"t": "Name: message"} per code. It reads nothing a
// case may have replaced after it starts.
func webHarness(codes []string) string {
	b, _ := json.Marshal(codes)
	return `const S = JSON.stringify, F = Function, codes = ` + string(b) + `;
let s = '[';
for (let i = 0; i < codes.length; i++) {
  let r;
  try { const v = new F(codes[i])(); r = S({ v: v === undefined ? null : v }); }
  catch (e) { r = S({ t: (e && e.name) + ': ' + (e && e.message) }); }
  s += (i ? ',' : '') + r;
}
return s + ']';`
}

type webResult struct {
	V json.RawMessage `json:"v"`
	T *string         `json:"t"`
}

func runWebCases(t *testing.T, h *host.Host, prelude string, cases []webCase) []webResult {
	t.Helper()
	codes := make([]string, len(cases))
	for i, c := range cases {
		codes[i] = c.Code
	}
	out := h.Run(context.Background(), host.Program{
		Prelude: prelude,
		Source:  webHarness(codes),
		Limits:  host.Limits{Timeout: 2 * time.Minute},
	})
	require.Equal(t, host.KindOK, out.Kind, "%s\n%s", out.Text(), out.Stack)
	var s string
	require.NoError(t, json.Unmarshal(out.ReturnValue, &s))
	var res []webResult
	require.NoError(t, json.Unmarshal([]byte(s), &res))
	require.Len(t, res, len(cases))
	return res
}

// TestWeb_cases runs every case of the Node 20 conformance table in the
// guest: the ordinary ones in one run, the ones that replace built-ins each
// in its own.
func TestWeb_cases(t *testing.T) {
	raw, err := os.ReadFile("../testdata/web/cases.json")
	require.NoError(t, err)
	var cases []webCase
	require.NoError(t, json.Unmarshal(raw, &cases))
	require.GreaterOrEqual(t, len(cases), 200)

	h := newHost(t, host.Config{})
	prelude := webPrelude(t, webNatives)
	var shared []webCase
	got := make(map[string]webResult, len(cases))
	for _, c := range cases {
		if c.Isolate {
			got[c.Name] = runWebCases(t, h, prelude, []webCase{c})[0]
		} else {
			shared = append(shared, c)
		}
	}
	for i, r := range runWebCases(t, h, prelude, shared) {
		got[shared[i].Name] = r
	}

	var bad []string
	for _, c := range cases {
		r := got[c.Name]
		var gotJSON []byte
		if r.T != nil {
			gotJSON, _ = json.Marshal(map[string]string{"throws": *r.T})
		} else {
			gotJSON = r.V
		}
		if !webSameJSON(c.Expected, gotJSON) {
			bad = append(bad, fmt.Sprintf("%s\n\tcode:     %s\n\texpected: %s\n\tgot:      %s",
				c.Name, strings.ReplaceAll(c.Code, "\n", "\n\t          "), c.Expected, gotJSON))
		}
	}
	t.Logf("%d/%d cases match", len(cases)-len(bad), len(cases))
	if len(bad) > 0 {
		t.Errorf("%d mismatches:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

func webSameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestWeb_natives checks what web.js asks of the host: randomBytes for
// crypto, now for performance.now, and timeOrigin read at each use (the
// snapshot holding the globals serves many runs).
func TestWeb_natives(t *testing.T) {
	h := newHost(t, host.Config{})
	prelude := webPrelude(t, `((origin) => ({
  randomBytes(n) { const b = new Uint8Array(n); b.fill(0xab); return b.buffer; },
  now() { return 12.5; },
  get timeOrigin() { return origin++; },
}))(1e12)`)
	out := h.Run(context.Background(), host.Program{Prelude: prelude, Source: `
		const a = performance.timeOrigin, b = performance.toJSON().timeOrigin;
		return [crypto.randomUUID(), Array.from(crypto.getRandomValues(new Uint16Array(2))), performance.now(), b - a]`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.JSONEq(t, `["abababab-abab-4bab-abab-abababababab", [43947, 43947], 12.5, 1]`, string(out.ReturnValue))
}
