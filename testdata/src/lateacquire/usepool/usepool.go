// Package usepool calls the wrappers of package pool: lateacquire knows
// them through facts.
package usepool

import (
	"context"

	"golang.org/x/time/rate"

	"lateacquire/pool"
)

type job struct{}

func do(job) {}

// A wrapper from another package, in a select with ctx.Done().
func acquireWrapper(ctx context.Context, p *pool.Pool, jobs []job) {
	for _, j := range jobs {
		go func() {
			if err := p.Acquire(ctx); err != nil { // want `goroutine waits in p.Acquire before doing any work; one goroutine still parks per element of jobs — acquire before the go statement`
				return
			}
			defer p.Release()
			do(j)
		}()
	}
}

// ok: the wrapper called before the go statement.
func acquireWrapperGood(ctx context.Context, p *pool.Pool, jobs []job) {
	for _, j := range jobs {
		if err := p.Acquire(ctx); err != nil {
			return
		}
		go func() {
			defer p.Release()
			do(j)
		}()
	}
}

// A wrapper of a wrapper, and one on a global.
func wrapperChain(p *pool.Pool, jobs <-chan job) {
	for j := range jobs {
		go func() {
			p.Take() // want `goroutine waits in p.Take before doing any work; one goroutine still parks per value received from jobs`
			defer p.Release()
			do(j)
		}()
	}
	for j := range jobs {
		go func() {
			pool.Enter() // want `goroutine waits in pool.Enter before doing any work; one goroutine parks per value received from jobs`
			defer pool.Leave()
			do(j)
		}()
	}
}

// A wrapper on its parameter.
func throttle(ctx context.Context, lim *rate.Limiter, jobs []job) {
	for _, j := range jobs {
		go func() {
			pool.Throttle(ctx, lim) // want `goroutine waits in pool.Throttle before doing any work`
			do(j)
		}()
	}
}

// nope: functions that are not wrappers: Do bounds its own call, Fetch
// works after waiting, Push queues a value, TryAcquire does not wait,
// AcquireN loops.
func notWrappers(ctx context.Context, p *pool.Pool, q *pool.Queue, jobs []job) {
	for _, j := range jobs {
		go p.Do(func() { do(j) })                // nope: a bounded call in another package
		go func() { p.Fetch(ctx, "http://x") }() // nope: not only an acquire
		go func() { q.Push(1) }()                // nope: a queue
		go func() { p.TryAcquire(); do(j) }()    // nope: does not wait
		go func() { p.AcquireN(2); do(j) }()     // nope: loops
	}
}

// nope: a pool the goroutine makes for itself.
func ownPool(ctx context.Context, jobs []job) {
	for _, j := range jobs {
		go func() {
			p := pool.New(2)
			p.Acquire(ctx) // nope: the goroutine's own pool
			do(j)
		}()
	}
}

// Token-form wrappers from another package: the receive takes a token
// the package filled the channel with.
func tokens(ctx context.Context, t *pool.Tokens, ids *pool.IDs, jobs []job) {
	for _, j := range jobs {
		go func() {
			t.Get() // want `goroutine waits in t.Get before doing any work; one goroutine parks per element of jobs`
			defer t.Put()
			do(j)
		}()
	}
	for _, j := range jobs {
		go func() {
			if t.GetCtx(ctx) != nil { // want `goroutine waits in t.GetCtx before doing any work; one goroutine still parks per element of jobs`
				return
			}
			defer t.Put()
			do(j)
		}()
	}
	for _, j := range jobs {
		go func() {
			id := ids.Take() // want `goroutine waits in ids.Take before doing any work; one goroutine parks per element of jobs`
			defer ids.Give(id)
			do(j)
		}()
	}
}

// nope: a token taken before the go statement; a queue's job received
// in the goroutine; a latch's wait.
func notTokens(t *pool.Tokens, b *pool.Backlog, l *pool.Latch, jobs []job) {
	for _, j := range jobs {
		t.Get()
		go func() {
			defer t.Put()
			do(j)
		}()
	}
	for _, j := range jobs {
		go func() {
			_ = b.Next()
			do(j)
		}()
	}
	for _, j := range jobs {
		go func() {
			l.Wait()
			do(j)
		}()
	}
}

// Wrappers of another package that do bookkeeping before they wait: a
// counter of waiters under a lock, a read of the tokens left for a
// metric. They still wait first, so the goroutine still parks.
func countedWrapper(c *pool.Counted, jobs []job) {
	for _, j := range jobs {
		go func() {
			c.Acquire() // want `goroutine waits in c.Acquire before doing any work; one goroutine parks per element of jobs — acquire before the go statement`
			defer c.Release()
			do(j)
		}()
	}
}

func meteredWrapper(ctx context.Context, m *pool.Metered, jobs []job) {
	for _, j := range jobs {
		go func() {
			if err := m.Wait(ctx); err != nil { // want `goroutine waits in m.Wait before doing any work; one goroutine parks per element of jobs`
				return
			}
			do(j)
		}()
	}
}

// ok: the counted wrapper called before the go statement.
func countedWrapperGood(c *pool.Counted, jobs []job) {
	for _, j := range jobs {
		c.Acquire()
		go func() {
			defer c.Release()
			do(j)
		}()
	}
}

// A helper of another package that spawns once per call and takes the
// permit it is given inside its goroutine, called once per job: one
// goroutine parks per job (a Spawns fact on pool.StartLimited; the same
// helper in one package is reported at its acquire, basic/spawner.go).
func startEach(jobs []func()) {
	sem := make(chan struct{}, 4)
	for _, j := range jobs {
		pool.StartLimited(sem, j) // want `pool.StartLimited starts a goroutine that waits on sem before doing any work; one goroutine parks per element of jobs — acquire before the spawn, not in pool.StartLimited's goroutine`
	}
}
