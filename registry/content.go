package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
//
// A part marshals to JSON as an MCP content block (see [Part.MarshalJSON]).
type Part struct {
	Type     PartType
	Text     string
	MimeType string
	Data     []byte
	JSON     json.RawMessage
	URI      string
	// Attribution is set on the parts the run_code executor adds for a
	// subcall's images; nil otherwise. It is not part of the JSON form.
	Attribution *Attribution
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

// Attribution marks the parts the run_code executor adds after a
// program's own output for a subcall's images: the text part
// "Image from <tool> (call <n>):" and the image parts after it. A client
// that must place images apart from the text (a chat API that takes no
// images in tool results) finds them by this mark, not by the text.
type Attribution struct {
	// Tool is the name of the subcall's tool.
	Tool string
	// Call is the subcall's number in the program, from 1 (ptc.Subcall.N).
	Call int
}

// wirePart is a part's JSON form: MCP's content blocks.
type wirePart struct {
	Type     string        `json:"type"`
	Text     *string       `json:"text,omitempty"`
	MimeType string        `json:"mimeType,omitempty"`
	Data     []byte        `json:"data,omitempty"`
	Resource *wireResource `json:"resource,omitempty"`
}

type wireResource struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     []byte  `json:"blob,omitempty"`
}

// MarshalJSON writes the part as an MCP content block:
// {"type":"text","text":…}, {"type":"image","mimeType":…,"data":base64},
// {"type":"resource","resource":{"uri":…,"mimeType":…,"text":…|"blob":base64}};
// a JSON part is a text block holding the document.
func (p Part) MarshalJSON() ([]byte, error) {
	w := wirePart{Type: string(p.Type)}
	switch p.Type {
	case PartImage:
		w.MimeType, w.Data = p.MimeType, p.Data
		if w.Data == nil {
			w.Data = []byte{}
		}
	case PartJSON:
		text := string(p.JSON)
		w.Type, w.Text = string(PartText), &text
	case PartResource:
		r := &wireResource{URI: p.URI, MimeType: p.MimeType}
		if p.Data != nil {
			r.Blob = p.Data
		} else {
			text := p.Text
			r.Text = &text
		}
		w.Resource = r
	default:
		text := p.Text
		w.Type, w.Text = string(PartText), &text
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an MCP content block of type text, image or
// resource (the forms MarshalJSON writes).
func (p *Part) UnmarshalJSON(b []byte) error {
	var w wirePart
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	switch PartType(w.Type) {
	case PartText:
		if w.Text == nil {
			return errors.New("text part without text")
		}
		*p = TextPart(*w.Text)
	case PartImage:
		*p = Part{Type: PartImage, MimeType: w.MimeType, Data: w.Data}
	case PartResource:
		if w.Resource == nil {
			return errors.New("resource part without resource")
		}
		*p = Part{Type: PartResource, URI: w.Resource.URI, MimeType: w.Resource.MimeType, Data: w.Resource.Blob}
		if w.Resource.Text != nil {
			p.Text = *w.Resource.Text
		}
	default:
		return fmt.Errorf("content part of type %q: want text, image or resource", w.Type)
	}
	return nil
}
