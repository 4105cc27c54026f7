package ptc_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layers is every package of the module (by its path in the module, "" for
// the root) and the packages of the module it may import: the map
// docs/ARCHITECTURE.md draws ("Layers"). A new import is a deliberate
// change to this list and to that map.
var layers = map[string][]string{
	"":                         {"host", "internal/abort", "internal/admit", "internal/durable", "internal/runner", "internal/telemetry", "internal/toolsdk", "pipeline", "recording", "registry", "runstore"},
	"bridge/internal/convert":  {"", "pipeline", "registry"},
	"cmd/ptc-run":              {"", "guest/quickjs", "host", "internal/durable", "internal/fixture", "internal/guestfile", "internal/modinfo", "internal/telemetry", "mcp", "pipeline", "recording", "registry", "runstore"},
	"guest/quickjs":            {"internal/modinfo"},
	"host":                     {"host/internal/fuel", "host/internal/typescript", "internal/abort", "internal/guestfile", "internal/jsonindent", "internal/runhook"},
	"host/internal/fuel":       {"host/internal/leb128"},
	"host/internal/leb128":     {},
	"host/internal/typescript": {},
	"host/internal/wasmgen":    {"host/internal/leb128"},
	"internal/abort":           {},
	"internal/admit":           {},
	"internal/advtest":         {},
	"internal/bridgetest":      {"pipeline", "registry"},
	"internal/cmd/apilist":     {},
	"internal/content":         {"registry"},
	"internal/durable":         {"host", "internal/runhook", "pipeline", "recording", "registry", "runstore"},
	"internal/fixture":         {"internal/jsonindent", "registry"},
	"internal/guestfile":       {"guest/quickjs", "internal/modinfo"},
	"internal/jsonindent":      {"internal/jsontext"},
	"internal/jsontext":        {},
	"internal/mcptest":         {},
	"internal/modinfo":         {},
	"internal/pgtest":          {},
	"internal/runhook":         {},
	"internal/runner":          {"host", "internal/admit", "internal/content", "internal/jsontext", "internal/runhook", "internal/sdkgen", "internal/toolsdk", "pipeline", "recording", "registry"},
	"internal/sdkgen":          {"registry"},
	"internal/telemetry":       {},
	"internal/toolcall":        {},
	"internal/toolsdk":         {"host", "internal/sdkgen", "pipeline", "registry"},
	"mcp":                      {"", "internal/telemetry", "pipeline", "registry"},
	"pipeline":                 {"internal/content", "internal/jsontext", "internal/telemetry", "internal/toolcall", "registry"},
	"recording":                {"host", "pipeline", "registry"},
	"registry":                 {"internal/jsonindent", "internal/toolcall"},
	"runstore":                 {},
}

// neverDeps are what a package may not depend on, directly or through
// any other (full import paths, or the module's packages as in layers).
var neverDeps = map[string][]string{
	// The tool layers stay free of the sandbox and its build.
	"registry": {"pipeline", "host", "github.com/tetratelabs/wazero", "github.com/evanw/esbuild"},
	"pipeline": {"host", "github.com/tetratelabs/wazero", "github.com/evanw/esbuild"},
	// The sandbox knows nothing of tools: it talks through its Dispatcher.
	"host": {"registry", "pipeline"},
	// The store keeps bytes: it knows nothing of runs' contents.
	"runstore": {"host", "registry", "pipeline", "recording", "github.com/tetratelabs/wazero"},
}

const module = "github.com/ptchost/ptc"

// TestLayers holds each package's imports to layers, and its whole
// dependency tree to neverDeps: the map in docs/ARCHITECTURE.md cannot
// drift from the code.
func TestLayers(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	list := func(args ...string) []string {
		t.Helper()
		cmd := exec.Command(goTool, append([]string{"list"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		var lines []string
		for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
			lines = append(lines, sc.Text())
		}
		return lines
	}
	rel := func(p string) (string, bool) {
		if p == module {
			return "", true
		}
		r, ok := strings.CutPrefix(p, module+"/")
		return r, ok
	}
	seen := map[string]bool{}
	for _, line := range list("-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...") {
		path, imports, _ := strings.Cut(line, ":")
		pkg, _ := rel(path)
		seen[pkg] = true
		var own []string
		for _, imp := range strings.Fields(imports) {
			if r, ok := rel(imp); ok {
				own = append(own, r)
			}
		}
		allowed, listed := layers[pkg]
		if !assert.True(t, listed, "package %q is not in layers (layers_test.go) nor in docs/ARCHITECTURE.md's map", pkg) {
			continue
		}
		for _, imp := range own {
			assert.True(t, slices.Contains(allowed, imp), "%q imports %q, which layers (and docs/ARCHITECTURE.md) do not allow", pkg, imp)
		}
		for _, a := range allowed {
			assert.True(t, slices.Contains(own, a), "%q no longer imports %q: take it out of layers and the map", pkg, a)
		}
	}
	for pkg := range layers {
		assert.True(t, seen[pkg], "layers lists %q, which is gone", pkg)
	}
	for pkg, never := range neverDeps {
		for _, dep := range list("-deps", "./"+pkg) {
			for _, n := range never {
				full := n
				if !strings.Contains(n, ".") {
					full = module + "/" + n
				}
				assert.False(t, dep == full || strings.HasPrefix(dep, full+"/"), "%q depends on %q (through %s): never allowed", pkg, n, dep)
			}
		}
	}
}
