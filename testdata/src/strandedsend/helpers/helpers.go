// Package helpers holds channels handed to helpers and callbacks: the
// goroutine the function starts does not send itself, a function it
// calls does, in this package or another, or a callback it hands to a
// walker does. The reports are at the call in the goroutine.
package helpers

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"strandedsend/helpers/feed"
)

type result struct{ n int }

func compute(q string) result { return result{len(q)} }

// deliver sends the result on the channel it is given.
func deliver(out chan<- result, q string) {
	out <- compute(q) // want `send on unbuffered out blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at wrapped\.go:21\); the goroutine leaks — make out buffered or select on ctx\.Done\(\)$`
}

// The closure form: the goroutine calls a helper that sends.
func lookup(ctx context.Context, q string) (result, error) {
	out := make(chan result)
	go func() {
		deliver(out, q) // want `send on unbuffered out in deliver at helpers\.go:25 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at helpers\.go:37\); the goroutine leaks — make out buffered or select on ctx\.Done\(\)`
	}()
	select {
	case r := <-out:
		return r, nil
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
}

// ok: the twin with room for the one result.
func lookupBuffered(ctx context.Context, q string) (result, error) {
	out := make(chan result, 1)
	go func() {
		deliver(out, q)
	}()
	select {
	case r := <-out:
		return r, nil
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
}

type server struct{ cache map[string]result }

// fill sends through a second helper: two calls deep.
func (s *server) fill(out chan<- result, q string) {
	if r, ok := s.cache[q]; ok {
		out <- r
		return
	}
	deliver(out, q)
}

// The method form, with the send two calls deep.
func (s *server) get(ctx context.Context, q string) (result, error) {
	out := make(chan result)
	go func() { s.fill(out, q) }() // want `send on unbuffered out in \(\*server\)\.fill at helpers\.go:61 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at helpers\.go:74\); the goroutine leaks — make out buffered or select on ctx\.Done\(\)`
	select {
	case r := <-out:
		return r, nil
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
}

// ok: the receiver takes the result on every path.
func (s *server) getAll(q string) result {
	out := make(chan result)
	go func() { s.fill(out, q) }()
	return <-out
}

// Across packages: the helper's summary arrives as a fact.
func firstEvent(ctx context.Context) (feed.Event, error) {
	events := make(chan feed.Event)
	go func() {
		feed.Publish(events, 1) // want `send on unbuffered events in feed\.Publish at feed\.go:11 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at helpers\.go:95\); the goroutine leaks — make events buffered or select on ctx\.Done\(\)`
	}()
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// The go statement runs the helper of another package itself.
func spawnPublish(ctx context.Context) (feed.Event, error) {
	events := make(chan feed.Event)
	go feed.Publish(events, 1) // want `send on unbuffered events in feed\.Publish at feed\.go:11 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at helpers\.go:107\); the goroutine leaks — make events buffered or select on ctx\.Done\(\)`
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// ok: the twin with room for the one event.
func spawnPublishBuffered(ctx context.Context) (feed.Event, error) {
	events := make(chan feed.Event, 1)
	go feed.Publish(events, 1)
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// nope: the helper selects on the context as well.
func firstEventCtx(ctx context.Context) (feed.Event, error) {
	events := make(chan feed.Event)
	go func() {
		feed.PublishCtx(ctx, events, 1)
	}()
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// A stream handed to a helper in another package, and a receiver that
// stops at the first match.
func findEvent(ids []int, want int) bool {
	events := make(chan feed.Event)
	go func() { feed.Stream(events, ids) }() // want `send on events in feed\.Stream at feed\.go:17 blocks forever once the receiver stops receiving \(return at helpers\.go:145\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well`
	for e := range events {
		if e.ID == want {
			return true
		}
	}
	return false
}

// ok: the twin that drains the stream to its close.
func countEvents(ids []int) int {
	events := make(chan feed.Event)
	go func() { feed.Stream(events, ids) }()
	n := 0
	for range events {
		n++
	}
	return n
}

// ok: the twin that breaks out at the first match and then drains the
// rest of the stream.
func findEventDrained(ids []int, want int) bool {
	events := make(chan feed.Event)
	go func() { feed.Stream(events, ids) }()
	found := false
	for e := range events {
		if e.ID == want {
			found = true
			break
		}
	}
	for range events {
	}
	return found
}

// A method of another package, one call deep in its own package.
func nextEvent(ctx context.Context, src *feed.Source) (feed.Event, error) {
	events := make(chan feed.Event)
	go func() { src.Next(events) }() // want `send on unbuffered events in feed\.\(\*Source\)\.Next at feed\.go:36 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at helpers\.go:186\); the goroutine leaks — make events buffered or select on ctx\.Done\(\)`
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// nope: the helper is given two channels; which it sends on is its own
// business (here, one or the other), which no summary of either says.
func work(resc chan<- result, done chan<- struct{}, q string) {
	if q == "" {
		resc <- result{}
		return
	}
	close(done)
}

func either(q string) (result, bool) {
	resc := make(chan result)
	done := make(chan struct{})
	go func() { work(resc, done, q) }()
	select {
	case r := <-resc:
		return r, true
	case <-done:
		return result{}, false
	}
}

// nope: the helper also receives from the channel (a ping-pong).
func echo(c chan int) {
	v := <-c
	c <- v + 1
}

func pingPong(ctx context.Context) error {
	c := make(chan int)
	go func() { echo(c) }()
	c <- 1
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return errors.New("gave up")
	}
}

// A callback run in place for every file: a stream, and a receiver that
// stops at the first match.
func findFile(root, name string) (string, error) {
	paths := make(chan string)
	go func() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			paths <- p // want `send on paths blocks forever once the receiver stops receiving \(return at helpers\.go:244\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well`
			return nil
		})
		close(paths)
	}()
	for p := range paths {
		if filepath.Base(p) == name {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// ok: the twin whose receiver drains every path.
func countFiles(root string) int {
	paths := make(chan string)
	go func() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			paths <- p
			return nil
		})
		close(paths)
	}()
	n := 0
	for range paths {
		n++
	}
	return n
}

// The body of a range-over-func loop is a callback too.
func firstField(s string) string {
	fields := make(chan string)
	go func() {
		for f := range strings.SplitSeq(s, ",") {
			fields <- f // want `send on fields blocks forever once the receiver stops receiving \(return at helpers\.go:278\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well`
		}
		close(fields)
	}()
	for f := range fields {
		if f != "" {
			return f
		}
	}
	return ""
}

// A walker of another package, whose summary says it runs its callback
// in place.
func firstOdd(ctx context.Context, ids []int) (int, error) {
	odd := make(chan int)
	go func() {
		feed.Each(ids, func(id int) {
			if id%2 == 1 {
				odd <- id // want `send on odd blocks forever once the receiver stops receiving \(case <-ctx\.Done\(\) at helpers\.go:299\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well`
			}
		})
		close(odd)
	}()
	select {
	case id := <-odd:
		return id, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// nope: a callback kept for later runs elsewhere, out of view.
func kept(ctx context.Context) (int, error) {
	c := make(chan int)
	go func() {
		feed.Keep(func(id int) { c <- id })
	}()
	select {
	case id := <-c:
		return id, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ok: a callback run at most once, into a buffer of one.
func onceOnly(ctx context.Context, once *sync.Once) (int, error) {
	c := make(chan int, 1)
	go func() {
		once.Do(func() { c <- 1 })
	}()
	select {
	case v := <-c:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// A callback run at most once, unbuffered.
func onceUnbuffered(ctx context.Context, once *sync.Once) (int, error) {
	c := make(chan int)
	go func() {
		once.Do(func() { c <- 1 }) // want `send on unbuffered c blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at helpers\.go:341\); the goroutine leaks — make c buffered or select on ctx\.Done\(\)`
	}()
	select {
	case v := <-c:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Two helpers report on one channel, one of them from a goroutine it
// starts when the context ends; the receiver takes one report, so the
// other's send blocks forever (helm's upgrade, fixed upstream; from the
// corpus of real bugs).
type upgrade struct{ mu sync.Mutex }

func (u *upgrade) report(c chan<- result, r result) {
	u.mu.Lock()
	defer u.mu.Unlock()
	c <- r
}

func (u *upgrade) onCancel(ctx context.Context, c chan<- result) {
	go func() {
		<-ctx.Done()
		u.report(c, result{})
	}()
}

func (u *upgrade) release(c chan<- result, q string) {
	u.report(c, compute(q)) // want `send on rc in \(\*upgrade\).report at helpers.go:355 blocks forever once the receiver leaves \(return at helpers.go:373\) after 1 of 2 values, with room for 0; goroutines leak — make rc's capacity 2`
}

func (u *upgrade) run(ctx context.Context, q string) result {
	rc := make(chan result)
	go u.release(rc, q)
	go u.onCancel(ctx, rc)
	return <-rc
}

// A closure the goroutine defines and calls at two calls sends once per
// call: two values, and a receiver that takes one and returns on an
// error.
func pair(a, b string, check func(result) error) (result, error) {
	out := make(chan result)
	go func() {
		emit := func(q string) {
			out <- compute(q) // want `send on out blocks forever once the receiver leaves \(return at helpers.go:390\) after 1 of 2 values, with room for 0; the goroutine leaks — make out's capacity 2`
		}
		emit(a)
		emit(b)
	}()
	r := <-out
	if err := check(r); err != nil {
		return result{}, err
	}
	return <-out, nil
}

// ok: the twin that takes both values on every path: two calls, two
// values, counted once each.
func pairAll(a, b string, check func(result) error) (result, error) {
	out := make(chan result)
	go func() {
		emit := func(q string) {
			out <- compute(q)
		}
		emit(a)
		emit(b)
	}()
	r := <-out
	last := <-out
	if err := check(r); err != nil {
		return result{}, err
	}
	return last, nil
}
