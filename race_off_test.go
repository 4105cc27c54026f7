//go:build !race

package ptc_test

const raceEnabled = false
