package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaTap keeps the input and output schemas of a server's tools as the
// server wrote them. The SDK decodes a listed tool's schemas into maps,
// which forgets the order of their properties, and that order is the
// order of the declarations the model reads. The tap watches the JSON-RPC
// messages of one stdio connection: the answers to tools/list requests
// carry the schemas' bytes.
type schemaTap struct {
	mu      sync.Mutex
	pending map[string]bool // tools/list requests sent, by ID
	input   map[string]json.RawMessage
	output  map[string]json.RawMessage
}

func newSchemaTap() *schemaTap {
	return &schemaTap{pending: map[string]bool{}, input: map[string]json.RawMessage{}, output: map[string]json.RawMessage{}}
}

// schemas returns tool's schemas as the server wrote them, nil when not
// seen (or not the same document as the SDK's).
func (t *schemaTap) schemas(tool string) (input, output json.RawMessage) {
	if t == nil {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.input[tool], t.output[tool]
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

func (t *schemaTap) sent(msg jsonrpc.Message) {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "tools/list" && r.ID.IsValid() {
		t.mu.Lock()
		t.pending[idKey(r.ID)] = true
		t.mu.Unlock()
	}
}

func (t *schemaTap) received(msg jsonrpc.Message) {
	r, ok := msg.(*jsonrpc.Response)
	if !ok || !r.ID.IsValid() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.pending[idKey(r.ID)] {
		return
	}
	delete(t.pending, idKey(r.ID))
	var page struct {
		Tools []struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &page) != nil {
		return
	}
	for _, tool := range page.Tools {
		t.input[tool.Name] = tool.InputSchema
		t.output[tool.Name] = tool.OutputSchema
	}
}

// tapTransport is a transport whose connection passes its messages by a
// tap. Only the stdio transport is tapped: its connection has no optional
// behaviour a wrapper would hide.
type tapTransport struct {
	sdk.Transport
	tap *schemaTap
}

func (t *tapTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, tap: t.tap}, nil
}

type tapConn struct {
	sdk.Connection
	tap *schemaTap
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.tap.received(msg)
	}
	return msg, err
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.tap.sent(msg)
	return c.Connection.Write(ctx, msg)
}
