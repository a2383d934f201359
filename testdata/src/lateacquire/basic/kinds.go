package basic

import (
	"context"
	"errors"
	"net/http"
	"os"
	"sync"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

func fetch(ctx context.Context, url string) error {
	_, err := http.Get(url)
	return err
}

// (*semaphore.Weighted).Acquire inside the goroutine.
func weighted(ctx context.Context, urls []string) {
	sem := semaphore.NewWeighted(10)
	for _, u := range urls {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil { // want `goroutine waits on sem before doing any work; one goroutine parks per element of urls`
				return
			}
			defer sem.Release(1)
			fetch(ctx, u)
		}()
	}
}

// ok: x/sync's own worker-pool example: acquire in the loop.
func weightedGood(ctx context.Context, urls []string) {
	sem := semaphore.NewWeighted(10)
	for _, u := range urls {
		if err := sem.Acquire(ctx, 1); err != nil {
			break
		}
		go func() {
			defer sem.Release(1)
			fetch(ctx, u)
		}()
	}
}

// nope: a semaphore the goroutine makes bounds its own sub-work.
func ownSubwork(ctx context.Context, batches [][]string) {
	for _, b := range batches {
		go func() {
			sem := semaphore.NewWeighted(2)
			if err := sem.Acquire(ctx, 1); err != nil { // nope: made by the goroutine
				return
			}
			defer sem.Release(1)
			_ = b
		}()
	}
}

// (*rate.Limiter).Wait: a goroutine parked on a limiter is the same queue.
func limiter(ctx context.Context, lim *rate.Limiter, urls []string) {
	for _, u := range urls {
		go func() {
			lim.Wait(ctx) // want `goroutine waits on lim before doing any work; one goroutine parks per element of urls`
			fetch(ctx, u)
		}()
	}
}

// nope: a long-lived goroutine waiting on a limiter in its own loop paces
// itself.
func limiterPacing(ctx context.Context, lim *rate.Limiter, urls <-chan string) {
	go func() {
		for u := range urls {
			if err := lim.WaitN(ctx, 1); err != nil { // nope: pacing inside the loop
				return
			}
			fetch(ctx, u)
		}
	}()
}

// A select with ctx.Done(): the wait can end, the goroutine still exists.
func selectCancel(ctx context.Context, jobs []Job, sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			select {
			case sem <- struct{}{}: // want `goroutine waits on sem or ctx.Done\(\) before doing any work; one goroutine still parks per element of jobs`
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// nope: a select with a default is a try, reported only with -strict.
func selectDefault(jobs []Job, sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			select {
			case sem <- struct{}{}: // nope: refuses at once
			default:
				return
			}
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// nope: TryAcquire is a try as well.
func tryAcquire(jobs []Job, sem *semaphore.Weighted) {
	for _, j := range jobs {
		go func() {
			if !sem.TryAcquire(1) { // nope: refuses at once
				return
			}
			defer sem.Release(1)
			process(j)
		}()
	}
}

// The token form: take a token from a pre-filled channel, give it back.
func tokens(jobs []Job, pool chan int) {
	for _, j := range jobs {
		go func() {
			tok := <-pool // want `goroutine waits on pool before doing any work; one goroutine parks per element of jobs`
			defer func() { pool <- tok }()
			process(j)
		}()
	}
}

// nope: a channel of one value that each user takes and puts back
// changed (an offset, a counter) is a lock around that value, not a
// permit: the "release" is the update, and no goroutine waits for
// another's work (validation set 40, an allocator of offsets in a
// shared file).
func offsets(jobs []Job, next chan int) {
	for _, j := range jobs {
		go func() {
			off := <-next // nope: the value sent back is computed from it
			next <- off + j.ID
			write(off, j)
		}()
	}
}

// nope: the same when the new value goes back in a helper the goroutine
// starts, handed the old one as a parameter.
func offsetsHanded(jobs []Job, next chan int) {
	for _, j := range jobs {
		go func() {
			off := <-next // nope: putBack sends off plus a length
			go putBack(next, off)
			write(off, j)
		}()
	}
}

func putBack(next chan int, off int) { next <- off + 64 }

// nope: and when that goroutine is a closure that captures the old value.
func offsetsCaptured(jobs []Job, next chan int) {
	for _, j := range jobs {
		go func() {
			off := <-next // nope: the closure sends back off plus a length
			go func() { putBack(next, off) }()
			write(off, j)
		}()
	}
}

// The token sent back unchanged, as a pool hands a resource back, is
// still a permit, however it is converted on the way.
func tokensConverted(jobs []Job, pool chan int64) {
	for _, j := range jobs {
		go func() {
			tok := <-pool // want `goroutine waits on pool before doing any work; one goroutine parks per element of jobs`
			process(j)
			pool <- int64(int(tok))
		}()
	}
}

func write(off int, j Job) { _, _ = off, j }

// nope: receiving a job and putting it back only on failure is a requeue,
// not a token.
func requeue(workers []string, work chan Job) {
	for range workers {
		go func() {
			j := <-work // nope: no unconditional release
			if j.ID < 0 {
				work <- j
				return
			}
			process(j)
		}()
	}
}

// nope: a send with no matching release is a result, not a permit.
func results(items []Job, out chan Job) {
	for _, it := range items {
		go func() {
			out <- it // nope: nothing gives it back
		}()
	}
}

// errgroup's Go on a group with no limit spawns at once.
func errgroupNoLimit(ctx context.Context, urls []string, sem *semaphore.Weighted) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, u := range urls {
		g.Go(func() error {
			if err := sem.Acquire(ctx, 1); err != nil { // want `goroutine waits on sem before doing any work; one goroutine parks per element of urls — acquire before g.Go, or limit the group with SetLimit`
				return err
			}
			defer sem.Release(1)
			return fetch(ctx, u)
		})
	}
	return g.Wait()
}

// ok: with SetLimit, Go waits for a slot before it spawns.
func errgroupLimit(ctx context.Context, urls []string, sem *semaphore.Weighted) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(10)
	for _, u := range urls {
		g.Go(func() error {
			if err := sem.Acquire(ctx, 1); err != nil { // nope: the group is limited
				return err
			}
			defer sem.Release(1)
			return fetch(ctx, u)
		})
	}
	return g.Wait()
}

// sync.WaitGroup.Go spawns just like a go statement.
func waitGroupGo(items []Job, sem chan struct{}) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() {
			sem <- struct{}{} // want `one goroutine parks per element of items — acquire before wg.Go`
			defer func() { <-sem }()
			process(it)
		})
	}
	wg.Wait()
}

// nope: work (I/O) before the acquire: the acquire is not the goroutine's
// first act, and moving it would change what it guards.
func workFirst(ctx context.Context, urls []string, sem chan struct{}) {
	for _, u := range urls {
		go func() {
			if err := fetch(ctx, u); err != nil {
				return
			}
			sem <- struct{}{} // nope: the goroutine fetched first
			defer func() { <-sem }()
		}()
	}
}

// Bookkeeping before the acquire (logging, context, defers) is not work.
func bookkeepingFirst(ctx context.Context, urls []string, sem chan struct{}) {
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			err := errors.New("x")
			_ = err
			sem <- struct{}{} // want `one goroutine parks per element of urls`
			defer func() { <-sem }()
			fetch(ctx, u)
		}()
	}
	wg.Wait()
}

// An HTTP handler: one goroutine per request.
type server struct {
	sem chan struct{}
	lim *rate.Limiter
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	go func() {
		s.sem <- struct{}{} // want `goroutine waits on s.sem before doing any work; one goroutine parks per request`
		defer func() { <-s.sem }()
		fetch(context.Background(), r.URL.Path)
	}()
	w.WriteHeader(http.StatusAccepted)
}

// ok: the handler acquires (or refuses) before spawning.
func (s *server) serveGood(w http.ResponseWriter, r *http.Request) {
	select {
	case s.sem <- struct{}{}:
	default:
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	go func() {
		defer func() { <-s.sem }()
		fetch(context.Background(), r.URL.Path)
	}()
	w.WriteHeader(http.StatusAccepted)
}

// A handler function literal.
func handlerFunc(sem chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per request`
			defer func() { <-sem }()
		}()
	}
}

// A named method as the goroutine, started per connection.
type conn struct{ id int }

func (s *server) accept(conns <-chan conn) {
	for c := range conns {
		go s.handle(c)
	}
}

func (s *server) handle(c conn) {
	s.sem <- struct{}{} // want `goroutine waits on s.sem before doing any work; one goroutine parks per value received from conns`
	defer func() { <-s.sem }()
	_ = c
}

// The goroutine calls the package's own function, which acquires first.
func (s *server) dispatch(jobs []Job) {
	for _, j := range jobs {
		go func() {
			s.run(j) // want `goroutine waits on s.lim in s.run before doing any work; one goroutine parks per element of jobs`
		}()
	}
}

func (s *server) run(j Job) {
	s.lim.Wait(context.Background())
	process(j)
}

// A method that spawns per call, on the receiver's semaphore.
func (s *server) Trigger(j Job) {
	go func() {
		s.sem <- struct{}{} // want `one goroutine parks per call of server.Trigger`
		defer func() { <-s.sem }()
		process(j)
	}()
}

// nope: a semaphore the function makes, with one spawn, is not shared.
func oneSpawn(j Job) {
	sem := make(chan struct{}, 1)
	go func() {
		sem <- struct{}{} // nope: one goroutine per semaphore
		defer func() { <-sem }()
		process(j)
	}()
	sem <- struct{}{}
}

var global = make(chan struct{}, 4)

// nope: init runs once.
func init() {
	go func() {
		global <- struct{}{} // nope: started once
		defer func() { <-global }()
	}()
}

// nope: a callback given to sync.Once.Do runs once.
func once(o *sync.Once, sem chan struct{}) {
	o.Do(func() {
		go func() {
			sem <- struct{}{} // nope: once
			defer func() { <-sem }()
		}()
	})
}

// A callback given to something else runs per call.
func callback(register func(func(Job)), sem chan struct{}) {
	register(func(j Job) {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per call of the function literal`
			defer func() { <-sem }()
			process(j)
		}()
	})
}

// A disk semaphore of tokens whose acquire tries first, then waits, and
// whose release is a plain call after the work (nats-server's dios).
type diskSem struct {
	ch      chan struct{}
	waiters int
}

func (d *diskSem) acquire() {
	select {
	case <-d.ch:
		return
	default:
		d.waiters++
		<-d.ch
		d.waiters--
	}
}

func (d *diskSem) release() { d.ch <- struct{}{} }

type store struct{ dios *diskSem }

func (st *store) purge(dirs []string) {
	for _, dir := range dirs {
		go func() {
			st.dios.acquire() // want `goroutine waits on d.ch in st.dios.acquire before doing any work; one goroutine parks per element of dirs`
			os.RemoveAll(dir)
			st.dios.release()
		}()
	}
}

// nope: the release is not made on every path, so the receive may be a
// job taken for good.
func (st *store) purgeMaybe(dirs []string) {
	for _, dir := range dirs {
		go func() {
			st.dios.acquire() // nope: released on one path only
			if os.RemoveAll(dir) == nil {
				st.dios.release()
			}
		}()
	}
}

// A non-blocking check before the acquire does not wait.
func checkFirst(ctx context.Context, jobs []Job, sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			select {
			case <-ctx.Done():
				return
			default:
			}
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per element of jobs`
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// nope: a goroutine that first waits for a mutex is parked on the mutex:
// its first blocking act is not the acquire (nats-server's compression
// goroutine locks its block first).
func lockFirst(mu *sync.Mutex, jobs []Job, sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			mu.Lock()
			defer mu.Unlock()
			sem <- struct{}{} // nope: the mutex came first
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// nope: a caller that waits for its goroutine (or gives up with it) is
// throttled itself: one parked goroutine per waiting caller, not a queue
// (x/tools' imports resolvers detach their scans this way).
type resolver struct{ scanSema chan struct{} }

func (r *resolver) scan(ctx context.Context, roots []string) {
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			return
		case <-r.scanSema: // nope: the caller waits below
		}
		defer func() { r.scanSema <- struct{}{} }()
		os.Stat(roots[0])
		close(done)
	}()
	select {
	case <-ctx.Done():
	case <-done:
	}
}

// The same goroutine without the caller's wait: one parks per call.
func (r *resolver) scanDetached(ctx context.Context, roots []string) {
	go func() {
		select {
		case <-ctx.Done():
			return
		case <-r.scanSema: // want `goroutine waits on r.scanSema or ctx.Done\(\) before doing any work; one goroutine still parks per call of resolver.scanDetached`
		}
		defer func() { r.scanSema <- struct{}{} }()
		os.Stat(roots[0])
	}()
}

// nope: a loop that waits for each goroutine before starting the next.
func serial(items []Job, sem chan struct{}) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{} // nope: the loop waits for this goroutine
			defer func() { <-sem }()
			process(it)
		}()
		wg.Wait()
	}
}

// nope: an unbuffered channel is a hand-off, not a semaphore, even when
// the goroutine receives on it and answers on it.
func handoff(items []Job) {
	ch := make(chan bool)
	for _, it := range items {
		go func() {
			<-ch // nope: unbuffered
			process(it)
			ch <- true
		}()
	}
	for range items {
		ch <- true
		<-ch
	}
}

// The same with a buffered channel of tokens is a semaphore.
func tokensBuffered(items []Job) {
	ch := make(chan bool, 4)
	for range 4 {
		ch <- true
	}
	for _, it := range items {
		go func() {
			<-ch // want `goroutine waits on ch before doing any work; one goroutine parks per element of items`
			process(it)
			ch <- true
		}()
	}
}

// nope: a gate of one token that is closed once the first call
// succeeds (a once with retry) is no permit: closing it lets every
// waiter through at once, so what waits on it is the one call's result,
// not a share of a bounded resource (oras-go's syncutil.Once). diskSem
// above, never closed, is the twin that is reported.
type onceGate struct {
	status chan bool
	result error
}

func newOnceGate() *onceGate {
	g := &onceGate{status: make(chan bool, 1)}
	g.status <- false
	return g
}

func (g *onceGate) do(ctx context.Context, f func() error) error {
	select {
	case <-g.status:
		if err := f(); err != nil {
			g.status <- false // give the token back: the next caller retries
			return err
		}
		close(g.status) // every waiter, now and later, sees the result
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func fetchOnce(ctx context.Context, g *onceGate, callers []string) {
	for range callers {
		go func() {
			_ = g.do(ctx, func() error { return nil }) // nope: a gate closed once, not a permit
		}()
	}
}
