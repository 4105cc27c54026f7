package quickjs_test

import (
	"errors"
	"fmt"

	"github.com/ptchost/ptc/guest/quickjs"
)

// Find looks for the guest where host.New does; a module fetched with go
// get has none until `ptc-run guest build` puts it in the user cache.
func ExampleFind() {
	g, err := quickjs.Find("")
	if errors.Is(err, quickjs.ErrNotBuilt) {
		fmt.Println(err) // quickjs guest not built: run go run github.com/ptchost/ptc/cmd/ptc-run@v… guest build
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("guest from %s, %d bytes\n", g.Source, len(g.Wasm))
}
