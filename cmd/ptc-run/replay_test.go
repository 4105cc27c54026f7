package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ptchost/ptc/recording"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

const weatherFixture = "../../testdata/tools/weather.json"

// replayProgram fans out with Promise.all, waits on a timer, prints the
// clock and a random number, and catches a failing call.
const replayProgram = `const cities = ["Paris", "Oslo", "Lima"]
const ws = await Promise.all(cities.map(city => tools.get_weather({city})))
await new Promise(r => setTimeout(r, 25))
console.log(new Date().toISOString(), Math.random().toFixed(8), performance.now() >= 25)
let missing
try { await tools.get_weather({city: "Atlantis"}) } catch (e) { missing = e.code }
return {temps: ws.map(w => w.tempC), missing, at: Date.now() % 1000}
`

// cli runs ptc-run with args and returns its exit status, stdout and
// stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// writeFile writes content to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// recordProgram runs src with --record (and extra flags) and returns the
// recording's path and the run's stdout.
func recordProgram(t *testing.T, src string, extra ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	prog := writeFile(t, dir, "prog.js", src)
	rec := filepath.Join(dir, "rec.json")
	args := append([]string{"run", "--tools", weatherFixture, "--record", rec}, extra...)
	code, stdout, stderr := cli(t, "", append(args, prog)...)
	require.Equal(t, 0, code, stdout+stderr)
	return rec, stdout
}

// editRecording rewrites the recording at path with edit applied to its
// members and returns the new file's path. The members stay raw JSON:
// decoded into Go maps, the tools' schemas and the calls' values would
// come back with their members sorted, and the SDK generated from them,
// or the values the program receives, would differ.
func editRecording(t *testing.T, path string, edit func(m rawObject)) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m rawObject
	require.NoError(t, json.Unmarshal(b, &m))
	edit(m)
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return writeFile(t, t.TempDir(), "edited.json", string(out))
}

// rawObject is a JSON object with its members raw.
type rawObject map[string]json.RawMessage

func (o rawObject) set(key string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	o[key] = b
}

func (o rawObject) str(key string) string {
	var s string
	if err := json.Unmarshal(o[key], &s); err != nil {
		panic(err)
	}
	return s
}

func (o rawObject) calls() []rawObject {
	var cs []rawObject
	if err := json.Unmarshal(o["calls"], &cs); err != nil {
		panic(err)
	}
	return cs
}

func TestRecordReplay_roundTrip(t *testing.T) {
	skipUnbuilt(t)
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"live", nil},
		{"deterministic", []string{"--deterministic"}},
		{"seed", []string{"--seed", "42"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, stdout := recordProgram(t, replayProgram, c.flags...)
			require.Contains(t, stdout, `"temps": [21, -3, 18]`)
			require.Contains(t, stdout, `"missing": "TOOL_FAILED"`)
			if c.flags != nil {
				// The virtual clock: the fan-out's real duration (the
				// fixture's 50 ms and a little), then the 25 ms timer.
				require.Regexp(t, `^2000-01-01T00:00:00\.(0[7-9]|[1-9]\d)\dZ `, stdout)
			}

			b, err := os.ReadFile(rec)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(string(b), "{\n  \"version\": 1,\n  \"program\": "), "indented by two spaces")
			require.True(t, strings.HasSuffix(string(b), "}\n"), "a trailing newline")
			require.Contains(t, string(b), "city => tools.get_weather", "'>' is not escaped")
			validateAgainstSchema(t, b)
			r, err := recording.Decode(b)
			require.NoError(t, err)
			require.Len(t, r.Calls, 4)
			require.Equal(t, c.flags != nil, r.Virtual)

			// Replayed without any tool mounted: the same bytes.
			code, out, errOut := cli(t, "", "replay", rec)
			require.Equal(t, 0, code, errOut)
			require.Equal(t, stdout, out)
			require.Empty(t, errOut)

			code, out, errOut = cli(t, "", "replay", "--json", rec)
			require.Equal(t, 0, code, errOut)
			var got struct {
				Content    []registryPart   `json:"content"`
				Subcalls   []map[string]any `json:"subcalls"`
				Divergence *json.RawMessage `json:"divergence"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			require.Contains(t, out, `"divergence":null`)
			require.Len(t, got.Subcalls, 4)
			require.Equal(t, "TOOL_FAILED", got.Subcalls[3]["code"])
			require.Equal(t, strings.TrimSuffix(stdout, "\n"), got.Content[0].Text)
		})
	}
}

// validateAgainstSchema validates a recording file's bytes against
// testdata/recording.schema.json.
func validateAgainstSchema(t *testing.T, b []byte) {
	t.Helper()
	const path = "../../testdata/recording.schema.json"
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource(path, doc))
	sch, err := c.Compile(path)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	require.NoError(t, sch.Validate(inst))
}

type registryPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// The seed decides the random numbers: two deterministic runs with one
// seed print the same, another seed prints otherwise.
func TestRecord_seed(t *testing.T) {
	skipUnbuilt(t)
	src := `console.log(new Date().toISOString(), Math.random(), crypto.randomUUID())`
	_, a := recordProgram(t, src, "--seed", "7")
	_, b := recordProgram(t, src, "--seed", "7", "--deterministic")
	_, c := recordProgram(t, src, "--seed", "8")
	_, d := recordProgram(t, src, "--deterministic")
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
	require.NotEqual(t, a, d)
	require.True(t, strings.HasPrefix(d, "2000-01-01T00:00:00.000Z "), d)

	code, _, stderr := cli(t, "", "run", "--seed", "-1", "-")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "-seed")
}

// A failing program is recorded too, run's exit status unchanged, and
// replays to a match (exit 0: the replay did what was recorded).
func TestRecord_failingProgram(t *testing.T) {
	skipUnbuilt(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	code, stdout, stderr := cli(t, `const w = await tools.get_weather({city: "Paris"}); console.log(w.sky); throw new Error("boom")`,
		"run", "--tools", weatherFixture, "--record", rec, "-")
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stdout, "Error: code run failed (exception): Error: boom")
	b, err := os.ReadFile(rec)
	require.NoError(t, err)
	validateAgainstSchema(t, b)
	code, out, errOut := cli(t, "", "replay", rec)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, stdout, out)

	// A recording file that cannot be written is an error (exit 2).
	code, _, stderr = cli(t, "return 1", "run", "--record", filepath.Join(dir, "no", "such", "dir.json"), "-")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--record")
}

func TestReplay_tampered(t *testing.T) {
	skipUnbuilt(t)
	rec, _ := recordProgram(t, replayProgram)
	for _, c := range []struct {
		name   string
		edit   func(m rawObject)
		code   int
		stderr []string
	}{
		{"changed argument", func(m rawObject) {
			cs := m.calls()
			cs[1].set("arguments", map[string]any{"city": "Rome"})
			m.set("calls", cs)
		}, 1, []string{
			"replay: diverged\ncall 2: the program's call differs from the recorded one\n",
			`  recorded: tools.get_weather({"city":"Rome"})`,
			`  replayed: tools.get_weather({"city":"Oslo"})`,
		}},
		{"changed tool", func(m rawObject) {
			cs := m.calls()
			cs[0].set("tool", "radar_image")
			m.set("calls", cs)
		}, 1, []string{"call 1: the program's call differs from the recorded one", `recorded: tools.radar_image({"city":"Paris"})`}},
		{"call removed", func(m rawObject) {
			m.set("calls", m.calls()[:3])
		}, 1, []string{
			"call 4: the program made a call the recording does not have",
			"  recorded: (no such call)",
			`  replayed: tools.get_weather({"city":"Atlantis"})`,
		}},
		{"call appended", func(m rawObject) {
			cs := m.calls()
			extra := rawObject{}
			for k, v := range cs[0] {
				extra[k] = v
			}
			extra.set("seq", 5)
			m.set("calls", append(cs, extra))
		}, 1, []string{
			"call 5: the recording has a call the program never made",
			`  recorded: tools.get_weather({"city":"Paris"})`,
			"  replayed: (the program never made it)",
		}},
		{"changed program, other output", func(m rawObject) {
			m.set("program", strings.Replace(m.str("program"), "toFixed(8)", "toFixed(3)", 1))
		}, 1, []string{"replay: diverged\nthe content differs from the recorded content\n", "\n- 20", "\n+ 20"}},
		{"changed program, same behaviour", func(m rawObject) {
			m.set("program", m.str("program")+"// a comment changes nothing\n")
		}, 0, nil},
		{"changed declarations", func(m rawObject) {
			m.set("declarations", strings.Replace(m.str("declarations"), "City name", "Town name", 1))
		}, 2, []string{"unusable recording: its declarations do not match their sha256"}},
		{"future version", func(m rawObject) {
			m.set("version", 99)
		}, 2, []string{"format version 99"}},
		{"no version", func(m rawObject) {
			delete(m, "version")
		}, 2, []string{"no format version"}},
		{"calls out of order", func(m rawObject) {
			cs := m.calls()
			cs[0], cs[1] = cs[1], cs[0]
			m.set("calls", cs)
		}, 2, []string{"call 1 has seq 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := editRecording(t, rec, c.edit)
			code, _, stderr := cli(t, "", "replay", path)
			require.Equal(t, c.code, code, stderr)
			for _, s := range c.stderr {
				require.Contains(t, stderr, s)
			}
			if c.code == 2 {
				require.True(t, strings.HasPrefix(stderr, "ptc-run: "+path+": ptc: unusable recording: "), stderr)
				require.NotContains(t, stderr, "usage:")
			}
			if c.code == 0 {
				require.Empty(t, stderr)
			}
		})
	}
}

func TestReplay_unreadable(t *testing.T) {
	skipUnbuilt(t)
	dir := t.TempDir()
	for name, c := range map[string]struct {
		content string
		want    string
	}{
		"not JSON":  {"this is not JSON", "unusable recording: invalid character"},
		"empty":     {"", "unusable recording"},
		"an array":  {"[1, 2]", "unusable recording"},
		"bad seed":  {`{"version": 1, "seed": "xyz"}`, "seed is not 32 bytes in hex"},
		"truncated": {`{"version": 1, "program": "return 1"`, "unusable recording"},
	} {
		path := writeFile(t, dir, strings.ReplaceAll(name, " ", "_")+".json", c.content)
		code, stdout, stderr := cli(t, "", "replay", path)
		require.Equal(t, 2, code, name)
		require.Contains(t, stderr, c.want, name)
		require.Empty(t, stdout, name)
	}
	code, _, stderr := cli(t, "", "replay", filepath.Join(dir, "missing.json"))
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "read recording: open ")

	for _, args := range [][]string{
		{"replay"},
		{"replay", "a.json", "b.json"},
		{"replay", "--nope", "a.json"},
		{"replay", "--live", "", "a.json"},
		{"replay", "--program", "-", "-"},
	} {
		code, stdout, stderr := cli(t, "", args...)
		require.Equal(t, 2, code, "%q", args)
		require.Contains(t, stderr, "usage:", "%q", args)
		require.Contains(t, stderr, "Run 'ptc-run replay -h' for its flags.", "%q", args)
		require.Empty(t, stdout)
	}
}

// --program replays an edited program against the recorded calls: where
// its calls leave the recorded ones is the divergence.
func TestReplay_program(t *testing.T) {
	skipUnbuilt(t)
	rec, stdout := recordProgram(t, replayProgram)
	dir := t.TempDir()

	other := writeFile(t, dir, "new.js", strings.Replace(replayProgram, `"Oslo"`, `"Bergen"`, 1))
	code, _, stderr := cli(t, "", "replay", "--program", other, rec)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "replay: diverged\ncall 2: the program's call differs from the recorded one\n"+
		`  recorded: tools.get_weather({"city":"Oslo"})`+"\n"+
		`  replayed: tools.get_weather({"city":"Bergen"})`+"\n")

	code, out, stderr := cli(t, "", "replay", "--json", "--program", other, rec)
	require.Equal(t, 1, code, stderr)
	var got struct {
		Divergence struct {
			Call     int             `json:"call"`
			Reason   string          `json:"reason"`
			Expected json.RawMessage `json:"expected"`
			Actual   json.RawMessage `json:"actual"`
			Diff     string          `json:"diff"`
		} `json:"divergence"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Equal(t, 2, got.Divergence.Call)
	require.Equal(t, "the program's call differs from the recorded one", got.Divergence.Reason)
	require.JSONEq(t, `{"tool":"get_weather","arguments":{"city":"Oslo"}}`, string(got.Divergence.Expected))
	require.JSONEq(t, `{"tool":"get_weather","arguments":{"city":"Bergen"}}`, string(got.Divergence.Actual))

	// A program that does the same matches; a TypeScript one recorded
	// replays with an edited TypeScript program from stdin.
	same := writeFile(t, dir, "same.js", "const unused = 3;\n"+replayProgram)
	code, out, stderr = cli(t, "", "replay", "--program", same, rec)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, stdout, out)
	ts := "const n: number = 3;\n" + replayProgram
	tsRec, tsOut := recordProgram(t, ts)
	code, out, stderr = cli(t, ts+"// edited\n", "replay", tsRec, "--program", "-")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, tsOut, out)

	// One call fewer.
	fewer := writeFile(t, dir, "fewer.js", `const cities = ["Paris", "Oslo", "Lima"]
const ws = await Promise.all(cities.map(city => tools.get_weather({city})))
return ws.length`)
	code, _, stderr = cli(t, "", "replay", "--program", fewer, rec)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "call 4: the recording has a call the program never made\n"+
		`  recorded: tools.get_weather({"city":"Atlantis"})`)

	code, _, stderr = cli(t, "", "replay", "--program", filepath.Join(dir, "missing.js"), rec)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "read program")
}

// --live TOOL calls the tool for real: with tools whose answers changed
// since the recording, the replay then diverges in its content; answered
// from the recording it does not.
func TestReplay_live(t *testing.T) {
	skipUnbuilt(t)
	rec, stdout := recordProgram(t, replayProgram)
	changed := filepath.Join("testdata", "weather_changed.json")

	code, out, stderr := cli(t, "", "replay", "--tools", changed, rec)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, stdout, out, "answered from the recording")

	// Without the tool to call, --live says where to give it.
	code, _, stderr = cli(t, "", "replay", "--live", "get_weather", rec)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "--live get_weather: no tool of that name is registered")
	require.Contains(t, stderr, "--tools FILE, --mcp NAME=CMD|URL or --mcp-config FILE")

	code, out, stderr = cli(t, "", "replay", "--tools", changed, "--live", "get_weather", rec)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, out, `"temps": [30, 5, 18]`, "called live")
	require.Contains(t, stderr, "replay: diverged\nthe content differs from the recorded content\n")
	require.Contains(t, stderr, "\n- {\"temps\": [21, -3, 18], ")
	require.Contains(t, stderr, "\n+ {\"temps\": [30, 5, 18], ")

	code, out, stderr = cli(t, "", "replay", "--json", "--tools", changed, "--live", "get_weather", rec)
	require.Equal(t, 1, code, stderr)
	var got struct {
		Subcalls   []map[string]any `json:"subcalls"`
		Divergence map[string]any   `json:"divergence"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.EqualValues(t, 0, got.Divergence["call"])
	require.Nil(t, got.Divergence["expected"])
	require.Nil(t, got.Divergence["actual"])
	require.Contains(t, got.Divergence["diff"], "+ {\"temps\": [30, 5, 18], ")
	require.Len(t, got.Subcalls, 4)

	// The same tools, called live, give the recorded answers: a match.
	code, out, stderr = cli(t, "", "replay", "--tools", weatherFixture, "--live", "get_weather", rec)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, stdout, out)

}

// TestHelp_replay checks replay's help against testdata/help/replay.txt
// (go test -run TestHelp -update rewrites it) and that it documents every
// flag replay defines.
func TestHelp_replay(t *testing.T) {
	path := filepath.Join("testdata", "help", "replay.txt")
	for _, args := range [][]string{{"replay", "-h"}, {"replay", "--help"}, {"help", "replay"}} {
		code, stdout, stderr := cli(t, "", args...)
		require.Equal(t, 0, code, stderr)
		require.Empty(t, stderr)
		if *update {
			require.NoError(t, os.WriteFile(path, []byte(stdout), 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "go test -run TestHelp -update writes it")
		require.Equal(t, string(want), stdout, "help changed: if on purpose, go test -run TestHelp -update")
		for i, line := range strings.Split(stdout, "\n") {
			require.LessOrEqual(t, len([]rune(line)), 100, "line %d too long: %q", i+1, line)
		}
	}

	var out bytes.Buffer
	_, err := cmdReplay(context.Background(), []string{"-h"}, nil, &out, &out)
	var he *helpError
	require.True(t, errors.As(err, &he))
	require.Equal(t, "replay", he.cmd)
	require.Empty(t, out.String())
	var names []string
	for _, f := range he.flags {
		names = append(names, f.Name)
		doc := regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(f.Name) + `\b(.*\n {10,}.*)*`).FindString(helpTexts["replay"])
		require.NotEmpty(t, doc, "replay -h does not document --%s", f.Name)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" {
			require.Contains(t, strings.Join(strings.Fields(doc), " "), "(default "+f.DefValue+")", "replay -h: --%s", f.Name)
		}
	}
	require.ElementsMatch(t, []string{"json", "program", "live", "tools", "mcp", "mcp-config", "store", "run-id"}, names)
	require.Contains(t, helpTexts[""], "ptc-run replay [--json] [--program NEW.js] [--live TOOL]...")
	require.Contains(t, helpTexts[""], "\n  replay       run a recorded program again")
}

// A run whose content holds an image records its bytes once, by sha256,
// and replays to the same output.
func TestRecordReplay_image(t *testing.T) {
	skipUnbuilt(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	code, stdout, stderr := cli(t, "", "run", "--tools", weatherFixture, "--record", rec, "../../testdata/programs/tool_image.js")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "[image image/png ")
	b, err := os.ReadFile(rec)
	require.NoError(t, err)
	validateAgainstSchema(t, b)
	var w struct {
		Images map[string]json.RawMessage `json:"images"`
	}
	require.NoError(t, json.Unmarshal(b, &w))
	require.Len(t, w.Images, 1)
	code, out, stderr := cli(t, "", "replay", rec)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, stdout, out)
}
