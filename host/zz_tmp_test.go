package host_test

import (
	"context"
	"testing"
	"time"

	"github.com/ptchost/ptc/host"
)

func TestZZOne(t *testing.T) {
	h := newHost(t, host.Config{})
	for range 5 {
		t0 := time.Now()
		out := h.Run(context.Background(), host.Program{Source: `let x = 0; for (let i = 0; i < 600000; i++) x += i % 3; return x`})
		t.Log(time.Since(t0), out.Kind)
	}
}
