package ptc

import (
	"errors"
	"fmt"
)

// DefaultMaxRuns is Config.MaxRuns when it is zero: the programs an
// executor runs at once across all its batches. A run may fill its memory
// limit, and one that does holds 63 MiB resident at the default 64 MiB
// (measured); 128 such runs hold about 8 GiB, a third of a 24 GiB
// machine, whatever the burst, while runs that wait for tools hold well
// under 1 MiB each. A deployment whose runs mostly wait for slow tools, or
// that lowers the memory limit, raises it (RATIONALE.md, "Why a cap on
// runs in flight?").
const DefaultMaxRuns = 128

// ErrBusy is the failure of a run_code call refused because the executor
// was running Config.MaxRuns programs and RunOptions.NoWait asked it not
// to wait for one to end. It also matches ErrAborted: the program never
// started.
var ErrBusy = errors.New("ptc: the executor is at its limit of runs in flight")

// busyError is a run refused by a full executor; it matches ErrBusy.
type busyError struct{ max int }

func (e *busyError) Error() string {
	return fmt.Sprintf("the executor is at its limit of runs in flight (%d)", e.max)
}

func (e *busyError) Is(target error) bool { return target == ErrBusy }

// busyText is the reason a refused run's content gives, without "Error: ".
func busyText(b *busyError) string { return "code run failed (aborted): " + b.Error() }
