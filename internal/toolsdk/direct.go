package toolsdk

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// The texts of the model's own calls that the executor cannot run, written
// for the model to fix its call, as a program's subcall errors are.

// runCode is the name of the tool that runs programs.
const runCode = "run_code"

// Mistake is the text of the model's own call c that failed with code in
// the executor's pipeline, when the model is to blame and can fix it: a
// direct call of a tool that is not for direct calls (reg knows it for
// agent and set, or not at all), or run_code with bad arguments. ok is
// false for any other failure.
func Mistake(reg *registry.Registry, c pipeline.RawCall, code string, agent registry.Scope, set *registry.ToolSet) (text string, ok bool) {
	switch {
	case code == pipeline.CodeOf(registry.ErrUnknownTool) && c.Name != runCode:
		t, ok := reg.Get(c.Name, agent, set)
		return NotDirect(c.Name, ok && t.Callers().Program(true)), true
	case code == pipeline.CodeOf(registry.ErrInvalidArguments) && c.Name == runCode:
		return BadRunArgs(c.Arguments), true
	}
	return "", false
}

// NotDirect is the failure of the model's direct call of name, which is
// not run_code and not a tool for direct calls: a tool programs may call
// (forPrograms) is named with how to call it; any other name is said not
// to exist, without saying which scope was searched.
func NotDirect(name string, forPrograms bool) string {
	if forPrograms {
		return name + " is callable only from programs: call tools." + name + "(...) inside " + runCode
	}
	return name + " is not a tool; call " + runCode + " with a program, which calls tools as tools.NAME(...)"
}

// BadRunArgs is the failure of run_code's arguments args: what run_code
// takes, what it was given, and what is wrong with it.
func BadRunArgs(args json.RawMessage) string {
	const takes = runCode + " takes {code: string}; it was given "
	var members map[string]json.RawMessage
	if err := json.Unmarshal(args, &members); err != nil || members == nil {
		return takes + jsonKind(args) + ": put the program in code, as a string"
	}
	keys := objectKeys(args)
	var problems []string
	if v, ok := members["code"]; !ok {
		problems = append(problems, "code is missing")
	} else if k := jsonKind(v); k != "a string" {
		problems = append(problems, "code must be a string, not "+k)
	}
	for _, k := range keys {
		if k != "code" {
			problems = append(problems, k+" is not a parameter")
		}
	}
	if len(problems) == 0 {
		problems = append(problems, "the arguments are not valid JSON")
	}
	return takes + "{" + strings.Join(keys, ", ") + "}: " + strings.Join(problems, "; ")
}

// objectKeys returns the keys of the JSON object doc in document order.
func objectKeys(doc json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}

// jsonKind names the kind of the JSON value v for a message.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) == 0:
		return "nothing"
	case !json.Valid(v):
		return "invalid JSON"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
