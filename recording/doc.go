// Package recording holds a run's recording: everything a run_code run
// depended on and what it produced, in a versioned JSON form
// (testdata/recording.schema.json), and what a replay reports when a run
// leaves it. Executor.Replay and Executor.Resume in the root package run
// from a recording; Result.Recording is one.
package recording
