// Package api declares a request type and the client side of a worker
// that another package runs: Lookup hands a request over and can stop
// waiting for its reply.
package api

import (
	"context"
	"time"
)

// A Request asks the worker for a key; the worker answers on Reply.
type Request struct {
	Key   string
	Reply chan string // want Reply:"abandoned by Lookup \\(case <-ctx.Done\\(\\) at api.go:53; made at api.go:48\\)"
}

// A Job is answered on Result; Run gives up on a timer.
type Job struct {
	N      int
	Result chan int // want Result:"abandoned by Run \\(case <-time.After\\(d\\) at api.go:30; made at api.go:25\\)"
}

// Run leaves when d has passed.
func Run(queue chan<- *Job, n int, d time.Duration) (int, error) {
	j := &Job{N: n, Result: make(chan int)}
	queue <- j
	select {
	case v := <-j.Result:
		return v, nil
	case <-time.After(d):
		return 0, context.DeadlineExceeded
	}
}

// A Ticket is answered on Done, which its makers give room for.
type Ticket struct {
	ID   int
	Done chan error
}

// A Probe is answered on Ack, which Probe always waits for.
type Probe struct {
	Ack chan struct{}
}

// Lookup leaves when ctx is done.
func Lookup(ctx context.Context, queue chan<- *Request, key string) (string, error) {
	req := &Request{Key: key, Reply: make(chan string)}
	queue <- req
	select {
	case v := <-req.Reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Submit leaves on a timer, but its channel has room for the answer.
func Submit(queue chan<- Ticket, id int) error {
	t := Ticket{ID: id, Done: make(chan error, 1)}
	queue <- t
	select {
	case err := <-t.Done:
		return err
	case <-time.After(time.Second):
		return context.DeadlineExceeded
	}
}

// Ping always waits.
func Ping(queue chan<- Probe) {
	p := Probe{Ack: make(chan struct{})}
	queue <- p
	<-p.Ack
}
