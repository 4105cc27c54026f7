package ptceino

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

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

// Approval is the Info of the interrupt a suspended ask raises
// ([Bridge.Suspend]): the call a program asked to make and the policy's
// question. Resume the interrupt with a pipeline.Answer as its data.
type Approval struct {
	// Tool and Arguments (JSON) are the call waiting for approval.
	Tool      string
	Arguments string
	// Question is the policy's reason for asking.
	Question string
	// Call is the call's number in the program (ptc.Subcall.N).
	Call int
}

// String says what waits for approval.
func (a *Approval) String() string {
	return fmt.Sprintf("%s %s (call %d) waits for approval: %s", a.Tool, a.Arguments, a.Call, a.Question)
}

// suspension is the state of a suspended run's interrupt: what the
// interrupt said, and the signed continuation that resumes the run.
type suspension struct {
	Approval     *Approval
	Continuation []byte
}

func init() {
	// The interrupt's info and state are kept in Eino's checkpoints.
	schema.RegisterName[*Approval]("ptceino_approval")
	schema.RegisterName[*suspension]("ptceino_suspension")
}

// Bridge makes Eino tools of an executor's tools, run in the environment
// a batch carries. Make one with [New]; set Agent, ToolSet, Approver,
// Logger and Suspend before its first use when the defaults do not fit.
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
	// Suspend makes an ask of a program's subcall interrupt the agent
	// (tool.StatefulInterrupt, Info an *Approval) instead of waiting for
	// Approver: the run is suspended (ptc.RunOptions.SuspendAsks) and the
	// interrupt's state holds its continuation. Resuming the interrupt
	// with a pipeline.Answer (or *pipeline.Answer) as its data resumes
	// the run with that decision (ptc.Executor.Resume): no tool is called
	// twice. Needs Executor to be a *ptc.Executor with
	// Config.ContinuationKey, and the agent a checkpoint store.
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
// and tool set, in order, as tool.InvokableTools: a result is its text,
// one part per line, and an image is a note in its place (a string holds
// none: [Bridge.EnhancedTools] sends them). Give them to a ToolsNode or a
// ChatModelAgent's ToolsConfig.
func (b *Bridge) Tools() ([]tool.BaseTool, error) {
	return b.tools(false)
}

// EnhancedTools returns the same tools as tool.EnhancedInvokableTools,
// whose results are multimodal (schema.ToolResult): the text parts, and
// every image as a base64 image part with its MIME type, in content
// order.
func (b *Bridge) EnhancedTools() ([]tool.BaseTool, error) {
	return b.tools(true)
}

func (b *Bridge) tools(enhanced bool) ([]tool.BaseTool, error) {
	schemas := b.env().Describe()
	tools := make([]tool.BaseTool, 0, len(schemas))
	for _, s := range schemas {
		info, err := Info(s)
		if err != nil {
			return nil, err
		}
		t := &invokable{b: b, info: info}
		if enhanced {
			tools = append(tools, &enhancedInvokable{t})
		} else {
			tools = append(tools, t)
		}
	}
	return tools, nil
}

// Info returns the Eino tool info of a tool schema (an executor's
// Describe): its name, description and JSON Schema.
func Info(s registry.ToolSchema) (*schema.ToolInfo, error) {
	var js jsonschema.Schema
	if err := json.Unmarshal(convert.ObjectSchema(s.Parameters), &js); err != nil {
		return nil, fmt.Errorf("ptceino: tool %q: parameters: %w", s.Name, err)
	}
	return &schema.ToolInfo{Name: s.Name, Desc: s.Description, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(&js)}, nil
}

// invokable is one of the executor's tools as a tool.InvokableTool.
type invokable struct {
	b    *Bridge
	info *schema.ToolInfo
}

// Info returns the tool's info.
func (t *invokable) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// InvokableRun runs the call and returns its content as text. A failed
// call is its content ("Error: ..."), not an error, so that the model
// reads it; the error is for an interrupt or a bridge that cannot run.
func (t *invokable) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	r, err := t.run(ctx, args)
	if err != nil {
		return "", err
	}
	return text.Join(r.Content), nil
}

// text renders a result as a string, every image as a note.
var text = convert.NewImages("a text tool result holds no images (the bridge's EnhancedTools send them)")

// enhancedInvokable is one of the executor's tools as a
// tool.EnhancedInvokableTool.
type enhancedInvokable struct{ t *invokable }

// Info returns the tool's info.
func (e *enhancedInvokable) Info(ctx context.Context) (*schema.ToolInfo, error) {
	return e.t.Info(ctx)
}

// InvokableRun runs the call and returns its content ([Result]).
func (e *enhancedInvokable) InvokableRun(ctx context.Context, arg *schema.ToolArgument, _ ...tool.Option) (*schema.ToolResult, error) {
	var args string
	if arg != nil {
		args = arg.Text
	}
	r, err := e.t.run(ctx, args)
	if err != nil {
		return nil, err
	}
	return Result(r), nil
}

// Result returns r's content as a multimodal tool result: consecutive
// parts other than images as one text part (one per line), and each image
// as an image part holding its base64 data and MIME type. A nil r is an
// error result.
func Result(r *ptc.Result) *schema.ToolResult {
	if r == nil {
		r = convert.Missing()
	}
	out := &schema.ToolResult{}
	var lines []string
	flush := func() {
		if len(lines) > 0 {
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: strings.Join(lines, "\n")})
			lines = nil
		}
	}
	for _, p := range r.Content {
		if p.Type == registry.PartImage {
			flush()
			data := base64.StdEncoding.EncodeToString(p.Data)
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{
				MessagePartCommon: schema.MessagePartCommon{Base64Data: &data, MIMEType: p.MimeType},
			}})
			continue
		}
		if t := registry.PlainText([]registry.Part{p}); t != "" {
			lines = append(lines, t)
		}
	}
	flush()
	return out
}

// suspender is what suspends and resumes runs: *ptc.Executor.
type suspender interface {
	ExecuteWith(ctx context.Context, b pipeline.Batch, opts ptc.RunOptions) ([]*ptc.Result, error)
	Resume(ctx context.Context, b pipeline.Batch, cont []byte, decision pipeline.Answer, opts ptc.RunOptions) (*ptc.Result, error)
}

// run runs one call (Eino runs a message's tool calls each on its own:
// each is a batch of one), suspending and resuming its run when the
// bridge suspends asks.
func (t *invokable) run(ctx context.Context, args string) (*ptc.Result, error) {
	env := t.b.env()
	calls := []pipeline.RawCall{{ID: compose.GetToolCallID(ctx), Name: t.info.Name, Arguments: convert.Arguments(json.RawMessage(args))}}
	if !t.b.Suspend {
		return env.Execute(ctx, calls)[0], nil
	}
	ex, ok := t.b.Executor.(suspender)
	if !ok {
		return nil, fmt.Errorf("ptceino: tool %q: Suspend needs a *ptc.Executor, not %T", t.info.Name, t.b.Executor)
	}
	opts := ptc.RunOptions{SuspendAsks: true}
	var r *ptc.Result
	wasInterrupted, hasState, s := tool.GetInterruptState[*suspension](ctx)
	switch {
	case !wasInterrupted:
		rs, err := ex.ExecuteWith(ctx, env.Batch(calls), opts)
		if err != nil {
			return nil, fmt.Errorf("ptceino: tool %q: %w", t.info.Name, err)
		}
		r = convert.Complete(calls, rs)[0]
	case !hasState:
		return nil, fmt.Errorf("ptceino: tool %q: resumed from an interrupt without the suspended run's state", t.info.Name)
	default:
		isTarget, hasData, data := tool.GetResumeContext[any](ctx)
		if !isTarget {
			// Another interrupt was resumed: this one still waits.
			return nil, tool.StatefulInterrupt(ctx, s.Approval, s)
		}
		decision, ok := answer(data)
		if !hasData || !ok {
			return nil, fmt.Errorf("ptceino: tool %q: resume the approval with a pipeline.Answer, not %T", t.info.Name, data)
		}
		var err error
		r, err = ex.Resume(ctx, env.Batch(nil), s.Continuation, decision, opts)
		if err != nil {
			return nil, fmt.Errorf("ptceino: tool %q: resume: %w", t.info.Name, err)
		}
	}
	if errors.Is(r.Err(), ptc.ErrSuspended) && r.Pending != nil {
		a := &Approval{Tool: r.Pending.Tool, Arguments: string(r.Pending.Arguments), Question: r.Pending.Question, Call: r.Pending.Call}
		return nil, tool.StatefulInterrupt(ctx, a, &suspension{Approval: a, Continuation: r.Continuation})
	}
	return r, nil
}

// answer returns the decision resume data holds.
func answer(data any) (pipeline.Answer, bool) {
	switch a := data.(type) {
	case pipeline.Answer:
		return a, true
	case *pipeline.Answer:
		if a != nil {
			return *a, true
		}
	}
	return pipeline.Answer{}, false
}
