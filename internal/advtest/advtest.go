package advtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// IsChild reports whether this process is a child RunChild started.
func IsChild() bool { return os.Getenv("PTC_ADV_CHILD") != "" }

var (
	cacheMu  sync.Mutex
	cacheDir string
)

// Cache is the wazero compilation cache shared by this process and its
// children, so that a child or a host of its own does not compile the
// guest anew.
func Cache() string {
	if d := os.Getenv("PTC_ADV_CACHE"); d != "" {
		return d
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if cacheDir == "" {
		cacheDir, _ = os.MkdirTemp("", "ptc-adv-cache-")
	}
	return cacheDir
}

// RunChild runs the current subtest alone in a child process (with cache
// as its compilation cache) and reports its verdict: a crash, a freeze
// (killed after PTC_ADV_KILL, 30s by default, with the longest gap in its
// heartbeat) or its failures.
func RunChild(t *testing.T, cache string) {
	t.Helper()
	kill := 30 * time.Second
	if d, err := time.ParseDuration(os.Getenv("PTC_ADV_KILL")); err == nil && d > 0 {
		kill = d
	}
	var pat []string
	for _, p := range strings.Split(t.Name(), "/") {
		pat = append(pat, "^"+regexp.QuoteMeta(p)+"$")
	}
	ctx, cancel := context.WithTimeout(context.Background(), kill)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run="+strings.Join(pat, "/"), "-test.v", "-test.count=1", "-test.timeout=10m")
	cmd.Env = append(os.Environ(), "PTC_ADV_CHILD=1", "PTC_ADV_CACHE="+cache)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)

	var lines []string
	var beats []int64
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		l := sc.Text()
		if rest, ok := strings.CutPrefix(l, "ADV-HB "); ok {
			if ms, err := strconv.ParseInt(rest, 10, 64); err == nil {
				beats = append(beats, ms)
			}
			continue
		}
		lines = append(lines, l)
	}
	var gap time.Duration
	for i := 1; i < len(beats); i++ {
		gap = max(gap, time.Duration(beats[i]-beats[i-1])*time.Millisecond)
	}
	if ctx.Err() != nil && len(beats) > 0 {
		gap = max(gap, time.Since(time.UnixMilli(beats[len(beats)-1])))
	}
	for _, l := range lines {
		if i := strings.Index(l, "ADV "); i >= 0 {
			t.Log(l[i:])
		}
	}
	text := strings.Join(lines, "\n")
	switch {
	case ctx.Err() != nil:
		t.Errorf("ADV-VERDICT killed: no verdict within %v (child wall %v); longest heartbeat gap %v (a gap means the whole process was frozen)", kill, wall.Round(time.Millisecond), gap.Round(time.Millisecond))
	case err == nil:
		t.Logf("child passed in %v; longest heartbeat gap %v", wall.Round(time.Millisecond), gap.Round(time.Millisecond))
	case strings.Contains(text, "--- FAIL") && !strings.Contains(text, "panic:") && !strings.Contains(text, "SIG"):
		var fails []string
		for _, l := range lines {
			if strings.Contains(l, "_test.go:") && !strings.Contains(l, "ADV ") {
				fails = append(fails, strings.TrimSpace(l))
			}
		}
		t.Errorf("child failed (wall %v, heartbeat gap %v):\n%s", wall.Round(time.Millisecond), gap.Round(time.Millisecond), strings.Join(fails, "\n"))
	default:
		i := strings.Index(text, "panic:")
		if j := strings.Index(text, "SIG"); i < 0 || (j >= 0 && j < i) {
			i = j
		}
		if i < 0 {
			i = max(0, len(text)-3000)
		}
		crash := text[i:]
		if len(crash) > 3000 {
			crash = crash[:3000]
		}
		t.Errorf("ADV-VERDICT crashed: child process died (%v) after %v:\n%s", err, wall.Round(time.Millisecond), crash)
	}
}

// stwNames are the runtime metrics of stop-the-world pauses.
var stwNames = []string{"/sched/pauses/stopping/gc:seconds", "/sched/pauses/stopping/other:seconds", "/sched/pauses/total/gc:seconds"}

// ReadSTW reads the runtime's pause histograms.
func ReadSTW() []metrics.Sample {
	s := make([]metrics.Sample, len(stwNames))
	for i, n := range stwNames {
		s[i].Name = n
	}
	metrics.Read(s)
	return s
}

// MaxNewPause is a lower bound of the longest pause recorded between
// two readings.
func MaxNewPause(before, after []metrics.Sample) time.Duration {
	var worst time.Duration
	for i := range after {
		if after[i].Value.Kind() != metrics.KindFloat64Histogram || before[i].Value.Kind() != metrics.KindFloat64Histogram {
			continue
		}
		a, b := after[i].Value.Float64Histogram(), before[i].Value.Float64Histogram()
		for j := len(a.Counts) - 1; j >= 0; j-- {
			if j < len(b.Counts) && a.Counts[j] > b.Counts[j] {
				lo := a.Buckets[j]
				if lo > 0 {
					worst = max(worst, time.Duration(lo*float64(time.Second)))
				}
				break
			}
		}
	}
	return worst
}

// Heartbeat writes "ADV-HB <unix ms>" to stderr every 100 ms until stop
// is closed: a gap in a child's heartbeat shows its process froze.
func Heartbeat(stop chan struct{}) {
	for {
		fmt.Fprintf(os.Stderr, "ADV-HB %d\n", time.Now().UnixMilli())
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// RSS is the process's resident memory in bytes, or 0 where
// /proc/self/statm does not say.
func RSS() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseUint(f[1], 10, 64)
	return n * uint64(os.Getpagesize())
}
