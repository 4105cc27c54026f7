package host

import "encoding/hex"

// GuestDigest returns the sha256 of the guest module the host runs, in
// hex: what a durable run's fingerprint names the guest by.
func (h *Host) GuestDigest() string { return hex.EncodeToString(h.guestSum[:]) }
