//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own: a terminal's
// Ctrl-C reaches ptc, which closes the server in order, and closing can
// kill the processes the server started (npx, a shell wrapper) with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group pid leads.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
