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

// Started and Stopped are kinds of message a session's peer sends.
type (
	Started struct{}
	Stopped struct{}
)

// Dispatch sends on started once per *Started message it reads: as many
// as the peer sends of that kind, not a stream of its own.
func Dispatch(started chan<- *Started, next func() (any, error)) { // want Dispatch:`sendsum\(param 0: one per value of a kind \(feed.go:\d+\); param 1: callback \(once=false\)\)`
	for {
		msg, err := next()
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *Started:
			started <- m
		case *Stopped:
			return
		}
	}
}

// Forward sends every message that is not nil: a stream (its test is on
// the value, not on its kind).
func Forward(out chan<- any, next func() (any, error)) { // want Forward:`sendsum\(param 0: a stream \(feed.go:\d+\); param 1: callback \(once=false\)\)`
	for {
		msg, err := next()
		if err != nil {
			return
		}
		if msg != nil {
			out <- msg
		}
	}
}

// Log records the event's id and sends nothing: a call of it before a
// send is not where the sending happens.
func (s *Source) Log(out chan<- Event) { s.last += cap(out) }

// Flush logs first, then sends: the summary points at the send's call,
// not at the idle Log before it.
func (s *Source) Flush(out chan<- Event) { // want Flush:`sendsum\(param 1: 1 \(feed.go:102\)\)`
	s.Log(out)
	emit(out, s.last)
}
