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

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptchost/ptc"
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
}

// Server serves an executor's run_code over MCP. It is safe for
// concurrent use.
type Server struct {
	ex    *ptc.Executor
	agent registry.Scope
	log   *slog.Logger
	srv   *sdk.Server

	descMu     sync.Mutex
	desc       string // the description of the run_code tool offered
	stale      bool   // the registry changed since desc was made
	refreshing bool   // a goroutine is refreshing desc
	unsub      func()

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
	s := &Server{ex: ex, agent: opts.Agent, log: opts.Logger}
	s.life, s.kill = context.WithCancelCause(context.Background())
	s.srv = sdk.NewServer(&sdk.Implementation{Name: opts.Name, Version: opts.Version}, &sdk.ServerOptions{
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	s.unsub = ex.Pipeline().Registry().Subscribe(func(registry.Change) { s.changed() })
	s.refresh()
	// A list answers with the current description even if the refresh
	// the change started has not run yet.
	s.srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				s.refresh()
			}
			return next(ctx, method, req)
		}
	})
	return s
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

// refresh (re)declares run_code when its description changed; the SDK
// then tells connected clients that the tool list changed.
func (s *Server) refresh() {
	s.descMu.Lock()
	defer s.descMu.Unlock()
	d := s.ex.RunCodeSchema(s.agent, nil)
	if d.Description == s.desc {
		return
	}
	s.desc = d.Description
	s.srv.AddTool(&sdk.Tool{
		Name:        d.Name,
		Description: d.Description,
		InputSchema: d.Parameters,
	}, s.runCode)
}

// MCPServer returns the SDK server, for transports this package does not
// set up.
func (s *Server) MCPServer() *sdk.Server { return s.srv }

// Handler returns the HTTP handler: MCP's streamable HTTP at /mcp, in the
// SDK's stateless mode with JSON responses (no session: any replica
// serves any request), and /healthz, which answers 200 "ok", or 503
// "shutting down" once Shutdown was called.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv }, &sdk.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		PropagateRequestCancellation: true,
	}))
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
// is done.
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	return s.srv.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
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
	s.down = true
	s.mu.Unlock()
	s.unsub()
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

// runCode is run_code's MCP handler.
func (s *Server) runCode(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if s.enter() {
		defer s.runs.Done()
		stop := context.AfterFunc(s.life, func() { cancel(ptc.ErrShutdown) })
		defer stop()
	} else {
		cancel(ptc.ErrShutdown)
	}
	id := "mcp-" + strconv.FormatUint(s.count.Add(1), 10)
	args := req.Params.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	start := time.Now()
	r := s.ex.Execute(ctx, pipeline.Batch{
		Calls: []pipeline.RawCall{{ID: id, Name: ptc.ToolName, Arguments: args}},
		Agent: s.agent,
	})[0]
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
		Content:           Content(r.Content),
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
	return strings.ToLower(string(r.Outcome.Code()))
}

func (s *Server) logRun(ctx context.Context, id string, d time.Duration, r *ptc.Result) {
	level := slog.LevelInfo
	if r.IsError {
		level = slog.LevelWarn
	}
	s.log.LogAttrs(ctx, level, "run",
		slog.String("id", id),
		slog.String("token", r.Outcome.Token()),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.Int("subcalls", len(r.Subcalls)),
		slog.String("kind", kind(r)),
		slog.Bool("is_error", r.IsError))
}
