package ptc

// WaitingRuns is the number of runs waiting for a slot (Config.MaxRuns).
func (e *Executor) WaitingRuns() int {
	if e.slots == nil {
		return 0
	}
	return e.slots.Waiting()
}
