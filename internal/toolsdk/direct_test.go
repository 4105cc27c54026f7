package toolsdk

import (
	"encoding/json"
	"testing"
)

func TestBadRunArgs(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{"program": "return 1"}`, "run_code takes {code: string}; it was given {program}: code is missing; program is not a parameter"},
		{`{"code": 1}`, "run_code takes {code: string}; it was given {code}: code must be a string, not a number"},
		{`{"code": "x", "lang": "js"}`, "run_code takes {code: string}; it was given {code, lang}: lang is not a parameter"},
		{`"return 1"`, "run_code takes {code: string}; it was given a string: put the program in code, as a string"},
		{`[1]`, "run_code takes {code: string}; it was given an array: put the program in code, as a string"},
		{`{"code": `, "run_code takes {code: string}; it was given invalid JSON: put the program in code, as a string"},
		{``, "run_code takes {code: string}; it was given nothing: put the program in code, as a string"},
	} {
		if got := BadRunArgs(json.RawMessage(c.args)); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.args, got, c.want)
		}
	}
}
