package signals

import "time"

type node struct{ name string }

func query(path string) []*node { return nil }

// ok: the goroutine signals failed only from its deferred recover, which
// runs after everything its body did: the receiver takes failed only
// when the goroutine panicked before it sent the result, and then it
// sends nothing more (validation set 33, libopenapi-validator).
func locate(path string) *node {
	failed := make(chan bool)
	found := make(chan *node)
	go func() {
		defer func() {
			if err := recover(); err != nil {
				failed <- true
			}
		}()
		var n *node
		if nodes := query(path); len(nodes) > 0 {
			n = nodes[0]
		}
		found <- n
	}()
	select {
	case n := <-found:
		return n
	case <-failed:
		return nil
	}
}

// The same with a deadline as well: leaving on the deadline strands
// whichever of the two the goroutine sends, one report for both.
func locateInTime(path string, d time.Duration) *node {
	failed := make(chan bool)
	found := make(chan *node)
	go func() {
		defer func() {
			if err := recover(); err != nil {
				failed <- true // want `send on unbuffered failed \(or found\) blocks forever once the receiver leaves \(case <-time.After\(d\) at deferred.go:\d+\); the goroutine leaks — make failed and found buffered`
			}
		}()
		var n *node
		if nodes := query(path); len(nodes) > 0 {
			n = nodes[0]
		}
		found <- n
	}()
	select {
	case n := <-found:
		return n
	case <-failed:
		return nil
	case <-time.After(d):
		return nil
	}
}

// When the signal is sent in the body before the result, taking it
// leaves the result's send behind.
func locateSignalFirst(path string) *node {
	started := make(chan bool)
	found := make(chan *node)
	go func() {
		started <- true
		var n *node
		if nodes := query(path); len(nodes) > 0 {
			n = nodes[0]
		}
		found <- n // want `send on unbuffered found blocks forever once the receiver leaves \(case <-started at deferred.go:\d+\)`
	}()
	select {
	case n := <-found:
		return n
	case <-started:
		return nil
	}
}

// A closure deferred first runs last: its send on found comes after the
// deferred signal, so taking the signal strands it.
func locateDeferredResult(path string) *node {
	failed := make(chan bool)
	found := make(chan *node)
	go func() {
		defer func() {
			found <- nil // want `send on unbuffered found blocks forever once the receiver leaves \(case <-failed at deferred.go:\d+\)`
		}()
		defer func() {
			if err := recover(); err != nil {
				failed <- true
			}
		}()
		query(path)
	}()
	select {
	case n := <-found:
		return n
	case <-failed:
		return nil
	}
}

func record(path string) {}

// When a call that may panic follows the result's send, the deferred
// signal can come after the result was taken: the receiver has gone.
func locateThenRecord(path string) *node {
	failed := make(chan bool)
	found := make(chan *node)
	go func() {
		defer func() {
			if err := recover(); err != nil {
				failed <- true // want `send on unbuffered failed blocks forever once the receiver leaves \(case <-found at deferred.go:\d+\)`
			}
		}()
		var n *node
		if nodes := query(path); len(nodes) > 0 {
			n = nodes[0]
		}
		found <- n
		record(path)
	}()
	select {
	case n := <-found:
		return n
	case <-failed:
		return nil
	}
}
