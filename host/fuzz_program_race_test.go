//go:build race

package host_test

import "time"

func init() { fuzzProgramSlack = 6 * time.Second }
