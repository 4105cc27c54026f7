package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

// A call served on the guest's own goroutine (a sequential call with
// parking off) whose caller cancels while the tool runs delivers nothing:
// the program does not go on, in its catch or after it (9 of 50 runs did,
// before the cancellation was checked when the tool returned).
func TestRun_inlineReplyAfterCancel(t *testing.T) {
	h := newHost(t, host.Config{ParkAfter: -1, CompilationCacheDir: cacheDir})
	src := `try { const v = await tools.t({}); console.log("got", v.ok) } catch (e) { console.log("caught", e.message) }
console.log("after")`
	for i := range 50 {
		ctx, cancel := context.WithCancel(context.Background())
		d := host.DispatcherFunc(func(context.Context, host.Call) host.Reply {
			cancel()
			return host.Reply{Value: json.RawMessage(`{"ok":true}`)}
		})
		out := h.Run(ctx, host.Program{Source: src, Prelude: toolsPrelude, Dispatcher: d})
		cancel()
		require.Equal(t, host.KindAborted, out.Kind, "run %d: %s %v", i, out.Message, out.Output)
		require.Empty(t, out.Output, "run %d", i)
	}
}

// Calls beyond the in-flight limit are admitted in the order the program
// started them.
func TestRun_inFlightOrder(t *testing.T) {
	h := newHost(t, host.Config{})
	var mu sync.Mutex
	var order []int
	d := host.DispatcherFunc(func(_ context.Context, c host.Call) host.Reply {
		var a struct{ I int }
		_ = json.Unmarshal(c.Args, &a)
		mu.Lock()
		order = append(order, a.I)
		mu.Unlock()
		time.Sleep(time.Millisecond)
		return host.Reply{Value: c.Args}
	})
	const n = 40
	out := h.Run(context.Background(), host.Program{
		Source:  fmt.Sprintf(`const r = await Promise.all(Array.from({length: %d}, (_, i) => tools.t({i}))); return r.length`, n),
		Prelude: toolsPrelude, Dispatcher: d, Limits: host.Limits{InFlight: 1}})
	require.Equal(t, host.KindOK, out.Kind, out.Message)
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, order)
}

// A TypeScript namespace, which TypeScript allows only at a module's top
// level, fails with a message that says why and what to write instead
// (it said `Expected ";" but found "Geo"`).
func TestRun_namespaceSays(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: "const x: number = 1;\nnamespace Geo { export const r = x }\nreturn Geo.r"})
	require.Equal(t, host.KindSyntax, out.Kind)
	assert.Contains(t, out.Message, "a TypeScript namespace cannot be declared here")
	assert.Contains(t, out.Message, "use an object")
	assert.Contains(t, out.Message, "(line 2, column")
}
