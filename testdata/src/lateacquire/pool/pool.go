// Package pool defines semaphore wrappers, and functions that look like
// them but are not, for the acquire summary and for lateacquire's tests
// across packages.
package pool

import (
	"context"
	"net/http"
	"sync"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// A Pool bounds concurrent work.
type Pool struct {
	sem chan struct{}
	w   *semaphore.Weighted
	lim *rate.Limiter
}

// New returns a pool of n slots.
func New(n int) *Pool {
	return &Pool{sem: make(chan struct{}, n), w: semaphore.NewWeighted(int64(n)), lim: rate.NewLimiter(1, n)}
}

// Acquire waits for a slot, or for ctx to end.
func (p *Pool) Acquire(ctx context.Context) error { // want Acquire:`acquire\(chan on argument 0, select\)`
	select {
	case p.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release returns a slot.
func (p *Pool) Release() { <-p.sem }

// Take wraps Acquire: a wrapper of a wrapper.
func (p *Pool) Take() { // want Take:`acquire\(chan on argument 0, select\)`
	p.Acquire(context.Background())
}

// Reserve wraps a Weighted.
func (p *Pool) Reserve(ctx context.Context, n int64) error { // want Reserve:`acquire\(weighted on argument 0\)`
	return p.w.Acquire(ctx, n)
}

// Throttle waits on the limiter it is given.
func Throttle(ctx context.Context, lim *rate.Limiter) { // want Throttle:`acquire\(limiter on argument 1\)`
	lim.Wait(ctx)
}

var slots = make(chan struct{}, 4)

// Enter takes one of the package's slots.
func Enter() { // want Enter:`acquire\(chan on global\)`
	slots <- struct{}{}
}

// Counted acquires under a lock: still a wrapper.
type Counted struct {
	mu      sync.Mutex
	waiting int
	sem     chan struct{}
}

// Acquire counts the waiter, then waits.
func (c *Counted) Acquire() { // want Acquire:`acquire\(chan on argument 0\)`
	c.mu.Lock()
	c.waiting++
	c.mu.Unlock()
	c.sem <- struct{}{}
}

// Release gives the slot back.
func (c *Counted) Release() { <-c.sem }

// NewCounted makes the semaphore, with n slots.
func NewCounted(n int) *Counted { return &Counted{sem: make(chan struct{}, n)} }

// nope: a worker paused and resumed through an unbuffered channel: the
// send hands a signal to the worker, it holds no permit (a hand-off).
type Worker struct {
	pause chan struct{}
}

func NewWorker() *Worker { return &Worker{pause: make(chan struct{})} }

// Pause waits for the worker to take the signal.
func (w *Worker) Pause() { w.pause <- struct{}{} }

func (w *Worker) run() {
	<-w.pause
}

// nope: a count of running handlers, kept for shutdown by a loop that
// takes every value as it comes: the send waits for no permit.
type Server struct {
	started chan struct{}
	n       int
}

func NewServer() *Server { return &Server{started: make(chan struct{}, 16)} }

// Started records one more running handler.
func (s *Server) Started() { s.started <- struct{}{} }

func (s *Server) count() {
	for {
		<-s.started
		s.n++
	}
}

// Leave gives it back.
func Leave() { <-slots }

// Do acquires, works and releases: a bounded call, not a wrapper.
func (p *Pool) Do(f func()) {
	p.sem <- struct{}{}
	defer func() { <-p.sem }()
	f()
}

// Fetch waits on the limiter, then does I/O: it is not only an acquire.
func (p *Pool) Fetch(ctx context.Context, url string) error {
	if err := p.lim.Wait(ctx); err != nil {
		return err
	}
	_, err := http.Get(url)
	return err
}

// TryAcquire does not wait.
func (p *Pool) TryAcquire() bool {
	select {
	case p.sem <- struct{}{}:
		return true
	default:
		return false
	}
}

// AcquireN takes n slots, one per iteration.
func (p *Pool) AcquireN(n int) {
	for i := 0; i < n; i++ {
		p.sem <- struct{}{}
	}
}

// A Queue is a channel of values, not of permits.
type Queue struct{ ch chan int }

// Push sends a value nobody discards: not an acquire.
func (q *Queue) Push(v int) { q.ch <- v }

// Pop receives one.
func (q *Queue) Pop() int { return <-q.ch }

// local makes its own channel: not a wrapper.
func local() {
	sem := make(chan struct{}, 1)
	sem <- struct{}{}
	<-sem
}

// Metered reads how many tokens are left, for its metrics, before it
// waits: a non-blocking read is bookkeeping, and it is still a wrapper.
type Metered struct {
	lim  *rate.Limiter
	left float64
}

// Wait records the tokens left, then waits for one.
func (m *Metered) Wait(ctx context.Context) error { // want Wait:`acquire\(limiter on argument 0\)`
	m.left = m.lim.Tokens()
	return m.lim.Wait(ctx)
}

// Tokens is the token form of a channel semaphore: made with room,
// filled with tokens where it is made, a token taken with a receive and
// given back with a send.
type Tokens struct{ ch chan struct{} }

// NewTokens fills the channel with n tokens.
func NewTokens(n int) *Tokens {
	t := &Tokens{ch: make(chan struct{}, n)}
	for i := 0; i < n; i++ {
		t.ch <- struct{}{}
	}
	return t
}

// Get takes a token.
func (t *Tokens) Get() { // want Get:`acquire\(chan on argument 0\)`
	<-t.ch
}

// GetCtx takes a token, or gives up when ctx is done.
func (t *Tokens) GetCtx(ctx context.Context) error { // want GetCtx:`acquire\(chan on argument 0, select\)`
	select {
	case <-t.ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Put gives a token back.
func (t *Tokens) Put() { t.ch <- struct{}{} }

// IDs hands out worker numbers, filled by a counting loop over range n:
// tokens too.
type IDs struct{ ch chan int }

// NewIDs fills the channel with the numbers 0 to n-1.
func NewIDs(n int) *IDs {
	ids := &IDs{ch: make(chan int, n)}
	for i := range n {
		ids.ch <- i
	}
	return ids
}

// Take takes a number.
func (ids *IDs) Take() int { // want Take:`acquire\(chan on argument 0\)`
	return <-ids.ch
}

// Give gives a number back.
func (ids *IDs) Give(id int) { ids.ch <- id }

// A Backlog is filled from data where it is made: a queue of jobs, not
// of tokens, though it is made with room and pushed to once.
type Backlog struct{ ch chan string }

// NewBacklog queues the names.
func NewBacklog(names []string) *Backlog {
	b := &Backlog{ch: make(chan string, len(names))}
	for _, name := range names {
		b.ch <- name
	}
	return b
}

// Next receives a job: not an acquire.
func (b *Backlog) Next() string { return <-b.ch }

// Requeue pushes a job back.
func (b *Backlog) Requeue(name string) { b.ch <- name }

// A Latch is filled with tokens but closed to let everyone through: a
// gate, not a semaphore.
type Latch struct{ ch chan struct{} }

// NewLatch fills it.
func NewLatch(n int) *Latch {
	l := &Latch{ch: make(chan struct{}, n)}
	for i := 0; i < n; i++ {
		l.ch <- struct{}{}
	}
	return l
}

// Wait takes a token: not an acquire, since Open closes the channel.
func (l *Latch) Wait() { <-l.ch }

// Refill gives one back.
func (l *Latch) Refill() { l.ch <- struct{}{} }

// Open lets every waiter through.
func (l *Latch) Open() { close(l.ch) }

// StartLimited spawns job once per call, the permit taken inside the
// goroutine from the semaphore it is given: its callers' loops decide
// how many goroutines park.
func StartLimited(sem chan struct{}, job func()) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
}
