package bridgetest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

type salesArgs struct {
	Region string `json:"region"`
}

type salesReport struct {
	Region string `json:"region"`
	Units  []int  `json:"units"`
}

type chartArgs struct {
	Title  string `json:"title"`
	Series []struct {
		Name   string    `json:"name"`
		Values []float64 `json:"values"`
	} `json:"series"`
}

// chartPNG is the chart render_chart returns: a 2×1 PNG.
const chartPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAE0lEQVR4nGI6IScnJ3cCEAAA//8HMQILsq6wvgAAAABJRU5ErkJggg=="

// ChartPNG returns the image render_chart's content holds.
func ChartPNG() []byte {
	b, _ := base64.StdEncoding.DecodeString(chartPNG)
	return b
}

// SalesPipeline returns a pipeline over the two tools the scripted
// conversations' programs call: get_sales (parallel) and render_chart,
// whose content is a PNG image.
func SalesPipeline() (*pipeline.Pipeline, error) {
	sales := map[string][]int{"north": {12, 9, 8, 13}, "south": {7, 8, 11, 9}}
	reg := registry.New()
	if _, err := reg.Register(registry.MustDefine(registry.Spec[salesArgs, salesReport]{
		Name:        "get_sales",
		Description: "Units sold per week in a region, oldest week first.",
		Parameters: registry.Object(
			registry.Required("region", registry.String().Describe("north or south")),
		),
		Output: registry.Output[salesArgs, salesReport]{Schema: registry.Object(
			registry.Required("region", registry.String()),
			registry.Required("units", registry.Array(registry.Integer())),
		)},
		ExecutionMode: func(salesArgs) registry.Mode { return registry.Parallel },
		Execute: func(_ context.Context, a salesArgs, _ *registry.Exec) (salesReport, error) {
			units, ok := sales[a.Region]
			if !ok {
				return salesReport{}, errors.New("no region " + a.Region)
			}
			return salesReport{Region: a.Region, Units: units}, nil
		},
	})); err != nil {
		return nil, err
	}
	png := ChartPNG()
	if _, err := reg.Register(registry.MustDefine(registry.Spec[chartArgs, string]{
		Name:        "render_chart",
		Description: "Renders a line chart of the series; the model sees the image.",
		Parameters: registry.Object(
			registry.Required("title", registry.String()),
			registry.Required("series", registry.Array(registry.Object(
				registry.Required("name", registry.String()),
				registry.Required("values", registry.Array(registry.Number())),
			))),
		),
		Output: registry.Output[chartArgs, string]{
			Schema: registry.String(),
			Render: func(a chartArgs, v string) []registry.Part {
				return []registry.Part{registry.TextPart(v), registry.ImagePart("image/png", png)}
			},
		},
		Execute: func(_ context.Context, a chartArgs, _ *registry.Exec) (string, error) {
			return fmt.Sprintf("chart %q: %d series", a.Title, len(a.Series)), nil
		},
	})); err != nil {
		return nil, err
	}
	return pipeline.New(pipeline.Config{Registry: reg})
}

// Golden compares v's JSON, indented, with the file at path, or, with
// update, writes it there.
func Golden(path string, v any, update bool) error {
	var got bytes.Buffer
	enc := json.NewEncoder(&got)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: marshal: %w", path, err)
	}
	if update {
		return os.WriteFile(path, got.Bytes(), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w (run go test -update to write it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		return fmt.Errorf("%s: the request differs from the golden file (go test -update rewrites it); got:\n%s", path, got.Bytes())
	}
	return nil
}
