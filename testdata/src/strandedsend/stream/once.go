package stream

import "time"

type request struct {
	kind    string
	payload []byte
}

// ok: the reader forwards only the first request of a kind. The flag it
// sets before the send keeps the loop from sending again, so it sends
// one value, which the buffer holds when the receiver gives up.
func firstForward(requests <-chan request, d time.Duration) ([]byte, bool) {
	got := make(chan []byte, 1)
	go func() {
		sent := false
		for req := range requests {
			if req.kind == "forward" && !sent {
				sent = true
				got <- req.payload
			}
		}
	}()
	select {
	case p := <-got:
		return p, true
	case <-time.After(d):
		return nil, false
	}
}

// ok: the same with the flag set after the send.
func firstForwardAfter(requests <-chan request, d time.Duration) ([]byte, bool) {
	got := make(chan []byte, 1)
	go func() {
		sent := false
		for req := range requests {
			if !sent && req.kind == "forward" {
				got <- req.payload
				sent = true
			}
		}
	}()
	select {
	case p := <-got:
		return p, true
	case <-time.After(d):
		return nil, false
	}
}

// The twin without the flag: every forward request is sent, and once
// the receiver has given up the second one blocks.
func everyForward(requests <-chan request, d time.Duration) ([]byte, bool) {
	got := make(chan []byte, 1)
	go func() {
		for req := range requests {
			if req.kind == "forward" {
				got <- req.payload // want `send on got blocks forever once the receiver stops receiving \(case <-time.After\(d\) at once.go:\d+\)`
			}
		}
	}()
	select {
	case p := <-got:
		return p, true
	case <-time.After(d):
		return nil, false
	}
}

// The twin whose flag is cleared again by a reset request: it can send
// once per reset.
func forwardUntilReset(requests <-chan request, d time.Duration) ([]byte, bool) {
	got := make(chan []byte, 1)
	go func() {
		sent := false
		for req := range requests {
			if req.kind == "reset" {
				sent = false
			}
			if req.kind == "forward" && !sent {
				sent = true
				got <- req.payload // want `send on got blocks forever once the receiver stops receiving \(case <-time.After\(d\) at once.go:\d+\)`
			}
		}
	}()
	select {
	case p := <-got:
		return p, true
	case <-time.After(d):
		return nil, false
	}
}

// The twin that sets the flag only when the payload is not empty: an
// empty one is sent and the loop goes on.
func firstNonEmpty(requests <-chan request, d time.Duration) ([]byte, bool) {
	got := make(chan []byte, 1)
	go func() {
		sent := false
		for req := range requests {
			if !sent {
				got <- req.payload // want `send on got blocks forever once the receiver stops receiving \(case <-time.After\(d\) at once.go:\d+\)`
				if len(req.payload) > 0 {
					sent = true
				}
			}
		}
	}()
	select {
	case p := <-got:
		return p, true
	case <-time.After(d):
		return nil, false
	}
}
