package host

import "github.com/tetratelabs/wazero/api"

// guest is an instance's module with the exports a run calls. wazero makes
// a new call engine, whose stack then grows, each time a function is
// looked up; an instance serves one run at a time, so it keeps the ones it
// looked up for the runs after.
type guest struct {
	mod api.Module
	mem api.Memory
	fns map[string]api.Function

	// low is the deepest the guest's stack reached since it was last set
	// back to top, the stack's start (stackLowExport); nil when the module
	// does not follow its stack.
	low api.MutableGlobal
	top uint64
}

// stackLowExport names the global that instrument adds to follow the
// guest's stack (fuel.Options.StackLow).
const stackLowExport = "ptc_stack_low"

func newGuest(mod api.Module) *guest {
	g := &guest{mod: mod, mem: mod.ExportedMemory("memory"), fns: make(map[string]api.Function, 4)}
	if low, ok := mod.ExportedGlobal(stackLowExport).(api.MutableGlobal); ok {
		g.low, g.top = low, low.Get() // no call has run yet
	}
	return g
}

// fn returns the exported function name, or nil when the guest lacks it.
func (g *guest) fn(name string) api.Function {
	f, ok := g.fns[name]
	if !ok {
		f = g.mod.ExportedFunction(name)
		g.fns[name] = f
	}
	return f
}
