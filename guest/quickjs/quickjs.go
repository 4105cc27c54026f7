package quickjs

import (
	"embed"
	"errors"
	"io/fs"

	"github.com/ptchost/ptc/internal/modinfo"
)

// files holds the files of the build directory, not its subdirectories:
// the guest, the Intl bundle and the README (which is committed, so the
// pattern always matches); the QuickJS sources build.sh compiles in
// build/src stay out of the binary. Beside them: the guest's own scripts
// and the digests recorded beside the build scripts (sha256sum's format),
// which `make guest-check` checks the build against.
//
//go:embed build/*.* js/*.js ptc-quickjs.wasm.sha256 intl.js.sha256
var files embed.FS

// Files returns the files this package was compiled with, read-only:
//
//   - ptc-quickjs.wasm.sha256 and intl.js.sha256, the recorded digests of
//     the guest module and of its Intl bundle (sha256sum's format): only
//     a guest with these digests runs;
//   - js/bootstrap.js, js/inspect.js and js/web.js, the guest's own
//     scripts, which the host compiles to bytecode and hands to the guest;
//   - build/ptc-quickjs.wasm and build/intl.js, the guest and its Intl
//     bundle, when `make guest` built them before this package was
//     compiled (a clone); a copy of the module fetched by go get has
//     none.
//
// Package host takes the guest from here, or from where host.Config and
// the environment say.
func Files() fs.FS { return files }

// ErrNotBuilt reports that no guest was found. Its message names the
// command that builds one:
//
//	go run github.com/ptchost/ptc/cmd/ptc-run@VERSION guest build
//
// with the version of this module the running binary was built with (or
// a `cd DIR && go run ./cmd/ptc-run guest build` when the module is
// replaced by a directory). Errors that match it also say which guests
// were ignored and why (a digest other than the recorded one, a missing
// Intl bundle).
var ErrNotBuilt = errors.New("quickjs guest not built: run " + modinfo.GuestBuildCommand())
