package recording_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/registry"
)

func sample() *recording.Recording {
	decls := "declare const tools: {};\n"
	return &recording.Recording{
		Version: recording.Version, Program: "return 1",
		Declarations: decls, DeclarationsSHA256: recording.DeclarationsDigest(decls),
		Calls: []recording.Call{{Seq: 1, Tool: "echo", Arguments: json.RawMessage(`{"a": 1}`), Done: true, OK: true, Value: json.RawMessage(`{"a":1}`), Received: true}},
		Kind:  host.KindOK, Content: []registry.Part{registry.TextPart("1")},
	}
}

func TestDecode(t *testing.T) {
	b, err := json.Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Program != "return 1" || len(rec.Calls) != 1 || string(rec.Calls[0].Arguments) != `{"a":1}` {
		t.Fatalf("round trip: %+v", rec)
	}
	for _, c := range []struct{ name, doc, want string }{
		{"not JSON", `{`, "unusable recording"},
		{"no version", `{}`, "no format version"},
		{"another version", strings.Replace(string(b), `"version":1`, `"version":7`, 1), "format version 7"},
		{"altered declarations", strings.Replace(string(b), `declare const tools`, `declare const tool`, 1), "altered"},
	} {
		_, err := recording.Decode([]byte(c.doc))
		if !errors.Is(err, recording.ErrUnusable) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrUnusable saying %q", c.name, err, c.want)
		}
	}
}

func ExampleDivergence_String() {
	d := &recording.Divergence{Call: 2, Reason: "the program's call differs from the recorded one",
		Expected: &recording.CallDesc{Tool: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
		Actual:   &recording.CallDesc{Tool: "get_weather", Arguments: json.RawMessage(`{"city":"Lyon"}`)}}
	fmt.Print(d)
	// Output:
	// call 2: the program's call differs from the recorded one
	//   recorded: tools.get_weather({"city":"Paris"})
	//   replayed: tools.get_weather({"city":"Lyon"})
}
