package ptcgenkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/firebase/genkit/go/ai"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/bridge/internal/convert"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Executor describes the tools the model sees and runs the calls:
// ptc.ToolExecutor, which *ptc.Executor (PTC mode: run_code, plus the
// direct tools in hybrid mode), *ptc.NativeExecutor and *ptc.Mounts
// implement. Only a *ptc.Executor suspends asks ([Bridge.Suspend]).
type Executor = ptc.ToolExecutor

// Tool is a tool the bridge makes: a Genkit multipart tool whose output
// is the result's text and whose content holds its images.
type Tool = *ai.ToolDef[any, *ai.MultipartToolResponse]

// Approval is the metadata of the interrupt a suspended ask raises
// ([Bridge.Suspend]), as ai.InterruptAs reads it from the interrupted
// tool request: the call a program asked to make, the policy's question
// and the run's signed continuation, which [Bridge.Restart] resumes.
type Approval struct {
	// Tool and Arguments are the call waiting for approval.
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Question is the policy's reason for asking.
	Question string `json:"question"`
	// Call is the call's number in the program (ptc.Subcall.N).
	Call int `json:"call"`
	// Continuation resumes the suspended run (ptc.Result.Continuation).
	Continuation []byte `json:"continuation"`
}

// resumed is the metadata [Bridge.Restart] gives the restarted tool.
type resumed struct {
	Continuation []byte `json:"ptcContinuation"`
	Approved     bool   `json:"ptcApproved"`
	Reason       string `json:"ptcReason,omitempty"`
}

// Bridge makes Genkit tools of an executor's tools, run in the
// environment a batch carries. Make one with [New]; set Agent, ToolSet,
// Approver, Logger and Suspend before its first use when the defaults do
// not fit.
type Bridge struct {
	// Executor describes the tools and runs the calls. Required.
	Executor Executor
	// Agent is the calling agent's scope (pipeline.Batch.Agent).
	Agent registry.Scope
	// ToolSet is the step's resolved tool set (pipeline.Batch.ToolSet);
	// nil: the registered tools, without conditional ones.
	ToolSet *registry.ToolSet
	// Approver answers asks; nil leaves them unanswered. With Suspend,
	// it answers only the asks of direct calls (hybrid mode).
	Approver pipeline.Approver
	// Logger, when set, gets the calls' slog records
	// (pipeline.Batch.Logger).
	Logger *slog.Logger
	// Suspend makes an ask of a program's subcall interrupt the
	// generation (a Genkit tool interrupt whose metadata is an
	// [Approval]) instead of waiting for Approver: the run is suspended
	// (ptc.RunOptions.SuspendAsks). [Bridge.Restart] turns a decision into
	// the restart that resumes it. Needs Executor to be a *ptc.Executor
	// with Config.ContinuationKey.
	Suspend bool
}

// New returns a bridge over ex for a standalone agent (the zero scope)
// and every registered tool (a nil tool set).
func New(ex Executor) *Bridge { return &Bridge{Executor: ex} }

// env is the bridge's environment.
func (b *Bridge) env() convert.Env {
	return convert.Env{Executor: b.Executor, Agent: b.Agent, ToolSet: b.ToolSet, Approver: b.Approver, Logger: b.Logger}
}

// Tools returns the tools the executor describes for the bridge's agent
// and tool set, in order, as Genkit tools to pass to ai.WithTools.
func (b *Bridge) Tools() ([]ai.ToolRef, error) {
	schemas := b.env().Describe()
	refs := make([]ai.ToolRef, 0, len(schemas))
	for _, s := range schemas {
		t, err := b.tool(s)
		if err != nil {
			return nil, err
		}
		refs = append(refs, t)
	}
	return refs, nil
}

// tool makes the Genkit tool of a tool schema.
func (b *Bridge) tool(s registry.ToolSchema) (Tool, error) {
	var input map[string]any
	if err := json.Unmarshal(convert.ObjectSchema(s.Parameters), &input); err != nil {
		return nil, fmt.Errorf("ptcgenkit: tool %q: parameters: %w", s.Name, err)
	}
	name := s.Name
	return ai.NewMultipartTool(name, s.Description, func(tc *ai.ToolContext, in any) (*ai.MultipartToolResponse, error) {
		return b.run(tc, name, in)
	}, ai.WithInputSchema(input)), nil
}

// Response returns r as a Genkit multipart tool response: its output is
// r's content other than images, one part per line ("Error: ..." for a
// failure, so that the model reads it), and its content the images, as
// media parts holding data URLs. A nil r is an error result.
func Response(r *ptc.Result) *ai.MultipartToolResponse {
	if r == nil {
		r = convert.Missing()
	}
	resp := &ai.MultipartToolResponse{Output: text.Join(r.Content)}
	for _, p := range r.Content {
		if p.Type == registry.PartImage {
			resp.Content = append(resp.Content, ai.NewMediaPart(p.MimeType, convert.DataURL(p)))
		}
	}
	return resp
}

// text renders the parts of a result other than images: every image goes
// in the response's content.
var text = convert.AllImages()

// suspender is what suspends and resumes runs: *ptc.Executor.
type suspender interface {
	ExecuteWith(ctx context.Context, b pipeline.Batch, opts ptc.RunOptions) ([]*ptc.Result, error)
	Resume(ctx context.Context, b pipeline.Batch, cont []byte, decision pipeline.Answer, opts ptc.RunOptions) (*ptc.Result, error)
}

// run runs one call (Genkit runs a message's tool requests each on its
// own: each is a batch of one), suspending and resuming its run when the
// bridge suspends asks. A failed call is a response, not an error: a
// tool's error ends Genkit's generation.
func (b *Bridge) run(tc *ai.ToolContext, name string, in any) (*ai.MultipartToolResponse, error) {
	args, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("ptcgenkit: tool %q: arguments: %w", name, err)
	}
	env := b.env()
	calls := []pipeline.RawCall{{Name: name, Arguments: convert.Arguments(args)}}
	if !b.Suspend {
		return Response(env.Execute(tc, calls)[0]), nil
	}
	ex, ok := b.Executor.(suspender)
	if !ok {
		return nil, fmt.Errorf("ptcgenkit: tool %q: Suspend needs a *ptc.Executor, not %T", name, b.Executor)
	}
	opts := ptc.RunOptions{SuspendAsks: true}
	var r *ptc.Result
	if tc.IsResumed() {
		var rs resumed
		if err := remarshal(tc.Resumed, &rs); err != nil {
			return nil, fmt.Errorf("ptcgenkit: tool %q: resumed metadata: %w", name, err)
		}
		if len(rs.Continuation) == 0 {
			return nil, fmt.Errorf("ptcgenkit: tool %q: restarted without a continuation: restart an approval with Bridge.Restart", name)
		}
		r, err = ex.Resume(tc, env.Batch(nil), rs.Continuation, pipeline.Answer{Approved: rs.Approved, Reason: rs.Reason}, opts)
		if err != nil {
			return nil, fmt.Errorf("ptcgenkit: tool %q: resume: %w", name, err)
		}
	} else {
		rs, err := ex.ExecuteWith(tc, env.Batch(calls), opts)
		if err != nil {
			return nil, fmt.Errorf("ptcgenkit: tool %q: %w", name, err)
		}
		r = convert.Complete(calls, rs)[0]
	}
	if errors.Is(r.Err(), ptc.ErrSuspended) && r.Pending != nil {
		return nil, ai.InterruptWith(tc, Approval{
			Tool: r.Pending.Tool, Arguments: r.Pending.Arguments, Question: r.Pending.Question,
			Call: r.Pending.Call, Continuation: r.Continuation,
		})
	}
	return Response(r), nil
}

// Restart returns the tool request that resumes the run an interrupt
// suspended (a part of resp.Interrupts() raised by a bridge's tool) with
// decision, for ai.WithToolRestarts: the restarted tool continues the run
// with ptc.Executor.Resume, whose calls made before the suspension are
// answered from the continuation, so no tool is called twice.
func (b *Bridge) Restart(interrupt *ai.Part, decision pipeline.Answer) (*ai.Part, error) {
	a, ok := ai.InterruptAs[Approval](interrupt)
	if !ok || len(a.Continuation) == 0 || interrupt.ToolRequest == nil {
		return nil, errors.New("ptcgenkit: restart: the part is not the interrupt of a suspended run")
	}
	name := interrupt.ToolRequest.Name
	t, err := b.tool(registry.ToolSchema{Name: name})
	if err != nil {
		return nil, err
	}
	var meta map[string]any
	if err := remarshal(resumed{Continuation: a.Continuation, Approved: decision.Approved, Reason: decision.Reason}, &meta); err != nil {
		return nil, fmt.Errorf("ptcgenkit: restart: %w", err)
	}
	p, err := t.RestartWith(interrupt, ai.WithResumedMetadata[any](meta))
	if err != nil {
		return nil, fmt.Errorf("ptcgenkit: restart: %w", err)
	}
	return p, nil
}

// remarshal converts v to out through JSON.
func remarshal(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
