package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/mcp"
	"github.com/ptchost/ptc/pipeline"
)

// defaultListen is serve's address without --listen or --stdio: loopback
// only, as a local MCP server should be.
const defaultListen = "127.0.0.1:8080"

// cmdServe offers run_code as an MCP server until ctx is done (SIGINT,
// SIGTERM) or, with --stdio, until the client closes stdin.
func cmdServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("serve")
	var tools toolFlags
	tools.add(fs)
	timeout := fs.Duration("timeout", host.Limits{}.WithDefaults().Timeout, "wall-time limit of each run")
	memory := fs.String("memory", "64MiB", "memory limit of each run")
	grace := fs.Duration("grace", 10*time.Second, "how long runs in progress may go on after SIGINT or SIGTERM")
	listen := fs.String("listen", "", "address to serve streamable HTTP on (default "+defaultListen+")")
	stdio := fs.Bool("stdio", false, "speak MCP on stdin and stdout instead of HTTP")
	var sec serveSecurity
	sec.add(fs)
	maxRuns := fs.Int("max-runs", ptc.DefaultMaxRuns, "programs run at once; later requests wait their turn")
	store := fs.String("store", "", "keep runs in this run store: sqlite:PATH or postgres://...")
	metrics := fs.Bool("metrics", false, "serve the metrics at /metrics in Prometheus' format (HTTP only)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return &usageError{"serve takes no positional arguments"}
	case *stdio && *listen != "":
		return &usageError{"serve takes --listen or --stdio, not both"}
	case *stdio && *metrics:
		return &usageError{"serve --metrics needs HTTP: it serves /metrics beside /mcp, not with --stdio"}
	case *timeout <= 0:
		return &usageError{fmt.Sprintf("--timeout %v: want a positive duration", *timeout)}
	case *grace < 0:
		return &usageError{fmt.Sprintf("--grace %v: want a duration of zero or more", *grace)}
	case *maxRuns <= 0:
		return &usageError{fmt.Sprintf("--max-runs %d: want a positive number", *maxRuns)}
	}
	mem, err := parseSize(*memory)
	if err != nil {
		return &usageError{fmt.Sprintf("--memory %q: %v", *memory, err)}
	}
	if *listen == "" {
		*listen = defaultListen
	}
	if err := sec.check(*listen, *stdio); err != nil {
		return err
	}
	authCfg, err := sec.load()
	if err != nil {
		return err
	}
	// Records of a run and of its subcalls name the principal and session.
	logger := slog.New(telemetry.LogHandler(mcp.AuditHandler(slog.NewJSONHandler(stderr, nil))))
	obs, err := newObservability(ctx, *metrics, func(w string) { logger.Warn(w) })
	if err != nil {
		return err
	}
	defer obs.shutdown(context.WithoutCancel(ctx))

	ex, closeAll, err := newObservedExecutor(ctx, tools, host.Limits{Timeout: *timeout, MemoryBytes: mem}, *maxRuns, stderr, obs, *store)
	if err != nil {
		return err
	}
	defer closeAll()
	srv := mcp.NewServer(ex, sec.options(mcp.ServerOptions{Logger: logger, Name: "ptc-run",
		Limits: host.Limits{Timeout: *timeout, MemoryBytes: mem}}, authCfg))
	// Each subcall's result too, through the pipeline's slog result
	// logger: "tool result" with the tool, its parent (the run's token),
	// duration and failure code.
	ex.Pipeline().OnResult(pipeline.SlogResult(logger))

	// serveCtx outlives ctx by the shutdown: the runs in progress get
	// --grace to finish (then are aborted), and their answers are written.
	serveCtx, stopServing := context.WithCancel(context.WithoutCancel(ctx))
	defer stopServing()
	shutdown := func() {
		graceCtx, cancel := context.WithTimeout(context.Background(), *grace)
		defer cancel()
		if err := srv.Shutdown(graceCtx); err != nil {
			logger.Warn("shutdown", slog.String("error", err.Error()))
		}
	}

	if *stdio {
		stopped := make(chan struct{})
		go func() {
			select {
			case <-ctx.Done():
				shutdown()
				stopServing()
			case <-stopped:
			}
		}()
		err := srv.ServeStdio(serveCtx, readCloser{stdin}, writeCloser{stdout})
		close(stopped)
		if err != nil && serveCtx.Err() == nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("serve --stdio: %w", err)
		}
		return nil
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	hs := &http.Server{Handler: obs.withMetrics(srv.Handler()), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	logger.Info("listening", slog.String("addr", ln.Addr().String()), slog.String("mcp", "http://"+ln.Addr().String()+"/mcp"))
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", slog.String("grace", grace.String()))
	// Stop accepting connections and wait for the HTTP exchanges while the
	// runs finish or are aborted; the answers of aborted runs still go out.
	httpDone := make(chan error, 1)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), *grace+5*time.Second)
		defer cancel()
		httpDone <- hs.Shutdown(c)
	}()
	shutdown()
	if err := <-httpDone; err != nil {
		hs.Close()
	}
	logger.Info("stopped")
	return nil
}

// readCloser and writeCloser give the standard streams the Close the SDK's
// transport wants, without closing the process's own.
type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
