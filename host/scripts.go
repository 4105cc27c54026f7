package host

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/ptchost/ptc/internal/guestfile"
)

// The guest's own scripts, by the id the guest asks for them with (host
// import script; keep in sync with glue.c).
const (
	scriptBootstrap = iota
	scriptInspect
	scriptWeb
	scriptIntl
	scriptCount
)

var scriptNames = [...]string{scriptBootstrap: "bootstrap", scriptInspect: "inspect", scriptWeb: "web"}

// intlCompileTimeout bounds the compilation of the Intl bundle, which a
// run that first uses Intl waits for.
const intlCompileTimeout = 30 * time.Second

// scripts holds the bytecode of the guest's own scripts. The host compiles
// them in an instance of their own (ptc_compile), so nothing the parser
// allocated is in the snapshot every run starts from, and a run that
// loads one later (inspect.js, the Intl bundle) reads bytecode instead of
// parsing source.
type scripts struct {
	code [scriptCount][]byte

	intlMu   sync.Mutex
	intlSrc  func() ([]byte, error) // the Intl bundle, read on first use
	intlErr  error                  // why it cannot be had; then no run tries again
	intlPack *intlPack              // its locale data (intl.go), once loaded
}

// compileScripts compiles bootstrap, inspect and web for a guest that
// exports ptc_compile; the Intl bundle is compiled on first use.
func (h *Host) compileScripts(ctx context.Context, intl func() ([]byte, error)) error {
	h.scripts.intlSrc = intl
	if _, ok := h.compiled.ExportedFunctions()["ptc_compile"]; !ok {
		return nil
	}
	srcs := make([][]byte, 0, 3)
	for id := range scriptIntl {
		src, err := guestfile.Script(scriptNames[id])
		if err != nil {
			return fmt.Errorf("guest script %s: %w", scriptNames[id], err)
		}
		srcs = append(srcs, src)
	}
	codes, err := h.compileCached(ctx, srcs...)
	if err != nil {
		return err
	}
	copy(h.scripts.code[:], codes)
	return nil
}

// compile turns script sources into the guest's bytecode, in one
// throwaway instance.
func (h *Host) compile(ctx context.Context, srcs ...[]byte) ([][]byte, error) {
	r := newRun(noTools, Limits{}.WithDefaults(), func() {})
	cctx := withRun(ctx, r)
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	mod, err := h.rt.InstantiateModule(cctx, h.compiled, mc)
	if err != nil {
		return nil, err
	}
	defer mod.Close(ctx)
	g := newGuest(mod)
	fn, mem := g.fn("ptc_compile"), g.mem
	out := make([][]byte, len(srcs))
	for i, src := range srcs {
		ptr, err := r.load(cctx, g, string(src))
		if err != nil {
			return nil, fmt.Errorf("compile guest script: %w", err)
		}
		if ptr == 0 {
			return nil, errors.New("compile guest script: out of memory")
		}
		res, err := fn.Call(cctx, uint64(ptr), uint64(len(src)))
		if err != nil {
			if cerr := context.Cause(cctx); cerr != nil {
				// Stopped, not broken: say why it stopped.
				return nil, fmt.Errorf("compile guest script: %w", cerr)
			}
			return nil, fmt.Errorf("compile guest script: %w", err)
		}
		p := api.DecodeU32(res[0])
		if p == 0 {
			return nil, fmt.Errorf("compile guest script: %w", r.preludeError())
		}
		hdr, ok := mem.Read(p, 4)
		if !ok {
			return nil, errors.New("compile guest script: bad buffer")
		}
		n := binary.LittleEndian.Uint32(hdr)
		code, ok := mem.Read(p+4, n)
		if !ok {
			return nil, errors.New("compile guest script: bad buffer")
		}
		out[i] = append([]byte(nil), code...)
	}
	return out, nil
}

// script returns the bytecode of script id, compiling the Intl bundle on
// first use; nil when the guest has none. An id past the scripts is entry
// id-scriptCount of the Intl bundle's locale data (intl.go): its text, or
// nil when there is none.
func (h *Host) script(id int32) []byte {
	if id < 0 {
		return nil
	}
	if id < scriptCount && id != scriptIntl {
		return h.scripts.code[id]
	}
	code, pack := h.intl()
	if id == scriptIntl {
		return code
	}
	if pack == nil || code == nil {
		return nil
	}
	text, err := pack.entry(int(id) - scriptCount)
	if err != nil {
		return nil
	}
	return text
}

// intl returns the Intl bundle's bytecode and its locale data, compiling
// and reading them on first use; nil when the guest has none or they
// cannot be had.
func (h *Host) intl() ([]byte, *intlPack) {
	s := &h.scripts
	s.intlMu.Lock()
	defer s.intlMu.Unlock()
	if s.code[scriptIntl] != nil || s.intlSrc == nil || s.intlErr != nil {
		return s.code[scriptIntl], s.intlPack
	}
	src, err := s.intlSrc()
	if err != nil {
		s.intlErr = err
		return nil, nil
	}
	script, data := splitIntl(src)
	pack, err := parseIntlPack(data)
	if err != nil {
		s.intlErr = err
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(h.life, intlCompileTimeout)
	defer cancel()
	codes, err := h.compileCached(ctx, script)
	if err != nil {
		if ctx.Err() == nil {
			s.intlErr = err
		}
		// A compilation cut by its time bound (a machine too busy for
		// it) is not the bundle's fault: the next run that needs it
		// tries again instead of every run failing from now on.
		return nil, nil
	}
	s.code[scriptIntl], s.intlPack = codes[0], pack
	return s.code[scriptIntl], s.intlPack
}

// intlWarmup is evaluated after the prelude in the image of a program that
// mentions Intl (see imagePrelude): it loads the Intl bundle and the
// locale data and formatters a program most often needs first, so that
// the run starts with them instead of spending a few hundred milliseconds
// on them.
const intlWarmup = `
;(function () {
  var d = new Date(0);
  ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP"].forEach(function (l) {
    (1234.5).toLocaleString(l);
    (1234.5).toLocaleString(l, { style: "currency", currency: "USD" });
    d.toLocaleDateString(l);
  });
  d.toLocaleString("en-US");
  d.toLocaleTimeString("en-US");
  d.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" });
  new Intl.PluralRules("en-US").select(1);
  "a".localeCompare("b");
})();
`

// intlMarkers are the words of a program that will likely use Intl.
var intlMarkers = []string{"Intl", "toLocale", "localeCompare"}

// imagePrelude is the prelude whose image a run starts from: the
// program's own, or, when the program mentions Intl, the program's
// followed by intlWarmup once that image is built. The first such run
// starts the build in the background and loads Intl itself, on first
// use, as does a program that reaches Intl without naming it: a run never
// waits for the warm image, which only later runs of the same host (and
// tool set) use.
func (h *Host) imagePrelude(p Program) string {
	if h.scripts.intlSrc == nil || h.base == nil || !mentionsIntl(p.Source) {
		return p.Prelude
	}
	warm := p.Prelude + intlWarmup
	if _, ok := h.preludes.readyImage(warm); ok {
		return warm
	}
	if h.enter() {
		go func() {
			defer h.runs.Done()
			_, _ = h.preludeImage(h.life, warm)
		}()
	}
	return p.Prelude
}

func mentionsIntl(src string) bool {
	for _, m := range intlMarkers {
		if strings.Contains(src, m) {
			return true
		}
	}
	return false
}
