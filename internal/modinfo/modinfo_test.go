package modinfo

import "testing"

func TestGuestBuildCommand(t *testing.T) {
	// A test binary's main module is this one, at version (devel).
	if got, want := GuestBuildCommand(), "go run github.com/ptchost/ptc/cmd/ptc-run@latest guest build"; got != want {
		t.Errorf("GuestBuildCommand() = %q, want %q", got, want)
	}
}
