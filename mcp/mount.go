package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptchost/ptc/registry"
)

// Errors a caller of [Mount] or of a mounted tool can branch on.
var (
	// ErrUnavailable: the server could not be started, could not be
	// reached, or did not initialise.
	ErrUnavailable = errors.New("mcp: server unavailable")
	// ErrServerExited: the server's connection ended (the process exited
	// or the HTTP session was lost) before it answered.
	ErrServerExited = errors.New("mcp: server exited")
	// ErrClosed: the mount was closed.
	ErrClosed = errors.New("mcp: mount closed")
)

// serverError is an error about a server that matches a sentinel and
// reads as a sentence the model or the user can act on.
type serverError struct {
	kind error
	msg  string
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.kind }

func errorf(kind error, format string, args ...any) error {
	return &serverError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// Defaults of [MountOptions].
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultCallTimeout    = 60 * time.Second
	DefaultMinBackoff     = 250 * time.Millisecond
	DefaultMaxBackoff     = 30 * time.Second
)

// MountOptions configure [Mount]. The zero value is usable.
type MountOptions struct {
	// Scope is where the tools are registered; the zero Scope is the
	// deployment.
	Scope registry.Scope
	// Logger receives restarts, re-synchronisations and refused tools;
	// nil discards them.
	Logger *slog.Logger
	// ConnectTimeout bounds starting (or reaching) the server, initialising
	// and listing its tools; 0 means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// CallTimeout is each tool's declared timeout (enforced by the
	// pipeline's timeout policy); 0 means DefaultCallTimeout, negative none.
	CallTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait between two restarts of a
	// server that exited: after a failed restart the wait doubles, from
	// MinBackoff up to MaxBackoff. Zero means the defaults.
	MinBackoff, MaxBackoff time.Duration
	// DeferLoading marks every tool of the server DeferLoading: run_code's
	// description lists them by name only, and programs find them with
	// tools.$search and tools.$describe.
	DeferLoading bool
	// Stderr receives a stdio server's standard error; nil discards it.
	// Its last lines are kept either way, to explain an exit.
	Stderr io.Writer
}

func (o MountOptions) withDefaults() MountOptions {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	return o
}

// Client is a mounted MCP server: its connection and the tools it
// registered. It is safe for concurrent use.
type Client struct {
	ep   Endpoint
	reg  *registry.Registry
	opts MountOptions
	log  *slog.Logger

	// connMu serialises connecting: a restart happens once however many
	// calls find the server down.
	connMu sync.Mutex
	// syncMu serialises the synchronisations of the registrations.
	syncMu sync.Mutex

	mu       sync.Mutex
	conn     *conn
	down     error     // why the last connection ended; nil while up
	nextTry  time.Time // no restart before this
	backoff  time.Duration
	restarts int
	closed   bool
	tools    map[string]*mounted // by registry name

	// resync wakes the re-synchronisation loop (list_changed).
	resync chan struct{}
	stop   chan struct{}
	done   chan struct{}
}

// conn is one connection to the server: a session and, for a stdio
// server, its process.
type conn struct {
	session *sdk.ClientSession
	proc    *process   // nil over HTTP
	tap     *schemaTap // the schemas as written; nil over HTTP
	ended   chan struct{}
	err     error // why it ended, set before ended closes
}

// mounted is one registered tool.
type mounted struct {
	remote  string // the server's name for it
	def     string // its definition as JSON, to notice changes
	tool    *registry.Tool
	dispose func()
}

// Mount connects to the server ep names, lists its tools (every page) and
// registers each in reg as NAME__TOOL (see [ToolName]). It returns an error
// matching [ErrUnavailable] when the server cannot be started, reached or
// initialised within opts.ConnectTimeout (or ctx), and [ErrEndpoint] for a
// malformed ep. ctx bounds only the connection: the mount lives until
// Close.
func Mount(ctx context.Context, reg *registry.Registry, ep Endpoint, opts MountOptions) (*Client, error) {
	if err := ep.check(); err != nil {
		return nil, err
	}
	if reg == nil {
		return nil, errors.New("mcp: nil registry")
	}
	opts = opts.withDefaults()
	c := &Client{
		ep:      ep,
		reg:     reg,
		opts:    opts,
		log:     opts.Logger.With(slog.String("mcp_server", ep.Name)),
		backoff: opts.MinBackoff,
		tools:   make(map[string]*mounted),
		resync:  make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	cn, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.adopt(cn)
	c.mu.Unlock()
	if err := c.sync(ctx, cn); err != nil {
		cn.close()
		c.disposeAll()
		return nil, err
	}
	go c.loop()
	return c, nil
}

// Name returns the server's name, the prefix of its tools.
func (c *Client) Name() string { return c.ep.Name }

// Tools returns the registry names of the server's tools, sorted.
func (c *Client) Tools() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, 0, len(c.tools))
	for n := range c.tools {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Restarts returns how many times the server was restarted after it
// exited.
func (c *Client) Restarts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.restarts
}

// Close disposes the registrations and ends the connection: a stdio
// server's stdin is closed, and a server that has not exited within a
// second or two is terminated, then killed, with any process it started.
// Calls in progress fail. Later calls return nil.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	cn := c.conn
	c.mu.Unlock()
	close(c.stop)
	<-c.done
	c.disposeAll()
	if cn != nil {
		return cn.close()
	}
	return nil
}

func (c *Client) disposeAll() {
	c.mu.Lock()
	tools := c.tools
	c.tools = make(map[string]*mounted)
	c.mu.Unlock()
	for _, m := range tools {
		m.dispose()
	}
}

// connect starts (or reaches) the server and initialises a session.
func (c *Client) connect(ctx context.Context) (*conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	cn := &conn{ended: make(chan struct{})}
	var transport sdk.Transport
	if c.ep.Command != "" {
		cmd := exec.Command(c.ep.Command, c.ep.Args...)
		cmd.Env = c.ep.Env
		cn.proc = newProcess(cmd, c.opts.Stderr)
		cn.tap = newSchemaTap()
		transport = &tapTransport{Transport: &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, tap: cn.tap}
	} else {
		transport = &sdk.StreamableClientTransport{Endpoint: c.ep.URL, HTTPClient: c.ep.HTTPClient, MaxRetries: -1}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "ptc", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { c.wake() },
	})
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		if cn.proc != nil {
			cn.proc.kill()
		}
		return nil, errorf(ErrUnavailable, "MCP server %s could not be started or initialised: %v%s", c.ep, err, cn.stderrTail())
	}
	cn.session = session
	go func() {
		cn.err = session.Wait()
		close(cn.ended)
		c.mu.Lock()
		c.noticeEnd(cn)
		c.mu.Unlock()
	}()
	return cn, nil
}

// adopt makes cn the current connection; c.mu must be held.
func (c *Client) adopt(cn *conn) {
	c.conn, c.down = cn, nil
	c.noticeEnd(cn)
}

// noticeEnd marks the server down if cn, the current connection, ended;
// c.mu must be held.
func (c *Client) noticeEnd(cn *conn) {
	if c.conn != cn || c.closed || c.down != nil || !isEnded(cn) {
		return
	}
	c.down = cn.err
	if c.down == nil {
		c.down = errors.New("the connection closed")
	}
	c.nextTry = time.Now().Add(c.backoff)
	c.log.Warn("mcp server exited", slog.String("error", describeExit(cn.err)), slog.String("stderr", strings.TrimSpace(strings.TrimPrefix(cn.stderrTail(), "; its stderr ended with: "))))
}

// terminateAfter is how long closing a stdio server waits for it to exit
// after closing its stdin, before SIGTERM (and as long again before
// SIGKILL). Servers that exit on end of input take a few milliseconds;
// many never do, and a command line should not wait long for them.
const terminateAfter = 300 * time.Millisecond

// close ends the session and the server. A server that had to be
// terminated is not an error: that is how closing ends it.
func (cn *conn) close() error {
	err := cn.session.Close()
	if cn.proc != nil {
		cn.proc.kill()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = nil
		}
	}
	<-cn.ended
	return err
}

func (cn *conn) stderrTail() string {
	if cn.proc == nil {
		return ""
	}
	if t := cn.proc.tail(); t != "" {
		return "; its stderr ended with: " + t
	}
	return ""
}

func describeExit(err error) string {
	if err == nil {
		return "the connection closed"
	}
	return err.Error()
}

// live returns the current connection, restarting the server if it exited
// and its backoff has passed.
func (c *Client) live(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	cn, down, closed := c.conn, c.down, c.closed
	c.mu.Unlock()
	switch {
	case closed:
		return nil, errorf(ErrClosed, "MCP server %s was unmounted", c.ep.Name)
	case down == nil:
		return cn, nil
	}
	c.connMu.Lock()
	defer c.connMu.Unlock()
	c.mu.Lock()
	cn, down, closed = c.conn, c.down, c.closed
	wait := time.Until(c.nextTry)
	c.mu.Unlock()
	switch {
	case closed:
		return nil, errorf(ErrClosed, "MCP server %s was unmounted", c.ep.Name)
	case down == nil: // another call restarted it
		return cn, nil
	case wait > 0:
		return nil, errorf(ErrServerExited, "MCP server %s exited (%s)%s; it is restarted on a call after %s",
			c.ep.Name, describeExit(down), cn.stderrTail(), wait.Round(time.Millisecond))
	}
	next, err := c.connect(ctx)
	if err == nil {
		err = c.sync(ctx, next)
		if err != nil {
			next.close()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.backoff = min(2*c.backoff, c.opts.MaxBackoff)
		c.nextTry = time.Now().Add(c.backoff)
		c.log.Warn("mcp server restart failed", slog.String("error", err.Error()), slog.Duration("retry_in", c.backoff))
		return nil, fmt.Errorf("MCP server %s exited (%s) and could not be restarted: %w", c.ep.Name, describeExit(down), err)
	}
	if c.closed {
		go next.close()
		return nil, errorf(ErrClosed, "MCP server %s was unmounted", c.ep.Name)
	}
	old := c.conn
	c.backoff = c.opts.MinBackoff
	c.adopt(next)
	c.restarts++
	c.log.Info("mcp server restarted", slog.Int("restarts", c.restarts))
	go old.close() // already ended: this only reaps it
	return next, nil
}

// call runs the server's tool remote with the raw arguments args.
func (c *Client) call(ctx context.Context, remote string, args json.RawMessage) (*Result, error) {
	cn, err := c.live(ctx)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	res, err := cn.session.CallTool(ctx, &sdk.CallToolParams{Name: remote, Arguments: args})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case ended(cn, err):
		return nil, errorf(ErrServerExited, "MCP server %s exited during the call (%s)%s",
			c.ep.Name, describeExit(cn.err), cn.stderrTail())
	default:
		return nil, fmt.Errorf("MCP server %s: %w", c.ep.Name, err)
	}
	if res.IsError {
		text, _ := contentText(res.Content)
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return nil, errors.New(text)
	}
	return newResult(res)
}

// ended reports whether the call's error err came from the connection
// ending: the session ends shortly after a read or write fails, so a
// failed call waits a little for that to be seen.
func ended(cn *conn, err error) bool {
	wait := 50 * time.Millisecond
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		wait = 2 * time.Second
	}
	select {
	case <-cn.ended:
		return true
	case <-time.After(wait):
		return false
	}
}

func isEnded(cn *conn) bool {
	select {
	case <-cn.ended:
		return true
	default:
		return false
	}
}

// wake asks the loop to re-synchronise the tools.
func (c *Client) wake() {
	select {
	case c.resync <- struct{}{}:
	default:
	}
}

// loop re-synchronises the tools when the server says they changed.
func (c *Client) loop() {
	defer close(c.done)
	for {
		select {
		case <-c.stop:
			return
		case <-c.resync:
		}
		c.mu.Lock()
		cn, down := c.conn, c.down
		c.mu.Unlock()
		if down != nil {
			continue // a restart lists them again
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.opts.ConnectTimeout)
		go func() {
			select {
			case <-c.stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		if err := c.sync(ctx, cn); err != nil {
			c.log.Warn("mcp tools re-synchronisation failed", slog.String("error", err.Error()))
		}
		cancel()
	}
}

// sync lists the server's tools and makes the registrations match: new
// tools registered, changed ones replaced, vanished ones disposed.
func (c *Client) sync(ctx context.Context, cn *conn) error {
	var listed []*sdk.Tool
	for t, err := range cn.session.Tools(ctx, nil) {
		if err != nil {
			return errorf(ErrUnavailable, "MCP server %s: listing its tools failed: %v%s", c.ep, err, cn.stderrTail())
		}
		listed = append(listed, t)
	}
	// One synchronisation at a time; the registry is changed without c.mu
	// held, so that its subscribers may call the client.
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	c.mu.Lock()
	next := maps.Clone(c.tools)
	c.mu.Unlock()
	seen := make(map[string]string, len(listed)) // registry name → remote name
	var added, replaced, removed int
	for _, t := range listed {
		name := ToolName(c.ep.Name, t.Name)
		if other, dup := seen[name]; dup {
			c.log.Warn("mcp tool refused: its name collides with another tool's",
				slog.String("tool", t.Name), slog.String("other", other), slog.String("name", name))
			continue
		}
		seen[name] = t.Name
		def, err := json.Marshal(t)
		if err != nil {
			c.log.Warn("mcp tool refused", slog.String("tool", t.Name), slog.String("error", err.Error()))
			delete(seen, name)
			continue
		}
		old := next[name]
		if old != nil && old.def == string(def) {
			continue
		}
		tool, err := c.define(name, t, cn.tap)
		var dispose func()
		if err == nil {
			dispose, err = c.reg.Register(tool, registry.In(c.opts.Scope))
		}
		if err != nil {
			c.log.Warn("mcp tool refused", slog.String("tool", t.Name), slog.String("error", err.Error()))
			delete(seen, name)
			continue
		}
		next[name] = &mounted{remote: t.Name, def: string(def), tool: tool, dispose: dispose}
		if old != nil {
			old.dispose()
			replaced++
		} else {
			added++
		}
	}
	for name, m := range next {
		if _, ok := seen[name]; !ok {
			m.dispose()
			delete(next, name)
			removed++
		}
	}
	c.mu.Lock()
	closed := c.closed
	if !closed {
		c.tools = next
	}
	c.mu.Unlock()
	if closed { // Close ran meanwhile: nothing may stay registered
		for _, m := range next {
			m.dispose()
		}
		return nil
	}
	if added+replaced+removed > 0 {
		c.log.Info("mcp tools synchronised", slog.Int("tools", len(next)),
			slog.Int("added", added), slog.Int("replaced", replaced), slog.Int("removed", removed))
	}
	return nil
}

// define makes the registry tool for the server's tool t, with its
// schemas as the server wrote them when the tap saw them.
func (c *Client) define(name string, t *sdk.Tool, tap *schemaTap) (*registry.Tool, error) {
	rawIn, rawOut := tap.schemas(t.Name)
	params, err := schemaOf(t.InputSchema, rawIn)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	var output *registry.Schema
	if t.OutputSchema != nil {
		if output, err = schemaOf(t.OutputSchema, rawOut); err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
	}
	mode := registry.Serial
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		mode = registry.Parallel
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	timeoutMs := 0
	if c.opts.CallTimeout > 0 {
		timeoutMs = int(c.opts.CallTimeout.Milliseconds())
	}
	remote := t.Name
	return registry.Define(registry.Spec[json.RawMessage, *Result]{
		Name:        name,
		Description: desc,
		Parameters:  params,
		Output: registry.Output[json.RawMessage, *Result]{
			Schema: output,
			Render: func(_ json.RawMessage, r *Result) []registry.Part { return r.Content },
		},
		Execute: func(ctx context.Context, args json.RawMessage, _ *registry.Exec) (*Result, error) {
			return c.call(ctx, remote, args)
		},
		ExecutionMode: func(json.RawMessage) registry.Mode { return mode },
		TimeoutMs:     timeoutMs,
		DeferLoading:  c.opts.DeferLoading,
	})
}

// schemaOf turns a schema as the SDK decoded it into a registry schema:
// raw, the server's own bytes, when they are the same document (they keep
// the order of the properties), else the SDK's value re-encoded.
func schemaOf(v any, raw json.RawMessage) (*registry.Schema, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(raw) > 0 && sameJSON(raw, b) {
		if s, err := registry.ParseJSONSchema(raw); err == nil {
			return s, nil
		}
	}
	return registry.ParseJSONSchema(b)
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
