// Package fixes holds the acquires whose hoisting is mechanical, and
// their twins where it is not.
package fixes

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

func work(int) {}

// The acquire is the first statement: move it before the go statement.
func first(items []int, sem chan struct{}) {
	for _, it := range items {
		go func() {
			sem <- struct{}{} // want `goroutine waits on sem before doing any work`
			defer func() { <-sem }()
			work(it)
		}()
	}
}

// After defers only, with a trailing comment: it moves with the comment.
func afterDefer(items []int, sem chan struct{}) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{} // want `goroutine waits on sem before doing any work`
			defer func() { <-sem }()
			work(it)
		}()
	}
	wg.Wait()
}

// A Weighted.Acquire whose error is unused, in an errgroup Go.
func errgroupGo(ctx context.Context, items []int, sem *semaphore.Weighted) error {
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error {
			sem.Acquire(ctx, 1) // want `goroutine waits on sem before doing any work`
			defer sem.Release(1)
			work(it)
			return nil
		})
	}
	return g.Wait()
}

// A limiter's Wait, in a WaitGroup.Go.
func waitGroupGo(ctx context.Context, items []int, lim *rate.Limiter) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() {
			lim.Wait(ctx) // want `goroutine waits on lim before doing any work`
			work(it)
		})
	}
	wg.Wait()
}

// No fix: the acquire's failure handling would have to move too.
func failureHandling(ctx context.Context, items []int, sem *semaphore.Weighted) {
	for _, it := range items {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil { // want `goroutine waits on sem before doing any work`
				return
			}
			defer sem.Release(1)
			work(it)
		}()
	}
}

// No fix: the semaphore is the literal's own parameter.
func parameter(items []int, sem chan struct{}) {
	for _, it := range items {
		go func(s chan struct{}) {
			s <- struct{}{} // want `goroutine waits on s before doing any work`
			defer func() { <-s }()
			work(it)
		}(sem)
	}
}

// No fix: something other than a defer comes first.
func notFirst(items []int, sem chan struct{}) {
	for _, it := range items {
		go func() {
			n := it * 2
			sem <- struct{}{} // want `goroutine waits on sem before doing any work`
			defer func() { <-sem }()
			work(n)
		}()
	}
}

// No fix: a select that can give up does not move as a statement.
func selectCancel(ctx context.Context, items []int, sem chan struct{}) {
	for _, it := range items {
		go func() {
			select {
			case sem <- struct{}{}: // want `goroutine waits on sem or ctx.Done\(\) before doing any work; one goroutine still parks`
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			work(it)
		}()
	}
}

// A cache that refreshes its missing entries: one goroutine per miss,
// each waiting for a refresh slot.
type cache struct {
	mu      sync.Mutex
	sem     chan struct{}
	entries map[string]int
}

// refresh fetches key and stores it under the lock.
func (c *cache) refresh(key string) {
	v := len(key)
	c.mu.Lock()
	c.entries[key] = v
	c.mu.Unlock()
}

// No fix: the loop runs with c.mu held (a deferred unlock runs only on
// return), so an acquire moved before the go statement would wait for a
// slot holding the cache's lock. The report names the lock instead.
func (c *cache) refreshLocked(misses []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, key := range misses {
		go func() {
			c.sem <- struct{}{} // want `goroutine waits on c.sem before doing any work`
			defer func() { <-c.sem }()
			c.refresh(key)
		}()
	}
}

// Its twin unlocks before the loop: the acquire moves before the go
// statement.
func (c *cache) refreshUnlocked(misses []string) {
	c.mu.Lock()
	misses = append([]string(nil), misses...)
	c.mu.Unlock()
	for _, key := range misses {
		go func() {
			c.sem <- struct{}{} // want `goroutine waits on c.sem before doing any work`
			defer func() { <-c.sem }()
			c.refresh(key)
		}()
	}
}
