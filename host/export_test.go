package host

// Recycled is the number of runs that got an instance an earlier run left.
func (h *Host) Recycled() int64 { return h.recycled.Load() }
