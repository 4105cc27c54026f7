package ptc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// TestExecute_hammer runs 40 batches at once: fan-outs, runaways stopped
// by their timeout, and batches cancelled in the middle of a subcall. Every
// result must be the right one, and no goroutine may outlive the batches.
func TestExecute_hammer(t *testing.T) {
	sharedHost(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	wait := rawTool("wait", registry.Parallel, func(ctx context.Context, a json.RawMessage) (any, error) {
		var n struct{ Ms int }
		_ = json.Unmarshal(a, &n)
		select {
		case <-time.After(time.Duration(n.Ms) * time.Millisecond):
			return n.Ms, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	f := newFixture(t, host.Limits{Timeout: 2 * time.Second}, wait, weatherTool())
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var code, want string
			ctx := context.Background()
			switch i % 4 {
			case 0:
				code = `const r = await Promise.all(Array.from({length: 20}, (_, i) => tools.wait({ms: i}))); return r.reduce((a, b) => a + b, 0)`
				want = "190"
			case 1:
				code = `while (true) {}`
				want = "Error: code run failed (timeout): program exceeded its time limit of 2s"
			case 2:
				c, cancel := context.WithCancel(ctx)
				defer cancel()
				time.AfterFunc(50*time.Millisecond, cancel)
				ctx = c
				code = `await tools.wait({ms: 60000})`
				want = "Error: code run failed (aborted): cancelled by the caller"
			default:
				code = fmt.Sprintf(`const w = await tools.get_weather({city: "Paris"}); return w.tempC * %d`, i)
				want = fmt.Sprint(21 * i)
			}
			r := f.runBatch(ctx, pipeline.Batch{Calls: []pipeline.RawCall{runCall(code)}})
			got := registry.PlainText(r.Content)
			if i%4 == 2 && got == "Error: code run failed (aborted): cancelled before it started" {
				return // a loaded machine had not started the program yet
			}
			if got != want {
				t.Errorf("batch %d: got %q, want %q", i, got, want)
			}
		}()
	}
	wg.Wait()
}
