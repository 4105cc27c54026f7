// Package durable is what a durable run (ptc.Config.Store) writes to its
// run store and reads back: the run's header (its fingerprint, program,
// seed and clock), each subcall started and settled, the trace in chunks
// and the final result, each with its encoding; the [Journal] that writes
// a run ahead of its subcalls under the run's lease; and [Assemble], which
// turns what the store holds back into the recording a resume follows.
package durable
