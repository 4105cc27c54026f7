package content_test

import (
	"testing"

	"github.com/ptchost/ptc/internal/content"
	"github.com/ptchost/ptc/registry"
)

func TestImages(t *testing.T) {
	img := registry.ImagePart("image/png", []byte{1})
	parts := []registry.Part{registry.TextPart("a"), img, registry.TextPart("b"), img}
	if got := content.Images(parts); len(got) != 2 || got[0].Type != registry.PartImage || got[1].Type != registry.PartImage {
		t.Fatalf("Images = %v", got)
	}
	if got := content.Images([]registry.Part{registry.TextPart("a")}); got != nil {
		t.Fatalf("Images of text only = %v, want nil", got)
	}
	if n := testing.AllocsPerRun(100, func() { content.Images(parts[:1]) }); n != 0 {
		t.Fatalf("%v allocations without images", n)
	}
}
