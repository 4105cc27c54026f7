// Command goja is goja's cold start: one run of `return 1` in a new
// Runtime, its value on stdout.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/engine/gojaengine"
)

func main() {
	v, err := gojaengine.New(nil).Run(context.Background(), bench.Return1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(v)
}
