package ptc

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/abort"
	"github.com/ptchost/ptc/internal/admit"
	"github.com/ptchost/ptc/internal/runner"
	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/internal/toolsdk"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
	"github.com/ptchost/ptc/runstore"
)

// ToolName is the name of the one tool the executor exposes.
const ToolName = "run_code"

// errNoPipeline is returned by New and NewNativeExecutor when given no
// pipeline: a programmer's error no caller branches on.
var errNoPipeline = errors.New("ptc: no pipeline (Config.Pipeline is required)")

// ErrShutdown is the cause to cancel a batch's context with when the
// service running it shuts down: its runs end "Error: code run failed
// (aborted): the executor shut down", as when Close stops them.
var ErrShutdown = abort.ErrShutdown

// Config configures an Executor.
type Config struct {
	// Pipeline runs every subcall; its registry holds the tools the SDK
	// offers. Required. Its TracerProvider and MeterProvider
	// (pipeline.Config) trace the run_code calls too, one span
	// "execute_tool run_code" each (the parent of its subcalls' spans, with
	// the run's kind, subcalls, memory and output bytes), and meter the
	// runs (ptc_runs, ptc_run_duration, ptc_runs_in_flight,
	// ptc_sandboxes_idle, ptc_cancel_latency; docs/observability.md).
	Pipeline *pipeline.Pipeline
	// Host runs the programs. When nil, New creates one (compiling the
	// guest takes about a second; the compilation cache, on by default,
	// makes later processes skip it: host.Config.CompilationCacheDir) and
	// Close closes it; a Host given here stays the caller's.
	Host *host.Host
	// HostConfig configures the Host New creates when Host is nil.
	HostConfig host.Config
	// Limits bound each run; zero fields take the defaults of docs/ARCHITECTURE.md.
	Limits host.Limits
	// ContinuationKey signs and verifies the continuations of suspended
	// runs (RunOptions.SuspendAsks, Resume) with HMAC-SHA256; keep it
	// secret, at least 32 random bytes. Runs cannot suspend without it.
	ContinuationKey []byte
	// DeclarationBytes bounds the TypeScript declarations in run_code's
	// description (see sdkgen.TypeScriptWithin): while the full
	// declarations of the visible tools fit, they are all there; past it,
	// tools are declared in short (name and first sentence) after those
	// that still fit in full, in registry order, and the program finds and
	// reads them with tools.$search and tools.$describe. Tools with
	// DeferLoading are declared in short whatever the budget. Zero means
	// 32 KiB, roughly 8,000 tokens; negative means no budget.
	DeclarationBytes int
	// MaxRuns bounds the programs the executor runs at once, across all
	// its batches (Execute, Run, Replay, Resume): a run beyond it waits,
	// in the order runs came, until one ends or its context does (then it
	// ends "aborted: cancelled before it started"), or, with
	// RunOptions.NoWait, fails at once matching ErrBusy. The wait does
	// not count against the run's time limit. Zero means DefaultMaxRuns;
	// negative means no bound.
	MaxRuns int
	// Store, when set, makes runs durable (docs/durable.md): each run has
	// a run ID (RunOptions.RunID, Result.RunID); its subcalls are written
	// to the store before they are dispatched and their outcomes after,
	// and its result before it is returned; the same run ID again gives
	// the stored result without calling any tool, waits for the process
	// driving it, or, when that process stopped, resumes the run here,
	// answering settled calls from the store. Executors sharing a store
	// share runs, and continuations (resumed once among them all; signed
	// with a key kept in the store unless ContinuationKey is set). Nil
	// keeps every run in this process's memory.
	Store runstore.Store
	// StoreLease is how long this process holds a durable run without
	// renewing its lease; a run whose process stopped is resumed by
	// another after it lapses. Zero means 10 s.
	StoreLease time.Duration
}

// defaultDeclarationBytes is the declarations' budget when
// Config.DeclarationBytes is zero.
const defaultDeclarationBytes = 32 << 10

// Executor runs run_code calls. It is safe for concurrent use.
type Executor struct {
	pipe    *pipeline.Pipeline
	host    *host.Host
	ownHost bool
	limits  host.Limits
	key     []byte
	spent   runner.Spent // continuations already resumed
	store   runstore.Store
	// storeLease is Config.StoreLease with its default.
	storeLease time.Duration
	slots      *admit.Slots // Config.MaxRuns
	busy       sync.Map     // *runner.Report -> *busyError: runs refused by a full executor

	sdks        *toolsdk.Cache
	unsubscribe func()
	unmeter     func()                // the store's gauges
	met         *telemetry.RunMetrics // nil without a MeterProvider

	// own runs run_code calls themselves: a private registry holding only
	// run_code, so that each has a correlation token, root log records and
	// the pipeline's cancellation and panic handling.
	own     *pipeline.Pipeline
	runCode *registry.Tool

	// life is cancelled with abort.ErrShutdown when Close stops waiting for
	// the batches in progress.
	life context.Context
	kill context.CancelCauseFunc

	mu        sync.Mutex
	closed    bool
	batches   sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// New returns an executor over cfg.Pipeline.
func New(ctx context.Context, cfg Config) (*Executor, error) {
	if cfg.Pipeline == nil {
		return nil, errNoPipeline
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("ptc: %w", err)
	}
	if n := len(cfg.ContinuationKey); n > 0 && n < 32 {
		return nil, fmt.Errorf("ptc: Config.ContinuationKey is %d bytes; use at least 32 random bytes", n)
	}
	e := &Executor{
		pipe:       cfg.Pipeline,
		host:       cfg.Host,
		limits:     cfg.Limits.WithDefaults(),
		key:        bytes.Clone(cfg.ContinuationKey),
		store:      cfg.Store,
		slots:      admit.NewSlots(cmp.Or(cfg.MaxRuns, DefaultMaxRuns)),
		storeLease: cmp.Or(cfg.StoreLease, defaultStoreLease),
		sdks:       toolsdk.NewCache(cfg.Pipeline.Config().Registry, max(cmp.Or(cfg.DeclarationBytes, defaultDeclarationBytes), -1)),
	}
	if cfg.Store != nil && len(e.key) == 0 {
		// Executors sharing the store share the key, made on first use.
		key, err := cfg.Store.Secret(ctx, "continuation-key", func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return nil, fmt.Errorf("ptc: continuation key from the store: %w", err)
		}
		e.key = key
	}
	e.life, e.kill = context.WithCancelCause(context.Background())
	e.runCode = registry.MustDefine(registry.Spec[runArgs, *host.Outcome]{
		Name:        ToolName,
		Description: "Runs a JavaScript program.",
		Parameters: registry.Object(
			registry.Required("code", registry.String().Describe(codeDescription)),
		).Strict(),
		Output: registry.Output[runArgs, *host.Outcome]{
			Render: func(_ runArgs, o *host.Outcome) []registry.Part {
				return []registry.Part{registry.TextPart(o.Text())}
			},
		},
		Execute: e.execute,
	})
	reg := registry.New()
	if _, err := reg.Register(e.runCode); err != nil {
		return nil, fmt.Errorf("ptc: %w", err)
	}
	own, err := pipeline.New(pipeline.Config{Registry: reg, TracerProvider: cfg.Pipeline.Config().TracerProvider})
	if err != nil {
		return nil, fmt.Errorf("ptc: %w", err)
	}
	e.own = own
	if e.host == nil {
		h, err := host.New(ctx, cfg.HostConfig)
		if err != nil {
			return nil, fmt.Errorf("ptc: %w", err)
		}
		e.host, e.ownHost = h, true
	}
	if e.met, err = telemetry.NewRunMetrics(cfg.Pipeline.Config().MeterProvider, e.host.IdleSandboxes); err != nil {
		if e.ownHost {
			e.host.Close(ctx)
		}
		return nil, fmt.Errorf("ptc: %w", err)
	}
	e.unmeter = func() {}
	if e.store != nil {
		e.unmeter, err = telemetry.RegisterStore(cfg.Pipeline.Config().MeterProvider, func(ctx context.Context) (telemetry.StoreStats, error) {
			st, err := e.store.Stats(ctx)
			return telemetry.StoreStats{Runs: st.Runs, Running: st.Running, Bytes: st.Bytes}, err
		})
		if err != nil {
			e.met.Close()
			if e.ownHost {
				e.host.Close(ctx)
			}
			return nil, fmt.Errorf("ptc: %w", err)
		}
	}
	e.unsubscribe = e.pipe.Config().Registry.Subscribe(e.sdks.Invalidate)
	return e, nil
}

// Close shuts the executor down: new batches are refused (each call ends
// "aborted: the executor shut down"), batches in progress go on until ctx
// is done and are then stopped the same way, and Close returns once every
// one has settled, after releasing the host New created, if any. A Host
// given in Config stays open. Later calls return the first one's error.
func (e *Executor) Close(ctx context.Context) error {
	e.closeOnce.Do(func() {
		e.mu.Lock()
		e.closed = true
		e.mu.Unlock()
		done := make(chan struct{})
		go func() {
			e.batches.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-ctx.Done():
			e.kill(abort.ErrShutdown)
			<-done
		}
		e.kill(abort.ErrShutdown)
		e.unsubscribe()
		e.met.Close()
		e.unmeter()
		if e.ownHost {
			e.closeErr = e.host.Close(ctx)
		}
	})
	return e.closeErr
}

// enter registers a batch; it reports false once Close was called.
func (e *Executor) enter() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return false
	}
	e.batches.Add(1)
	return true
}

// Pipeline returns the pipeline every subcall goes through
// (Config.Pipeline); its registry holds the tools the SDK offers.
func (e *Executor) Pipeline() *pipeline.Pipeline { return e.pipe }

// RunCodePipeline returns the pipeline the run_code calls themselves go
// through: its registry holds run_code alone. Add policies to it to gate or
// observe whole programs (a guard that refuses run_code for an agent, a
// result listener that meters runs); the tools' own policies belong on
// Config.Pipeline, which every subcall goes through.
func (e *Executor) RunCodePipeline() *pipeline.Pipeline { return e.own }

const codeDescription = "The program: the body of an async JavaScript function."

// Describe returns the tools the model sees in PTC mode: run_code (see
// RunCodeSchema), then, in hybrid mode, the tools marked for direct calls
// (Spec.Callers), with their own schemas. It is the [ToolExecutor] method.
func (e *Executor) Describe(agent registry.Scope, set *registry.ToolSet) []registry.ToolSchema {
	out := []registry.ToolSchema{e.RunCodeSchema(agent, set)}
	for _, t := range e.pipe.Config().Registry.Definitions(agent, set) {
		if t.Callers().Direct(false) {
			out = append(out, t.Schema())
		}
	}
	return out
}

// RunCodeSchema returns the run_code schema the model sees in PTC mode: its
// description explains the program's contract and declares, in
// TypeScript, the tools agent may call through set (nil: the registered
// definitions, without conditional tools), within Config.DeclarationBytes
// (the rest declared in short, for tools.$describe to complete). Pass the
// agent and set the batch will carry: a set resolved for another scope,
// or by another registry, admits no tools. The bytes depend only on the
// visible tools, their order, the limits and the budget, so a prompt
// prefix that holds them stays cacheable.
func (e *Executor) RunCodeSchema(agent registry.Scope, set *registry.ToolSet) registry.ToolSchema {
	s := e.runCode.Schema()
	s.Description = e.sdks.Get(agent, set).Description(e.limits)
	return s
}

// Declarations returns the TypeScript declarations of the tools agent may
// call through set, exactly as RunCodeSchema's description holds them (within
// Config.DeclarationBytes): the part of it that changes with the tools.
func (e *Executor) Declarations(agent registry.Scope, set *registry.ToolSet) string {
	return e.sdks.Get(agent, set).TypeScript()
}
