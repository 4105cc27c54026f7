package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// ServerOptions configure [NewServer]. The zero value is usable.
type ServerOptions struct {
	// Agent is the scope the runs call tools in, and whose tools
	// run_code's description declares; the zero Scope is the deployment.
	Agent registry.Scope
	// Logger receives one record per run ("run": its correlation token,
	// the parent token of its subcalls' pipeline events; duration,
	// subcalls, outcome kind); nil discards them.
	Logger *slog.Logger
	// Name and Version identify the server to clients; empty means "ptc"
	// and "1".
	Name, Version string
	// AllowOrigins lists the Origin header values served over HTTP; a
	// request with any other Origin gets 403 (DNS rebinding), one without
	// Origin (not a browser) is served. None by default.
	AllowOrigins []string
	// Sessions keeps MCP sessions over HTTP (Mcp-Session-Id), so that the
	// server can ask the client (elicitation); replicas then sit behind a
	// balancer that routes on the session id. Without it the handler is
	// stateless: any replica serves any request.
	Sessions bool
	// Auth, when set, requires every HTTP request to name one of its
	// principals (see AuthConfig, as ParseAuthConfig checked it): each is
	// an agent beneath Agent's preset that sees only its tools, within its
	// limits, and whose ask patterns need a person's approval. Stdio is not
	// authenticated: it serves Agent.
	Auth *AuthConfig
	// Limits are the executor's limits (the zero value: the defaults); a
	// principal's timeout and memory lower them, never raise them.
	Limits ptc.Limits
}

// sessionIdle is how long a session (ServerOptions.Sessions) may go
// without a request before it is closed.
const sessionIdle = 30 * time.Minute

// Server serves an executor's run_code over MCP. It is safe for
// concurrent use.
type Server struct {
	ex   *ptc.Executor
	log  *slog.Logger
	opts ServerOptions
	def  *view            // Agent's: stdio, and HTTP without Auth
	byID map[string]*view // the principals' views, by name
	// byAgent finds a principal's view from a subcall's scope.
	byAgent map[registry.Scope]*view
	auth    *authenticator // nil without Auth

	descMu     sync.Mutex // guards every view's desc, and stale, refreshing
	stale      bool       // the registry changed since the descs were made
	refreshing bool       // a goroutine is refreshing the descs
	unsub      func()
	cleanup    []func()

	// life is cancelled with ptc.ErrShutdown when Shutdown stops waiting.
	life  context.Context
	kill  context.CancelCauseFunc
	mu    sync.Mutex
	down  bool
	runs  sync.WaitGroup
	count atomic.Uint64
}

// NewServer returns a server offering ex's run_code as an MCP tool whose
// description is ex.RunCodeSchema's for opts.Agent, kept up to date as the
// registry changes (connected clients are told the tool list changed).
// The server does not own ex: Shutdown leaves it open.
//
// With opts.Auth each principal gets a view of its own: an SDK server whose
// run_code is described for, and runs in, the principal's agent scope,
// which a registry restriction (registry.Only over its tool patterns)
// limits to its tools, so that its description, $search, $describe and
// subcalls know no other tool. Shutdown lifts the restrictions.
func NewServer(ex *ptc.Executor, opts ServerOptions) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Name == "" {
		opts.Name = "ptc"
	}
	if opts.Version == "" {
		opts.Version = "1"
	}
	opts.Limits = opts.Limits.WithDefaults()
	s := &Server{ex: ex, log: opts.Logger, opts: opts, byID: map[string]*view{}, byAgent: map[registry.Scope]*view{}}
	s.life, s.kill = context.WithCancelCause(context.Background())
	s.def = s.newView("", opts.Agent, nil)
	if c := opts.Auth; c != nil {
		s.auth = newAuthenticator(s.life, c, s.log)
		reg := ex.Pipeline().Config().Registry
		for i := range c.Principals {
			p := &c.Principals[i]
			scope := registry.Scope{Preset: opts.Agent.Preset, Agent: p.Name}
			// Restrict fails only for the deployment scope.
			if lift, err := reg.Restrict(scope, registry.Only(p.Tools...)); err == nil {
				s.cleanup = append(s.cleanup, lift)
			}
			v := s.newView(p.Name, scope, p)
			s.byID[p.Name] = v
			s.byAgent[scope] = v
		}
		s.cleanup = append(s.cleanup, ex.Pipeline().OnPreExecute(s.askPolicy))
	}
	s.unsub = ex.Pipeline().Config().Registry.Subscribe(func(registry.Change) { s.changed() })
	s.refresh()
	return s
}

// view is what one caller sees: an SDK server offering run_code for an
// agent scope, with a principal's limits and quota.
type view struct {
	s     *Server
	name  string // the principal; "" for the default view
	agent registry.Scope
	p     *Principal // nil for the default view
	srv   *sdk.Server
	lim   ptc.Limits // overrides of the executor's limits
	quota *quota     // nil: unbounded
	desc  string     // the description of the run_code tool offered
}

func (s *Server) newView(name string, agent registry.Scope, p *Principal) *view {
	v := &view{s: s, name: name, agent: agent, p: p}
	v.srv = sdk.NewServer(&sdk.Implementation{Name: s.opts.Name, Version: s.opts.Version}, &sdk.ServerOptions{
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	if p != nil {
		if l := p.Limits; l.Timeout > 0 && l.Timeout < s.opts.Limits.Timeout {
			v.lim.Timeout = l.Timeout
		}
		if l := p.Limits; l.MemoryBytes > 0 && l.MemoryBytes < s.opts.Limits.MemoryBytes {
			v.lim.MemoryBytes = l.MemoryBytes
		}
		if p.Limits.ConcurrentRuns > 0 || p.Limits.RunsPerMinute > 0 {
			v.quota = newQuota(name, p.Limits)
		}
	}
	// A list answers with the current description even if the refresh
	// the change started has not run yet.
	v.srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				s.descMu.Lock()
				v.refresh()
				s.descMu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	return v
}

// views returns every view, the default one first.
func (s *Server) views() []*view {
	out := []*view{s.def}
	for _, v := range s.byID {
		out = append(out, v)
	}
	return out
}

// changed notes a registry change and refreshes run_code's description on
// a goroutine of its own: a burst of changes (a server's tools mounted one
// by one) makes one refresh, or two.
func (s *Server) changed() {
	s.descMu.Lock()
	defer s.descMu.Unlock()
	s.stale = true
	if s.refreshing {
		return
	}
	s.refreshing = true
	go func() {
		for {
			s.descMu.Lock()
			if !s.stale {
				s.refreshing = false
				s.descMu.Unlock()
				return
			}
			s.stale = false
			s.descMu.Unlock()
			s.refresh()
		}
	}()
}

// refresh (re)declares run_code in every view whose description changed;
// the SDK then tells connected clients that the tool list changed.
func (s *Server) refresh() {
	s.descMu.Lock()
	defer s.descMu.Unlock()
	for _, v := range s.views() {
		v.refresh()
	}
}

// refresh (re)declares the view's run_code when its description changed.
// s.descMu must be held.
func (v *view) refresh() {
	d := v.s.ex.RunCodeSchema(v.agent, nil)
	if d.Description == v.desc {
		return
	}
	v.desc = d.Description
	v.srv.AddTool(&sdk.Tool{
		Name:        d.Name,
		Description: d.Description,
		InputSchema: d.Parameters,
	}, v.runCode)
}

// Handler returns the HTTP handler: MCP's streamable HTTP at /mcp, in the
// SDK's stateless mode with JSON responses (no session: any replica
// serves any request) unless ServerOptions.Sessions, and /healthz, which
// answers 200 "ok", or 503 "shutting down" once Shutdown was called.
// Before the SDK sees a request, a present Origin that
// ServerOptions.AllowOrigins does not list gets 403, and a body that is
// not JSON, not a JSON-RPC message, a call of a method no MCP server
// answers or one missing its params gets the JSON-RPC error (-32700,
// -32600, -32601, -32602) the stdio transport would give.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	var h http.Handler = s.guard(sdk.NewStreamableHTTPHandler(s.server, &sdk.StreamableHTTPOptions{
		Stateless:                    !s.opts.Sessions,
		JSONResponse:                 true,
		PropagateRequestCancellation: true,
		MaxRequestBodyBytes:          maxBodyBytes,
		// A session whose client vanished without DELETE goes in time.
		SessionTimeout: sessionIdle,
	}))
	if s.auth != nil {
		h = s.auth.middleware(h)
		mux.Handle(metadataPath, s.auth.metadata())
		mux.Handle(metadataPath+"/mcp", s.auth.metadata())
	}
	mux.Handle("/mcp", s.origin(h))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if s.shuttingDown() {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "shutting down\n")
			return
		}
		io.WriteString(w, "ok\n")
	})
	return mux
}

// ServeStdio speaks MCP on in and out until the client closes in or ctx
// is done. At the end of in, the requests already read finish and are
// answered before it returns.
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	return s.def.srv.Run(ctx, drainTransport{&sdk.IOTransport{Reader: in, Writer: out}})
}

// server is the SDK handler's choice of server: the principal's view with
// Auth, else the default one.
func (s *Server) server(r *http.Request) *sdk.Server {
	if v := s.viewOf(r); v != nil {
		return v.srv
	}
	return nil
}

// viewOf returns the view of the request's principal (the default view
// without Auth), or nil.
func (s *Server) viewOf(r *http.Request) *view {
	if s.auth == nil {
		return s.def
	}
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return s.byID[ti.UserID]
	}
	return nil
}

func (s *Server) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// Shutdown refuses new runs (they end "aborted: the executor shut down"),
// lets the runs in progress finish until ctx is done, then aborts them
// with docs/ARCHITECTURE.md's aborted content, and returns once every run has
// answered. It does not close the executor or any listener.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	first := !s.down
	s.down = true
	s.mu.Unlock()
	s.unsub()
	if first {
		for _, f := range s.cleanup {
			f()
		}
	}
	done := make(chan struct{})
	go func() {
		s.runs.Wait()
		close(done)
	}()
	select {
	case <-done:
		s.kill(ptc.ErrShutdown)
		return nil
	case <-ctx.Done():
	}
	s.kill(ptc.ErrShutdown)
	<-done
	return fmt.Errorf("mcp: runs aborted at shutdown: %w", context.Cause(ctx))
}

// enter registers a run; it reports false once Shutdown was called.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return false
	}
	s.runs.Add(1)
	return true
}

// RunIDMetaKey is the _meta key of a run_code request that names its run
// (a string): with an executor that has a run store (ptc.Config.Store,
// serve --store), the run's ID is "serve/PRINCIPAL/" and that name, and a
// retry of the request with the same name reaches the same run on any
// replica sharing the store — its stored result, or the run resumed where
// its process stopped. Without it, each request is a new run.
const RunIDMetaKey = "io.github.ptchost/runId"

// runCode is run_code's MCP handler.
func (v *view) runCode(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	s := v.s
	ctx, cancel := context.WithCancelCause(remoteTrace(ctx, req))
	defer cancel(nil)
	if v.name != "" {
		// The run and subcall metrics count it under its principal.
		ctx = telemetry.WithPrincipal(ctx, v.name)
	}
	if s.enter() {
		defer s.runs.Done()
		stop := context.AfterFunc(s.life, func() { cancel(ptc.ErrShutdown) })
		defer stop()
	} else {
		cancel(ptc.ErrShutdown)
	}
	id := "mcp-" + strconv.FormatUint(s.count.Add(1), 10)
	opts := ptc.RunOptions{Limits: v.lim}
	if rid, ok := req.Params.Meta[RunIDMetaKey].(string); ok && rid != "" {
		// The caller names the run (an executor with a store): a retry
		// of the request reaches the same run, on any replica sharing the
		// store. The principal scopes it: one never reaches another's.
		id, opts.RunID = rid, "serve/"+v.name
	}
	args := req.Params.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	ctx = withCaller(ctx, caller{principal: v.name, session: req.Session.ID()})
	start := time.Now()
	rs, err := s.ex.ExecuteWith(ctx, pipeline.Batch{
		Calls:    []pipeline.RawCall{{ID: id, Name: ptc.ToolName, Arguments: args}},
		Agent:    v.agent,
		Approver: v.approver(req),
	}, opts)
	if err != nil {
		return nil, fmt.Errorf("run options: %w", err)
	}
	r := rs[0]
	s.logRun(ctx, id, time.Since(start), r)
	return result(r), nil
}

// result maps a run_code result to MCP: the content (text, then images
// with their attribution), structuredContent {"returnValue": …} and
// isError.
func result(r *ptc.Result) *sdk.CallToolResult {
	ret := json.RawMessage("null")
	if r.Run != nil && r.Run.ReturnValue != nil && !r.IsError {
		ret = r.Run.ReturnValue
	}
	structured, _ := json.Marshal(struct {
		ReturnValue json.RawMessage `json:"returnValue"`
	}{ret})
	return &sdk.CallToolResult{
		Content:           content(r.Content),
		StructuredContent: json.RawMessage(structured),
		IsError:           r.IsError,
	}
}

// kind names a run's outcome for the log: the program's outcome kind
// (Result.Err's), or the code of a call that never ran one, in lower case.
func kind(r *ptc.Result) string {
	var re *ptc.RunError
	switch err := r.Err(); {
	case err == nil:
		return "ok"
	case errors.As(err, &re) && re.Kind != "":
		return string(re.Kind)
	}
	return strings.ToLower(pipeline.CodeOf(r.Outcome.Err()))
}

func (s *Server) logRun(ctx context.Context, id string, d time.Duration, r *ptc.Result) {
	level := slog.LevelInfo
	if r.IsError {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{slog.String("id", id)}
	if _, audited := s.log.Handler().(auditHandler); !audited {
		// The caller, unless the handler adds it from ctx.
		if c, ok := callerOf(ctx); ok {
			if c.principal != "" {
				attrs = append(attrs, slog.String("principal", c.principal))
			}
			if c.session != "" {
				attrs = append(attrs, slog.String("session", c.session))
			}
		}
	}
	s.log.LogAttrs(ctx, level, "run", append(attrs,
		slog.String("token", r.Outcome.Invocation().Token()),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.Int("subcalls", len(r.Subcalls)),
		slog.String("kind", kind(r)),
		slog.Bool("is_error", r.IsError))...)
}
