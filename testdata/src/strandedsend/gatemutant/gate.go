// Package gatemutant is a copy of the reference gate (testdata/src/gate)
// with strandedsend's defect seeded: Start's result channel is unbuffered,
// so a worker whose caller stopped listening blocks forever.
//
// The original: admitlint's reference admission gate: admission control
// done right, and the known-good fixture every admitlint pass must stay
// silent on.
//
// The gate admits at most a fixed number of concurrent operations and never
// queues: Start either reserves a slot and spawns the operation's goroutine,
// or refuses at once with ErrCapacity, ErrDraining or the caller's context
// error. The shapes admitlint looks for are all absent by construction:
//
//   - the slot is reserved under the mutex before the go statement, so a
//     burst of refused requests creates no goroutines (lateacquire);
//   - each operation's result channel has capacity one, so a worker whose
//     caller stopped listening still finishes (strandedsend);
//   - the only value a worker keeps is the error its work returned
//     (retainslice).
//
// Shutdown makes draining a one-way transition and waits, within its
// caller's deadline, for admitted work to finish.
package gatemutant

import (
	"context"
	"errors"
	"sync"
)

// ErrCapacity is returned by Start when every slot is taken.
var ErrCapacity = errors.New("gate: at capacity")

// ErrDraining is returned by Start once Shutdown has been called.
var ErrDraining = errors.New("gate: draining")

var errNilWork = errors.New("gate: nil work")

// A Gate admits at most limit concurrent operations.
//
// Invariants, all guarded by mu: 0 <= active <= limit; every admitted
// operation increments active exactly once and decrements it exactly once;
// done is closed exactly once, after draining is set and active is zero.
type Gate struct {
	limit int

	mu       sync.Mutex
	active   int
	draining bool
	done     chan struct{} // closed when draining and no work is active
}

// New returns a gate that admits at most limit concurrent operations.
// It panics if limit is not positive: a gate that can admit nothing is a
// configuration error, not a runtime condition.
func New(limit int) *Gate {
	if limit <= 0 {
		panic("gate: limit must be positive")
	}
	return &Gate{limit: limit, done: make(chan struct{})}
}

// Start admits work or refuses it without waiting.
//
// On admission it runs work(ctx) on a new goroutine and returns a channel
// that receives work's error and is then closed. The channel has room for
// the one result, so a caller may abandon it (after its own cancellation,
// say) without stranding the worker. Otherwise Start returns ctx's error,
// ErrDraining or ErrCapacity, and no goroutine is created.
func (g *Gate) Start(ctx context.Context, work func(context.Context) error) (<-chan error, error) {
	if work == nil {
		return nil, errNilWork
	}
	if err := g.admit(ctx); err != nil {
		return nil, err
	}
	result := make(chan error) // the seeded defect: no room for the one result
	go g.run(ctx, work, result)
	return result, nil
}

// admit reserves a slot for one operation, or reports why it cannot.
// Cancellation, draining and capacity are decided in one critical section,
// so Shutdown can never observe zero active work just before a new
// operation slips in.
func (g *Gate) admit(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	if g.draining {
		return ErrDraining
	}
	if g.active >= g.limit {
		return ErrCapacity
	}
	g.active++
	return nil
}

// run executes one admitted operation. The deferred calls run in reverse
// order: the slot is released before the result channel is closed, so a
// closed channel proves the gate's bookkeeping for it is done.
func (g *Gate) run(ctx context.Context, work func(context.Context) error, result chan<- error) {
	defer close(result)
	defer g.release()
	result <- work(ctx) // want `send on unbuffered result blocks forever if the caller of Start stops waiting for the result; the goroutine leaks — make result buffered`
}

// release returns one slot and, if the gate is draining and this was the
// last active operation, announces completion.
func (g *Gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.active--
	if g.active < 0 {
		panic("gate: release without admission")
	}
	if g.draining && g.active == 0 {
		close(g.done)
	}
}

// Shutdown stops admission for good and waits until every admitted
// operation has finished or ctx is done, whichever comes first.
//
// If ctx ends first the gate stays draining; a later Shutdown waits again.
// Shutdown never cancels work: workers observe their own contexts.
func (g *Gate) Shutdown(ctx context.Context) error {
	g.beginDraining()
	select {
	case <-g.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// beginDraining makes the one-way transition to draining, closing done at
// once when nothing is active (otherwise the last release closes it).
func (g *Gate) beginDraining() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.draining {
		return
	}
	g.draining = true
	if g.active == 0 {
		close(g.done)
	}
}

// Active reports how many admitted operations have not yet finished.
func (g *Gate) Active() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.active
}

// Limit reports the most operations the gate admits at once.
func (g *Gate) Limit() int { return g.limit }
