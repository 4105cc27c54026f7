package host_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
)

func TestHost_IdleSandboxes(t *testing.T) {
	newHost(t, host.Config{}) // skips when the guest is not built
	h, err := host.New(context.Background(), host.Config{})
	require.NoError(t, err)
	assert.Equal(t, 0, h.IdleSandboxes())
	// Three runs at once leave three instances idle; a prelude's runs keep
	// theirs beside the base image's.
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			h.Run(context.Background(), host.Program{Source: `await new Promise(r => setTimeout(r, 100)); return 1`})
		})
	}
	wg.Wait()
	assert.Equal(t, 3, h.IdleSandboxes())
	o := h.Run(context.Background(), host.Program{Source: `return globalThis.x`, Prelude: `globalThis.x = 1`})
	require.Equal(t, host.KindOK, o.Kind, o.Text())
	assert.Equal(t, 4, h.IdleSandboxes())
	require.NoError(t, h.Close(context.Background()))
	assert.Equal(t, 0, h.IdleSandboxes())
}
