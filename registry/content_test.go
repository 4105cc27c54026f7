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
