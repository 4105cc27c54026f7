// Package content holds the helpers over tool result content
// ([registry.Part]s) that the pipeline and the run_code executor share and
// that are not the registry's API.
package content

import "github.com/ptchost/ptc/registry"

// Images returns the image parts of parts, in order, or nil (without
// allocating) when there are none.
func Images(parts []registry.Part) []registry.Part {
	var images []registry.Part
	for _, p := range parts {
		if p.Type == registry.PartImage {
			images = append(images, p)
		}
	}
	return images
}
