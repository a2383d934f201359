// Package rpcclient calls through package rpcconn and may stop waiting:
// a call kept in rpcconn's map of pending calls, or in its one slot,
// is answered by a read loop out of view, known by rpcconn's facts
// (shape 1a across packages).
package rpcclient

import (
	"context"
	"time"

	"strandedsend/reqreply/rpcconn"
)

// Get gives up when ctx is done; the read loop then blocks on Done.
func Get(ctx context.Context, c *rpcconn.Conn, id int) (string, error) {
	call := &rpcconn.Call{ID: id, Done: make(chan rpcconn.Result)} // want `rpcconn\.\(\*Conn\)\.readLoop's send on unbuffered Done \(rpcconn\.go:49\) blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at rpcclient\.go:21\); the goroutine leaks — make Done buffered`
	c.Register(call)
	select {
	case r := <-call.Done:
		return r.Val, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Ask gives up after a second; the read loop then blocks on Reply.
func Ask(s *rpcconn.Single) (string, bool) {
	call := &rpcconn.SingleCall{Reply: make(chan string)} // want `rpcconn\.\(\*Single\)\.read's send on unbuffered Reply \(rpcconn\.go:86\) blocks forever once the receiver leaves \(case <-time\.After\(time\.Second\) at rpcclient\.go:33\); the goroutine leaks — make Reply buffered`
	s.Start(call)
	select {
	case v := <-call.Reply:
		return v, true
	case <-time.After(time.Second):
		return "", false
	}
}

// ok: the twin with room for the answer.
func GetBuffered(ctx context.Context, c *rpcconn.Conn, id int) (string, error) {
	call := &rpcconn.Call{ID: id, Done: make(chan rpcconn.Result, 1)}
	c.Register(call)
	select {
	case r := <-call.Done:
		return r.Val, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ok: the twin that always waits.
func AskWaiting(s *rpcconn.Single) string {
	call := &rpcconn.SingleCall{Reply: make(chan string)}
	s.Start(call)
	return <-call.Reply
}
