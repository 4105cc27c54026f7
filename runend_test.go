package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/registry"
)

// sleepTool is a tool that answers its argument's "v" after "ms"
// milliseconds, fails when "fail" is set, and returns its context's error
// when the run cancels it first.
func sleepTool() *registry.Tool {
	return rawTool("sleep", registry.Parallel, func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct {
			MS   int    `json:"ms"`
			V    string `json:"v"`
			Fail bool   `json:"fail"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		select {
		case <-time.After(time.Duration(a.MS) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if a.Fail {
			return nil, errors.New("failed: " + a.V)
		}
		return a.V, nil
	})
}

// TestRunEnd checks when a settled run ends: a pending subcall whose
// settlement can no longer reach program code (the loser of a settled
// Promise.race or Promise.any, recursively) does not keep it alive and
// is cancelled (ABORTED, or ABORTED_BEFORE_DISPATCH when its tool had not
// started); any other pending subcall keeps it alive, as in
// Node. The slow calls take 20 s: a run that waits for them fails the
// test by its time, long before its 30 s limit.
func TestRunEnd(t *testing.T) {
	f := newFixture(t, host.Limits{}, sleepTool())
	const slow = `tools.sleep({ms: 20000, v: "slow"})`
	timeout := `new Promise(r => setTimeout(r, 30, "timeout"))`
	tests := []struct {
		name    string
		code    string
		want    string
		waits   bool         // the run waits for its calls
		aborted map[int]bool // calls cancelled when the run ended
	}{
		{name: "race lost to a timer", code: `return await Promise.race([` + slow + `, ` + timeout + `])`,
			want: "timeout", aborted: map[int]bool{1: true}},
		{name: "race lost to a call", code: `return await Promise.race([` + slow + `, tools.sleep({ms: 10, v: "fast"})])`,
			want: "fast", aborted: map[int]bool{1: true}},
		{name: "race lost to a rejection", code: `try { await Promise.race([` + slow + `, tools.sleep({ms: 10, fail: true, v: "x"})]) } catch (e) { return e.code }`,
			want: "TOOL_FAILED", aborted: map[int]bool{1: true}},
		{name: "any", code: `return await Promise.any([` + slow + `, tools.sleep({ms: 10, v: "fast"}), ` + slow + `])`,
			want: "fast", aborted: map[int]bool{1: true, 3: true}},
		{name: "all rejected early", code: `try { await Promise.all([` + slow + `, tools.sleep({ms: 10, fail: true, v: "x"})]) } catch (e) { return e.message }`,
			want: "failed: x", aborted: map[int]bool{1: true}},
		{name: "allSettled lost in a race", code: `return await Promise.race([Promise.allSettled([` + slow + `]), ` + timeout + `])`,
			want: "timeout", aborted: map[int]bool{1: true}},
		{name: "race within a race", code: `return await Promise.race([Promise.race([` + slow + `, ` + slow + `]), ` + timeout + `])`,
			want: "timeout", aborted: map[int]bool{1: true, 2: true}},
		{name: "then of a used resolver", code: `let done; const p = new Promise(r => done = r); ` + slow + `.then(done, done); done("first"); return await p`,
			want: "first", aborted: map[int]bool{1: true}},

		// Node's rule stands: these calls keep the run alive.
		{name: "un-awaited main", code: `async function main() { console.log(await tools.sleep({ms: 200, v: "main done"})) } main(); return "returned"`,
			want: "main done\nreturned", waits: true},
		{name: "started for its effect", code: `tools.sleep({ms: 200, v: "effect"}); return "done"`,
			want: "done", waits: true},
		{name: "loser with its own handler", code: `const p = tools.sleep({ms: 200, v: "late"}); p.then(v => console.log("then", v));
return await Promise.race([p, ` + timeout + `])`,
			want: "then late\ntimeout", waits: true},
		{name: "loser awaited later by a timer", code: `const p = tools.sleep({ms: 200, v: "late"}); const w = await Promise.race([p, ` + timeout + `]);
setTimeout(async () => console.log("timer", await p), 50); return w`,
			want: "timer late\ntimeout", waits: true},
		{name: "loser whose rejection nobody handles", code: `let done; const p = new Promise(r => done = r); tools.sleep({ms: 200, fail: true, v: "x"}).then(done); done("first"); return await p`,
			want: "Error: code run failed (exception): ToolError: failed: x", waits: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r := f.run(t, tc.code)
			took := time.Since(start)
			require.Equal(t, tc.want, registry.PlainText(r.Content))
			require.Less(t, took, 10*time.Second, "the run waited for a call nobody can see")
			if tc.waits {
				require.Greater(t, took, 150*time.Millisecond, "the run did not wait for a call the program can see")
			}
			for _, sc := range r.Subcalls {
				if tc.aborted[sc.N] {
					// ABORTED_BEFORE_DISPATCH when the run ended before
					// the tool started.
					require.Contains(t, []string{"ABORTED", "ABORTED_BEFORE_DISPATCH"}, sc.Code, "call %d", sc.N)
					require.False(t, sc.Received, "call %d", sc.N)
				} else {
					require.NotEqual(t, "ABORTED", sc.Code, "call %d", sc.N)
				}
			}
		})
	}
}

// TestRunEnd_replay records runs that end with calls cancelled and
// replays them: the replay ends at the same place, with the same content.
func TestRunEnd_replay(t *testing.T) {
	f := newFixture(t, host.Limits{}, sleepTool())
	for _, code := range []string{
		`return await Promise.race([tools.sleep({ms: 20000, v: "slow"}), new Promise(r => setTimeout(r, 30, "timeout"))])`,
		`const v = await Promise.any([tools.sleep({ms: 20000, v: "slow"}), tools.sleep({ms: 10, v: "fast"})]); console.log(v); return v`,
	} {
		for _, det := range []*ptc.Deterministic{nil, {Seed: 7}} {
			r, err := f.ex.Run(context.Background(), code, ptc.RunOptions{Record: true, Deterministic: det})
			require.NoError(t, err)
			require.False(t, r.IsError, registry.PlainText(r.Content))
			require.NotNil(t, r.Recording)
			start := time.Now()
			again, err := f.ex.Replay(context.Background(), roundTrip(t, r.Recording), ptc.ReplayOptions{})
			require.NoError(t, err)
			require.Nil(t, again.Divergence, "%v", again.Divergence)
			require.Equal(t, registry.PlainText(r.Content), registry.PlainText(again.Content))
			require.Less(t, time.Since(start), 10*time.Second)
			require.Equal(t, "ABORTED", again.Subcalls[0].Code)
		}
	}
}
