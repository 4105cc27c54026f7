package registry

import (
	"bytes"
	"encoding/json"
)

// PartType names the type of a content [Part].
type PartType string

// The content part types.
const (
	PartText     PartType = "text"
	PartImage    PartType = "image"
	PartJSON     PartType = "json"
	PartResource PartType = "resource"
)

// Part is one piece of model-facing tool result content. It is shared by the
// registry (a tool's render function produces parts), the pipeline and the
// run_code executor. Which fields are meaningful depends on Type:
//
//   - PartText: Text.
//   - PartImage: MimeType and Data (the raw image bytes, not base64).
//   - PartJSON: JSON, a complete JSON document.
//   - PartResource: URI, with optional MimeType, Text or Data.
//
// Use the constructors [TextPart], [ImagePart], [JSONPart] and
// [ResourcePart] rather than filling the struct by hand.
type Part struct {
	Type     PartType
	Text     string
	MimeType string
	Data     []byte
	JSON     json.RawMessage
	URI      string
}

// TextPart returns a text part.
func TextPart(text string) Part { return Part{Type: PartText, Text: text} }

// ImagePart returns an image part holding a copy of data.
func ImagePart(mimeType string, data []byte) Part {
	return Part{Type: PartImage, MimeType: mimeType, Data: bytes.Clone(data)}
}

// JSONPart returns a JSON part holding a copy of doc.
func JSONPart(doc json.RawMessage) Part {
	return Part{Type: PartJSON, JSON: bytes.Clone(doc)}
}

// ResourcePart returns a resource part referring to uri with optional text.
func ResourcePart(uri, mimeType, text string) Part {
	return Part{Type: PartResource, URI: uri, MimeType: mimeType, Text: text}
}
