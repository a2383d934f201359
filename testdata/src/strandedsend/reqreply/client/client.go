// Package client asks package worker's pool for answers and may stop
// waiting: the pool's sends are out of view, known by worker's facts.
package client

import (
	"context"
	"time"

	"strandedsend/reqreply/api"
	"strandedsend/reqreply/server"
	"strandedsend/reqreply/worker"
)

// Double gives up when ctx is done; the pool then blocks on t.Done.
func Double(ctx context.Context, p *worker.Pool, n int) (int, error) {
	t := &worker.Task{N: n, Done: make(chan int)} // want `worker\.\(\*Pool\)\.run's send on unbuffered Done \(worker\.go:35\) blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at client\.go:21\); the goroutine leaks — make Done buffered`
	p.Submit(t)
	select {
	case v := <-t.Done:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ok: the twin with room for the answer.
func DoubleBuffered(ctx context.Context, p *worker.Pool, n int) (int, error) {
	t := &worker.Task{N: n, Done: make(chan int, 1)}
	p.Submit(t)
	select {
	case v := <-t.Done:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ok: the twin that always waits.
func DoubleWaiting(p *worker.Pool, n int) int {
	t := &worker.Task{N: n, Done: make(chan int)}
	p.Tasks <- t
	return <-t.Done
}

// ok: the pool answers checks in a select that gives up when it stops.
func Healthy(p *worker.Pool, d time.Duration) bool {
	c := worker.Check{Ack: make(chan bool)}
	p.Checks <- c
	select {
	case ok := <-c.Ack:
		return ok
	case <-time.After(d):
		return false
	}
}

// A job type of package api, answered by package server's worker, which
// this package starts itself; it gives up on a timer.
func Triple(n int, d time.Duration) (int, error) {
	jobs := make(chan *api.Job)
	go new(server.Server).Serve(nil, nil, nil, jobs)
	j := &api.Job{N: n, Result: make(chan int)} // want `server\.\(\*Server\)\.Serve's send on unbuffered Result \(server\.go:21\) blocks forever once the receiver leaves \(case <-time\.After\(d\) at client\.go:67\); the goroutine leaks — make Result buffered`
	jobs <- j
	select {
	case v := <-j.Result:
		return v * 3 / 2, nil
	case <-time.After(d):
		return 0, context.DeadlineExceeded
	}
}
