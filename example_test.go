package ptc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

type stockArgs struct {
	SKU string `json:"sku"`
}

type stock struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

type priceArgs struct {
	SKU string `json:"sku"`
}

// Example mounts the executor over two typed Go tools and runs a program
// that fans out over them and handles a tool error.
func Example() {
	ctx := context.Background()
	inventory := map[string]int{"apple": 12, "pear": 0}
	prices := map[string]float64{"apple": 0.5, "pear": 0.8}

	reg := registry.New()
	reg.Register(registry.MustDefine(registry.Spec[stockArgs, stock]{
		Name:        "get_stock",
		Description: "Units in stock for a SKU.",
		Parameters:  registry.Object(registry.Required("sku", registry.String())),
		Output: registry.Output[stockArgs, stock]{Schema: registry.Object(
			registry.Required("sku", registry.String()),
			registry.Required("quantity", registry.Integer()),
		)},
		ExecutionMode: func(stockArgs) registry.Mode { return registry.Parallel },
		Execute: func(_ context.Context, a stockArgs, _ *registry.Exec) (stock, error) {
			q, ok := inventory[a.SKU]
			if !ok {
				return stock{}, errors.New("unknown SKU " + a.SKU)
			}
			return stock{a.SKU, q}, nil
		},
	}))
	reg.Register(registry.MustDefine(registry.Spec[priceArgs, float64]{
		Name:          "get_price",
		Description:   "Unit price in euros.",
		Parameters:    registry.Object(registry.Required("sku", registry.String())),
		Output:        registry.Output[priceArgs, float64]{Schema: registry.Number()},
		ExecutionMode: func(priceArgs) registry.Mode { return registry.Parallel },
		Execute: func(_ context.Context, a priceArgs, _ *registry.Exec) (float64, error) {
			return prices[a.SKU], nil
		},
	}))
	pipe, _ := pipeline.New(pipeline.Config{Registry: reg})

	ex, err := ptc.New(ctx, ptc.Config{Pipeline: pipe})
	if err != nil {
		fmt.Println(err) // the guest was not built: run make guest
		return
	}
	defer ex.Close(ctx)

	// The model sees one tool; its description declares the SDK.
	schema := ex.RunCodeSchema(registry.Scope{}, nil)
	fmt.Println(schema.Name, strings.Contains(schema.Description, "get_stock(args: {"))

	program := `
		const skus = ["apple", "pear", "plum"];
		const rows = await Promise.all(skus.map(async (sku) => {
			try {
				const [s, p] = await Promise.all([tools.get_stock({sku}), tools.get_price({sku})]);
				return sku + ": " + s.quantity + " at " + p;
			} catch (e) {
				return sku + ": " + e.code;
			}
		}));
		console.log(rows.join("\n"));
		return {checked: skus.length};`
	args, _ := json.Marshal(map[string]string{"code": program})
	results := ex.Execute(ctx, pipeline.Batch{Calls: []pipeline.RawCall{{ID: "1", Name: ptc.ToolName, Arguments: args}}})
	fmt.Println(registry.PlainText(results[0].Content))
	fmt.Println(len(results[0].Subcalls), "subcalls")
	// Output:
	// run_code true
	// apple: 12 at 0.5
	// pear: 0 at 0.8
	// plum: TOOL_FAILED
	// {"checked": 3}
	// 6 subcalls
}
