package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptchost/ptc/registry"
)

// Result is the canonical value of a call to a mounted tool, as the
// pipeline holds it: its JSON (MarshalJSON) is what the program receives,
// and Content is the server's content as parts.
type Result struct {
	// Value is the canonical value's JSON: the server's structuredContent
	// when it sent one, else its text content (parsed when the text is one
	// JSON document, else a JSON string); null when it sent neither.
	Value json.RawMessage
	// Content is the server's content, mapped by [parts].
	Content []registry.Part
}

// MarshalJSON returns r.Value.
func (r *Result) MarshalJSON() ([]byte, error) {
	if r == nil || len(r.Value) == 0 {
		return []byte("null"), nil
	}
	return r.Value, nil
}

// newResult maps a server's successful result.
func newResult(res *sdk.CallToolResult) (*Result, error) {
	r := &Result{Content: parts(res.Content)}
	if res.StructuredContent != nil {
		v, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("structuredContent: %w", err)
		}
		r.Value = v
		return r, nil
	}
	text, hasText := contentText(r.Content)
	switch {
	case !hasText:
		r.Value = json.RawMessage("null")
	case json.Valid([]byte(text)):
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(text)); err != nil {
			return nil, err
		}
		r.Value = buf.Bytes()
	default:
		v, err := json.Marshal(text)
		if err != nil {
			return nil, err
		}
		r.Value = v
	}
	return r, nil
}

// contentText joins, with newlines, what the parts say as text: text
// (resource links and audio are lines of text already), an embedded
// resource's text, or a line naming a binary one; images are not text
// (they reach the model beside the program's result). ok reports whether
// there was any.
func contentText(parts []registry.Part) (text string, ok bool) {
	var texts []string
	for _, p := range parts {
		switch p.Type {
		case registry.PartText:
			texts = append(texts, p.Text)
		case registry.PartResource:
			if p.Text != "" || len(p.Data) == 0 {
				texts = append(texts, p.Text)
			} else {
				texts = append(texts, fmt.Sprintf("[resource <%s> %s, %d bytes]", p.URI, orUnknown(p.MimeType), len(p.Data)))
			}
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// parts maps MCP content to content parts: text as text, an image as an
// image with its MIME type, an embedded resource as a resource part (its
// text, or its blob as Data), and what a model cannot take as a tool
// result — audio, a resource link — as a line of text that says what it
// was.
func parts(content []sdk.Content) []registry.Part {
	parts := make([]registry.Part, 0, len(content))
	for _, c := range content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, registry.TextPart(c.Text))
		case *sdk.ImageContent:
			parts = append(parts, registry.ImagePart(c.MIMEType, c.Data))
		case *sdk.AudioContent:
			parts = append(parts, registry.TextPart(fmt.Sprintf("[audio %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data))))
		case *sdk.ResourceLink:
			parts = append(parts, registry.TextPart(linkText(c)))
		case *sdk.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			p := registry.ResourcePart(c.Resource.URI, c.Resource.MIMEType, c.Resource.Text)
			p.Data = bytes.Clone(c.Resource.Blob)
			parts = append(parts, p)
		default:
			parts = append(parts, registry.TextPart(fmt.Sprintf("[content of type %T]", c)))
		}
	}
	return parts
}

func orUnknown(mime string) string {
	if mime == "" {
		return "of unknown type"
	}
	return mime
}

// linkText is a resource link as a line of text.
func linkText(l *sdk.ResourceLink) string {
	var b strings.Builder
	b.WriteString("Resource link: ")
	name := l.Title
	if name == "" {
		name = l.Name
	}
	if name != "" {
		b.WriteString(name + " ")
	}
	b.WriteString("<" + l.URI + ">")
	if l.MIMEType != "" {
		b.WriteString(" (" + l.MIMEType + ")")
	}
	if l.Description != "" {
		b.WriteString(": " + l.Description)
	}
	return b.String()
}

// content maps content parts to MCP content, the inverse of [parts] for
// text, images and resources; a JSON part becomes its text.
func content(parts []registry.Part) []sdk.Content {
	out := make([]sdk.Content, 0, len(parts))
	for _, p := range parts {
		switch p.Type {
		case registry.PartImage:
			out = append(out, &sdk.ImageContent{MIMEType: p.MimeType, Data: p.Data})
		case registry.PartJSON:
			out = append(out, &sdk.TextContent{Text: string(p.JSON)})
		case registry.PartResource:
			out = append(out, &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{
				URI: p.URI, MIMEType: p.MimeType, Text: p.Text, Blob: p.Data,
			}})
		default:
			out = append(out, &sdk.TextContent{Text: p.Text})
		}
	}
	return out
}
