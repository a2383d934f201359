// Package stream holds streams: goroutines that send in a loop. A buffer
// does not save them; they are reported only when the receiver in view
// visibly stops early, and the hint is to select on a done channel.
package stream

import (
	"context"
	"log"
)

type item struct{ bad bool }

func produce(ch chan<- item, items []item) {
	for _, it := range items {
		ch <- it // want `send on ch blocks forever once the receiver stops receiving \(return at stream.go:25\); the goroutine leaks — select on ctx.Done\(\) or a done channel as well`
	}
	close(ch)
}

func firstBad(items []item) bool {
	ch := make(chan item)
	go produce(ch, items)
	for it := range ch {
		if it.bad {
			return true
		}
	}
	return false
}

// ok: the twin that drains the stream to its close.
func anyBad(items []item) bool {
	ch := make(chan item)
	go func() {
		for _, it := range items {
			ch <- it
		}
		close(ch)
	}()
	bad := false
	for it := range ch {
		bad = bad || it.bad
	}
	return bad
}

// A receiver that selects on the context while consuming a stream: a
// buffer of one does not hold the rest.
func consume(ctx context.Context, items []item) int {
	ch := make(chan item, 1)
	go func() {
		defer close(ch)
		for _, it := range items {
			ch <- it // want `send on ch blocks forever once the receiver stops receiving \(case <-ctx.Done\(\) at stream.go:65\)`
		}
	}()
	n := 0
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return n
			}
			n++
		case <-ctx.Done():
			return n
		}
	}
}

// nope: a larger buffer may hold the rest of the stream: how much is left
// is unknown.
func consumeBuffered(ctx context.Context, items []item) int {
	ch := make(chan item, 16)
	go func() {
		defer close(ch)
		for _, it := range items {
			ch <- it
		}
	}()
	n := 0
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return n
			}
			n++
		case <-ctx.Done():
			return n
		}
	}
}

// nope: the producer selects on the context too.
func consumeCtx(ctx context.Context, items []item) int {
	ch := make(chan item)
	go func() {
		defer close(ch)
		for _, it := range items {
			select {
			case ch <- it:
			case <-ctx.Done():
				return
			}
		}
	}()
	n := 0
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return n
			}
			n++
		case <-ctx.Done():
			return n
		}
	}
}

// nope: a fixed number of plain receives from a stream may well be all
// it sends; the receiver does not visibly stop early.
func firstTwo(items []item) (item, item) {
	ch := make(chan item)
	go func() {
		for _, it := range items {
			ch <- it
		}
	}()
	return <-ch, <-ch
}

// A stream whose receiver returns before reading anything.
func early(items []item, skip bool) int {
	ch := make(chan item)
	go func() {
		for _, it := range items {
			ch <- it // want `\(return at stream.go:144\)`
		}
		close(ch)
	}()
	if skip {
		return 0
	}
	n := 0
	for range ch {
		n++
	}
	return n
}

// Endless senders: a watcher whose loop has no way out (an error only
// makes it try again) sends until the process ends, so any way the
// receiver stops receiving strands it, a return after a value included.
// The report names that return, the end of the receiver's normal work,
// rather than a case that fires only if somebody cancels.

type event struct{ finished bool }

type watch interface {
	Next(ctx context.Context) (*event, error)
}

func waitFinished(ctx context.Context, w watch, tick <-chan struct{}) error {
	events := make(chan *event)
	go func() {
		for {
			ev, err := w.Next(ctx)
			if err != nil || ev == nil {
				continue
			}
			events <- ev // want `send on events blocks forever once the receiver stops receiving \(return at stream.go:185\)`
		}
	}()
	for {
		var ev *event
		select {
		case ev = <-events:
		case <-tick:
		case <-ctx.Done():
			return ctx.Err()
		}
		if ev != nil && ev.finished {
			return nil
		}
	}
}

// The same receiver with no select: it leaves only on the value it
// waits for, and the watcher, which never stops, still strands.
func untilFinished(ctx context.Context, w watch) {
	events := make(chan *event)
	go func() {
		for {
			if ev, err := w.Next(ctx); err == nil {
				events <- ev // want `send on events blocks forever once the receiver stops receiving \(return at stream.go:203\)`
			}
		}
	}()
	for {
		if ev := <-events; ev.finished {
			return
		}
	}
}

// nope: a watcher that stops by itself, after sending the value the
// receiver stops on (or on an error, when the receiver is still
// waiting: a stream's end the receiver cannot see here).
func untilFinishedStops(ctx context.Context, w watch) {
	events := make(chan *event)
	go func() {
		for {
			ev, err := w.Next(ctx)
			if err != nil {
				return
			}
			events <- ev
			if ev.finished {
				return
			}
		}
	}()
	for {
		if ev := <-events; ev.finished {
			return
		}
	}
}

// An error that ends the process is no way out either: the watcher
// still sends until the process ends, and the receiver's return on the
// value it waits for strands it.
func untilFinishedOrFatal(ctx context.Context, w watch) {
	events := make(chan *event)
	go func() {
		for {
			ev, err := w.Next(ctx)
			if err != nil {
				log.Fatal(err)
				return
			}
			events <- ev // want `send on events blocks forever once the receiver stops receiving \(return at stream.go:249\)`
		}
	}()
	for {
		if ev := <-events; ev.finished {
			return
		}
	}
}

type page struct {
	items []item
	more  bool
}

type pageResult struct {
	p   *page
	err error
}

// nope: a pager that sends its error in an if with no return, and then
// stops on the page the call gave beside the error (nil with an error):
// the receiver's return on an error leaves after the sender's last value
// (validation set 27, guac's pages of an SBOM).
func allPages(ctx context.Context, next func(context.Context) (*page, error)) ([]item, error) {
	pages := make(chan pageResult, 1)
	go func() {
		defer close(pages)
		for {
			p, err := next(ctx)
			if err != nil {
				pages <- pageResult{err: err}
			}
			if p == nil {
				break
			}
			pages <- pageResult{p: p}
			if !p.more {
				break
			}
		}
	}()
	var items []item
	for r := range pages {
		if r.err != nil {
			return nil, r.err
		}
		items = append(items, r.p.items...)
	}
	return items, nil
}

// The twin whose pager goes on to the next page after an error: the
// receiver's return on the error strands it.
func somePages(ctx context.Context, cursors []string, next func(context.Context, string) (*page, error)) ([]item, error) {
	pages := make(chan pageResult, 1)
	go func() {
		defer close(pages)
		for _, c := range cursors {
			p, err := next(ctx, c)
			if err != nil {
				pages <- pageResult{err: err} // want `send on pages blocks forever once the receiver stops receiving \(return at stream.go:\d+\)`
				continue
			}
			pages <- pageResult{p: p}
		}
	}()
	var items []item
	for r := range pages {
		if r.err != nil {
			return nil, r.err
		}
		items = append(items, r.p.items...)
	}
	return items, nil
}
