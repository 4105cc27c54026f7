package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os/exec"
	"path"
	"reflect"
	"slices"
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

// errorf returns a serverError of kind, its message with the server's
// secrets hidden.
func (c *Client) errorf(kind error, format string, args ...any) error {
	return &serverError{kind: kind, msg: c.red.apply(fmt.Sprintf(format, args...))}
}

// warnUnmatched logs the endpoint's Tools patterns that match none of the
// listed tools: a typo there would leave the server's tools out silently.
func (c *Client) warnUnmatched(listed []*sdk.Tool) {
	for _, p := range c.ep.Tools {
		if !slices.ContainsFunc(listed, func(t *sdk.Tool) bool { ok, _ := path.Match(p, t.Name); return ok }) {
			c.log.Warn("mcp tools pattern matches no tool of the server", slog.String("pattern", p))
		}
	}
}

// chosen reports whether the server's tool remote is one of the endpoint's
// Tools (all are when it names none).
func (c *Client) chosen(remote string) bool {
	if len(c.ep.Tools) == 0 {
		return true
	}
	for _, p := range c.ep.Tools {
		if ok, _ := path.Match(p, remote); ok {
			return true
		}
	}
	return false
}

// Defaults of [MountOptions].
const (
	defaultConnectTimeout = 30 * time.Second
	defaultCallTimeout    = 60 * time.Second
	defaultMinBackoff     = 250 * time.Millisecond
	defaultMaxBackoff     = 30 * time.Second
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
	// and listing its tools; 0 means 30s.
	ConnectTimeout time.Duration
	// CallTimeout is each tool's declared timeout (enforced by the
	// pipeline's timeout policy); 0 means 60s, negative none.
	CallTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait between two restarts of a
	// server that exited: after a failed restart the wait doubles, from
	// MinBackoff up to MaxBackoff. Zero means 250ms and 30s.
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
		o.ConnectTimeout = defaultConnectTimeout
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = defaultCallTimeout
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = defaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = defaultMaxBackoff
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
	log  *slog.Logger // its secrets redacted
	// red hides the endpoint's secrets in errors and logs.
	red *redactor
	// http and watch reach a remote server (nil for a stdio one); watch
	// keeps its last refusal of the credentials.
	http  *http.Client
	watch *authWatch

	// restart (capacity 1) is held while connecting after an exit: a
	// restart happens once however many calls find the server down, and a
	// call waiting for it still honours its context.
	restart chan struct{}
	// life ends when Close begins: a restart in progress gives up.
	life    context.Context
	endLife context.CancelFunc
	// syncMu serialises the synchronisations of the registrations.
	syncMu sync.Mutex

	mu       sync.Mutex
	conn     *conn
	down     error     // why the last connection ended; nil while up
	started  time.Time // when conn was made
	quick    int       // exits (and failed restarts) in a row, each soon after a start
	nextTry  time.Time // no restart before this
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

	closeOnce sync.Once
	closeErr  error
	ended     chan struct{}
	err       error // why it ended (never nil), set before ended closes
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
	life, endLife := context.WithCancel(context.Background())
	red := ep.redactor()
	c := &Client{
		life:    life,
		endLife: endLife,
		ep:      ep,
		reg:     reg,
		opts:    opts,
		red:     red,
		log:     red.logger(opts.Logger).With(slog.String("mcp_server", ep.Name)),
		restart: make(chan struct{}, 1),
		tools:   make(map[string]*mounted),
		resync:  make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	if ep.Command == "" {
		c.watch = &authWatch{}
		c.http = ep.httpClient(c.watch)
	}
	cn, err := c.connect(ctx)
	if err != nil {
		endLife()
		return nil, err
	}
	c.mu.Lock()
	c.adopt(cn)
	c.mu.Unlock()
	if err := c.sync(ctx, cn, true); err != nil {
		cn.close()
		c.disposeAll()
		endLife()
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
	c.mu.Unlock()
	c.endLife()
	// Wait for a restart in progress: it gives up and closes what it
	// started.
	c.restart <- struct{}{}
	<-c.restart
	close(c.stop)
	<-c.done
	c.disposeAll()
	c.mu.Lock()
	cn := c.conn
	c.mu.Unlock()
	return cn.close()
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
		cmd.Env, cmd.Dir = c.ep.Env, c.ep.Dir
		cn.proc = newProcess(cmd, c.opts.Stderr)
		cn.tap = newSchemaTap()
		transport = &tapTransport{Transport: &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, tap: cn.tap}
	} else {
		c.watch.set(nil)
		transport = &sdk.StreamableClientTransport{Endpoint: c.ep.URL, HTTPClient: c.http, MaxRetries: -1}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "ptc", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { c.wake() },
	})
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		if cn.proc != nil {
			cn.proc.kill()
		}
		if f := c.watch.failure(); f != nil {
			return nil, c.errorf(ErrUnavailable, "MCP server %s %s", c.ep, f.explain(c.ep))
		}
		return nil, c.errorf(ErrUnavailable, "MCP server %s could not be started or initialised: %v%s", c.ep, err, cn.stderrTail())
	}
	cn.session = session
	go func() {
		cn.err = session.Wait()
		if cn.err == nil {
			cn.err = errConnClosed
		}
		close(cn.ended)
		c.mu.Lock()
		c.noticeEnd(cn)
		c.mu.Unlock()
	}()
	return cn, nil
}

// adopt makes cn the current connection; c.mu must be held.
func (c *Client) adopt(cn *conn) {
	c.conn, c.down, c.started = cn, nil, time.Now()
	c.noticeEnd(cn)
}

// stableAfter is how long a server must have run for its exit to count as
// a first failure again: it is then restarted on the next call at once.
const stableAfter = 10 * time.Second

// failed counts a failure (an exit, a failed restart) and says when the
// next restart may be tried: at once after the first failure in a row,
// then after MinBackoff, doubling up to MaxBackoff. c.mu must be held.
func (c *Client) failed() {
	if time.Since(c.started) >= stableAfter {
		c.quick = 0
	}
	c.quick++
	var wait time.Duration
	if c.quick > 1 {
		wait = c.opts.MinBackoff
		for i := 2; i < c.quick && wait < c.opts.MaxBackoff; i++ {
			wait *= 2
		}
		wait = min(wait, c.opts.MaxBackoff)
	}
	c.nextTry = time.Now().Add(wait)
}

// noticeEnd marks the server down if cn, the current connection, ended;
// c.mu must be held.
func (c *Client) noticeEnd(cn *conn) {
	if c.conn != cn || c.closed || c.down != nil || !isEnded(cn) {
		return
	}
	c.markDown(cn.err)
	c.log.Warn("mcp server exited", slog.String("error", cn.err.Error()), slog.String("stderr", cn.lastWords()))
}

// markDown records that the current connection ended with err (not nil);
// c.mu must be held.
func (c *Client) markDown(err error) {
	c.down = err
	c.failed()
}

// errConnClosed is why a connection ended when the session says nothing.
var errConnClosed = errors.New("the connection closed")

// terminateAfter is how long closing a stdio server waits for it to exit
// after closing its stdin, before SIGTERM (and as long again before
// SIGKILL). Servers that exit on end of input take a few milliseconds;
// many never do, and a command line should not wait long for them.
const terminateAfter = 300 * time.Millisecond

// close ends the session and the server. A server that had to be
// terminated is not an error: that is how closing ends it.
// Closing twice waits for the first and returns its error.
func (cn *conn) close() error {
	cn.closeOnce.Do(func() {
		err := cn.session.Close()
		if cn.proc != nil {
			cn.proc.kill()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				err = nil
			}
		}
		<-cn.ended
		cn.closeErr = err
	})
	return cn.closeErr
}

// lastWords is the last line a stdio server wrote to its standard error.
func (cn *conn) lastWords() string {
	if cn.proc == nil {
		return ""
	}
	return cn.proc.tail()
}

// stderrTail is lastWords as the end of an error message.
func (cn *conn) stderrTail() string {
	if t := cn.lastWords(); t != "" {
		return "; its stderr ended with: " + t
	}
	return ""
}

// live returns the current connection, restarting the server if it exited
// and its backoff has passed.
func (c *Client) live(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	cn, down, closed := c.conn, c.down, c.closed
	c.mu.Unlock()
	switch {
	case closed:
		return nil, c.errorf(ErrClosed, "MCP server %s was unmounted", c.ep.Name)
	case down == nil:
		return cn, nil
	}
	select {
	case c.restart <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	defer func() { <-c.restart }()
	c.mu.Lock()
	cn, down, closed = c.conn, c.down, c.closed
	wait := time.Until(c.nextTry)
	c.mu.Unlock()
	switch {
	case closed:
		return nil, c.errorf(ErrClosed, "MCP server %s was unmounted", c.ep.Name)
	case down == nil: // another call restarted it
		return cn, nil
	case wait > 0:
		return nil, c.errorf(ErrServerExited, "MCP server %s exited (%s)%s; it is restarted on a call after %s",
			c.ep.Name, down.Error(), cn.stderrTail(), wait.Round(time.Millisecond))
	}
	// The restart ends with the call's context or with Close.
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(c.life, func() { cancel(ErrClosed) })
	defer stop()
	next, err := c.connect(rctx)
	if err == nil {
		if err = c.sync(rctx, next, true); err != nil {
			next.close()
		}
	}
	c.mu.Lock()
	if err != nil {
		c.failed()
		wait := time.Until(c.nextTry).Round(time.Millisecond)
		c.mu.Unlock()
		c.log.Warn("mcp server restart failed", slog.String("error", err.Error()), slog.Duration("retry_in", wait))
		return nil, c.red.err(fmt.Errorf("MCP server %s exited (%s) and could not be restarted: %w", c.ep.Name, down.Error(), err))
	}
	if c.closed {
		c.mu.Unlock()
		next.close()
		return nil, c.errorf(ErrClosed, "MCP server %s was unmounted", c.ep.Name)
	}
	old := c.conn
	c.adopt(next)
	c.restarts++
	restarts := c.restarts
	c.mu.Unlock()
	c.log.Warn("mcp server restarted", slog.Int("restarts", restarts), slog.String("after", down.Error()))
	old.close() // it ended: this only reaps it
	return next, nil
}

// hungAfter is how long a call whose context ended may wait for the SDK to
// give up. The SDK stops waiting for the answer at once, but a write to a
// stdio server that does not read its input blocks whatever the context.
const hungAfter = time.Second

// hung closes cn, whose server stopped reading its input, and marks the
// server down, so that the next call restarts it.
func (c *Client) hung(cn *conn) {
	c.mu.Lock()
	if c.conn == cn && c.down == nil && !c.closed {
		c.markDown(errors.New("it stopped reading its input"))
		c.log.Warn("mcp server hung: it stopped reading its input; closing it")
	}
	c.mu.Unlock()
	// Kill it first: the SDK's close waits for the blocked write, which
	// fails only once the pipe has no reader.
	if cn.proc != nil {
		cn.proc.kill()
	}
	go cn.close() // Close waits for it (conn.close runs once)
}

// IdempotencyMetaKey is the _meta key under which a mounted server's
// tool call carries registry.Exec.IdempotencyKey (in a durable run): the
// same on every try of one subcall.
const IdempotencyMetaKey = "io.github.ptchost/idempotencyKey"

// call runs the server's tool remote with the raw arguments args; key is
// the call's idempotency key ("" for none).
func (c *Client) call(ctx context.Context, remote string, args json.RawMessage, key string) (*Result, error) {
	cn, err := c.live(ctx)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		meta := traceMeta(ctx)
		if key != "" {
			meta = maps.Clone(meta)
			if meta == nil {
				meta = sdk.Meta{}
			}
			meta[IdempotencyMetaKey] = key
		}
		res, err := cn.session.CallTool(ctx, &sdk.CallToolParams{Meta: meta, Name: remote, Arguments: args})
		done <- answer{res, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		select {
		case a = <-done:
		case <-time.After(hungAfter):
			c.hung(cn)
			return nil, context.Cause(ctx)
		}
	}
	res, err := a.res, a.err
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case c.watch.failure() != nil:
		return nil, c.errorf(ErrUnavailable, "MCP server %s %s", c.ep.Name, c.watch.failure().explain(c.ep))
	case ended(cn, err):
		return nil, c.errorf(ErrServerExited, "MCP server %s exited during the call (%s)%s",
			c.ep.Name, cn.err.Error(), cn.stderrTail())
	default:
		return nil, c.red.err(fmt.Errorf("MCP server %s: %w", c.ep.Name, err))
	}
	if res.IsError {
		text, _ := contentText(parts(res.Content))
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return nil, errors.New(c.red.apply(text))
	}
	return newResult(res)
}

// ended reports whether the call's error err came from the connection
// ending. The session ends shortly after its connection fails, so an error
// that says the connection failed waits (boundedly) for that to be seen.
func ended(cn *conn, err error) bool {
	if isEnded(cn) {
		return true
	}
	if !errors.Is(err, sdk.ErrConnectionClosed) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false
	}
	select {
	case <-cn.ended:
		return true
	case <-time.After(2 * time.Second):
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
		if err := c.sync(ctx, cn, false); err != nil {
			c.log.Warn("mcp tools re-synchronisation failed", slog.String("error", err.Error()))
		}
		cancel()
	}
}

// sync lists the server's tools through cn and makes the registrations
// match: new tools registered, changed ones replaced, vanished ones
// disposed. Unless adopting (cn is about to become the connection), a list
// from a connection that is no longer the current one is dropped.
func (c *Client) sync(ctx context.Context, cn *conn, adopting bool) error {
	// One synchronisation at a time; the registry is changed without c.mu
	// held, so that its subscribers may call the client.
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	var listed []*sdk.Tool
	for t, err := range cn.session.Tools(ctx, nil) {
		if err != nil {
			return c.errorf(ErrUnavailable, "MCP server %s: listing its tools failed: %v%s", c.ep, err, cn.stderrTail())
		}
		listed = append(listed, t)
	}
	c.mu.Lock()
	current := c.conn == cn && c.down == nil
	next := maps.Clone(c.tools)
	c.mu.Unlock()
	if !adopting && !current {
		return nil
	}
	if adopting {
		c.warnUnmatched(listed)
	}
	seen := make(map[string]string, len(listed)) // registry name → remote name
	var added, replaced, removed int
	var gone []*mounted
	for _, t := range listed {
		if !c.chosen(t.Name) {
			continue // not registered at all
		}
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
		if old == nil {
			if _, taken := c.reg.Get(name, c.opts.Scope, nil); taken {
				c.log.Warn("mcp tool refused: a tool of that name is already registered",
					slog.String("tool", t.Name), slog.String("name", name))
				delete(seen, name)
				continue
			}
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
			gone = append(gone, old)
			replaced++
		} else {
			added++
		}
	}
	for name, m := range next {
		if _, ok := seen[name]; !ok {
			gone = append(gone, m)
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
	// The registrations replaced or removed go only now, so that a
	// subscriber told of their going finds Tools already without them.
	for _, m := range gone {
		m.dispose()
	}
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
	idempotent := false
	if a := t.Annotations; a != nil {
		if a.ReadOnlyHint {
			mode = registry.Parallel
		}
		// A read, or a write the server says repeats harmlessly: a durable
		// run may make it again after its process stopped.
		idempotent = a.ReadOnlyHint || a.IdempotentHint
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
		Execute: func(ctx context.Context, args json.RawMessage, e *registry.Exec) (*Result, error) {
			return c.call(ctx, remote, args, e.IdempotencyKey)
		},
		ExecutionMode: func(json.RawMessage) registry.Mode { return mode },
		Idempotent:    idempotent,
		TimeoutMs:     timeoutMs,
		DeferLoading:  c.opts.DeferLoading || c.ep.DeferLoading,
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
