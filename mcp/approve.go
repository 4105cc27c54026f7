package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptchost/ptc/pipeline"
)

// maxShownArguments bounds the arguments an approval request shows.
const maxShownArguments = 4 << 10

// askPolicy is the pre-execute listener that asks for approval of the
// subcalls a principal's ask patterns match.
func (s *Server) askPolicy(ctx context.Context, inv *pipeline.Invocation, d pipeline.Decision) pipeline.Decision {
	if d.Verdict != pipeline.VerdictAllow {
		return d
	}
	v := s.byAgent[inv.Agent()]
	if v == nil || v.p == nil || !matchAny(v.p.Ask, inv.Name()) {
		return d
	}
	return pipeline.Ask(fmt.Sprintf("Allow principal %s's program to call tools.%s?", v.name, inv.Name()))
}

// approver asks the person behind ss's client (elicitation/create, naming
// the tool and showing its arguments); a client that did not declare
// elicitation cannot be asked, and the call is denied saying so. The time
// it takes does not count against the run's time limit (the executor
// holds the run's clock while an approver answers).
//
// Over HTTP without ServerOptions.Sessions there is no session to send the
// request on: the call is denied saying so.
func (v *view) approver(req *sdk.CallToolRequest) pipeline.Approver {
	ss := req.Session
	stateless := req.Extra != nil && req.Extra.Header != nil && !v.s.opts.Sessions
	return func(ctx context.Context, inv *pipeline.Invocation, question string) (pipeline.Answer, error) {
		name := inv.Name()
		why := ""
		switch {
		case stateless:
			why = "serve keeps no MCP sessions (start it with --sessions to ask the client)"
		case ss == nil || !canElicit(ss):
			why = "the client did not declare elicitation"
		}
		if why != "" {
			v.s.audit(ctx, "approval", slog.String("tool", name), slog.String("answer", "not asked"), slog.String("reason", why))
			return pipeline.Answer{Reason: fmt.Sprintf("tool %q: approval required and could not be asked: %s", name, why)}, nil
		}
		res, err := ss.Elicit(ctx, &sdk.ElicitParams{
			Message:         approvalMessage(name, inv.Arguments()),
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		})
		if err != nil {
			if ctx.Err() != nil {
				return pipeline.Answer{}, ctx.Err()
			}
			v.s.audit(ctx, "approval", slog.String("tool", name), slog.String("answer", "failed"), slog.String("error", err.Error()))
			return pipeline.Answer{Reason: fmt.Sprintf("tool %q: approval required and could not be asked: %v", name, err)}, nil
		}
		v.s.audit(ctx, "approval", slog.String("tool", name), slog.String("answer", res.Action))
		switch res.Action {
		case "accept":
			return pipeline.Answer{Approved: true}, nil
		case "decline":
			return pipeline.Answer{Reason: fmt.Sprintf("tool %q: the user declined the call", name)}, nil
		}
		return pipeline.Answer{Reason: fmt.Sprintf("tool %q: the user cancelled the approval", name)}, nil
	}
}

// canElicit reports whether ss's client declared elicitation.
func canElicit(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// approvalMessage names the tool and shows its arguments, indented and
// cut at maxShownArguments.
func approvalMessage(tool string, args json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, args, "", "  ") != nil {
		b.Reset()
		b.Write(args)
	}
	shown := b.String()
	if len(shown) > maxShownArguments {
		shown = fmt.Sprintf("%s… [%d more bytes]", shown[:maxShownArguments], len(shown)-maxShownArguments)
	}
	return fmt.Sprintf("A program wants to call the tool %s with these arguments:\n%s\nAllow this call?", tool, shown)
}
