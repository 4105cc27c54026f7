//go:build windows

package mcptest

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes an exclusive lock on f's first byte, waiting for it: one
// test binary at a time installs the servers.
func lockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		return fmt.Errorf("mcptest: lock %s: %w", f.Name(), err)
	}
	return nil
}

// unlockFile releases lockFile's lock.
func unlockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol); err != nil {
		return fmt.Errorf("mcptest: unlock %s: %w", f.Name(), err)
	}
	return nil
}
