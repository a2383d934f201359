// Package future holds shape 5: a function returns a fresh unbuffered
// channel fed by exactly one plain send from a goroutine it starts. Any
// caller that stops waiting strands the sender.
package future

import (
	"context"
	"errors"
	"sync"
	"time"
)

// async is the classic future.
func async(f func() error) <-chan error {
	ch := make(chan error)
	go func() {
		ch <- f() // want `send on unbuffered ch blocks forever if the caller of async stops waiting for the result; the goroutine leaks — make ch buffered`
	}()
	return ch
}

// ok: the twin with room for the result.
func asyncBuffered(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() {
		ch <- f()
	}()
	return ch
}

// A method whose goroutine runs a named method, sends once and closes.
type Runner struct{}

func (r *Runner) Start(ctx context.Context) <-chan error {
	result := make(chan error)
	go r.run(ctx, result)
	return result
}

func (r *Runner) run(ctx context.Context, result chan<- error) {
	defer close(result)
	result <- ctx.Err() // want `send on unbuffered result blocks forever if the caller of Start stops waiting for the result`
}

// A future with an early error return: the error path strands it first.
func startChecked(f func() error, check func() error) (<-chan error, error) {
	ch := make(chan error)
	go func() { ch <- f() }() // want `send on unbuffered ch blocks forever once the receiver leaves \(return at future.go:50\); the goroutine leaks — make ch buffered`
	if err := check(); err != nil {
		return nil, err
	}
	return ch, nil
}

// ok: a stream, a loop of sends then close, is not a future: its
// receiver is not in view.
func count(n int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := 0; i < n; i++ {
			ch <- i
		}
	}()
	return ch
}

// ok: close is the signal; nothing is sent.
func done(f func()) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		f()
	}()
	return ch
}

// nope: the sender selects on the context too.
func asyncCtx(ctx context.Context, f func() error) <-chan error {
	ch := make(chan error)
	go func() {
		select {
		case ch <- f():
		case <-ctx.Done():
		}
	}()
	return ch
}

// ok: two goroutines feed the returned channel: a fan-in, not a future.
func merge(a, b func() error) <-chan error {
	ch := make(chan error)
	go func() { ch <- a() }()
	go func() { ch <- b() }()
	return ch
}

// nope: the channel is returned inside a struct; where it goes is out of
// view.
type handle struct{ c chan error }

func boxed(f func() error) handle {
	c := make(chan error)
	go func() { c <- f() }()
	return handle{c: c}
}

var errNo = errors.New("no")

// ok: the function waits itself on one path and returns the channel on
// the other; the path that receives is complete.
func maybeWait(wait bool, f func() error) (<-chan error, error) {
	ch := make(chan error)
	go func() { ch <- f() }()
	if wait {
		return nil, <-ch
	}
	return ch, errNo
}

// A future whose only caller drops it: nobody ever receives.
func launch(f func() error) <-chan error {
	ch := make(chan error)
	go func() { ch <- f() }() // want `send on unbuffered ch blocks forever once the receiver leaves \(the end of the function at future.go:128\)`
	return ch
}

func fireAndForget(f func() error) { launch(f) }

// ok: a future whose only caller waits for it.
func launchWaited(f func() error) <-chan error {
	ch := make(chan error)
	go func() { ch <- f() }()
	return ch
}

func waits(f func() error) error { return <-launchWaited(f) }

// A future whose caller in view gives up on a timer, or on its context.
func lookup(key string) <-chan string {
	ch := make(chan string)
	go func() { ch <- key }() // want `send on unbuffered ch blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at future.go:150\)`
	return ch
}

func lookupBy(key string) (string, error) {
	select {
	case v := <-lookup(key):
		return v, nil
	case <-time.After(time.Second):
		return "", errNo
	}
}

func resolve(name string) <-chan string {
	ch := make(chan string)
	go func() { ch <- name }() // want `send on unbuffered ch blocks forever once the receiver leaves \(case <-ctx.Done\(\) at future.go:165\)`
	return ch
}

func resolveCtx(ctx context.Context, name string) (string, error) {
	select {
	case v := <-resolve(name):
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ok: an exported future the package itself waits for, outside its
// tests: the package's own use is the contract its other callers read
// (cometbft's WaitNextCh).
func Fetch(key string) <-chan string {
	ch := make(chan string)
	go func() { ch <- key }()
	return ch
}

func fetchAll(keys []string) []string {
	var out []string
	for _, k := range keys {
		out = append(out, <-Fetch(k))
	}
	return out
}

// The twin: an exported future the package calls only to give up on it.
func Probe(key string) <-chan string {
	ch := make(chan string)
	go func() { ch <- key }() // want `send on unbuffered ch blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at future.go:\d+\)`
	return ch
}

func probeWithin(key string) bool {
	select {
	case <-Probe(key):
		return true
	case <-time.After(time.Second):
		return false
	}
}

// ok: an exported future the package hands to a goroutine of its own
// that receives it first thing and never gives up: the forwarder waits
// in the caller's stead (cilium's FutureWatcher, validation set 18). The
// forwarder's own send is the one a caller can strand.
func Certs(key string) <-chan string {
	ch := make(chan string)
	go func() { ch <- key }()
	return ch
}

func forwardCerts(key string) <-chan string {
	certs := Certs(key)
	out := make(chan string)
	go func() {
		defer close(out)
		c, ok := <-certs
		if !ok {
			return
		}
		out <- c // want `send on unbuffered out blocks forever once the receiver leaves \(case <-ctx.Done\(\) at future.go:\d+\)`
	}()
	return out
}

func awaitCerts(ctx context.Context, key string) string {
	select {
	case c := <-forwardCerts(key):
		return c
	case <-ctx.Done():
		return ""
	}
}

// The twin: the package's goroutine can give up on the future first.
func Keys(key string) <-chan string {
	ch := make(chan string)
	go func() { ch <- key }() // want `send on unbuffered ch blocks forever if the caller of Keys stops waiting for the result`
	return ch
}

func forwardKeys(ctx context.Context, key string, use func(string)) {
	keys := Keys(key)
	go func() {
		select {
		case k := <-keys:
			use(k)
		case <-ctx.Done():
		}
	}()
}

// An exported watch whose goroutine sends one event and then waits for
// its caller's context before it closes the channel: a caller that
// cancels before reading the event strands it at the send, since the
// send does not see the cancel (moby's discovery watcher).
func Watch(ctx context.Context, key string) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		ch <- key // want `send on unbuffered ch blocks forever if the caller of Watch stops waiting for the result`
		<-ctx.Done()
	}()
	return ch
}

// The same, ending after its send: a caller that stops waiting strands
// it.
func WatchOnce(key string) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		ch <- key // want `send on unbuffered ch blocks forever if the caller of WatchOnce stops waiting for the result`
	}()
	return ch
}

// failed is a future of one error that the stream below returns on its
// error path.
func failed(err error) <-chan error {
	ch := make(chan error)
	go func() {
		defer close(ch)
		ch <- err
	}()
	return ch
}

// ok: Events returns the failed future on one path and a stream of many
// on the other: its callers read a stream, and the future's one value is
// its first.
func Events(err error, src []error) <-chan error {
	if err != nil {
		return failed(err)
	}
	out := make(chan error)
	go func() {
		defer close(out)
		for _, e := range src {
			out <- e
		}
	}()
	return out
}

// Returned onward alone, the future stays one: it is judged by the
// callers of the function returning it, and one of them gives up.
func failLater(err error) <-chan error {
	ch := make(chan error)
	go func() {
		ch <- err // want `send on unbuffered ch blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at future.go:\d+\)`
	}()
	return ch
}

func forward(err error) <-chan error { return failLater(err) }

func giveUp(err error) error {
	select {
	case e := <-forward(err):
		return e
	case <-time.After(time.Second):
		return nil
	}
}

// ok: the same with a deferred unlock, which returns through a result
// slot: Subscribe hands out the broker's stream, or the failed future
// when the broker is closed.
type broker struct {
	mu     sync.Mutex
	closed error
	events chan error
}

func (b *broker) Subscribe() <-chan error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed != nil {
		return failed(b.closed)
	}
	return b.events
}

// The twin whose deferred-unlock forwarder returns only the future: its
// caller gives up on a timer.
func (b *broker) lastError() <-chan error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return failSoon(b.closed)
}

func failSoon(err error) <-chan error {
	ch := make(chan error)
	go func() {
		ch <- err // want `send on unbuffered ch blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at future.go:\d+\)`
	}()
	return ch
}

func (b *broker) waitError() error {
	select {
	case err := <-b.lastError():
		return err
	case <-time.After(time.Second):
		return nil
	}
}

// ok: an exported collector whose goroutine can reach its one send only
// after its caller closes the input through the done func it returns:
// the caller signals, then reads the total, and no caller that has
// stopped waiting can find the sender at its send.
func Collect() (add func(int), sum <-chan int, done func()) {
	values := make(chan int, 8)
	out := make(chan int)
	go func() {
		out <- total(values)
	}()
	add = func(v int) { values <- v }
	done = func() { close(values) }
	return add, out, done
}

// The twin whose input is closed by a goroutine of its own, not by the
// caller: the total is sent whether or not anyone still waits for it.
func CollectAll(xs []int) <-chan int {
	values := make(chan int)
	out := make(chan int)
	go func() {
		defer close(values)
		for _, x := range xs {
			values <- x
		}
	}()
	go func() {
		out <- total(values) // want `send on unbuffered out blocks forever if the caller of CollectAll stops waiting for the result`
	}()
	return out
}

// total receives until values is closed.
func total(values <-chan int) int {
	n := 0
	for v := range values {
		n += v
	}
	return n
}

// A stream of chunks and their error, fed by one goroutine and returned
// together: its reader reads the chunks to their end and the error with
// them, one protocol, judged where the stream is read (validation set 14,
// an image source's GetBlobAt). Not a future.
func Chunks(read func(n int) ([]byte, error), sizes []int) (<-chan []byte, <-chan error) {
	chunks := make(chan []byte)
	errs := make(chan error)
	go func() {
		defer close(chunks)
		defer close(errs)
		for _, n := range sizes {
			buf, err := read(n)
			if err != nil {
				errs <- err
				return
			}
			chunks <- buf
		}
	}()
	return chunks, errs
}

// The twin whose goroutine sends one header and then its error: no
// stream, two futures, each stranded by a caller that stops waiting for
// it.
func Header(read func(n int) ([]byte, error)) (<-chan []byte, <-chan error) {
	head := make(chan []byte)
	errs := make(chan error)
	go func() {
		buf, err := read(8)
		head <- buf // want `send on unbuffered head blocks forever if the caller of Header stops waiting for the result`
		errs <- err // want `send on unbuffered errs blocks forever if the caller of Header stops waiting for the result`
	}()
	return head, errs
}

// The stream's sends may sit in a closure the goroutine defines and
// calls, here and in its loop (a helper that skips names already sent):
// it is still a stream of names, and the error its trailer, read where
// the names are read (validation set 27, tkn's pod names). Not a future.
func Names(first string, next func() (string, error)) (<-chan string, <-chan error) {
	names := make(chan string)
	errs := make(chan error)
	go func() {
		defer close(names)
		defer close(errs)
		seen := map[string]bool{}
		add := func(n string) {
			if !seen[n] {
				seen[n] = true
				names <- n
			}
		}
		add(first)
		for {
			n, err := next()
			if err != nil {
				errs <- err
				return
			}
			add(n)
		}
	}()
	return names, errs
}

// The twin whose goroutine calls the closure once, with no loop: one
// name and then its error, no stream, and each channel a future its
// caller can stop waiting for, as Header's.
func FirstName(next func() (string, error)) (<-chan string, <-chan error) {
	names := make(chan string)
	errs := make(chan error)
	go func() {
		add := func(n string) {
			names <- n // want `send on unbuffered names blocks forever if the caller of FirstName stops waiting for the result`
		}
		n, err := next()
		add(n)
		errs <- err // want `send on unbuffered errs blocks forever if the caller of FirstName stops waiting for the result`
	}()
	return names, errs
}

// Its one caller hands the future on, out of view.
func handOn(f func() error, keep func(<-chan error)) { keep(async(f)) }

// ok: the same future with no caller at all, and none out of view:
// nothing can stop waiting for it (validation set 29, cri-dockerd's
// watchErrorStream, copied without its callers).
func asyncUncalled(f func() error) <-chan error {
	ch := make(chan error)
	go func() {
		ch <- f()
	}()
	return ch
}
