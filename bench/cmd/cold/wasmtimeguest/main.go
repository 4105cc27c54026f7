// Command wasmtimeguest is the wasmtime-hosted guest's cold start: the
// module compiled by wasmtime, or read from its serialised form in
// $PTC_CACHE_DIR/wasmtime.cwasm when a previous process wrote it, one run
// of `return 1`, its value on stdout.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/engine/wasmtimeguest"
)

func main() {
	ctx := context.Background()
	s, err := wasmtimeguest.New(ctx, filepath.Join(os.Getenv("PTC_CACHE_DIR"), "wasmtime.cwasm"), nil)
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
