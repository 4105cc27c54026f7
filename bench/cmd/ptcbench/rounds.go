package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/nodepeer"
)

// The rows of the report besides the workloads of bench.Workloads.
const (
	rowColdCache   = "cold-cache"
	rowColdNoCache = "cold-nocache"
	rowTputRate    = "throughput"
	rowTputP99     = "throughput-p99"
	rowRSS         = "rss"
)

// cell holds one engine's samples of one row, one per round.
type cell struct {
	samples []float64
	err     string
}

// results maps row, then engine name, to its cell.
type results map[string]map[string]*cell

func (r results) add(row, engine string, v float64, err error) {
	if r[row] == nil {
		r[row] = map[string]*cell{}
	}
	c := r[row][engine]
	if c == nil {
		c = &cell{}
		r[row][engine] = c
	}
	if err != nil {
		if c.err == "" {
			c.err = err.Error()
		}
		fmt.Fprintf(os.Stderr, "  %s / %s: %v\n", row, engine, err)
		return
	}
	c.samples = append(c.samples, v)
}

func nodeOf(c config) nodepeer.Node {
	return nodepeer.Node{Binary: filepath.Join(c.nodeDir, "node_modules", "node", "bin", "node"), Dir: c.nodeDir}
}

// live is an engine ready to measure.
type live struct {
	spec engineSpec
	eng  bench.Engine
}

func run(ctx context.Context, c config) error {
	specs := engines()
	if c.only != "" {
		keep := map[string]bool{}
		for _, n := range strings.Split(c.only, ",") {
			keep[strings.TrimSpace(n)] = true
		}
		specs = filterSpecs(specs, keep)
	}
	work, err := os.MkdirTemp("", "ptcbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	prog := filepath.Join(work, "return1.js")
	if err := os.WriteFile(prog, []byte(bench.Return1+"\n"), 0o644); err != nil {
		return err
	}
	warmDir := func(s engineSpec) string { return filepath.Join(work, "warm", strings.ReplaceAll(s.name, " ", "-")) }
	res := results{}
	started := time.Now()
	loadStart := loadAvg()

	// The warm caches: one cold start in each fills it.
	for _, s := range specs {
		if err := os.MkdirAll(warmDir(s), 0o755); err != nil {
			return err
		}
		if _, err := coldStart(c, s, prog, warmDir(s)); err != nil {
			return fmt.Errorf("%s: first cold start: %w", s.name, err)
		}
	}
	var engs []live
	defer func() {
		for _, l := range engs {
			l.eng.Close(context.Background())
		}
	}()
	for _, s := range specs {
		var e bench.Engine
		if s.inproc != nil {
			sb, err := s.inproc(ctx, warmDir(s), nil)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			e = bench.GoEngine(sb)
		} else {
			p, err := nodeOf(c).Start(ctx, s.node)
			if err != nil {
				return err
			}
			e = p
		}
		engs = append(engs, live{s, e})
	}
	workloads := bench.Workloads()
	workers := bench.Workers()

	// Warm-up, not recorded: every workload once on every engine.
	fmt.Fprintln(os.Stderr, "warm-up")
	for _, l := range engs {
		for _, w := range workloads {
			if _, err := measure(ctx, l.eng, w, 1); err != nil {
				fmt.Fprintf(os.Stderr, "  warm-up %s / %s: %v\n", w.ID, l.spec.name, err)
			}
		}
		if _, err := l.eng.Throughput(ctx, bench.Return1, workers, c.tput/10); err != nil {
			fmt.Fprintf(os.Stderr, "  warm-up throughput / %s: %v\n", l.spec.name, err)
		}
	}

	for r := range c.rounds {
		fmt.Fprintf(os.Stderr, "round %d of %d (%v)\n", r+1, c.rounds, time.Since(started).Round(time.Second))
		order := rotate(engs, r)
		for _, l := range order {
			d, err := coldStart(c, l.spec, prog, warmDir(l.spec))
			res.add(rowColdCache, l.spec.name, d.Seconds(), err)
			empty, err := os.MkdirTemp(work, "empty-")
			if err != nil {
				return err
			}
			d, err = coldStart(c, l.spec, prog, empty)
			res.add(rowColdNoCache, l.spec.name, d.Seconds(), err)
			os.RemoveAll(empty)
		}
		for _, w := range workloads {
			for _, l := range order {
				d, err := measure(ctx, l.eng, w, w.Runs)
				res.add(w.ID, l.spec.name, d.Seconds(), err)
			}
		}
		for _, l := range order {
			t, err := l.eng.Throughput(ctx, bench.Return1, workers, c.tput)
			if err == nil && bench.Normalize(t.Result) != "1" {
				err = fmt.Errorf("throughput run returned %s, want 1", t.Result)
			}
			res.add(rowTputRate, l.spec.name, t.RunsPerSec, err)
			res.add(rowTputP99, l.spec.name, t.P99.Seconds(), err)
		}
		for _, l := range order {
			kib, err := idleRSS(ctx, c, l.spec, warmDir(l.spec))
			res.add(rowRSS, l.spec.name, kib, err)
		}
	}
	rep := report{
		cfg: c, specs: specs, res: res, workloads: workloads, workers: workers,
		started: started, took: time.Since(started),
		load: [2]string{loadStart, loadAvg()},
	}
	return rep.write()
}

func filterSpecs(specs []engineSpec, keep map[string]bool) []engineSpec {
	var out []engineSpec
	for _, s := range specs {
		if keep[s.name] {
			out = append(out, s)
		}
	}
	return out
}

// rotate starts round r's order at engine r, so that no engine always runs
// right after the same one.
func rotate(engs []live, r int) []live {
	if len(engs) == 0 {
		return nil
	}
	k := r % len(engs)
	return append(append([]live(nil), engs[k:]...), engs[:k]...)
}

// measure takes one sample of w and checks its result.
func measure(ctx context.Context, e bench.Engine, w bench.Workload, n int) (time.Duration, error) {
	s, err := e.Measure(ctx, w.Source, n)
	if err != nil {
		return 0, err
	}
	if got := bench.Normalize(s.Result); got != w.Want {
		return 0, fmt.Errorf("%s returned %s, want %s", w.ID, got, w.Want)
	}
	return s.PerRun, nil
}

// coldStart starts a fresh process with PTC_CACHE_DIR=cacheDir and returns
// the time to its first line of output, which must be the result 1.
func coldStart(c config, s engineSpec, prog, cacheDir string) (time.Duration, error) {
	cmd := s.cold(c, prog)
	cmd.Env = append(os.Environ(), "PTC_CACHE_DIR="+cacheDir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	line, rerr := bufio.NewReader(out).ReadString('\n')
	d := time.Since(start)
	werr := cmd.Wait()
	if err := errors.Join(werr, rerr); err != nil {
		return 0, fmt.Errorf("cold start: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if got := strings.TrimSpace(line); got != "1" {
		return 0, fmt.Errorf("cold start printed %q, want 1", got)
	}
	return d, nil
}

// idleRSS measures the RSS per idle sandbox in a fresh process: this
// binary's rss mode for an in-process engine, peer.mjs's for a Node peer.
func idleRSS(ctx context.Context, c config, s engineSpec, cacheDir string) (float64, error) {
	n := c.idle
	if s.idle != 0 {
		n = s.idle
	}
	if s.inproc == nil {
		return nodeOf(c).RSS(ctx, s.node, n)
	}
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.CommandContext(ctx, self, "rss", "-engine", s.name, "-n", fmt.Sprint(n), "-cache", cacheDir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("rss child: %w", err)
	}
	var r rssReply
	if err := json.Unmarshal(out, &r); err != nil {
		return 0, fmt.Errorf("rss child: %q: %w", out, err)
	}
	return r.KiBPerSandbox, nil
}

type rssReply struct {
	KiBPerSandbox float64 `json:"kibPerSandbox"`
}

// rssChild is `ptcbench rss`: one engine, n idle sandboxes, in this fresh
// process.
func rssChild(args []string) error {
	fs := flag.NewFlagSet("rss", flag.ContinueOnError)
	name := fs.String("engine", "", "in-process engine")
	n := fs.Int("n", 200, "sandboxes alive at once")
	cache := fs.String("cache", "", "compilation cache directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, s := range engines() {
		if s.name != *name || s.inproc == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		g := bench.NewGate(*n)
		sb, err := s.inproc(ctx, *cache, g)
		if err != nil {
			return err
		}
		defer sb.Close(ctx)
		kib, err := bench.IdleRSS(ctx, sb, g, *n)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(rssReply{kib})
	}
	return fmt.Errorf("no in-process engine %q", *name)
}

// loadAvg returns the first three fields of /proc/loadavg.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
