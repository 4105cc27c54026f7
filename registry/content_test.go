package registry_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/registry"
)

// TestPart_JSON: a part's JSON form is MCP's content block, and reads back.
func TestPart_JSON(t *testing.T) {
	for _, c := range []struct {
		part registry.Part
		want string
		back registry.Part // what it reads back as, when not the part itself
	}{
		{part: registry.TextPart("hi"), want: `{"type":"text","text":"hi"}`},
		{part: registry.TextPart(""), want: `{"type":"text","text":""}`},
		{part: registry.ImagePart("image/png", []byte{0x89, 'P', 'N', 'G'}), want: `{"type":"image","mimeType":"image/png","data":"iVBORw=="}`},
		{part: registry.ResourcePart("file:///a.txt", "text/plain", "body"), want: `{"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"body"}}`},
		{part: registry.Part{Type: registry.PartResource, URI: "file:///b.bin", Data: []byte{1, 2}}, want: `{"type":"resource","resource":{"uri":"file:///b.bin","blob":"AQI="}}`},
		{part: registry.JSONPart(json.RawMessage(`{"a":1}`)), want: `{"type":"text","text":"{\"a\":1}"}`, back: registry.TextPart(`{"a":1}`)},
	} {
		b, err := json.Marshal(c.part)
		require.NoError(t, err)
		require.JSONEq(t, c.want, string(b))
		var got registry.Part
		require.NoError(t, json.Unmarshal(b, &got))
		want := c.part
		if c.back.Type != "" {
			want = c.back
		}
		require.Equal(t, want, got)
	}
	var p registry.Part
	require.Error(t, json.Unmarshal([]byte(`{"type":"audio","data":""}`), &p))
	require.Error(t, json.Unmarshal([]byte(`{"type":"text"}`), &p))
}

func TestImages(t *testing.T) {
	img := registry.ImagePart("image/png", []byte{1})
	parts := []registry.Part{registry.TextPart("a"), img, registry.TextPart("b"), img}
	if got := registry.Images(parts); len(got) != 2 || got[0].Type != registry.PartImage || got[1].Type != registry.PartImage {
		t.Fatalf("Images = %v", got)
	}
	if got := registry.Images([]registry.Part{registry.TextPart("a")}); got != nil {
		t.Fatalf("Images of text only = %v, want nil", got)
	}
	if n := testing.AllocsPerRun(100, func() { registry.Images(parts[:1]) }); n != 0 {
		t.Fatalf("%v allocations without images", n)
	}
}
