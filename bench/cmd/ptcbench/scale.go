package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ptchost/ptc/bench"
)

// The scale section of RESULTS.md lies between these markers; `ptcbench
// scale` rewrites it and the full report keeps it.
const (
	scaleBegin = "<!-- scale: written by make -C bench scale -->"
	scaleEnd   = "<!-- scale end -->"
)

// scaleEngines are the engines that can hold thousands of waiting runs in
// one process (run's worker per run cannot; the wasmtime guest reserves
// gigabytes of address space per instance).
const scaleEngines = "ptc host,ptc executor,goja,quickjs-go,quickjs-emscripten,isolated-vm"

// scaleMain is `ptcbench scale`: for each N and engine, in interleaved
// rounds, a fresh process holds N runs waiting in tools.wait; the table
// goes into the scale section of -out.
func scaleMain(args []string) error {
	fs := flag.NewFlagSet("scale", flag.ContinueOnError)
	var c config
	fs.StringVar(&c.bin, "bin", "bin", "directory of ptcbench itself")
	fs.StringVar(&c.nodeDir, "node", "node", "directory of peer.mjs and its node_modules")
	fs.IntVar(&c.rounds, "rounds", 3, "interleaved rounds")
	fs.StringVar(&c.out, "out", "RESULTS.md", "the report whose scale section to write")
	fs.StringVar(&c.only, "engines", scaleEngines, "comma-separated engines to measure")
	fs.StringVar(&c.ptcVersion, "ptc-version", "unknown", "the ptc commit measured, for the report")
	ns := fs.String("n", "1,100,1000,5000", "comma-separated numbers of waiting runs")
	fs.DurationVar(&c.settle, "settle", 5*time.Second, "how long the runs have waited when they are measured")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var counts []int
	for f := range strings.SplitSeq(*ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-n: %q is not a positive number", f)
		}
		counts = append(counts, n)
	}
	if counts[0] != 1 {
		return fmt.Errorf("-n must start with 1 (the baseline of the per-run figure)")
	}
	var err error
	if c.nodeDir, err = filepath.Abs(c.nodeDir); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, n := range strings.Split(c.only, ",") {
		keep[strings.TrimSpace(n)] = true
	}
	specs := filterSpecs(engines(), keep)
	work, err := os.MkdirTemp("", "ptcbench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	ctx := context.Background()
	started, load := time.Now(), loadAvg()
	points := map[string]map[int][]bench.ScalePoint{}
	fails := map[string]string{}
	measure := func(s engineSpec, n int) (bench.ScalePoint, error) {
		if s.inproc == nil {
			return nodeOf(c).Scale(ctx, s.node, n, c.settle)
		}
		return scaleChild(ctx, s, n, filepath.Join(work, strings.ReplaceAll(s.name, " ", "-")), c.settle)
	}
	// Warm-up: fills the ptc engines' compilation caches.
	for _, s := range specs {
		if _, err := measure(s, 1); err != nil {
			fails[s.name] = err.Error()
		}
	}
	for r := range c.rounds {
		for _, n := range counts {
			for i := range specs {
				s := specs[(i+r)%len(specs)]
				if fails[s.name] != "" {
					continue
				}
				p, err := measure(s, n)
				if err != nil {
					fails[s.name] = fmt.Sprintf("N=%d: %v", n, err)
					fmt.Fprintf(os.Stderr, "ptcbench scale: %s: %v\n", s.name, fails[s.name])
					continue
				}
				fmt.Fprintf(os.Stderr, "round %d  %-18s N=%-5d RSS %8d KiB  heap %7d KiB  in flight after %v\n",
					r+1, s.name, n, p.RSSKiB, p.HeapKiB, time.Duration(p.StartNs).Round(time.Millisecond))
				if points[s.name] == nil {
					points[s.name] = map[int][]bench.ScalePoint{}
				}
				points[s.name][n] = append(points[s.name][n], p)
			}
		}
	}
	section := scaleSection(c, specs, counts, points, fails, started, load)
	return writeSection(c.out, section)
}

// scaleChild runs `ptcbench scale-child` for an in-process engine.
func scaleChild(ctx context.Context, s engineSpec, n int, cacheDir string, settle time.Duration) (bench.ScalePoint, error) {
	self, err := os.Executable()
	if err != nil {
		return bench.ScalePoint{}, err
	}
	cmd := exec.CommandContext(ctx, self, "scale-child", "-engine", s.name, "-n", fmt.Sprint(n), "-cache", cacheDir, "-settle", settle.String())
	var stderr bytes.Buffer
	cmd.Stderr = io.MultiWriter(os.Stderr, &stderr)
	out, err := cmd.Output()
	if err != nil {
		// The table names why: the child's last line.
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		return bench.ScalePoint{}, fmt.Errorf("scale child: %w: %s", err, lines[len(lines)-1])
	}
	var p bench.ScalePoint
	if err := json.Unmarshal(out, &p); err != nil {
		return bench.ScalePoint{}, fmt.Errorf("scale child: %q: %w", out, err)
	}
	return p, nil
}

// scaleChildMain is `ptcbench scale-child`: one engine, n waiting runs, in
// this fresh process.
func scaleChildMain(args []string) error {
	fs := flag.NewFlagSet("scale-child", flag.ContinueOnError)
	name := fs.String("engine", "", "in-process engine")
	n := fs.Int("n", 1, "waiting runs")
	cache := fs.String("cache", "", "compilation cache directory")
	settle := fs.Duration("settle", 0, "how long the runs have waited when they are measured")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, s := range engines() {
		if s.name != *name || s.inproc == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		g := bench.NewGate(*n)
		sb, err := s.inproc(ctx, *cache, g)
		if err != nil {
			return err
		}
		defer sb.Close(ctx)
		// The runs wait until all n arrived, which takes minutes for some.
		if t, ok := sb.(interface{ SetTimeout(time.Duration) }); ok {
			t.SetTimeout(10 * time.Minute)
		}
		p, err := bench.Scale(ctx, sb, g, *n, *settle)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(p)
	}
	return fmt.Errorf("no in-process engine %q", *name)
}

func medianOf(ps []bench.ScalePoint, f func(bench.ScalePoint) float64) float64 {
	v := make([]float64, len(ps))
	for i, p := range ps {
		v[i] = f(p)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func scaleSection(c config, specs []engineSpec, counts []int, points map[string]map[int][]bench.ScalePoint, fails map[string]string, started time.Time, load string) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("%s\n## Waiting runs at scale\n\n", scaleBegin)
	p("Generated by `make -C bench scale` on %s, in %v, %d interleaved rounds; ptc at %s; nproc %d, %s; load average at the start %s, at the end %s.\n\n",
		started.UTC().Format("2006-01-02 15:04 MST"), time.Since(started).Round(time.Second), c.rounds, c.ptcVersion, runtime.NumCPU(), runtime.Version(), load, loadAvg())
	p("A fresh process per engine, N and round: one run of `return 1`, then N runs of `return await tools.wait({})` started at once; once all N are waiting and have waited `-settle` more (%v here: a ptc run that waits that long for a tool has parked, host.Config.ParkAfter), a garbage collection (Go: debug.FreeOSMemory; Node: gc()), then VmRSS, the heap in use (Go: HeapInuse; Node: V8's heapUsed) and the address space (VmSize); then the runs are released and every result is checked. *per run* is (RSS at N − RSS at N=1) / (N − 1) of the medians; *time* is from starting the first run until all N are waiting; *VmSize per run* likewise. Cells are medians over the rounds. The ptc executor runs with MaxRuns unbounded.\n\n", c.settle)
	p("| engine | N | RSS | per run above N=1 | heap in use | time until all N in flight | VmSize per run |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range specs {
		byN := points[s.name]
		if len(byN) == 0 {
			p("| %s | | n/a (%s) | | | | |\n", s.name, oneLine(fails[s.name]))
			continue
		}
		base := medianOf(byN[1], func(x bench.ScalePoint) float64 { return float64(x.RSSKiB) })
		baseVM := medianOf(byN[1], func(x bench.ScalePoint) float64 { return float64(x.VmSizeKiB) })
		for _, n := range counts {
			ps := byN[n]
			if len(ps) == 0 {
				p("| %s | %s | n/a (%s) | | | | |\n", s.name, thousands(float64(n)), oneLine(fails[s.name]))
				continue
			}
			rss := medianOf(ps, func(x bench.ScalePoint) float64 { return float64(x.RSSKiB) })
			vm := medianOf(ps, func(x bench.ScalePoint) float64 { return float64(x.VmSizeKiB) })
			per, perVM := "—", "—"
			if n > 1 {
				per = format((rss-base)/float64(n-1), "KiB")
				perVM = format((vm-baseVM)/float64(n-1), "KiB")
			}
			heap := medianOf(ps, func(x bench.ScalePoint) float64 { return float64(x.HeapKiB) })
			t := medianOf(ps, func(x bench.ScalePoint) float64 { return float64(x.StartNs) }) / 1e9
			p("| %s | %s | %s | %s | %s | %s | %s |\n", s.name, thousands(float64(n)), mib(rss), per, mib(heap), format(t, "s"), perVM)
		}
	}
	p("\n%s\n", scaleEnd)
	return b.String()
}

func mib(kib float64) string { return sig(kib/1024) + " MiB" }

// writeSection puts the scale section into the report at path, replacing
// the one there or appending it.
func writeSection(path, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return os.WriteFile(path, []byte(withSection(string(old), section)), 0o644)
}

// withSection returns doc with its scale section replaced by section (or
// section appended).
func withSection(doc, section string) string {
	i := strings.Index(doc, scaleBegin)
	j := strings.Index(doc, scaleEnd)
	if section == "" {
		return doc
	}
	if i >= 0 && j > i {
		return doc[:i] + section + strings.TrimPrefix(doc[j+len(scaleEnd):], "\n")
	}
	if doc != "" && !strings.HasSuffix(doc, "\n\n") {
		doc = strings.TrimRight(doc, "\n") + "\n\n"
	}
	return doc + section
}

// scaleSectionOf returns the scale section of the report at path, or "".
func scaleSectionOf(path string) string {
	doc, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := string(doc)
	i, j := strings.Index(s, scaleBegin), strings.Index(s, scaleEnd)
	if i < 0 || j < i {
		return ""
	}
	return s[i:j+len(scaleEnd)] + "\n"
}
