package basic

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// nope: a long-lived goroutine paced by a ticker and a limiter, acquiring
// per tick inside its own loop.
func tickerPacing(ctx context.Context, lim *rate.Limiter, t *time.Ticker) {
	go func() {
		for range t.C {
			lim.Wait(ctx) // nope: pacing inside the loop
			process(Job{})
		}
	}()
}

// nope: a retry loop inside the goroutine acquires per attempt.
func retryLoop(ctx context.Context, jobs []Job, sem *semaphore.Weighted) {
	for _, j := range jobs {
		go func() {
			for attempt := 0; attempt < 3; attempt++ {
				if sem.Acquire(ctx, 1) == nil { // nope: inside the goroutine's loop
					process(j)
					sem.Release(1)
					return
				}
			}
		}()
	}
}

// nope: a Weighted made per iteration is not shared.
func weightedPerIteration(ctx context.Context, jobs []Job) {
	for _, j := range jobs {
		sem := semaphore.NewWeighted(1)
		go func() {
			sem.Acquire(ctx, 1) // nope: one semaphore per goroutine
			process(j)
		}()
	}
}

// nope: a function value called first is unknown work.
func unknownFirst(jobs []Job, prepare func(Job), sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			prepare(j)
			sem <- struct{}{} // nope: prepare may have done anything
			defer func() { <-sem }()
			process(j)
		}()
	}
}

type preparer interface{ Prepare(Job) }

// nope: so is an interface method.
func interfaceFirst(jobs []Job, p preparer, sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			p.Prepare(j)
			sem <- struct{}{} // nope: Prepare may have done anything
			defer func() { <-sem }()
		}()
	}
}

// nope: an array has a fixed length.
func fixedArray(sem chan struct{}, shards [4]Job) {
	for _, s := range shards {
		go func() {
			sem <- struct{}{} // nope: four goroutines
			defer func() { <-sem }()
			process(s)
		}()
	}
}

// nope: a function made by sync.OnceFunc runs once.
func onceFunc(sem chan struct{}) func() {
	return sync.OnceFunc(func() {
		go func() {
			sem <- struct{}{} // nope: once
			defer func() { <-sem }()
		}()
	})
}

// A group kept in a struct and limited where it is made.
type fetcher struct {
	g   *errgroup.Group
	sem *semaphore.Weighted
}

func newFetcher() *fetcher {
	g := new(errgroup.Group)
	g.SetLimit(8)
	return &fetcher{g: g, sem: semaphore.NewWeighted(2)}
}

// nope: the group may be limited (SetLimit is called in this package).
func (f *fetcher) fetchAll(ctx context.Context, urls []string) {
	for _, u := range urls {
		f.g.Go(func() error {
			if err := f.sem.Acquire(ctx, 1); err != nil { // nope: Go waits for the group's limit first
				return err
			}
			defer f.sem.Release(1)
			return fetch(ctx, u)
		})
	}
}
