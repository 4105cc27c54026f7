package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

func TestHost_Run_prelude(t *testing.T) {
	h := newHost(t, host.Config{})
	prelude := `globalThis.greet = Object.freeze((who) => "hello " + who);`
	for i := range 3 { // the first run builds the image, the others reuse it
		out := h.Run(context.Background(), host.Program{Prelude: prelude, Source: `return greet("` + fmt.Sprint(i) + `")`})
		require.Equal(t, host.KindOK, out.Kind, out.Text())
		require.Equal(t, "hello "+fmt.Sprint(i), out.Text())
	}
	// A run without the prelude does not see it.
	out := h.Run(context.Background(), host.Program{Source: `return typeof greet`})
	require.Equal(t, "undefined", out.Text())
}

func TestHost_Run_preludeIsolation(t *testing.T) {
	h := newHost(t, host.Config{})
	prelude := `globalThis.counter = { n: 0 };`
	for range 2 {
		out := h.Run(context.Background(), host.Program{Prelude: prelude, Source: `counter.n++; return counter.n`})
		require.Equal(t, "1", out.Text(), "each run starts from the image, not from the last run")
	}
}

func TestHost_Run_preludeError(t *testing.T) {
	h := newHost(t, host.Config{})
	for _, src := range []string{`throw new Error("bad sdk")`, `this is not javascript`} {
		out := h.Run(context.Background(), host.Program{Prelude: src, Source: `return 1`})
		require.Equal(t, host.KindInternal, out.Kind)
		require.True(t, strings.HasPrefix(out.Message, "prelude failed: "), out.Message)
	}
}

func TestHost_Run_preludeConcurrent(t *testing.T) {
	h := newHost(t, host.Config{})
	var wg sync.WaitGroup
	errs := make(chan string, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// 20 distinct preludes, more than the cache holds, each used twice.
			p := fmt.Sprintf("globalThis.k = %d;", i%20)
			out := h.Run(context.Background(), host.Program{Prelude: p, Source: `return k`})
			if out.Text() != fmt.Sprint(i%20) {
				errs <- out.Text()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestHost_Run_callSeq(t *testing.T) {
	h := newHost(t, host.Config{})
	var mu sync.Mutex
	seen := map[string]int{}
	names := map[int]string{}
	d := host.DispatcherFunc(func(_ context.Context, c host.Call) host.Reply {
		var a struct{ I string }
		_ = json.Unmarshal(c.Args, &a)
		mu.Lock()
		seen[a.I] = c.Seq
		names[c.Seq] = c.Name
		mu.Unlock()
		return host.Reply{}
	})
	out := h.Run(context.Background(), host.Program{Dispatcher: d, Source: `
		await Promise.all(["a", "b", "c"].map((i) => __ptc_call("t", { i })));
		await __ptc_call("\uD800x", { i: "lone" });
		await __ptc_call("n".repeat(1000), { i: "long" });
		__ptc_call("t", { i: "never awaited" });
		await __ptc_call("t", { i: "d" });`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.Equal(t, map[string]int{"a": 1, "b": 2, "c": 3, "lone": 4, "long": 5, "never awaited": 6, "d": 7}, seen)
	require.Equal(t, "\uFFFDx", names[4], "a lone surrogate becomes U+FFFD")
	require.Equal(t, strings.Repeat("n", host.MaxCallNameBytes-len("…"))+"…", names[5])
	require.Len(t, names[5], host.MaxCallNameBytes)
	// The run ends, as a Node process does, once no call is pending: the
	// result nobody awaited was received too.
	require.ElementsMatch(t, []int{1, 2, 3, 4, 5, 6, 7}, out.Received)
}

func TestHost_Run_noDispatcher(t *testing.T) {
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Source: `
		try { await __ptc_call("no_such_tool", {a: 1}) } catch (e) { return [e.name, e.code, e.tool, e.message, e instanceof Error] }`})
	require.Equal(t, host.KindOK, out.Kind, out.Text())
	require.JSONEq(t, `["ToolError","UNKNOWN_TOOL","no_such_tool","unknown tool: no_such_tool",true]`, string(out.ReturnValue))
}

func TestHost_Run_preludeRunaway(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 10 s prelude deadline")
	}
	h := newHost(t, host.Config{})
	out := h.Run(context.Background(), host.Program{Prelude: `for (;;) {}`, Source: `return 1`})
	require.Equal(t, host.KindInternal, out.Kind)
	require.Equal(t, "prelude did not finish within 10s", out.Message)
}
