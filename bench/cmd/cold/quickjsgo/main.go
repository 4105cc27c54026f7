// Command quickjsgo is native QuickJS-ng's cold start: one run of
// `return 1` in a new runtime, its value on stdout.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ptchost/ptc/bench"
	"github.com/ptchost/ptc/bench/engine/quickjsgo"
)

func main() {
	v, err := quickjsgo.New(nil).Run(context.Background(), bench.Return1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(v)
}
