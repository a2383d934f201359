// Package feed holds producers that send on the channel they are given,
// for a package that imports it: their summaries cross as facts.
package feed

import "context"

type Event struct{ ID int }

// Publish sends one event on out, plainly.
func Publish(out chan<- Event, id int) { // want Publish:`sendsum\(param 0: 1 \(feed.go:11\)\)`
	out <- Event{ID: id}
}

// Stream sends every event, then closes out.
func Stream(out chan<- Event, ids []int) { // want Stream:`sendsum\(param 0: a stream \(feed.go:17\)\)`
	for _, id := range ids {
		out <- Event{ID: id}
	}
	close(out)
}

// PublishCtx gives up when ctx is done: no plain send, no fact.
func PublishCtx(ctx context.Context, out chan<- Event, id int) {
	select {
	case out <- Event{ID: id}:
	case <-ctx.Done():
	}
}

// A Source sends through a helper of its own.
type Source struct{ last int }

// Next sends the next event through emit.
func (s *Source) Next(out chan<- Event) { // want Next:`sendsum\(param 1: 1 \(feed.go:36\)\)`
	s.last++
	emit(out, s.last)
}

func emit(out chan<- Event, id int) { // want emit:`sendsum\(param 0: 1 \(feed.go:40\)\)`
	out <- Event{ID: id}
}

// Each runs visit for every id, in place.
func Each(ids []int, visit func(int)) { // want Each:`sendsum\(param 1: callback \(once=false\)\)`
	for _, id := range ids {
		visit(id)
	}
}

// Keep stores its callback for later: it runs elsewhere.
var kept []func(int)

func Keep(visit func(int)) {
	kept = append(kept, visit)
}
