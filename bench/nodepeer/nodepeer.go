// Package nodepeer measures the npm peers (run, quickjs-emscripten,
// isolated-vm) through node/peer.mjs: a long-lived Node process per
// engine that times the runs itself and answers one JSON line per request,
// so that the pipe between the processes is not in the measurement.
package nodepeer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ptchost/ptc/bench"
)

// Peer is one engine served by a Node process.
type Peer struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	mu   sync.Mutex
}

// Node is how to start node/peer.mjs.
type Node struct {
	// Binary is the node executable.
	Binary string
	// Dir is the directory of peer.mjs.
	Dir string
}

// Command returns the command that runs peer.mjs for engine with args.
func (n Node) Command(ctx context.Context, engine string, args ...string) *exec.Cmd {
	a := append([]string{"--disable-warning=ExperimentalWarning", "--expose-gc", filepath.Join(n.Dir, "peer.mjs"), engine}, args...)
	cmd := exec.CommandContext(ctx, n.Binary, a...)
	cmd.Dir = n.Dir
	cmd.Stderr = os.Stderr
	return cmd
}

// Start starts the Node process serving engine.
func (n Node) Start(ctx context.Context, engine string) (*Peer, error) {
	cmd := n.Command(ctx, engine, "serve")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("nodepeer %s: %w", engine, err)
	}
	return &Peer{name: engine, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

type reply struct {
	Error      string  `json:"error"`
	PerRunNs   float64 `json:"perRunNs"`
	Result     string  `json:"result"`
	RunsPerSec float64 `json:"runsPerSec"`
	P99Ns      float64 `json:"p99Ns"`
	Runs       int     `json:"runs"`
}

func (p *Peer) ask(req map[string]any) (reply, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return reply{}, err
	}
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		return reply{}, fmt.Errorf("nodepeer %s: %w", p.name, err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return reply{}, fmt.Errorf("nodepeer %s: %w", p.name, err)
	}
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		return reply{}, fmt.Errorf("nodepeer %s: %q: %w", p.name, line, err)
	}
	if r.Error != "" {
		return reply{}, fmt.Errorf("nodepeer %s: %s", p.name, firstLine(r.Error))
	}
	return r, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Measure implements bench.Engine.
func (p *Peer) Measure(_ context.Context, src string, n int) (bench.Sample, error) {
	r, err := p.ask(map[string]any{"op": "measure", "src": src, "n": n})
	if err != nil {
		return bench.Sample{}, err
	}
	return bench.Sample{PerRun: time.Duration(r.PerRunNs), Result: r.Result}, nil
}

// Throughput implements bench.Engine.
func (p *Peer) Throughput(_ context.Context, src string, workers int, d time.Duration) (bench.Throughput, error) {
	r, err := p.ask(map[string]any{"op": "throughput", "src": src, "workers": workers, "ms": d.Milliseconds()})
	if err != nil {
		return bench.Throughput{}, err
	}
	return bench.Throughput{RunsPerSec: r.RunsPerSec, P99: time.Duration(r.P99Ns), Runs: r.Runs, Result: r.Result}, nil
}

// Close ends the Node process.
func (p *Peer) Close(context.Context) error {
	p.in.Close()
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("nodepeer %s: %w", p.name, err)
	}
	return err
}

// RSS runs peer.mjs's rss mode in a fresh process: n sandboxes blocked in
// tools.wait at once; it returns the RSS per sandbox in KiB.
func (n Node) RSS(ctx context.Context, engine string, count int) (float64, error) {
	cmd := n.Command(ctx, engine, "rss", fmt.Sprint(count))
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("nodepeer %s rss: %w", engine, err)
	}
	var r struct {
		KiBPerSandbox float64 `json:"kibPerSandbox"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return 0, fmt.Errorf("nodepeer %s rss: %q: %w", engine, out, err)
	}
	return r.KiBPerSandbox, nil
}

// Scale runs peer.mjs's scale mode in a fresh process: count sandboxes
// blocked in tools.wait at once (see bench.Scale).
func (n Node) Scale(ctx context.Context, engine string, count int, settle time.Duration) (bench.ScalePoint, error) {
	out, err := n.Command(ctx, engine, "scale", fmt.Sprint(count), fmt.Sprint(settle.Milliseconds())).Output()
	if err != nil {
		return bench.ScalePoint{}, fmt.Errorf("nodepeer %s scale: %w", engine, err)
	}
	var p bench.ScalePoint
	if err := json.Unmarshal(out, &p); err != nil {
		return bench.ScalePoint{}, fmt.Errorf("nodepeer %s scale: %q: %w", engine, out, err)
	}
	return p, nil
}
