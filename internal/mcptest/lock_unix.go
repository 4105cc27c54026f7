//go:build !windows

package mcptest

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, waiting for it: one test binary
// at a time installs the servers.
func lockFile(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("mcptest: lock %s: %w", f.Name(), err)
	}
	return nil
}

// unlockFile releases lockFile's lock.
func unlockFile(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		return fmt.Errorf("mcptest: unlock %s: %w", f.Name(), err)
	}
	return nil
}
