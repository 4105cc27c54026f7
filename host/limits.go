package host

import (
	"fmt"
	"time"
)

// The default limits (docs/ARCHITECTURE.md, "Limits"); Limits.WithDefaults
// fills a zero field with its default.
const (
	defaultTimeout     = 30 * time.Second
	defaultMemoryBytes = 64 << 20
	defaultSourceBytes = 256 << 10
	defaultStackBytes  = 768 << 10
	defaultOutputBytes = 64 << 10
	defaultSubcalls    = 1000
	defaultInFlight    = 32
	defaultResultBytes = 1 << 20
	defaultErrorBytes  = 8 << 10
	// defaultArgumentBytes and defaultArgumentDepth bound a subcall's
	// arguments as the guest serialises them: the pipeline's defaults
	// (of pipeline.Config's ArgumentBytes and ArgumentDepth), which it
	// applies to every call; a test in the root package checks they agree.
	defaultArgumentBytes = 1 << 20
	defaultArgumentDepth = 64
	// defaultTimers bounds the timers a program has pending at once.
	defaultTimers = 1000

	// wasmStackBytes is the C stack the guest is linked with; the JS stack
	// limit must stay below it.
	wasmStackBytes = 1 << 20
)

// Limits bound one run. A zero field takes its default: Timeout 30s,
// MemoryBytes 64 MiB, SourceBytes 256 KiB, StackBytes 768 KiB,
// OutputBytes 64 KiB, Subcalls 1000, InFlight 32, ResultBytes 1 MiB,
// ErrorBytes 8 KiB, ArgumentBytes 1 MiB, ArgumentDepth 64, Timers 1000.
type Limits struct {
	// Timeout is the wall-time budget of the whole run.
	Timeout time.Duration
	// MemoryBytes bounds the QuickJS heap; the guest's linear memory may
	// additionally hold the 1 MiB stack, static data and allocator slack.
	MemoryBytes uint64
	// SourceBytes bounds the program source.
	SourceBytes int
	// StackBytes bounds the JS stack; it must be below 1 MiB (the wasm stack).
	StackBytes int
	// OutputBytes bounds the captured output (lines plus newlines); output
	// cut at the bound ends with the line "[output truncated]".
	OutputBytes int
	// Subcalls bounds the number of subcalls the program may start.
	Subcalls int
	// InFlight bounds the subcalls dispatched at once; others wait their turn.
	InFlight int
	// ResultBytes bounds each subcall result and the program's return value,
	// as JSON.
	ResultBytes int
	// ErrorBytes bounds an error's message and its stack, each; a longer
	// one is cut and ends with "… [N more bytes]".
	ErrorBytes int
	// ArgumentBytes and ArgumentDepth bound a subcall's arguments: the
	// guest refuses larger or deeper ones (a ToolError with code
	// INVALID_ARGUMENTS the program can catch) before any copy reaches the
	// host. ArgumentDepth is at most 1000.
	ArgumentBytes int
	ArgumentDepth int
	// Timers bounds the timers (setTimeout, setInterval) pending at once:
	// creating one more throws a RangeError naming the limit.
	Timers int
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = defaultTimeout
	}
	if l.MemoryBytes == 0 {
		l.MemoryBytes = defaultMemoryBytes
	}
	if l.SourceBytes <= 0 {
		l.SourceBytes = defaultSourceBytes
	}
	if l.StackBytes <= 0 {
		l.StackBytes = defaultStackBytes
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = defaultOutputBytes
	}
	if l.Subcalls <= 0 {
		l.Subcalls = defaultSubcalls
	}
	if l.InFlight <= 0 {
		l.InFlight = defaultInFlight
	}
	if l.ResultBytes <= 0 {
		l.ResultBytes = defaultResultBytes
	}
	if l.ErrorBytes <= 0 {
		l.ErrorBytes = defaultErrorBytes
	}
	if l.ArgumentBytes <= 0 {
		l.ArgumentBytes = defaultArgumentBytes
	}
	if l.ArgumentDepth <= 0 {
		l.ArgumentDepth = defaultArgumentDepth
	}
	if l.Timers <= 0 {
		l.Timers = defaultTimers
	}
	return l
}

// Validate reports limits the host cannot honour: a JS stack that leaves
// less than 128 KiB of the 1 MiB wasm stack, a memory limit under 1 MiB or
// over 3 GiB. Zero fields are valid (they take the defaults).
func (l Limits) Validate() error {
	l = l.WithDefaults()
	if l.StackBytes > wasmStackBytes-128<<10 {
		return fmt.Errorf("host: stack limit %d bytes: must leave 128 KiB of the %d-byte wasm stack", l.StackBytes, wasmStackBytes)
	}
	if l.MemoryBytes > 3<<30 {
		return fmt.Errorf("host: memory limit %d bytes: at most 3 GiB", l.MemoryBytes)
	}
	if l.ArgumentDepth > 1000 {
		return fmt.Errorf("host: argument depth limit %d: at most 1000", l.ArgumentDepth)
	}
	if l.MemoryBytes < 1<<20 {
		return fmt.Errorf("host: memory limit %d bytes: at least 1 MiB", l.MemoryBytes)
	}
	return nil
}

// pageLimitBytes is the linear-memory ceiling for a QuickJS heap limit: the
// heap, plus the stack and static data, plus a quarter for allocator slack.
func pageLimitBytes(memory uint64) uint64 {
	b := memory + memory/4 + 4<<20
	const page = 1 << 16
	return (b + page - 1) / page * page
}
