//go:build ignore

// Command bundle turns entry.js and the FormatJS polyfills installed in
// node_modules (by build.sh: npm ci) into the guest's Intl script.
//
//	go run guest/quickjs/intl/bundle.go guest/quickjs/intl/pack.go guest/quickjs/intl/calendars.go guest/quickjs/intl/ids.go OUT
//
// The script's completion value is a function install(native): evaluating
// the script defines nothing; calling the function installs Intl and the
// toLocale* methods on globalThis. native.collate(a, b, locale, options)
// must return a negative, zero or positive number (host/collate.go).
//
// Output is deterministic: the same sources give the same bytes.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// param is the name the bundle gives install's argument; entry.js refers
// to it as a free variable.
const param = "native"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run guest/quickjs/intl/bundle.go guest/quickjs/intl/pack.go guest/quickjs/intl/calendars.go guest/quickjs/intl/ids.go OUT")
		os.Exit(2)
	}
	dir := sourceDir()
	data, err := collect(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	script, err := bundle(dir, data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	pack, err := data.pack()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	if bytes.IndexByte(script, 0) >= 0 {
		fmt.Fprintln(os.Stderr, "bundle: the script holds a NUL byte, which separates it from the locale data")
		os.Exit(1)
	}
	out := append(append(script, 0), pack...)
	if err := os.WriteFile(os.Args[1], out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
}

// sourceDir is the directory holding entry.js and node_modules: this file's
// own directory, or guest/quickjs/intl under the working directory when
// the binary was built without file paths.
func sourceDir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), "entry.js")); err == nil {
			return filepath.Dir(file)
		}
	}
	dir, _ := filepath.Abs(filepath.Join("guest", "quickjs", "intl"))
	return dir
}

// lazyData loads FormatJS's locale and time-zone data files as modules
// whose default export is a function returning the data the file would
// have passed to __addLocaleData or __addTZData, so that entry.js adds
// only what a program uses. Data that is JSON (all of it but the plural
// rules, which hold functions) stays a string until then: one string
// literal is much cheaper for the guest to parse than the object literal,
// and JSON.parse cheaper to run than the literal's code.
var lazyData = api.Plugin{
	Name: "lazy-data",
	Setup: func(b api.PluginBuild) {
		b.OnLoad(api.OnLoadOptions{Filter: `[\\/](locale-data[\\/][^\\/]+|add-all-tz)\.js$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			js, err := dataModule(string(src), strings.HasSuffix(filepath.ToSlash(a.Path), "/add-all-tz.js"))
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("%s: %w", a.Path, err)
			}
			return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS}, nil
		})
		// entry.js parses date formats on demand with the polyfill's own
		// functions (see lazyFormats there): the polyfill is loaded as it
		// is, with an export of those functions appended.
		// It also writes a pattern's stand-alone weekday (c) with the
		// stand-alone names (see standAloneWeekday).
		b.OnLoad(api.OnLoadOptions{Filter: `[\\/]intl-datetimeformat[\\/]polyfill-force\.js$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			for _, fn := range dtfInternals {
				if !strings.Contains(string(src), "\nfunction "+fn+"(") {
					return api.OnLoadResult{}, fmt.Errorf("%s: no function %s: has the polyfill changed?", a.Path, fn)
				}
			}
			js, err := standAloneWeekday(string(src))
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("%s: %w", a.Path, err)
			}
			js += "\nexport { " + strings.Join(dtfInternals, ", ") + " };\n"
			return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS, ResolveDir: filepath.Dir(a.Path)}, nil
		})
		// NumberFormat's currency names: the pattern joining the number
		// to the name is chosen by the number's plural category, as ICU
		// does (pack.go's refreshNumbers writes unitPatterns), where
		// FormatJS takes the other category's for every number.
		b.OnLoad(api.OnLoadOptions{Filter: `[\\/]intl-numberformat[\\/]polyfill-force\.js$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			js := string(src)
			if strings.Count(js, currencyUnitPattern) != 1 {
				return api.OnLoadResult{}, fmt.Errorf("%s: the currency name's unit pattern is not read once as expected: has the polyfill changed?", a.Path)
			}
			js = strings.Replace(js, currencyUnitPattern, pluralUnitPattern, 1)
			return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS, ResolveDir: filepath.Dir(a.Path)}, nil
		})
	},
}

// currencyUnitPattern is where the NumberFormat polyfill reads the pattern
// joining a number to a currency's name; pluralUnitPattern replaces it.
const (
	currencyUnitPattern = `const unitPattern = (data.numbers.currency[numberingSystem] || data.numbers.currency[defaultNumberingSystem]).unitPattern;`
	pluralUnitPattern   = `const currencyFormat = data.numbers.currency[numberingSystem] || data.numbers.currency[defaultNumberingSystem];
			const unitPattern = currencyFormat.unitPatterns ? selectPlural(pl, numberResult.roundedNumber.times(getPowerOf10(exponent)).toNumber(), currencyFormat.unitPatterns) : currencyFormat.unitPattern;`
)

// standAloneWeekday makes the DateTimeFormat polyfill tell a pattern's
// stand-alone weekday (c: Finnish "sunnuntai" alone, "sunnuntaina" in a
// date) from its format weekday (E), as ICU does: the pattern parser
// writes c as {weekdayStandalone}, formatted with the locale data's
// weekdayStandalone names (pack.go's refreshDates adds them where CLDR's
// differ from the format names) and otherwise counted as the weekday.
func standAloneWeekday(js string) (string, error) {
	for _, r := range []struct{ old, new string }{
		// The parser's c (the last weekday case, before a's).
		{`return "{weekday}";
		case "a":`, `return "{weekdayStandalone}";
		case "a":`},
		// Whether a month is stand-alone.
		{`part.type === "weekday" || part.type === "era"`, `part.type === "weekday" || part.type === "weekdayStandalone" || part.type === "era"`},
		// The range's largest differing field.
		{`const field = part.type === "weekday" ? "day"`, `const field = part.type === "weekday" || part.type === "weekdayStandalone" ? "day"`},
		// Formatting.
		{`} else if (DATE_TIME_PROPS.indexOf(p) > -1) {`, `} else if (p === "weekdayStandalone") result.push({
			type: "weekday",
			value: (dataLocaleData.weekdayStandalone || dataLocaleData.weekday)[internalSlots.weekday][tm.weekday]
		});
		else if (DATE_TIME_PROPS.indexOf(p) > -1) {`},
	} {
		if strings.Count(js, r.old) != 1 {
			return "", fmt.Errorf("stand-alone weekday: %q is not there once: has the polyfill changed?", r.old)
		}
		js = strings.Replace(js, r.old, r.new, 1)
	}
	return js, nil
}

// dtfInternals are the functions of the DateTimeFormat polyfill entry.js
// imports.
var dtfInternals = []string{"parseDateTimeSkeleton", "findIntervalFormat", "replaceDateTimeTokens"}

var (
	// The object literal a locale-data file pushes onto FormatJS's queue
	// when the polyfill is not loaded yet (the same it would add).
	pushCall = regexp.MustCompile(`(?s)\.push\((\{.*\})\)\s*;?\s*\}\s*$`)
	// The object literal the zone data file passes to __addTZData.
	addCall = regexp.MustCompile(`(?s)\.__addTZData\((\{.*\})\)\s*;?\s*\}\s*$`)
	// A JSON string parsed and passed to a function (the date formats).
	parsedCall = regexp.MustCompile(`(?s)\}\)\(JSON\.parse\(("(?:[^"\\]|\\.)*")\)\);?\s*$`)
)

// dataModule rewrites one data file (see lazyData); zones says it is the
// time-zone data.
func dataModule(src string, zones bool) (string, error) {
	var arg string
	if m := parsedCall.FindStringSubmatch(src); m != nil {
		if err := json.Unmarshal([]byte(m[1]), &arg); err != nil {
			return "", err
		}
	} else if m := pushCall.FindStringSubmatch(src); m != nil {
		arg = m[1]
	} else if m := addCall.FindStringSubmatch(src); m != nil {
		arg = m[1]
	} else {
		return "", fmt.Errorf("no locale or zone data found: has its format changed?")
	}
	if zones {
		var err error
		if arg, err = thinZones(arg); err != nil {
			return "", err
		}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(arg)); err != nil {
		// Not JSON (plural rules hold functions): keep the literal.
		return "export default () => (" + arg + ");\n", nil
	}
	var lit bytes.Buffer
	enc := json.NewEncoder(&lit)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(compact.String()); err != nil {
		return "", err
	}
	return "export default () => JSON.parse(" + strings.TrimSpace(lit.String()) + ");\n", nil
}

func bundle(dir string, data *localeData) ([]byte, error) {
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return nil, fmt.Errorf("%s/node_modules is missing: run guest/quickjs/intl/build.sh (npm ci)", dir)
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir: dir,
		EntryPoints:   []string{"entry.js"},
		Bundle:        true,
		Write:         false,
		// ESM output of an entry without exports is plain statements,
		// which become install's body below.
		Format:            api.FormatESModule,
		Platform:          api.PlatformNeutral,
		Target:            api.ES2022,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelWarning,
		Plugins:           []api.Plugin{lazyData, data.indexPlugin()},
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild:\n%s", strings.Join(msgs, ""))
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	body := strings.TrimSpace(string(res.OutputFiles[0].Contents))
	if strings.Contains(body, "import(") || strings.HasPrefix(body, "import") {
		return nil, fmt.Errorf("the bundle still imports a module")
	}
	// A parenthesised function expression: the script's completion value.
	var b strings.Builder
	b.WriteString("(function install(" + param + "){\"use strict\";")
	b.WriteString(body)
	b.WriteString("\n})\n")
	return []byte(b.String()), nil
}

// thinZones drops the redundant half of FormatJS's zone data. Each zone is
// "Name|ts,abbr,offset,dst|…", with every period listed twice, at its
// start and one second before the next starts; the polyfill takes, for an
// instant, the last entry before it. An entry whose abbreviation, offset
// and DST flag repeat the previous one kept changes no such answer, so it
// goes (the first and last entries stay). That halves the data the guest
// parses.
func thinZones(arg string) (string, error) {
	var d map[string]json.RawMessage
	if err := json.Unmarshal([]byte(arg), &d); err != nil {
		return "", fmt.Errorf("zone data: %w", err)
	}
	var zones []string
	if err := json.Unmarshal(d["zones"], &zones); err != nil {
		return "", fmt.Errorf("zone data: %w", err)
	}
	for i, z := range zones {
		parts := strings.Split(z, "|")
		if len(parts) < 4 {
			continue
		}
		kept := []string{parts[0], parts[1]}
		last := func(e string) string { _, rest, _ := strings.Cut(e, ","); return rest }
		for j := 2; j < len(parts); j++ {
			if j < len(parts)-1 && last(parts[j]) == last(kept[len(kept)-1]) {
				continue
			}
			kept = append(kept, parts[j])
		}
		zones[i] = strings.Join(kept, "|")
	}
	b, err := json.Marshal(zones)
	if err != nil {
		return "", err
	}
	d["zones"] = b
	out, err := json.Marshal(d)
	return string(out), err
}
