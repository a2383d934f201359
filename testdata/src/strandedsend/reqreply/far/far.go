// Package far asks package server's worker for answers through package
// front, without importing server: the worker's sends are known by
// server's facts, which reach far through front.
package far

import (
	"context"
	"time"

	"strandedsend/reqreply/api"
	"strandedsend/reqreply/front"
)

// Quadruple gives up on a timer; the worker then blocks on Result.
func Quadruple(n int, d time.Duration) (int, error) {
	jobs := make(chan *api.Job)
	front.Start(jobs)
	j := &api.Job{N: n, Result: make(chan int)} // want `server\.\(\*Server\)\.Serve's send on unbuffered Result \(server\.go:21\) blocks forever once the receiver leaves \(case <-time\.After\(d\) at far\.go:23\); the goroutine leaks — make Result buffered`
	jobs <- j
	select {
	case v := <-j.Result:
		return v * 2, nil
	case <-time.After(d):
		return 0, context.DeadlineExceeded
	}
}

// ok: the twin with room for the answer.
func QuadrupleBuffered(n int, d time.Duration) (int, error) {
	jobs := make(chan *api.Job)
	front.Start(jobs)
	j := &api.Job{N: n, Result: make(chan int, 1)}
	jobs <- j
	select {
	case v := <-j.Result:
		return v * 2, nil
	case <-time.After(d):
		return 0, context.DeadlineExceeded
	}
}

// ok: the twin that always waits.
func QuadrupleWaiting(n int) int {
	jobs := make(chan *api.Job)
	front.Start(jobs)
	j := &api.Job{N: n, Result: make(chan int)}
	jobs <- j
	return <-j.Result * 2
}
