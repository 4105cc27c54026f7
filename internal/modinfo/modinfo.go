// Package modinfo says which version of this module the running binary
// holds, and so which command builds the guest for it: the command
// quickjs.ErrNotBuilt names and `ptc-run version` prints.
package modinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Path is the path of this module.
const Path = "github.com/ptchost/ptc"

// GuestBuildCommand returns the command that builds the guest for this
// version of the module into the user cache directory:
//
//	go run github.com/ptchost/ptc/cmd/ptc-run@VERSION guest build
//
// with the version of the module the running binary was built with
// (runtime/debug.ReadBuildInfo), or @latest when it is not known. When
// the module is replaced by a directory, the command runs ptc-run from
// that directory.
func GuestBuildCommand() string {
	v, dir := version()
	if dir != "" {
		return fmt.Sprintf("cd %s && go run ./cmd/ptc-run guest build", dir)
	}
	return fmt.Sprintf("go run %s/cmd/ptc-run@%s guest build", Path, v)
}

// version returns the version of this module in the running binary
// ("latest" when unknown), or the directory that replaces it.
func version() (version, dir string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "latest", ""
	}
	m := &bi.Main
	if m.Path != Path {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == Path {
				m = d
				break
			}
		}
	}
	if m == nil {
		return "latest", ""
	}
	if r := m.Replace; r != nil && (r.Version == "" || r.Version == "(devel)") {
		return "", r.Path // a directory
	}
	if m.Version == "" || m.Version == "(devel)" || strings.HasSuffix(m.Version, "+dirty") {
		return "latest", ""
	}
	return m.Version, ""
}
