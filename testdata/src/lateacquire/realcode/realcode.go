// Package realcode holds the shapes lateacquire met on real code: each
// false report, as a negative the pass must stay silent on, beside the
// true positive it resembles. The model: a permit shared by every spawn,
// on a channel known to have room (or a Weighted, a Limiter), taken first
// thing inside the goroutine.
package realcode

func process(int) {}

type Request struct{ ID int }

// A worker owns a channel of its own.
type worker struct {
	wake chan struct{}
	sem  chan struct{}
}

func newWorker() *worker {
	return &worker{wake: make(chan struct{}), sem: make(chan struct{}, 1)}
}

// nope: each goroutine signals its own worker: the channel belongs to the
// element iterated, not to every spawn.
func wakeAll(workers []*worker) {
	for _, w := range workers {
		go func() {
			w.sem <- struct{}{}
			defer func() { <-w.sem }()
			process(0)
		}()
	}
}

// nope: the same over a map of workers.
func wakeAllByName(workers map[string]*worker) {
	for _, w := range workers {
		go func() {
			w.sem <- struct{}{}
			defer func() { <-w.sem }()
			process(0)
		}()
	}
}

// A semaphore shared by all the spawns, over the same map, is one.
func runAll(workers map[string]*worker, sem chan struct{}) {
	for range workers {
		go func() {
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per entry of workers`
			defer func() { <-sem }()
			process(0)
		}()
	}
}

// nope: wake is made unbuffered: the send hands a signal to the worker,
// and the receive after it waits for the worker's answer.
func pokeAll(reqs []Request, w *worker) {
	for _, r := range reqs {
		go func() {
			w.wake <- struct{}{}
			process(r.ID)
			<-w.wake
		}()
	}
}

// nope: a channel of requests made out of view, sent on and then
// received from: a request and its acknowledgement, as far as can be
// seen, not a permit.
func forward(reqs []Request, link chan Request) {
	for _, r := range reqs {
		go func() {
			link <- r
			<-link
		}()
	}
}

// The same shape on a channel of tokens made out of view is a semaphore.
func limited(reqs []Request, tokens chan struct{}) {
	for _, r := range reqs {
		go func() {
			tokens <- struct{}{} // want `goroutine waits on tokens before doing any work; one goroutine parks per element of reqs`
			process(r.ID)
			<-tokens
		}()
	}
}

// A counted loop whose count is the number of requests is a loop over
// them: one goroutine per request.
func byIndex(reqs []Request, tokens chan struct{}) {
	n := len(reqs)
	for i := 0; i < n; i++ {
		go func() {
			tokens <- struct{}{} // want `goroutine waits on tokens before doing any work; one goroutine parks per element of reqs`
			defer func() { <-tokens }()
			process(reqs[i].ID)
		}()
	}
}

// nope: a count that is a number of workers, not of units: a fixed pool,
// each worker acquiring before its work.
func pool(workers int, tokens chan struct{}, jobs <-chan Request) {
	for i := 0; i < workers; i++ {
		go func() {
			tokens <- struct{}{}
			defer func() { <-tokens }()
			for j := range jobs {
				process(j.ID)
			}
		}()
	}
}
