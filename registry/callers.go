package registry

// Callers says who may call a tool, as Anthropic's and OpenAI's
// allowed_callers do: the model directly ([CallersDirect]), programs
// through run_code ([CallersProgram]), or both
// (CallersDirect|CallersProgram).
type Callers uint8

const (
	// CallersDefault keeps each executor's own behaviour: programs call
	// the tools in PTC mode, the model in native mode.
	CallersDefault Callers = 0
	// CallersDirect: the model calls the tool itself.
	CallersDirect Callers = 1 << iota
	// CallersProgram: programs call the tool through the SDK.
	CallersProgram
)

// Direct reports whether the model may call the tool directly when the
// executor's own default is def (true for the native executor, false for
// the PTC one).
func (c Callers) Direct(def bool) bool {
	if c == CallersDefault {
		return def
	}
	return c&CallersDirect != 0
}

// Program reports whether programs may call the tool when the executor's
// own default is def (true for the PTC executor).
func (c Callers) Program(def bool) bool {
	if c == CallersDefault {
		return def
	}
	return c&CallersProgram != 0
}
