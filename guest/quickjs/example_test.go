package quickjs_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/ptchost/ptc/guest/quickjs"
	"github.com/ptchost/ptc/host"
)

// A module fetched with go get has no guest until `ptc-run guest build`
// puts it in the user cache; host.New then fails with ErrNotBuilt, whose
// message names that command.
func ExampleErrNotBuilt() {
	ctx := context.Background()
	h, err := host.New(ctx, host.Config{})
	if errors.Is(err, quickjs.ErrNotBuilt) {
		fmt.Println(err) // host: quickjs guest not built: run go run github.com/ptchost/ptc/cmd/ptc-run@v… guest build
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	fmt.Println(h.Run(ctx, host.Program{Source: `return 1 + 1`}).Text())
}
