package nodepeer_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/nodepeer"
)

// node returns the Node 24 of node/node_modules, or skips the test when
// `make -C bench node` has not installed it.
func node(t *testing.T) nodepeer.Node {
	t.Helper()
	dir, err := filepath.Abs("../node")
	if err != nil {
		t.Fatal(err)
	}
	n := nodepeer.Node{Binary: filepath.Join(dir, "node_modules", "node", "bin", "node"), Dir: dir}
	if _, err := os.Stat(n.Binary); err != nil {
		t.Skipf("the npm peers are not installed (make -C bench node): %v", err)
	}
	return n
}

var peers = []string{"run", "quickjs-emscripten", "isolated-vm"}

// TestPeer_Measure runs every workload once on every npm peer and checks
// the value it returns.
func TestPeer_Measure(t *testing.T) {
	n := node(t)
	ctx := context.Background()
	for _, name := range peers {
		t.Run(name, func(t *testing.T) {
			p, err := n.Start(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(ctx)
			for _, w := range bench.Workloads() {
				s, err := p.Measure(ctx, w.Source, 1)
				if err != nil {
					t.Fatalf("%s: %v", w.ID, err)
				}
				if got := bench.Normalize(s.Result); got != w.Want || s.PerRun <= 0 {
					t.Fatalf("%s: got %s in %v, want %s", w.ID, got, s.PerRun, w.Want)
				}
			}
			tp, err := p.Throughput(ctx, bench.Return1, 2, 50*time.Millisecond)
			if err != nil || tp.Result != "1" || tp.Runs == 0 {
				t.Fatalf("throughput: %+v, %v", tp, err)
			}
		})
	}
}

// TestNode_RSS keeps a few sandboxes of every npm peer idle at once.
func TestNode_RSS(t *testing.T) {
	n := node(t)
	for _, name := range peers {
		t.Run(name, func(t *testing.T) {
			if _, err := n.RSS(context.Background(), name, 3); err != nil {
				t.Fatal(err)
			}
		})
	}
}
