// Package rpcconn is a connection that keeps each call in flight until
// its answer arrives: in a map of pending calls, or in the one slot of a
// connection that allows a single call at a time. Its read loop answers
// on the call's Done channel with a plain send; its callers, in packages
// importing this one, decide whether that send can block.
package rpcconn

import "sync"

// A Result answers a call.
type Result struct {
	ID  int
	Val string
}

// A Call is answered on Done.
type Call struct {
	ID   int
	Done chan Result
}

// A Conn multiplexes calls, kept by ID until answered.
type Conn struct {
	mu      sync.Mutex
	pending map[int]*Call
	in      chan Result
}

func Dial() *Conn {
	c := &Conn{pending: map[int]*Call{}, in: make(chan Result)}
	go c.readLoop()
	return c
}

// Register keeps call until its answer is read.
func (c *Conn) Register(call *Call) {
	c.mu.Lock()
	c.pending[call.ID] = call
	c.mu.Unlock()
}

func (c *Conn) readLoop() {
	for r := range c.in {
		c.mu.Lock()
		call := c.pending[r.ID]
		delete(c.pending, r.ID)
		c.mu.Unlock()
		if call != nil {
			call.Done <- r
		}
	}
}

// A Single allows one call at a time, kept in a field.
type Single struct {
	mu       sync.Mutex
	inflight *SingleCall
	in       chan string
}

// A SingleCall is answered on Reply.
type SingleCall struct {
	Reply chan string
}

func Open() *Single {
	s := &Single{in: make(chan string)}
	go s.read()
	return s
}

// Start keeps call as the one in flight.
func (s *Single) Start(call *SingleCall) {
	s.mu.Lock()
	s.inflight = call
	s.mu.Unlock()
}

func (s *Single) read() {
	for v := range s.in {
		s.mu.Lock()
		call := s.inflight
		s.inflight = nil
		s.mu.Unlock()
		if call != nil {
			call.Reply <- v
		}
	}
}
