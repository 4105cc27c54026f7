package toolsdk

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/registry"
)

func noopTool(name string) *registry.Tool {
	return registry.MustDefine(registry.RawSpec{
		Name: name,
		Execute: func(context.Context, json.RawMessage, *registry.Exec) (any, error) {
			return nil, nil
		},
	})
}

func TestSDKCache(t *testing.T) {
	reg := registry.New()
	_, err := reg.Register(noopTool("a"))
	require.NoError(t, err)
	c := NewCache(reg, -1)
	defer reg.Subscribe(c.Invalidate)()

	plain := c.Get(registry.Scope{}, nil)
	require.Same(t, plain, c.Get(registry.Scope{}, nil), "cached without a set")
	require.Contains(t, plain.JS(), `"a"`)

	set, err := reg.Resolve(context.Background(), registry.Step{})
	require.NoError(t, err)
	s1 := c.Get(registry.Scope{}, set)
	require.Same(t, s1, c.Get(registry.Scope{}, set), "cached by set identity")
	require.Equal(t, 2, c.len())

	// A registration invalidates every entry.
	_, err = reg.Register(noopTool("b"))
	require.NoError(t, err)
	require.NotSame(t, plain, c.Get(registry.Scope{}, nil))
	require.Contains(t, c.Get(registry.Scope{}, nil).JS(), `"b"`)

	// A forgotten set takes its entry with it.
	set.Dispose()
	set = nil
	deadline := time.Now().Add(5 * time.Second)
	for c.len() > 1 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	require.Equal(t, 1, c.len())
}
