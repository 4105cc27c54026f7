package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/ptchost/ptc/internal/telemetry"
	"github.com/ptchost/ptc/registry"
)

// The stages, in order: prepare, preExecute, guard, ask, dispatch (the
// execute wrappers around the body, then the output schema check), project,
// postExecute, finalize and result. run strings them together; each is a
// method of its own so it can be tested alone.

// prepare looks the tool up through env's tool set, checks the argument
// limits, validates and freezes the arguments and assigns a correlation
// token.
func (p *Pipeline) prepare(call RawCall, env Env) *Invocation {
	inv := &Invocation{p: p, env: env, id: call.ID, key: call.IdempotencyKey, name: call.Name}
	p.setToken(inv)
	inv.out.inv = inv
	t, err := p.reg.Executable(call.Name, env.Agent, env.ToolSet)
	if err == nil {
		inv.tool = t
		err = p.checkArguments(call.Name, call.Arguments)
	}
	if err == nil {
		var c preparedCall
		if c, err = inv.tool.Prepare(call.Arguments); err == nil {
			inv.call = c
			if t.HasPresentation() {
				inv.present = &presentation{call: presentCall(c)}
			}
			return inv
		}
	}
	inv.raw = bytes.Clone(call.Arguments)
	inv.err = registryFailure(call.Name, err)
	return inv
}

// registryFailure turns a registry lookup or preparation error into the
// call's failure, keeping the registry's code.
func registryFailure(name string, err error) *Error {
	code := CodeOf(err)
	if code == "" {
		code = codeToolFailed
	}
	return &Error{Code: code, Tool: name, Reason: err.Error(), Err: err}
}

// relookup checks, before an invocation prepared earlier runs, that its
// tool set still admits the same tool.
func (p *Pipeline) relookup(inv *Invocation) *Error {
	t, err := p.reg.Executable(inv.name, inv.env.Agent, inv.env.ToolSet)
	if err != nil {
		return registryFailure(inv.name, err)
	}
	if t != inv.tool {
		err := &registry.Error{Kind: registry.ErrUnknownTool, Tool: inv.name, Err: fmt.Errorf("%w: tool was replaced after the call was prepared", registry.ErrStaleToolSet)}
		return registryFailure(inv.name, err)
	}
	return nil
}

// run runs every stage after prepare and the result listeners.
func (p *Pipeline) run(ctx context.Context, inv *Invocation) *Outcome {
	h := p.hooks.Load()
	inv.start = time.Now()
	var span trace.Span
	if p.tel != nil {
		ctx, span = p.tel.start(ctx, inv)
	}
	logCall(ctx, inv)
	fail := inv.err
	if fail == nil && !inv.fresh {
		fail = p.relookup(inv)
	}
	if fail == nil {
		fail = p.stages(ctx, h, inv)
	}
	o := &inv.out
	if fail != nil {
		o.err, o.value, o.content, o.rawContent = fail, nil, nil, nil
	}
	o.duration = time.Since(inv.start)
	p.result(ctx, h, o)
	logResult(ctx, inv)
	if p.tel != nil {
		p.tel.end(ctx, inv, span, o)
	}
	return o
}

// stages runs pre-execute to finalize on a prepared call and fills in
// inv.out on success.
func (p *Pipeline) stages(ctx context.Context, h *hooks, inv *Invocation) *Error {
	if ctx.Err() != nil {
		return abortedBefore(ctx, inv)
	}
	d := p.preExecute(ctx, h, inv)
	if d.Verdict == VerdictDeny {
		p.note(ctx, telemetry.EventDenied, "pre_execute", d.Reason)
		return denied(inv, d.Reason, d.Info)
	}
	if reason := p.guard(h, inv); reason != "" {
		p.note(ctx, telemetry.EventDenied, "guard", reason)
		return denied(inv, reason, nil)
	}
	if d.Verdict == VerdictAsk {
		p.note(ctx, telemetry.EventAsked, "pre_execute", d.Reason)
		if e := p.ask(ctx, inv, d.Reason); e != nil {
			return e
		}
	}
	if ctx.Err() != nil {
		// Cancelled during the policies: no wrapper runs.
		return abortedBefore(ctx, inv)
	}
	v, e := p.dispatch(ctx, h, inv)
	if e != nil {
		return e
	}
	if err := inv.tool.ValidateOutput(v); err != nil {
		return toolFailed(inv, err)
	}
	if len(h.post) == 0 && inv.present == nil {
		// Nothing reads the content before the caller does, which may
		// never: it is rendered on first use (Outcome.Content).
		content, raw, ok, e := p.deferRender(inv, v)
		if ok {
			if e != nil {
				return e
			}
			if ctx.Err() != nil {
				return cancelled(ctx, inv)
			}
			inv.out.value, inv.out.content, inv.out.rawContent = v, content, raw
			return nil
		}
	}
	content, e := p.project(inv, v)
	if e != nil {
		return e
	}
	r := &inv.post
	r.Value, r.Content = v, content
	if p.postExecute(ctx, h, inv, r); r.blocked {
		reason := r.feedback
		if reason == "" {
			reason = fmt.Sprintf("tool %q: result blocked by policy", inv.name)
		}
		inv.out.context = r.Context
		p.note(ctx, telemetry.EventBlocked, "post_execute", reason)
		return &Error{Code: codePostExecuteBlocked, Tool: inv.name, Reason: reason, Err: ErrPostExecuteBlocked}
	}
	if ctx.Err() != nil {
		// Cancellation replaces only a success: with ABORTED if the body
		// was dispatched, else (a wrapper answered without it, from a
		// cache say) with ABORTED_BEFORE_DISPATCH.
		return cancelled(ctx, inv)
	}
	content, e = p.finalize(inv, r.Content)
	if e != nil {
		return e
	}
	inv.out.value, inv.out.content, inv.out.context = r.Value, content, r.Context
	if inv.present != nil {
		inv.present.result = presentResult(inv.call, r.Value, content)
	}
	return nil
}

// presentCall returns the tool's call presentation descriptor; nil when it
// declares none or its PresentCall panics.
func presentCall(c preparedCall) (d any) {
	defer func() {
		if recover() != nil {
			d = nil
		}
	}()
	d, _ = c.PresentCall()
	return d
}

// presentResult returns the tool's result presentation descriptor; nil
// when it declares none, or its PresentResult fails or panics.
func presentResult(c preparedCall, value any, content []registry.Part) (d any) {
	defer func() {
		if recover() != nil {
			d = nil
		}
	}()
	d, ok, _ := c.PresentResult(value, content)
	if !ok {
		return nil
	}
	return d
}

func denied(inv *Invocation, reason string, info *ErrorInfo) *Error {
	if reason == "" {
		reason = fmt.Sprintf("tool %q: call denied", inv.name)
	}
	return &Error{Code: codeDenied, Tool: inv.name, Reason: reason, Info: info, Err: ErrDenied}
}

func abortedBefore(ctx context.Context, inv *Invocation) *Error {
	return &Error{Code: codeAbortedBeforeDispatch, Tool: inv.name,
		Reason: fmt.Sprintf("tool %q: aborted before dispatch", inv.name),
		Err:    fmt.Errorf("%w: %w", ErrAbortedBeforeDispatch, context.Cause(ctx))}
}

func aborted(ctx context.Context, inv *Invocation) *Error {
	return &Error{Code: codeAborted, Tool: inv.name,
		Reason: fmt.Sprintf("tool %q: aborted", inv.name),
		Err:    fmt.Errorf("%w: %w", ErrAborted, context.Cause(ctx))}
}

// cancelled is the failure of a call the caller cancelled: ABORTED when its
// body was dispatched, ABORTED_BEFORE_DISPATCH when it was not.
func cancelled(ctx context.Context, inv *Invocation) *Error {
	if inv.active.Load() {
		return aborted(ctx, inv)
	}
	return abortedBefore(ctx, inv)
}

// isCancellation reports whether err is the caller's cancellation (ctx is
// done) rather than a failure of its own.
func isCancellation(ctx context.Context, err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Cause(ctx))
}

func toolFailed(inv *Invocation, err error) *Error {
	return &Error{Code: codeToolFailed, Tool: inv.name, Reason: err.Error(), Err: fmt.Errorf("%w: %w", ErrToolFailed, err)}
}

// preExecute runs the waterfall. A panicking listener denies the call.
func (p *Pipeline) preExecute(ctx context.Context, h *hooks, inv *Invocation) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = Deny(fmt.Sprintf("tool %q: pre-execute policy failed: %v", inv.name, r))
		}
	}()
	for _, l := range h.pre {
		d = l.fn(ctx, inv, d)
	}
	return d
}

// guard runs the monotonic guards and returns the first denial's reason.
func (p *Pipeline) guard(h *hooks, inv *Invocation) (reason string) {
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("tool %q: guard failed: %v", inv.name, r)
		}
	}()
	for _, g := range h.guards {
		if reason = g.fn(inv); reason != "" {
			return reason
		}
	}
	return ""
}

// ask puts question to the env's approver.
func (p *Pipeline) ask(ctx context.Context, inv *Invocation, question string) *Error {
	approve := inv.env.Approver
	if approve == nil {
		return &Error{Code: codeAskUnanswered, Tool: inv.name,
			Reason: fmt.Sprintf("tool %q: approval required and no approver is available", inv.name),
			Err:    ErrAskUnanswered}
	}
	a, err := safeApprove(ctx, approve, inv, question)
	if ctx.Err() != nil {
		return abortedBefore(ctx, inv)
	}
	if err != nil {
		return &Error{Code: codeAskUnanswered, Tool: inv.name,
			Reason: fmt.Sprintf("tool %q: approval unanswered: %v", inv.name, err),
			Err:    fmt.Errorf("%w: %w", ErrAskUnanswered, err)}
	}
	if !a.Approved {
		reason := a.Reason
		if reason == "" {
			reason = fmt.Sprintf("tool %q: call was not approved", inv.name)
		}
		p.note(ctx, telemetry.EventDenied, "approver", reason)
		return denied(inv, reason, nil)
	}
	p.note(ctx, telemetry.EventApproved, "approver", "")
	return nil
}

func safeApprove(ctx context.Context, approve Approver, inv *Invocation, q string) (a Answer, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, err = Answer{}, fmt.Errorf("approver panic: %v", r)
		}
	}()
	return approve(ctx, inv, q)
}

// dispatch runs the execute wrappers around the body and classifies the
// result.
func (p *Pipeline) dispatch(ctx context.Context, h *hooks, inv *Invocation) (any, *Error) {
	ms := 0
	if inv.tool != nil {
		ms = inv.tool.TimeoutMs()
	}
	if len(h.wrappers) == 0 && ms <= 0 {
		v, err := p.body(ctx, ctx, inv)
		return p.classify(ctx, inv, v, err)
	}
	next := func(bctx context.Context) (any, error) { return p.body(ctx, bctx, inv) }
	for i := len(h.wrappers) - 1; i >= 0; i-- {
		w, inner := h.wrappers[i].fn, next
		next = func(c context.Context) (any, error) { return w(c, inv, inner) }
	}
	if ms > 0 {
		// The tool's declared timeout, outside every wrapper.
		inner := next
		next = func(c context.Context) (any, error) { return declaredTimeout(c, inv, ms, inner) }
	}
	v, err := safeNext(ctx, next, inv)
	return p.classify(ctx, inv, v, err)
}

func safeNext(ctx context.Context, next func(context.Context) (any, error), inv *Invocation) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("tool %q: execute wrapper panic: %v", inv.name, r)
		}
	}()
	return next(ctx)
}

// body invokes the tool with bctx (the wrappers' context) fused with the
// caller's ctx.
func (p *Pipeline) body(ctx, bctx context.Context, inv *Invocation) (any, error) {
	if ctx.Err() != nil {
		return nil, abortedBefore(ctx, inv)
	}
	if bctx != ctx && ctx.Done() != nil {
		fused, cancel := context.WithCancelCause(bctx)
		defer cancel(nil)
		stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
		defer stop()
		bctx = fused
	}
	if bctx.Err() != nil {
		// A wrapper's context is done: the body is not invoked.
		return nil, context.Cause(bctx)
	}
	inv.active.Store(true)
	return inv.call.Execute(bctx, registry.Exec{CallID: inv.token, Agent: inv.env.Agent, IdempotencyKey: inv.key})
}

// classify turns the dispatch result into a value or the call's failure.
// What failed first is what is reported: an error of a wrapper or of the
// body is the call's failure even if the caller cancelled meanwhile, unless
// the error is that cancellation. A success is returned as is; stages
// replaces it if the caller cancelled.
func (p *Pipeline) classify(ctx context.Context, inv *Invocation, v any, err error) (any, *Error) {
	if err == nil {
		return v, nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		if pe.Code == codeAbortedBeforeDispatch && inv.active.Load() {
			// A wrapper called next again after the caller cancelled; the
			// body had already been dispatched.
			return nil, aborted(ctx, inv)
		}
		if pe.Tool == "" {
			c := *pe
			c.Tool = inv.name
			pe = &c
		}
		return nil, pe
	}
	if ctx.Err() != nil && isCancellation(ctx, err) {
		// The body or a wrapper gave up because the caller cancelled: that
		// is the cancellation, not a failure of the tool.
		return nil, cancelled(ctx, inv)
	}
	return nil, toolFailed(inv, err)
}

// project installs the execution-prepared content: the tool's
// ProjectContent if it declares one, else its rendered output.
func (p *Pipeline) project(inv *Invocation, v any) (content []registry.Part, e *Error) {
	defer func() {
		if r := recover(); r != nil {
			content, e = nil, toolFailed(inv, fmt.Errorf("tool %q: render panic: %v", inv.name, r))
		}
	}()
	content, ok, err := inv.call.ProjectContent(v)
	if !ok && err == nil {
		content, err = inv.call.Render(v)
	}
	if err != nil {
		return nil, toolFailed(inv, err)
	}
	return content, nil
}

// deferRender is project for a call whose content may be rendered later
// (its DeferRender), failing as project would.
func (p *Pipeline) deferRender(inv *Invocation, v any) (content []registry.Part, raw json.RawMessage, ok bool, e *Error) {
	defer func() {
		if r := recover(); r != nil {
			content, raw, ok, e = nil, nil, true, toolFailed(inv, fmt.Errorf("tool %q: render panic: %v", inv.name, r))
		}
	}()
	content, raw, ok, err := inv.call.DeferRender(v)
	if err != nil {
		return nil, nil, ok, toolFailed(inv, err)
	}
	return content, raw, ok, nil
}

// postExecute runs the post-execute listeners until one blocks. A panic
// blocks the result.
func (p *Pipeline) postExecute(ctx context.Context, h *hooks, inv *Invocation, r *PostResult) {
	defer func() {
		if x := recover(); x != nil {
			r.Block(fmt.Sprintf("tool %q: post-execute policy failed: %v", inv.name, x))
		}
	}()
	for _, l := range h.post {
		if l.fn(ctx, inv, r); r.blocked {
			return
		}
	}
}

// finalize applies the tool's final content transform.
func (p *Pipeline) finalize(inv *Invocation, content []registry.Part) (out []registry.Part, e *Error) {
	defer func() {
		if r := recover(); r != nil {
			out, e = nil, toolFailed(inv, fmt.Errorf("tool %q: finalize content panic: %v", inv.name, r))
		}
	}()
	return inv.call.FinalizeContent(content), nil
}

// result hands the frozen outcome to the result listeners.
func (p *Pipeline) result(ctx context.Context, h *hooks, o *Outcome) {
	for _, l := range h.results {
		observe(ctx, l.fn, o)
	}
}

func observe(ctx context.Context, l ResultListener, o *Outcome) {
	defer func() { _ = recover() }()
	l(ctx, o)
}

// logCall writes the "tool call" record of inv to the env's logger, if
// any.
func logCall(ctx context.Context, inv *Invocation) {
	if l := inv.env.Logger; l != nil {
		defer func() { _ = recover() }()
		slogCall(ctx, l, inv)
	}
}

// logResult writes the "tool result" record of inv's outcome to the env's
// logger, if any.
func logResult(ctx context.Context, inv *Invocation) {
	if l := inv.env.Logger; l != nil {
		defer func() { _ = recover() }()
		slogResult(ctx, l, &inv.out)
	}
}
