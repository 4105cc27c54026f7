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
	d := &drainConn{Connection: c, idle: make(chan struct{}), closed: make(chan struct{})}
	close(d.idle)
	return d, nil
}

// listenMethod is the call a client of the 2026 protocol keeps open for
// the whole session to receive notifications; it is answered only when the
// session ends, so the end of input does not wait for it.
const listenMethod = "subscriptions/listen"

// drainConn counts the calls read and the responses written; a read that
// fails waits until every call read has been answered, ctx is done, or the
// connection is closed. The last matters: once the SDK's connection is
// closing it drops the responses of calls still in flight instead of
// writing them, so they would never count as answered, and the close
// itself waits for this read to return.
type drainConn struct {
	sdk.Connection

	mu        sync.Mutex
	pending   map[jsonrpc.ID]struct{}
	idle      chan struct{} // closed while nothing is pending
	closed    chan struct{} // closed by Close
	closeOnce sync.Once
}

func (c *drainConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
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
		case <-c.closed:
		}
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method != listenMethod {
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
