package reqreply

import (
	"context"
	"sync"
)

// Shape 1a, a call object kept where its replier finds it: in a slot of
// a long-lived object's slice, and in a field holding the one call in
// flight. The requester can leave on ctx.Done; the replier's plain send
// on the call's done field then blocks forever.
type slotCall struct {
	arg  string
	done chan string
}

type Slots struct {
	mu    sync.Mutex
	slots []*slotCall
}

func (s *Slots) serve(i int, answer func(string) string) {
	s.mu.Lock()
	c := s.slots[i]
	s.mu.Unlock()
	c.done <- answer(c.arg) // want `send on unbuffered c\.done blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at kept\.go:37\); the goroutine leaks — make done buffered in \(\*Slots\)\.Call`
}

func (s *Slots) Call(ctx context.Context, i int, arg string) (string, error) {
	c := &slotCall{arg: arg, done: make(chan string)}
	s.mu.Lock()
	s.slots[i] = c
	s.mu.Unlock()
	select {
	case r := <-c.done:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// The one call in flight, kept in a field of the client.
type flightCall struct {
	arg  string
	done chan string
}

type Flight struct {
	mu      sync.Mutex
	current *flightCall
}

func (f *Flight) answer(resp string) {
	f.mu.Lock()
	c := f.current
	f.current = nil
	f.mu.Unlock()
	if c != nil {
		c.done <- resp // want `send on unbuffered c\.done blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at kept\.go:71\); the goroutine leaks — make done buffered in \(\*Flight\)\.Call`
	}
}

func (f *Flight) Call(ctx context.Context, arg string) (string, error) {
	c := &flightCall{arg: arg, done: make(chan string)}
	f.mu.Lock()
	f.current = c
	f.mu.Unlock()
	select {
	case r := <-c.done:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ok: the twin whose call in flight has room for its one reply.
type roomyFlightCall struct {
	arg  string
	done chan string
}

type RoomyFlight struct {
	mu      sync.Mutex
	current *roomyFlightCall
}

func (f *RoomyFlight) answer(resp string) {
	f.mu.Lock()
	c := f.current
	f.current = nil
	f.mu.Unlock()
	if c != nil {
		c.done <- resp
	}
}

func (f *RoomyFlight) Call(ctx context.Context, arg string) (string, error) {
	c := &roomyFlightCall{arg: arg, done: make(chan string, 1)}
	f.mu.Lock()
	f.current = c
	f.mu.Unlock()
	select {
	case r := <-c.done:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
