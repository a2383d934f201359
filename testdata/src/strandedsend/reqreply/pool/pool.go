// Package pool holds a worker pool whose workers hand out requests
// carrying their own reply channels and an interrupt: the worker skips
// the payload only when the request's taker interrupts it.
package pool

import "time"

type request struct {
	jobs      chan<- int
	results   <-chan int
	interrupt func()
}

type worker struct {
	requests    chan<- request
	interrupted chan struct{}
	closing     chan struct{}
	process     func(int) int
}

func (w *worker) stopJob() {
	close(w.interrupted)
}

func (w *worker) run() {
	jobs, results := make(chan int), make(chan int)
	for {
		select {
		case w.requests <- request{jobs: jobs, results: results, interrupt: w.stopJob}:
			select {
			case job := <-jobs:
				select {
				case results <- w.process(job):
				case <-w.interrupted:
					w.interrupted = make(chan struct{})
				}
			case <-w.interrupted:
				w.interrupted = make(chan struct{})
			}
		case <-w.closing:
			return
		}
	}
}

type Pool struct {
	requests chan request
}

// ok: Process never interrupts the request it took, so the worker,
// having handed it out, always takes its job.
func (p *Pool) Process(job int) int {
	req := <-p.requests
	req.jobs <- job
	return <-req.results
}

// ProcessTimed gives up on a timeout, and then interrupts; its own send
// gives up too.
func (p *Pool) ProcessTimed(job int, d time.Duration) (int, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	req := <-p.requests
	select {
	case req.jobs <- job:
	case <-t.C:
		req.interrupt()
		return 0, false
	}
	select {
	case r := <-req.results:
		return r, true
	case <-t.C:
		req.interrupt()
		return 0, false
	}
}

// The twin that interrupts the request and still sends its job: once it
// has interrupted, the worker may have gone round to its closing case.
func (p *Pool) ProcessOrSkip(job int, skip bool) int {
	req := <-p.requests
	if skip {
		req.interrupt()
	}
	req.jobs <- job // want `send on unbuffered req.jobs blocks forever once the receiver leaves \(case <-w.closing at pool.go:\d+\)`
	return <-req.results
}
