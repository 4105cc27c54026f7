package ptc_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/recording"
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
			t.Fatalf("program did not run: %s", registry.PlainText(r.Content))
		}
		if r.Run.Kind == host.KindMemory || r.Run.Kind == host.KindTimeout {
			return // a huge literal can exhaust the program itself
		}
		if r.Run.Kind != host.KindOK {
			t.Fatalf("%s", registry.PlainText(r.Content))
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

// FuzzDecodeRecording: no input makes the recording decoder panic, and a
// recording it accepts encodes and decodes again to the same recording.
func FuzzDecodeRecording(f *testing.F) {
	img := registry.ImagePart("image/png", []byte("png"))
	rec := &recording.Recording{
		Version: recording.Version, Program: `return await tools.echo({a: 1})`,
		Declarations: "declare const tools: {}\n",
		Tools:        []recording.Tool{{Name: "echo", Parameters: json.RawMessage(`{"type":"object"}`)}},
		Limits:       host.Limits{}.WithDefaults(),
		Start:        time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), Virtual: true, Reads: []int64{0, 5}, Waits: []int{1, 0},
		Calls: []recording.Call{
			{Seq: 1, Tool: "echo", Arguments: json.RawMessage(`{"a":"\u2028"}`), Done: true, OK: true, Value: json.RawMessage(`{"a":1}`), Content: []registry.Part{img}, Received: true},
			{Seq: 2, Tool: "nope", Arguments: json.RawMessage(`{}`), Done: true, Code: "UNKNOWN_TOOL", Message: "no"},
			{Seq: 3, Tool: "echo", Arguments: json.RawMessage(`{}`)},
		},
		Kind: host.KindOK, Content: []registry.Part{registry.TextPart("{\"a\": 1}"), img},
	}
	rec.DeclarationsSHA256 = fmt.Sprintf("%x", sha256.Sum256([]byte(rec.Declarations)))
	b, err := json.Marshal(rec)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := recording.Decode(b); err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"calls":[{"seq":1,"content":[{"type":"image","sha256":"00"}]}],"seed":"` + strings.Repeat("0", 64) + `"}`))
	bare := newFixture(f, host.Limits{})
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := recording.Decode(b)
		if err != nil {
			if !errors.Is(err, recording.ErrUnusable) {
				t.Fatalf("error does not match ErrRecording: %v", err)
			}
			return
		}
		again, err := json.Marshal(rec)
		if err != nil {
			t.Fatalf("an accepted recording does not encode: %v", err)
		}
		if _, err := recording.Decode(again); err != nil {
			t.Fatalf("an accepted recording does not decode again: %v", err)
		}
		// An accepted recording replays without a fault of the host's.
		rec.Limits.Timeout = min(rec.Limits.Timeout, 200*time.Millisecond)
		r, err := bare.ex.Replay(context.Background(), rec, ptc.ReplayOptions{})
		if err != nil {
			return
		}
		if text := registry.PlainText(r.Content); strings.Contains(text, "panic") || strings.Contains(text, "goroutine ") {
			t.Fatalf("replay faulted: %s", text)
		}
	})
}

// FuzzResume: no continuation that does not carry the executor's
// signature makes Resume panic or run anything.
func FuzzResume(f *testing.F) {
	key := []byte("0123456789abcdef0123456789abcdef")
	h := newFixture(f, host.Limits{}, echoTool())
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: h.pipe, Host: sharedHost(f), ContinuationKey: key})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ex.Close(context.Background()) })
	h.pipe.OnPreExecute(func(_ context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
		return pipeline.Ask("?")
	})
	r, err := ex.Run(context.Background(), `return await tools.echo({a: 1})`, ptc.RunOptions{SuspendAsks: true})
	if err != nil || r.Continuation == nil {
		f.Fatal(err, registry.PlainText(r.Content))
	}
	altered := bytes.Clone(r.Continuation)
	altered[10] ^= 1
	f.Add(altered)
	f.Add([]byte("."))
	f.Add([]byte("e30.AAAA"))
	signed := func(c []byte) bool {
		payload, sig, ok := bytes.Cut(c, []byte("."))
		enc := base64.RawURLEncoding.Strict()
		p, err1 := enc.DecodeString(string(payload))
		s, err2 := enc.DecodeString(string(sig))
		m := hmac.New(sha256.New, key)
		m.Write(p)
		return ok && err1 == nil && err2 == nil && hmac.Equal(s, m.Sum(nil))
	}
	f.Fuzz(func(t *testing.T, c []byte) {
		if signed(c) {
			return // a genuine continuation resumes; see TestResume
		}
		out, err := ex.Resume(context.Background(), pipeline.Batch{}, c, pipeline.Answer{Approved: true}, ptc.RunOptions{})
		if err == nil {
			t.Fatalf("an unsigned continuation was resumed: %s", registry.PlainText(out.Content))
		}
		if !errors.Is(err, recording.ErrUnusable) {
			t.Fatalf("error does not match ErrRecording: %v", err)
		}
	})
}
