package ptc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/internal/sdkgen"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// budgetExecutor is an executor over tools whose declarations are fitted
// to budget (Config.DeclarationBytes).
func budgetExecutor(t *testing.T, budget int, tools ...*registry.Tool) *ptc.Executor {
	t.Helper()
	reg := registry.New()
	for _, tl := range tools {
		_, err := reg.Register(tl)
		require.NoError(t, err)
	}
	pipe, err := pipeline.New(pipeline.Config{Registry: reg})
	require.NoError(t, err)
	ex, err := ptc.New(context.Background(), ptc.Config{Pipeline: pipe, Host: sharedHost(t), DeclarationBytes: budget})
	require.NoError(t, err)
	t.Cleanup(func() { ex.Close(context.Background()) })
	return ex
}

// crmTool is a tool of a CRM, one of many alike; lazy marks it
// DeferLoading. It returns its name and the id it was given.
func crmTool(i int, lazy bool) *registry.Tool {
	name := fmt.Sprintf("crm_record_%02d", i)
	return registry.MustDefine(registry.RawSpec{
		Name:        name,
		Description: fmt.Sprintf("Looks up a kind-%d record in the CRM by id. Returns the record's fields, or fails when there is none.", i),
		Parameters: registry.Object(
			registry.Required("id", registry.String().Describe("The record's id, as the CRM shows it.")),
			registry.Optional("fields", registry.Array(registry.String().WithEnum("name", "owner", "stage", "amount")).Describe("The fields to return; all when absent.")),
		),
		DeferLoading:  lazy,
		ExecutionMode: func(json.RawMessage) registry.Mode { return registry.Parallel },
		Execute: func(_ context.Context, args json.RawMessage, _ *registry.Exec) (any, error) {
			var a struct{ ID string }
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return map[string]string{"tool": name, "id": a.ID}, nil
		},
	})
}

func crmTools(n int) []*registry.Tool {
	tools := make([]*registry.Tool, n)
	for i := range tools {
		tools[i] = crmTool(i, false)
	}
	return tools
}

// tsBlock is the TypeScript block of a run_code description.
func tsBlock(t *testing.T, desc string) string {
	t.Helper()
	_, ts, ok := strings.Cut(desc, "```ts\n")
	require.True(t, ok, desc)
	ts, ok = strings.CutSuffix(ts, "```")
	require.True(t, ok, desc)
	return ts
}

func TestExecutor_Describe_budget(t *testing.T) {
	tools := crmTools(20)
	unbounded := budgetExecutor(t, -1, tools...)
	full := unbounded.RunCodeSchema(registry.Scope{}, nil).Description
	fullTS := sdkgen.TypeScript(sdkgen.FromDefinitions(tools))
	require.Equal(t, fullTS, unbounded.Declarations(registry.Scope{}, nil))
	require.Equal(t, fullTS, tsBlock(t, full))
	require.Less(t, len(fullTS), 32<<10) // the default budget
	// The tools share their argument type, declared once in fullTS; a
	// budget fits them by their declarations written out.
	written := len(strings.Join(sdkgen.Declarations(sdkgen.FromDefinitions(tools)), ""))

	tests := []struct {
		name     string
		budget   int
		wantFull bool // the description is the unbounded one, byte for byte
	}{
		{"default budget, under it", 0, true},
		{"budget exactly fits", len(fullTS), true},
		{"one byte under", len(fullTS) - 1, false},
		{"half", written / 2, false},
		{"short lines only", 2500, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ex := budgetExecutor(t, tc.budget, tools...)
			desc := ex.RunCodeSchema(registry.Scope{}, nil).Description
			decls := ex.Declarations(registry.Scope{}, nil)
			require.Equal(t, decls, tsBlock(t, desc), "Declarations is what the model sees")
			require.Equal(t, desc, budgetExecutor(t, tc.budget, tools...).RunCodeSchema(registry.Scope{}, nil).Description,
				"the same tools and budget give the same bytes")
			if tc.wantFull {
				require.Equal(t, full, desc)
				return
			}
			require.LessOrEqual(t, len(decls), tc.budget)
			require.Contains(t, decls, `await tools.$describe("NAME")`)
			require.Contains(t, decls, "$search(query: string")
			// Every tool is declared, in full up to the budget, then in
			// short, in registry order.
			short := false
			for i := range tools {
				name := fmt.Sprintf("crm_record_%02d", i)
				inFull := strings.Contains(decls, "\n  "+name+"(args: ")
				inShort := strings.Contains(decls, "\n  "+name+": Tool; // Looks up a kind-"+fmt.Sprint(i)+" record in the CRM by id.\n")
				require.True(t, inFull != inShort, "%s: full %v, short %v\n%s", name, inFull, inShort, decls)
				require.False(t, short && inFull, "%s in full after a tool in short (all alike)", name)
				short = short || inShort
			}
			require.True(t, short)
		})
	}
}

func TestExecutor_Describe_deferLoading(t *testing.T) {
	tools := append(crmTools(3), crmTool(3, true))
	ex := budgetExecutor(t, 0, tools...)
	decls := ex.Declarations(registry.Scope{}, nil)
	require.Contains(t, decls, "\n  crm_record_00(args: ", "under budget: in full")
	require.Contains(t, decls, "\n  crm_record_03: Tool; // Looks up a kind-3 record in the CRM by id.\n", "DeferLoading: in short")
	require.NotContains(t, decls, "crm_record_03(args")
	require.Equal(t, decls, tsBlock(t, ex.RunCodeSchema(registry.Scope{}, nil).Description))
	require.Equal(t, decls, budgetExecutor(t, -1, tools...).Declarations(registry.Scope{}, nil), "no budget: still in short")
}

// TestExecute_shortTools runs a program against declarations fitted to a
// budget: it finds a tool declared in short with $search, reads its full
// declaration with $describe, and calls it, as it calls a deferred tool.
func TestExecute_shortTools(t *testing.T) {
	tools := append(crmTools(8), crmTool(8, true))
	written := len(strings.Join(sdkgen.Declarations(sdkgen.FromDefinitions(tools)), ""))
	ex := budgetExecutor(t, written*2/3, tools...)
	decls := ex.Declarations(registry.Scope{}, nil)
	require.Contains(t, decls, "\n  crm_record_07: Tool; //")
	require.Contains(t, decls, "\n  crm_record_08: Tool; //")

	wantDecl := func(i int) string {
		d := sdkgen.Declarations(sdkgen.FromDefinitions(tools[i : i+1]))[0]
		return strings.ReplaceAll(strings.TrimSuffix(d, "\n"), "\n  ", "\n")[2:]
	}
	require.Contains(t, wantDecl(7), "crm_record_07(args: {\n  /** The record's id, as the CRM shows it. */ id: string;")

	prog := runCall(`
		const hits = await tools.$search("kind-7 record");
		const decl = await tools.$describe(hits[0].name);
		const lazy = await tools.$describe("crm_record_08");
		const rec = await tools[hits[0].name]({id: "42"});
		const other = await tools.crm_record_08({id: "43", fields: ["owner"]});
		return {first: hits[0].name, line: hits[0].description, decl, lazy, rec, other};
	`)
	r := ex.Execute(context.Background(), pipeline.Batch{Calls: []pipeline.RawCall{prog}})[0]
	require.False(t, r.IsError, registry.PlainText(r.Content))
	var got struct {
		First      string
		Line       string
		Decl, Lazy string
		Rec, Other map[string]string
	}
	require.NoError(t, json.Unmarshal(r.Run.ReturnValue, &got))
	require.Equal(t, "crm_record_07", got.First)
	require.NotContains(t, got.Line, "\n", "$search gives one line per tool")
	require.NotEmpty(t, got.Line)
	require.Equal(t, wantDecl(7), got.Decl, "$describe gives the full declaration of a tool declared in short")
	require.Equal(t, wantDecl(8), got.Lazy)
	require.Equal(t, map[string]string{"tool": "crm_record_07", "id": "42"}, got.Rec)
	require.Equal(t, map[string]string{"tool": "crm_record_08", "id": "43"}, got.Other)
	require.Len(t, r.Subcalls, 2, "$search and $describe are not subcalls")
}
