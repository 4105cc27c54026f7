package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/registry"
)

// defaultMaxParallel is the default of Config.MaxParallel.
const defaultMaxParallel = 16

// Config configures a [Pipeline]. The zero value of every field but
// Registry is a sensible default; [Pipeline.Config] returns the
// configuration in effect, defaults filled in.
type Config struct {
	// Registry is the registry every call is looked up in. Required.
	Registry *registry.Registry
	// MaxParallel bounds how many parallel calls of one batch run at once;
	// 0 means 16. It does not bound separate [Pipeline.Call]s: their caller
	// does.
	MaxParallel int
	// ArgumentBytes bounds the size in bytes of one call's raw arguments;
	// 0 means 1 MiB. It is checked before the arguments are parsed, for
	// every call (direct calls and program subcalls alike): a call over it
	// fails with INVALID_ARGUMENTS wrapping [ErrArgumentsTooLarge], and its
	// message names the limit.
	ArgumentBytes int
	// ArgumentDepth bounds how deeply one call's arguments nest arrays and
	// objects (`{}` is one level, `{"a":[1]}` two); 0 means 64. It is
	// checked before the arguments are parsed, by a scan of the bytes: a
	// call over it fails with INVALID_ARGUMENTS wrapping
	// [ErrArgumentsTooDeep], and its message names the limit. The
	// registry's parser refuses nesting past 512 levels whatever this says.
	ArgumentDepth int
	// TracerProvider, when set, traces every call the pipeline runs
	// (direct calls and program subcalls alike) as one span, "execute_tool
	// <tool>", a child of the span in the call's context, with the
	// attributes of the OpenTelemetry GenAI semantic conventions and the
	// policies' decisions as events (docs/observability.md). Nil traces
	// nothing and costs nothing: the pipeline never reads the global
	// provider.
	TracerProvider trace.TracerProvider
	// MeterProvider, when set, counts the program subcalls the pipeline
	// runs (ptc_subcalls_total, by tool and code). Nil meters nothing;
	// the global provider is never read.
	MeterProvider metric.MeterProvider
}

// Pipeline runs tool calls through the shared stages. Policies (listeners,
// guards, wrappers) are added and removed at any time; a call uses the set
// that was current when it started. It is safe for concurrent use and logs
// nothing by itself.
type Pipeline struct {
	cfg         Config // defaults filled in
	reg         *registry.Registry
	maxParallel int
	argBytes    int
	argDepth    int
	argShort    int // arguments this short are within both limits
	tel         *tracing
	prefix      string
	seq         atomic.Uint64

	mu     sync.Mutex // serializes hook changes
	nextID uint64
	hooks  atomic.Pointer[hooks]
}

type hook[F any] struct {
	id uint64
	fn F
}

// hooks is an immutable snapshot of the registered policies.
type hooks struct {
	pre      []hook[PreExecuteListener]
	guards   []hook[Guard]
	wrappers []hook[Wrapper]
	post     []hook[PostExecuteListener]
	results  []hook[ResultListener]
}

// New returns a pipeline over cfg.Registry with no policies.
func New(cfg Config) (*Pipeline, error) {
	if cfg.Registry == nil {
		return nil, errNoRegistry
	}
	if cfg.MaxParallel < 0 {
		return nil, fmt.Errorf("pipeline: negative MaxParallel %d", cfg.MaxParallel)
	}
	if cfg.MaxParallel == 0 {
		cfg.MaxParallel = defaultMaxParallel
	}
	if cfg.ArgumentBytes < 0 {
		return nil, fmt.Errorf("pipeline: negative ArgumentBytes %d", cfg.ArgumentBytes)
	}
	if cfg.ArgumentBytes == 0 {
		cfg.ArgumentBytes = defaultArgumentBytes
	}
	if cfg.ArgumentDepth < 0 {
		return nil, fmt.Errorf("pipeline: negative ArgumentDepth %d", cfg.ArgumentDepth)
	}
	if cfg.ArgumentDepth == 0 {
		cfg.ArgumentDepth = defaultArgumentDepth
	}
	tel, err := newTracing(cfg)
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	p := &Pipeline{
		cfg:         cfg,
		reg:         cfg.Registry,
		maxParallel: cfg.MaxParallel,
		argBytes:    cfg.ArgumentBytes,
		argDepth:    cfg.ArgumentDepth,
		argShort:    min(cfg.ArgumentBytes, cfg.ArgumentDepth),
		prefix:      hex.EncodeToString(b[:]) + "-",
		tel:         tel,
	}
	p.hooks.Store(&hooks{})
	return p, nil
}

// Config returns the configuration the pipeline was created with, its
// defaults filled in: the registry calls are looked up in, the limits in
// effect and the providers it traces and meters with (nil when it does
// not).
func (p *Pipeline) Config() Config { return p.cfg }

// tokenSize bounds a token: a 13-byte prefix and a base-36 uint64.
const tokenSize = 32

// setToken gives inv a fresh opaque correlation token. The token's bytes
// live in the invocation itself, which is never modified afterwards, so
// the string needs no allocation of its own.
func (p *Pipeline) setToken(inv *Invocation) {
	b := append(inv.tokbuf[:0], p.prefix...)
	b = strconv.AppendUint(b, p.seq.Add(1), 36)
	inv.token = unsafe.String(&inv.tokbuf[0], len(b))
}

// addHook adds fn to the list field selects and returns its removal.
func addHook[F any](p *Pipeline, field func(*hooks) *[]hook[F], fn F) (remove func()) {
	if any(fn) == nil {
		return func() {}
	}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	h := *p.hooks.Load()
	l := field(&h)
	*l = append(slices.Clip(*l), hook[F]{id: id, fn: fn})
	p.hooks.Store(&h)
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			h := *p.hooks.Load()
			l := field(&h)
			*l = slices.DeleteFunc(slices.Clone(*l), func(x hook[F]) bool { return x.id == id })
			p.hooks.Store(&h)
			p.mu.Unlock()
		})
	}
}

// OnPreExecute appends l to the pre-execute waterfall and returns the
// function that removes it.
func (p *Pipeline) OnPreExecute(l PreExecuteListener) (remove func()) {
	return addHook(p, func(h *hooks) *[]hook[PreExecuteListener] { return &h.pre }, l)
}

// Guard appends g to the monotonic guards and returns the function that
// removes it.
func (p *Pipeline) Guard(g Guard) (remove func()) {
	return addHook(p, func(h *hooks) *[]hook[Guard] { return &h.guards }, g)
}

// Wrap appends w to the execute wrappers (inside the ones already added)
// and returns the function that removes it.
func (p *Pipeline) Wrap(w Wrapper) (remove func()) {
	return addHook(p, func(h *hooks) *[]hook[Wrapper] { return &h.wrappers }, w)
}

// OnPostExecute appends l to the post-execute listeners and returns the
// function that removes it.
func (p *Pipeline) OnPostExecute(l PostExecuteListener) (remove func()) {
	return addHook(p, func(h *hooks) *[]hook[PostExecuteListener] { return &h.post }, l)
}

// OnResult appends l to the result listeners and returns the function that
// removes it.
func (p *Pipeline) OnResult(l ResultListener) (remove func()) {
	return addHook(p, func(h *hooks) *[]hook[ResultListener] { return &h.results }, l)
}

// Call runs one call through every stage and returns its outcome; it never
// returns nil. It is the single-call entry point for the run_code executor:
// with env.Parent set, the call's log records are marked nested. Call is
// cheap and safe to use from many goroutines at once, with a context per
// call.
func (p *Pipeline) Call(ctx context.Context, call RawCall, env Env) *Outcome {
	inv := p.prepare(call, env)
	inv.fresh = true
	return p.Run(ctx, inv)
}

// Prepare runs the Prepare stage alone: the lookup through env's tool set,
// argument validation, freezing and a new correlation token. It returns the
// invocation and, when preparation failed, the failure (an [*Error]); the
// invocation is returned either way, and still runs: the failure becomes
// its outcome, which the result listeners and the logger see. Prepare logs
// nothing: the call's record is written when the invocation runs. Use it
// when the execution mode must be known before running ([Invocation.Mode]);
// then [Pipeline.Run] it, exactly once.
func (p *Pipeline) Prepare(call RawCall, env Env) (*Invocation, error) {
	inv := p.prepare(call, env)
	if inv.err != nil {
		return inv, inv.err
	}
	return inv, nil
}

// Run runs a prepared invocation through the remaining stages and returns
// its outcome. It looks the tool up again first, so a call whose tool set
// was disposed (or whose registration went stale) since Prepare fails with
// UNKNOWN_TOOL. An invocation runs at most once: Run panics when it
// is given one that already ran, or one another pipeline prepared.
func (p *Pipeline) Run(ctx context.Context, inv *Invocation) *Outcome {
	if inv.p != p {
		panic("pipeline: Run with an invocation prepared by another pipeline")
	}
	if !inv.ran.CompareAndSwap(false, true) {
		panic("pipeline: invocation " + inv.token + " run twice")
	}
	return p.run(ctx, inv)
}
