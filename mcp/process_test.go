package mcp_test

import (
	"syscall"
	"testing"

	"github.com/ptchost/ptc/internal/mcptest"
)

func killPID(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

func mcptestEverything(t testing.TB) (string, []string) { return mcptest.Everything(t) }
