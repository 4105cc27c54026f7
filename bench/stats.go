package bench

import (
	"slices"
)

// Summary is the median and range of a cell's samples over the rounds.
type Summary struct {
	Median, Min, Max float64
	// N is the number of samples; Err is the first failure, if any.
	N   int
	Err string
}

// Summarize summarises samples (one per round).
func Summarize(samples []float64) Summary {
	if len(samples) == 0 {
		return Summary{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Summary{Median: m, Min: s[0], Max: s[len(s)-1], N: len(s)}
}
