package pipeline

// Dispatched reports whether o's tool body was invoked.
func Dispatched(o *Outcome) bool { return o.inv.active.Load() }
