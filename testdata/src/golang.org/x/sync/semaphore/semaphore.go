// Package semaphore is a stub of golang.org/x/sync/semaphore for
// analysistest: the same API, so passes match it by import path.
package semaphore

import "context"

// Weighted provides a way to bound concurrent access to a resource.
type Weighted struct {
	size int64
	cur  int64
}

// NewWeighted creates a new weighted semaphore with the given maximum
// combined weight for concurrent access.
func NewWeighted(n int64) *Weighted { return &Weighted{size: n} }

// Acquire acquires the semaphore with a weight of n, blocking until
// resources are available or ctx is done.
func (s *Weighted) Acquire(ctx context.Context, n int64) error { return ctx.Err() }

// TryAcquire acquires the semaphore with a weight of n without blocking.
func (s *Weighted) TryAcquire(n int64) bool { return s.cur+n <= s.size }

// Release releases the semaphore with a weight of n.
func (s *Weighted) Release(n int64) { s.cur -= n }
