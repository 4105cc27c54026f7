// Command ptcbench measures ptc and its peers in interleaved rounds and
// writes RESULTS.md (see package bench). `make -C bench results` builds
// what it needs and runs it:
//
//	ptcbench -bin bench/bin -node bench/node -rounds 5 -out bench/RESULTS.md
//
// ptcbench rss -engine NAME -n 200 is the child process of the idle-RSS
// workload for an in-process engine.
//
// ptcbench scale -node bench/node -out bench/RESULTS.md (make -C bench
// scale) measures N runs waiting in tools.wait at once, N = 1, 100, 1000,
// 5000, and writes the scale section of RESULTS.md; ptcbench scale-child is
// its child process for an in-process engine.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "rss" {
		if err := rssChild(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "ptcbench rss:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && (os.Args[1] == "scale" || os.Args[1] == "scale-child") {
		f := scaleMain
		if os.Args[1] == "scale-child" {
			f = scaleChildMain
		}
		if err := f(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "ptcbench "+os.Args[1]+":", err)
			os.Exit(1)
		}
		return
	}
	var c config
	flag.StringVar(&c.bin, "bin", "bin", "directory of the cold-start binaries and ptc-run")
	flag.StringVar(&c.nodeDir, "node", "node", "directory of peer.mjs and its node_modules")
	flag.IntVar(&c.rounds, "rounds", 5, "interleaved rounds")
	flag.IntVar(&c.idle, "idle", 200, "sandboxes alive at once in the idle-RSS workload")
	flag.DurationVar(&c.tput, "throughput-time", 2*time.Second, "duration of one throughput sample")
	flag.StringVar(&c.out, "out", "RESULTS.md", "the report to write")
	flag.StringVar(&c.only, "engines", "", "comma-separated engines to measure (default: all)")
	flag.StringVar(&c.command, "command", "", "the command to name in the report (default: this one)")
	flag.StringVar(&c.ptcVersion, "ptc-version", "unknown", "the ptc commit measured, for the report")
	flag.Parse()
	if c.command == "" {
		c.command = strings.Join(os.Args, " ")
	}
	var err error
	if c.bin, err = filepath.Abs(c.bin); err == nil {
		c.nodeDir, err = filepath.Abs(c.nodeDir)
	}
	if err == nil {
		err = run(context.Background(), c)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptcbench:", err)
		os.Exit(1)
	}
}

type config struct {
	bin, nodeDir, out, only, command, ptcVersion string
	rounds, idle                                 int
	tput, settle                                 time.Duration
}
