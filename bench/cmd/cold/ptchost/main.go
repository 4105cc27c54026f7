// Command ptchost is the bare host's cold start: host.New with the
// compilation cache in $PTC_CACHE_DIR/wazero (an empty directory: none
// yet), one run of `return 1`, its value on stdout.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/engine/ptchost"
)

func main() {
	ctx := context.Background()
	s, err := ptchost.New(ctx, filepath.Join(os.Getenv("PTC_CACHE_DIR"), "wazero"), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	v, err := s.Run(ctx, bench.Return1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(v)
}
