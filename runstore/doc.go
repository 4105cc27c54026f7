// Package runstore keeps the runs of a ptc executor in a database, so that
// they outlive the process that started them (docs/durable.md).
//
// A [Store] holds, per run ID, what the executor writes ahead of acting —
// the run's header (its fingerprint, program and clock), each subcall
// started before it is dispatched and settled when it comes back, the
// run's trace in chunks, and its final result — under a lease: one process
// drives a run at a time, and every write carries the lease's fencing
// token, so a process that lost its lease can never write again. The
// store treats what it holds as opaque bytes; package ptc encodes and
// decodes them.
//
// [Open] opens one of two backends, both pure Go: SQLite ("sqlite:PATH",
// embedded, for one machine) and PostgreSQL ("postgres://…", for many
// replicas sharing the store).
package runstore
