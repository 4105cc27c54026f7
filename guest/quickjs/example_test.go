package quickjs_test

import (
	"context"
	"fmt"

	"github.com/ptchost/ptc/host"
)

// The guest is embedded: a host needs no build, no download and no cache
// to run a program.
func Example() {
	ctx := context.Background()
	h, err := host.New(ctx, host.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	fmt.Println(h.Run(ctx, host.Program{Source: `return [1, 2].map((x) => x * 2)`}).Text())
	// Output: [2, 4]
}
