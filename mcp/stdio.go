package mcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTransport is a transport whose connection, at the end of its
// input, lets the requests already read finish and answer before it
// reports the end: a client that writes its requests and closes its end
// of the pipe (a shell pipeline) gets every answer.
type drainTransport struct {
	inner sdk.Transport
}

func (t drainTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	d := &drainConn{Connection: c, idle: make(chan struct{})}
	close(d.idle)
	return d, nil
}

// drainConn counts the calls read and the responses written; a read that
// fails waits until every call read has been answered (or ctx is done).
type drainConn struct {
	sdk.Connection

	mu      sync.Mutex
	pending map[jsonrpc.ID]struct{}
	idle    chan struct{} // closed while nothing is pending
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.mu.Lock()
		idle := c.idle
		c.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
		}
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		if c.pending == nil {
			c.pending = make(map[jsonrpc.ID]struct{})
		}
		if len(c.pending) == 0 {
			c.idle = make(chan struct{})
		}
		c.pending[req.ID] = struct{}{}
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if _, ok := c.pending[resp.ID]; ok {
			delete(c.pending, resp.ID)
			if len(c.pending) == 0 {
				close(c.idle)
			}
		}
		c.mu.Unlock()
	}
	return err
}
