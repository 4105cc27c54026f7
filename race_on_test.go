//go:build race

package ptc_test

// raceEnabled reports a -race build: the adversarial suite, whose figures
// (wall times, pauses) the race detector distorts, runs without it (make
// test runs it separately).
const raceEnabled = true
