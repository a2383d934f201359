package helpers

import (
	"context"
	"time"
)

// Goroutines started by a helper the function calls: the helper's only
// work is the go statement, so the function starts them, one call removed.

// startDeliver starts deliver in a goroutine of its own.
func startDeliver(out chan<- result, q string) { go deliver(out, q) }

// The function form.
func lookupStarted(ctx context.Context, q string) (result, error) {
	out := make(chan result)
	startDeliver(out, q) // reported at deliver's send, where the goroutine blocks
	select {
	case r := <-out:
		return r, nil
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
}

// ok: the twin with room for the one result.
func lookupStartedBuffered(ctx context.Context, q string) (result, error) {
	out := make(chan result, 1)
	startDeliver(out, q)
	select {
	case r := <-out:
		return r, nil
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
}

// A watcher whose start method runs its loop in a goroutine.
type watcher struct{ every time.Duration }

func (w *watcher) start(events chan<- string) { go w.watch(events) }

func (w *watcher) watch(events chan<- string) {
	time.Sleep(w.every)
	events <- "changed" // want `send on unbuffered events blocks forever once the receiver leaves \(case <-time\.After\(d\) at wrapped\.go:55\); the goroutine leaks — make events buffered$`
}

// The method form: the first event or the deadline.
func (w *watcher) first(d time.Duration) (string, bool) {
	events := make(chan string)
	w.start(events) // reported at watch's send
	select {
	case e := <-events:
		return e, true
	case <-time.After(d):
		return "", false
	}
}

// ok: the twin that always waits for the event.
func (w *watcher) wait() string {
	events := make(chan string)
	w.start(events)
	return <-events
}

// ok: a helper that starts one goroutine per query is not a single start;
// nothing is followed into it.
func startAll(out chan<- result, qs []string) {
	for _, q := range qs {
		go deliver(out, q)
	}
}

func lookupAll(ctx context.Context, qs []string) []result {
	out := make(chan result)
	startAll(out, qs)
	var rs []result
	for range qs {
		select {
		case r := <-out:
			rs = append(rs, r)
		case <-ctx.Done():
			return rs
		}
	}
	return rs
}
