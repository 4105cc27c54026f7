package telemetry_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibraryImportsTheAPIOnly: the library's packages reach the
// OpenTelemetry API and nothing of the SDK or the exporters, which are
// ptc-run's (and the tests').
func TestLibraryImportsTheAPIOnly(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command("go", "list", "-deps",
		"github.com/ptchost/ptc", "github.com/ptchost/ptc/pipeline", "github.com/ptchost/ptc/mcp",
		"github.com/ptchost/ptc/registry", "github.com/ptchost/ptc/host").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	api := false
	for _, p := range strings.Fields(string(out)) {
		if p == "go.opentelemetry.io/otel/trace" {
			api = true
		}
		if strings.HasPrefix(p, "go.opentelemetry.io/otel/sdk") || strings.HasPrefix(p, "go.opentelemetry.io/otel/exporters") ||
			strings.HasPrefix(p, "github.com/prometheus/") || strings.HasPrefix(p, "google.golang.org/grpc") {
			t.Errorf("the library imports %s", p)
		}
	}
	if !api {
		t.Error("the library does not import the trace API: the list is not what this test thinks")
	}
}
