// Package usespawners calls the spawning helpers of package spawners
// from its loops: a helper that starts a goroutine per call whose first
// act waits on the caller's semaphore parks one goroutine per unit of
// the caller's loop, as a go statement in view would (shape 11c across
// packages).
package usespawners

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"

	"lateacquire/spawners"
)

func fetch(string) {}

func fetchAll(urls []string) {
	sem := make(chan struct{}, 8)
	for _, u := range urls {
		spawners.Go(sem, func() { fetch(u) }) // want `spawners.Go starts a goroutine that waits on sem before doing any work; one goroutine parks per element of urls — acquire before the spawn, not in spawners.Go's goroutine`
	}
}

type image struct{ path string }

func resize(context.Context, image) {}

// A Wait after the loop waits for them all, once every goroutine has
// been started and parked.
func resizeAll(ctx context.Context, imgs []image) {
	sem := semaphore.NewWeighted(4)
	var wg sync.WaitGroup
	for _, im := range imgs {
		spawners.Run(ctx, sem, &wg, func(ctx context.Context) { resize(ctx, im) }) // want `spawners.Run starts a goroutine that waits on sem before doing any work; one goroutine parks per element of imgs`
	}
	wg.Wait()
}

type job struct{ id int }

func (j job) run() {}

type server struct {
	sem    chan struct{}
	runner *spawners.Runner
}

// A method helper, a semaphore in a field of the caller's receiver, a
// loop over received jobs.
func (s *server) serve(jobs <-chan job) {
	for j := range jobs {
		s.runner.Start(s.sem, j.run) // want `Runner.Start starts a goroutine that waits on s.sem before doing any work; one goroutine parks per value received from jobs`
	}
}

// The errors are taken after the loop: every goroutine is started first.
func checkAll(paths []string, check func(string) error) error {
	sem := make(chan struct{}, 4)
	errs := make(chan error, len(paths))
	for _, p := range paths {
		spawners.Notify(sem, errs, func() error { return check(p) }) // want `spawners.Notify starts a goroutine that waits on sem`
	}
	for range paths {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// A generic helper, instantiated.
func indexAll(sem chan struct{}, docs []string, index func(string)) {
	for _, d := range docs {
		spawners.GoGeneric(sem, d, index) // want `spawners.GoGeneric starts a goroutine that waits on sem`
	}
}

// ok: the helper takes the permit before its go statement.
func fetchAllHolding(urls []string) {
	sem := make(chan struct{}, 8)
	for _, u := range urls {
		spawners.GoHolding(sem, func() { fetch(u) })
	}
}

// ok: the caller waits for each goroutine before it starts the next.
func checkEach(paths []string, check func(string) error) error {
	sem := make(chan struct{}, 4)
	errs := make(chan error)
	for _, p := range paths {
		spawners.Notify(sem, errs, func() error { return check(p) })
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// ok: a fixed number of workers.
func workers(work func()) {
	sem := make(chan struct{}, 2)
	for i := 0; i < 4; i++ {
		spawners.Go(sem, work)
	}
}

// ok: a semaphore per element shares nothing.
func fetchEachOwn(urls []string) {
	for _, u := range urls {
		sem := make(chan struct{}, 1)
		spawners.Go(sem, func() { fetch(u) })
	}
}

// ok: the caller takes a permit of its own gate before the call, given
// back by the job: the gate sizes the goroutines.
func fetchAdmitted(urls []string) {
	gate := make(chan struct{}, 8)
	sem := make(chan struct{}, 2)
	for _, u := range urls {
		gate <- struct{}{}
		spawners.Go(sem, func() {
			defer func() { <-gate }()
			fetch(u)
		})
	}
}

// ok: the helper's own semaphore, the helpers that wait for their
// goroutine, spawn in a loop of their own or work first carry no fact.
func others(l *spawners.Limited, sem chan struct{}, urls []string, log func(string)) {
	for _, u := range urls {
		l.Go(func() { fetch(u) })
		spawners.Await(sem, func() { fetch(u) })
		spawners.GoLogged(sem, func() { fetch(u) }, log)
	}
	spawners.GoEach(sem, nil)
}
