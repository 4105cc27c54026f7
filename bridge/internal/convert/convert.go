package convert

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"strconv"

	"github.com/ptchost/ptc"
	"github.com/ptchost/ptc/pipeline"
	"github.com/ptchost/ptc/registry"
)

// Env is the environment a bridge runs the model's calls in: the fields
// of each bridge's Bridge, in the same order, so that a Bridge converts
// to it (Env(*b)).
type Env struct {
	// Executor describes the tools and runs the calls.
	Executor ptc.ToolExecutor
	// Agent is the calling agent's scope (pipeline.Batch.Agent).
	Agent registry.Scope
	// ToolSet is the step's resolved tool set (pipeline.Batch.ToolSet).
	ToolSet *registry.ToolSet
	// Approver answers asks (pipeline.Batch.Approver).
	Approver pipeline.Approver
	// Logger gets the calls' slog records (pipeline.Batch.Logger).
	Logger *slog.Logger
}

// Describe returns what the executor describes for the agent and tool
// set.
func (e Env) Describe() []registry.ToolSchema {
	return e.Executor.Describe(e.Agent, e.ToolSet)
}

// Batch returns the batch of calls in this environment.
func (e Env) Batch(calls []pipeline.RawCall) pipeline.Batch {
	return pipeline.Batch{
		Calls:    calls,
		ToolSet:  e.ToolSet,
		Agent:    e.Agent,
		Approver: e.Approver,
		Logger:   e.Logger,
	}
}

// Execute runs calls as one batch and returns exactly one result per
// call, in order: where the executor returned none (or nil), an error
// result saying so ([Missing]).
func (e Env) Execute(ctx context.Context, calls []pipeline.RawCall) []*ptc.Result {
	return Complete(calls, e.Executor.Execute(ctx, e.Batch(calls)))
}

// Complete returns results with exactly one non-nil result per call: a
// missing or nil one becomes [Missing].
func Complete(calls []pipeline.RawCall, results []*ptc.Result) []*ptc.Result {
	out := make([]*ptc.Result, len(calls))
	for i := range out {
		if i < len(results) && results[i] != nil {
			out[i] = results[i]
		} else {
			out[i] = Missing()
		}
	}
	return out
}

// MissingText is the content of a call the executor returned no result
// for.
const MissingText = "Error: the executor returned no result for this call"

// Missing returns the error result of a call the executor returned no
// result for.
func Missing() *ptc.Result {
	return &ptc.Result{IsError: true, Content: []registry.Part{registry.TextPart(MissingText)}}
}

// Arguments returns a call's arguments, or an empty object when the model
// sent none.
func Arguments(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// ObjectSchema returns a tool's parameter schema, or an object without
// properties when it has none.
func ObjectSchema(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return raw
}

// Images are the image types an API takes.
type Images struct {
	types map[string]bool
	all   bool   // every image type
	why   string // "the API takes JPEG, PNG, GIF and WebP images"
}

// NewImages returns the image types an API takes, mimeTypes; the note
// in place of an image of another type says why it was not shown.
func NewImages(why string, mimeTypes ...string) Images {
	im := Images{types: make(map[string]bool, len(mimeTypes)), why: why}
	for _, t := range mimeTypes {
		im.types[t] = true
	}
	return im
}

// AllImages returns the image types of an API that takes every image.
func AllImages() Images { return Images{all: true} }

// Takes reports whether p is an image of a type the API takes.
func (im Images) Takes(p registry.Part) bool {
	return p.Type == registry.PartImage && (im.all || im.types[p.MimeType])
}

// Any reports whether parts hold an image the API takes.
func (im Images) Any(parts []registry.Part) bool {
	for _, p := range parts {
		if im.Takes(p) {
			return true
		}
	}
	return false
}

// Text renders a part other than an image the API takes as text: a text
// part as is, an image of another type as a note that says it was not
// shown and why, anything else (JSON, a resource) as ptc.ContentText
// renders it. An empty text part is "".
func (im Images) Text(p registry.Part) string {
	if p.Type == registry.PartImage {
		return "[image " + p.MimeType + " " + strconv.Itoa(len(p.Data)) + " bytes not shown: " + im.why + "]"
	}
	return registry.PlainText([]registry.Part{p})
}

// Join returns the texts of parts ([Images.Text]; images the API takes
// are skipped), one per line, without empty ones.
func (im Images) Join(parts []registry.Part) string {
	var s string
	for _, p := range parts {
		if im.Takes(p) {
			continue
		}
		t := im.Text(p)
		if t == "" {
			continue
		}
		if s != "" {
			s += "\n"
		}
		s += t
	}
	return s
}

// DataURL returns an image part as a data URL.
func DataURL(p registry.Part) string {
	return "data:" + p.MimeType + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
}
