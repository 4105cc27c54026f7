package quickjs

import (
	"embed"
	"errors"
	"io/fs"

	"github.com/ptchost/ptc/internal/modinfo"
)

// files holds the built guest, committed beside the sources it is built
// from (ptc-quickjs.wasm and intl.js, written by `make guest`), the
// digests recorded for them (sha256sum's format) and the guest's own
// scripts. The build directory (build/, the scripts' work and output)
// stays out of the binary.
//
//go:embed ptc-quickjs.wasm intl.js ptc-quickjs.wasm.sha256 intl.js.sha256 js/*.js
var files embed.FS

// Files returns the files this package was compiled with, read-only:
//
//   - ptc-quickjs.wasm, the guest module, and intl.js, its Intl bundle (a
//     script and the compressed locale data the guest asks for one
//     locale at a time): the reproducible build of the pinned sources
//     beside them, which `make guest` writes and `make guest-check`
//     rebuilds and compares byte for byte;
//   - ptc-quickjs.wasm.sha256 and intl.js.sha256, their digests
//     (sha256sum's format): a guest read from a file runs only when it
//     has these digests;
//   - js/bootstrap.js, js/inspect.js and js/web.js, the guest's own
//     scripts, which the host compiles to bytecode and hands to the guest.
//
// Package host runs the guest from here unless host.Config or the
// environment names a file holding the same bytes.
func Files() fs.FS { return files }

// ErrNotBuilt reports that a guest read from a file is missing or is not
// the recorded build: the guest `ptc-run guest build` built, or one that
// host.Config.GuestPath or $PTC_GUEST names. The guest is embedded in
// this package ([Files]), so host.New always has one and does not fail
// with it. Its message names the command that builds the guest from
// source:
//
//	go run github.com/ptchost/ptc/cmd/ptc-run@VERSION guest build
//
// with the version of this module the running binary was built with (or
// a `cd DIR && go run ./cmd/ptc-run guest build` when the module is
// replaced by a directory). Errors that match it also say which guests
// were ignored and why (a digest other than the recorded one, a missing
// Intl bundle).
var ErrNotBuilt = errors.New("quickjs guest not built: run " + modinfo.GuestBuildCommand())
