//go:build race

package host_test

import "time"

func init() { fuzzProgramSlack = 1500 * time.Millisecond }
