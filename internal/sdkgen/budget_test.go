package sdkgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// detail is a paragraph only a full declaration carries; it makes full
// declarations outweigh the fixed parts of fitted ones.
const detail = "\n\nDetails that only the full declaration carries. "

// budgetTools are two tools whose fitted declarations are short enough to
// read whole; the first one's full declaration is the larger.
func budgetTools() []Tool {
	return []Tool{{
		Name:        "get_weather",
		Description: "Current weather for a city. Uses the national service." + strings.Repeat(detail, 30),
		Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`),
		Output:      json.RawMessage(`{"type":"object","properties":{"tempC":{"type":"number"}},"required":["tempC"]}`),
	}, {
		Name:        "send-mail",
		Description: "Sends a mail to one recipient through the configured relay,\nwith the body as plain text. No attachments." + strings.Repeat(detail, 20),
		Parameters:  json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}},"required":["to"]}`),
	}}
}

const (
	weatherShort = "  get_weather: Tool; // Current weather for a city.\n"
	mailShort    = "  send_mail: Tool; // Sends a mail to one recipient through the configured relay, with the body as plain text.\n"
)

// fullTS is the TypeScript of declarations when all are in full.
func fullTS(decls ...string) string {
	return "declare const tools: {\n" + strings.Join(decls, "") + "};\n" + toolErrorDecl
}

// fitted is the TypeScript of declarations when some are in short.
func fitted(decls ...string) string {
	return "declare const tools: {\n" + strings.Join(decls, "") + "};\n" + shortType + toolErrorDecl
}

func TestTypeScriptWithin(t *testing.T) {
	tools := budgetTools()
	deferred := budgetTools()
	deferred[1].DeferLoading = true
	small := []Tool{{Name: "ping", Description: "Pings."}}
	full := TypeScript(tools)
	decls := Declarations(tools)
	weatherFull, mailFull := decls[0], decls[1]
	if !strings.HasSuffix(mailFull, "  send_mail(args: { to: string; body?: string }): Promise<unknown>;\n") {
		t.Fatalf("unexpected declaration:\n%s", mailFull)
	}
	shortFixed := len(fitted(searchDecl, shortHead))

	tests := []struct {
		name     string
		tools    []Tool
		maxBytes int
		want     string
	}{
		{"no limit", tools, -1, full},
		{"exactly fits", tools, len(full), full},
		{"large budget", tools, 1 << 20, full},
		{"one byte over: the first that fits stays full", tools, len(full) - 1,
			fitted(weatherFull, searchDecl, shortHead, mailShort)},
		{"a later tool that fits stays full", tools, shortFixed + len(weatherShort) + len(mailFull),
			fitted(mailFull, searchDecl, shortHead, weatherShort)},
		{"short lines only", tools, shortFixed + len(weatherShort) + len(mailShort),
			fitted(searchDecl, shortHead, weatherShort, mailShort)},
		{"deferred, no limit", deferred, -1,
			fitted(weatherFull, searchDecl, shortHead, mailShort)},
		{"deferred, under budget", deferred, len(full) * 2,
			fitted(weatherFull, searchDecl, shortHead, mailShort)},
		{"some not listed", tools, shortFixed + len(weatherShort) + len(mailShort) - 1,
			fitted(searchDecl, shortHead, weatherShort, omittedLine(1))},
		{"budget below the fixed parts, full is shorter", small, 0, TypeScript(small)},
		{"none listed", tools, 0,
			fullTS(searchDecl, omittedLine(2))},
		{"no tools", nil, 0, TypeScript(nil)},
		{"no tools, no limit", nil, -1, TypeScript(nil)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TypeScriptWithin(tc.tools, tc.maxBytes)
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if again := TypeScriptWithin(tc.tools, tc.maxBytes); again != got {
				t.Fatal("not deterministic")
			}
			// Only the fixed parts may exceed the budget.
			floor := len(fitted(searchDecl, shortHead, omittedLine(len(tc.tools))))
			if tc.maxBytes >= 0 && len(got) > max(tc.maxBytes, floor) {
				t.Fatalf("%d bytes, over the budget of %d", len(got), tc.maxBytes)
			}
		})
	}
}

var omittedRe = regexp.MustCompile(`\n  // (\d+) more tools? (?:are|is) not listed`)

// TestTypeScriptWithin_fits sweeps budgets over a realistic tool set: the
// result stays within the budget, every tool is declared exactly once
// (in full, in short, or counted), and a larger budget never declares
// fewer tools in full.
func TestTypeScriptWithin_fits(t *testing.T) {
	tools := realisticTools(300)
	names := MethodNames(tools)
	full := TypeScript(tools)
	floor := len(fitted(searchDecl, shortHead, omittedLine(len(tools))))
	prevFull := -1
	for budget := floor; budget <= len(full)+1000; budget += (len(full) - floor) / 50 {
		got := TypeScriptWithin(tools, budget)
		if len(got) > budget {
			t.Fatalf("budget %d: %d bytes", budget, len(got))
		}
		nFull, nShort := 0, 0
		for _, n := range names {
			switch {
			case strings.Contains(got, "\n  "+n+"(args: "), strings.Contains(got, "\n  "+n+"(args?: "):
				nFull++
			case strings.Contains(got, "\n  "+n+": Tool;"):
				nShort++
			}
		}
		omitted := 0
		if m := omittedRe.FindStringSubmatch(got); m != nil {
			omitted, _ = strconv.Atoi(m[1])
		}
		if nFull+nShort+omitted != len(tools) {
			t.Fatalf("budget %d: %d full + %d short + %d omitted != %d tools", budget, nFull, nShort, omitted, len(tools))
		}
		if nFull < prevFull {
			t.Fatalf("budget %d: %d tools in full, fewer than %d with a smaller budget", budget, nFull, prevFull)
		}
		prevFull = nFull
	}
}

// TestTypeScriptWithin_300tools reports the size of the declarations of
// 300 realistic tools (ten MCP-like servers of thirty tools each), in full
// and fitted to 32 KiB (run with -v).
func TestTypeScriptWithin_300tools(t *testing.T) {
	tools := realisticTools(300)
	full := TypeScript(tools)
	fittedTS := TypeScriptWithin(tools, 32<<10)
	if len(fittedTS) > 32<<10 {
		t.Fatalf("fitted: %d bytes", len(fittedTS))
	}
	nFull := strings.Count(fittedTS, "(args: ") + strings.Count(fittedTS, "(args?: ")
	allShort := len(fitted(searchDecl, shortHead))
	for i, t := range tools {
		allShort += len(shortDecl(MethodNames(tools)[i], t))
	}
	t.Logf("300 tools: full %d bytes; fitted to 32 KiB %d bytes (%d in full, %d in short); all in short %d bytes",
		len(full), len(fittedTS), nFull, len(tools)-nFull, allShort)
}

// BenchmarkTypeScriptWithin generates the fitted declarations of 300
// realistic tools and reports their size beside the full declarations'.
func BenchmarkTypeScriptWithin(b *testing.B) {
	tools := realisticTools(300)
	for _, budget := range []int{-1, 32 << 10, 8 << 10} {
		b.Run(fmt.Sprintf("300tools/budget=%d", budget), func(b *testing.B) {
			var out string
			for b.Loop() {
				out = TypeScriptWithin(tools, budget)
			}
			b.ReportMetric(float64(len(out)), "bytes")
			b.ReportMetric(float64(len(TypeScript(tools))), "full_bytes")
		})
	}
}

func TestFirstSentence(t *testing.T) {
	tests := []struct {
		name, desc string
		max        int
		want       string
	}{
		{"empty", "", 120, ""},
		{"blank", " \n\t ", 120, ""},
		{"one sentence", "Current weather for a city.", 120, "Current weather for a city."},
		{"no period", "Current weather", 120, "Current weather"},
		{"two sentences", "Lists issues. Paginated.", 120, "Lists issues."},
		{"question and bang", "Is it up? Pings it.", 120, "Is it up?"},
		{"abbreviation", "Finds files, e.g. logs. More.", 120, "Finds files, e.g. logs."},
		{"decimal", "Rounds to 1.5 steps. More.", 120, "Rounds to 1.5 steps."},
		{"lines joined", "Sends a\nmail\r\nnow. Then", 120, "Sends a mail now."},
		{"js line terminators", "Sends\u2028a\u2029mail", 120, "Sends a mail"},
		{"paragraph ends it", "Search issues\n\nArgs: query", 120, "Search issues"},
		{"leading blank lines", "\n\n  Search issues\n \nArgs", 120, "Search issues"},
		{"cut at a word", "one two three four", 13, "one two…"},
		{"cut exactly fits", "one two three", 13, "one two three"},
		{"long word", "abcdefghijklmnop", 10, "abcdefg…"},
		{"long word at a character", "日本語日本語", 10, "日本…"},
		{"comment close", "Handles */ fine.", 120, "Handles */ fine."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FirstSentence(tc.desc, tc.max)
			if got != tc.want {
				t.Fatalf("FirstSentence(%q, %d) = %q, want %q", tc.desc, tc.max, got, tc.want)
			}
			if len(got) > tc.max {
				t.Fatalf("%d bytes, over %d", len(got), tc.max)
			}
		})
	}
}

// realisticTools returns n tools shaped like those MCP servers bring
// (fixed seed): server-prefixed names, descriptions of one to three
// sentences, three to eight documented parameters with enums, arrays,
// defaults and a nested object, and an output schema on some.
func realisticTools(n int) []Tool {
	servers := []string{"github", "slack", "jira", "postgres", "filesystem", "calendar", "drive", "linear", "notion", "sentry"}
	verbs := []string{"list", "get", "create", "update", "delete", "search", "archive", "assign", "comment_on", "export"}
	nouns := []string{"issues", "pull_requests", "channels", "messages", "projects", "files", "events", "documents", "users", "alerts", "comments", "labels"}
	seconds := []string{
		"Results are paginated; pass the cursor from the previous page to continue.",
		"Requires the read scope on the workspace.",
		"Returns at most 100 items per call, newest first.",
		"Fails with a permission error when the token cannot see the resource.",
		"The operation is idempotent: repeating it has no further effect.",
	}
	r := rand.New(rand.NewPCG(12, 34))
	tools := make([]Tool, 0, n)
	for i := range n {
		server := servers[i%len(servers)]
		verb, noun := verbs[r.IntN(len(verbs))], nouns[r.IntN(len(nouns))]
		name := fmt.Sprintf("%s__%s_%s_%d", server, verb, noun, i)
		desc := fmt.Sprintf("%s %s in %s, filtered by the given criteria.", strings.ReplaceAll(verb, "_", " "), strings.ReplaceAll(noun, "_", " "), server)
		desc = strings.ToUpper(desc[:1]) + desc[1:]
		for range r.IntN(3) {
			desc += " " + seconds[r.IntN(len(seconds))]
		}
		var props []string
		var required []string
		props = append(props, `"workspace":{"type":"string","description":"The workspace or organisation that owns the resource."}`)
		required = append(required, `"workspace"`)
		extra := []string{
			`"query":{"type":"string","description":"Free-text search terms; supports quoted phrases and -exclusions."}`,
			`"state":{"type":"string","enum":["open","closed","all"],"default":"open","description":"Which items to include."}`,
			`"labels":{"type":"array","items":{"type":"string"},"description":"Only items carrying all of these labels."}`,
			`"since":{"type":"string","format":"date-time","description":"Only items updated at or after this time (ISO 8601)."}`,
			`"perPage":{"type":"integer","minimum":1,"maximum":100,"default":30,"description":"Items per page."}`,
			`"cursor":{"type":"string","description":"The cursor of the page to return."}`,
			`"assignee":{"type":"object","properties":{"id":{"type":"string"},"email":{"type":"string"}},"description":"The person to assign; id or email."}`,
			`"sort":{"type":"string","enum":["created","updated","comments"],"description":"Sort field."}`,
		}
		for _, k := range r.Perm(len(extra))[:2+r.IntN(6)] {
			props = append(props, extra[k])
			if r.IntN(4) == 0 {
				required = append(required, extra[k][:strings.Index(extra[k], ":")])
			}
		}
		t := Tool{
			Name:        name,
			Description: desc,
			Parameters:  json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(required, ",") + `]}`),
		}
		if r.IntN(3) == 0 {
			t.Output = json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"url":{"type":"string"}},"required":["id","title"]}},"nextCursor":{"type":["string","null"]}},"required":["items"]}`)
		}
		tools = append(tools, t)
	}
	return tools
}
