// Package spawners is a library of spawning helpers: each starts one
// goroutine per call, and some let that goroutine wait for a permit of a
// semaphore the caller passes. Those carry a Spawns fact, so a caller in
// another package that calls them once per unit of work is reported at
// its call.
package spawners

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"
)

// Go runs job on a goroutine of its own once a permit of sem is free.
func Go(sem chan struct{}, job func()) { // want Go:`spawns\(acquires param 0, signals \[\]\)`
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
}

// Run runs job under a weighted semaphore, counted in wg.
func Run(ctx context.Context, sem *semaphore.Weighted, wg *sync.WaitGroup, job func(context.Context)) { // want Run:`spawns\(acquires param 1, signals \[2\]\)`
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := sem.Acquire(ctx, 1); err != nil {
			return
		}
		defer sem.Release(1)
		job(ctx)
	}()
}

// Notify runs job once a permit of sem is free and sends its error on
// done.
func Notify(sem chan struct{}, done chan<- error, job func() error) { // want Notify:`spawns\(acquires param 0, signals \[1\]\)`
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		done <- job()
	}()
}

// A Runner names the jobs it starts.
type Runner struct{ Name string }

// Start is Go as a method: the semaphore is a parameter, not the
// receiver's.
func (r *Runner) Start(sem chan struct{}, job func()) { // want Start:`spawns\(acquires param 1, signals \[\]\)`
	go r.run(sem, job)
}

func (r *Runner) run(sem chan struct{}, job func()) {
	sem <- struct{}{}
	defer func() { <-sem }()
	job()
}

// GoGeneric is Go for a job with an argument.
func GoGeneric[T any](sem chan struct{}, v T, job func(T)) { // want GoGeneric:`spawns\(acquires param 0, signals \[\]\)`
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		job(v)
	}()
}

// No fact: the permit is taken before the go statement; the caller
// waits for it.
func GoHolding(sem chan struct{}, job func()) {
	sem <- struct{}{}
	go func() {
		defer func() { <-sem }()
		job()
	}()
}

// No fact: the semaphore is the receiver's own, which its callers
// cannot take before the call.
type Limited struct{ sem chan struct{} }

func NewLimited(n int) *Limited { return &Limited{sem: make(chan struct{}, n)} }

func (l *Limited) Go(job func()) {
	go func() {
		l.sem <- struct{}{}
		defer func() { <-l.sem }()
		job()
	}()
}

// No fact: the helper waits for its goroutine, so it starts at most one
// per waiting caller.
func Await(sem chan struct{}, job func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
	<-done
}

// No fact: one goroutine per job, started in the helper's own loop (the
// helper is reported in its own package, per element of jobs).
func GoEach(sem chan struct{}, jobs []func()) {
	for _, job := range jobs {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			job()
		}()
	}
}

// No fact: the goroutine works before it waits for the permit.
func GoLogged(sem chan struct{}, job func(), log func(string)) {
	go func() {
		log("starting")
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
}

// No fact: unexported, so no other package calls it.
func goQuiet(sem chan struct{}, job func()) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
}

var _ = goQuiet
