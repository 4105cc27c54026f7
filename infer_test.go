package ptc_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/registry"
)

type inferStockUnit string

type inferStockArgs struct {
	SKU   string         `json:"sku" jsonschema:"Stock keeping unit"`
	Unit  inferStockUnit `json:"unit,omitempty" jsonschema:"Unit to count in"`
	Sites []string       `json:"sites,omitempty" jsonschema:"Sites to count; all when absent"`
}

type inferStockLevel struct {
	SKU   string         `json:"sku"`
	Count int            `json:"count"`
	Unit  inferStockUnit `json:"unit"`
	Note  string         `json:"note,omitempty"`
}

// stockTool is a tool whose schemas are inferred from its Go types.
func inferStockTool(t testing.TB) *registry.Tool {
	t.Helper()
	tool, err := registry.Infer(registry.Spec[inferStockArgs, inferStockLevel]{
		Name:        "stock_level",
		Description: "How many of an item are in stock.",
		Execute: func(_ context.Context, a inferStockArgs, _ *registry.Exec) (inferStockLevel, error) {
			n := 12 * max(len(a.Sites), 1)
			if a.Unit == "box" {
				n /= 6
			}
			return inferStockLevel{SKU: a.SKU, Count: n, Unit: a.Unit}, nil
		},
	}, &registry.InferOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[inferStockUnit](): {Type: "string", Enum: []any{"piece", "box"}, Default: json.RawMessage(`"piece"`)},
	}})
	require.NoError(t, err)
	return tool
}

func TestInfer_program(t *testing.T) {
	f := newFixture(t, host.Limits{}, inferStockTool(t))

	var desc string
	for _, s := range f.ex.Describe(registry.Scope{}, nil) {
		if s.Name == "run_code" {
			desc = s.Description
		}
	}
	const decl = `declare const tools: {
  /** How many of an item are in stock. */
  stock_level(args: {
    /** Stock keeping unit */ sku: string;
    /** Unit to count in @default "piece" */ unit?: "piece" | "box";
    /** Sites to count; all when absent */ sites?: null | string[];
  }): Promise<{ sku: string; count: number; unit: "piece" | "box"; note?: string }>;
};`
	assert.Contains(t, desc, decl)

	tests := []struct {
		name, code, want string
	}{
		{"default applied", `const s = await tools.stock_level({sku: "A1"}); return s.count + " " + s.unit`, "12 piece"},
		{"all arguments", `const s = await tools.stock_level({sku: "A1", unit: "box", sites: ["x", "y"]}); return s`,
			`{"sku": "A1", "count": 4, "unit": "box"}`},
		{"not in the enum", `try { await tools.stock_level({sku: "A1", unit: "crate"}) } catch (e) { return e.code }`, "INVALID_ARGUMENTS"},
		{"unknown property", `try { await tools.stock_level({item: "A1"}) } catch (e) { return e.code }`, "INVALID_ARGUMENTS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.run(t, tt.code)
			require.False(t, r.IsError, "%s", r.Content)
			assert.Equal(t, tt.want, registry.PlainText(r.Content))
		})
	}
}
