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

// A task runner whose tasks start more tasks: the acquire is reported,
// but no fix is offered. Moved before the spawn it would wait while the
// calling task holds a permit, and tasks all waiting so never finish
// (errgroup's SetLimit warns the same of its Go). The report names the
// nested call instead (validation set 34, a backup check's file tasks
// started from its replica-set tasks).
type tasks struct {
	sem chan struct{}
	wg  sync.WaitGroup
}

func newTasks(n int) *tasks { return &tasks{sem: make(chan struct{}, n)} }

func (t *tasks) Go(f func()) {
	t.wg.Add(1)
	go func() {
		t.sem <- struct{}{} // want `goroutine waits on t.sem before doing any work`
		defer func() {
			<-t.sem
			t.wg.Done()
		}()
		f()
	}()
}

func checkAll(sets [][]string) {
	t := newTasks(4)
	for _, set := range sets {
		t.Go(func() {
			for _, name := range set {
				t.Go(func() { work(len(name)) })
			}
		})
	}
	t.wg.Wait()
}

// Its twin is the package's own runner, and no task it is given starts
// more: the acquire moves before the go statement, and start blocks
// while every permit is held.
type jobs struct {
	sem chan struct{}
	wg  sync.WaitGroup
}

func newJobs(n int) *jobs { return &jobs{sem: make(chan struct{}, n)} }

func (j *jobs) start(f func()) {
	j.wg.Add(1)
	go func() {
		j.sem <- struct{}{} // want `goroutine waits on j.sem before doing any work`
		defer func() {
			<-j.sem
			j.wg.Done()
		}()
		f()
	}()
}

func runAll(names []string) {
	j := newJobs(4)
	for _, name := range names {
		j.start(func() { work(len(name)) })
	}
	j.wg.Wait()
}

// No fix either for a runner other packages call with their own tasks:
// whether those start more tasks is out of view.
type Runner struct {
	sem chan struct{}
	wg  sync.WaitGroup
}

func (r *Runner) Go(f func()) {
	r.wg.Add(1)
	go func() {
		r.sem <- struct{}{} // want `goroutine waits on r.sem before doing any work`
		defer func() {
			<-r.sem
			r.wg.Done()
		}()
		f()
	}()
}
