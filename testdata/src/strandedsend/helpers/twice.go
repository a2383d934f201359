package helpers

import (
	"context"
	"time"

	"strandedsend/helpers/feed"
)

// A helper of another package whose select only loops back on a beat.
func beatEvent(ctx context.Context, beat *time.Ticker) (feed.Event, error) {
	events := make(chan feed.Event)
	go feed.PublishBeat(events, 1, beat.C, func(string) {}) // want `send on unbuffered events in feed\.PublishBeat at beat\.go:14 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at twice\.go:17\); the goroutine leaks — make events buffered or select on ctx\.Done\(\)`
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// ok: the twin whose helper gives up on a beat once ctx is done.
func beatEventCtx(ctx context.Context, beat *time.Ticker) (feed.Event, error) {
	events := make(chan feed.Event)
	go feed.PublishBeatCtx(ctx, events, 1, beat.C)
	select {
	case e := <-events:
		return e, nil
	case <-ctx.Done():
		return feed.Event{}, ctx.Err()
	}
}

// A helper of another package that sends twice on a failure, to a
// caller that takes one value.
func runStep(step func() error) error {
	errc := make(chan error)
	go func() { feed.Finish(errc, step()) }() // want `send on errc in feed\.Finish at beat\.go:40 blocks forever once the receiver leaves \(return at twice\.go:39\) after 1 of 2 values, with room for 0; the goroutine leaks — make errc's capacity 2`
	return <-errc
}

// ok: the twin whose helper returns after its failure.
func runStepOnce(step func() error) error {
	errc := make(chan error)
	go func() { feed.FinishOnce(errc, step()) }()
	return <-errc
}

// ok: a stage of another package, given a receive-only input beside its
// output: the caller feeds it every value and takes every square.
func squares(xs []int) []int {
	in := make(chan int)
	out := make(chan int)
	go feed.Square(in, out)
	go func() {
		for _, x := range xs {
			in <- x
		}
		close(in)
	}()
	r := make([]int, 0, len(xs))
	for range xs {
		r = append(r, <-out)
	}
	return r
}

// nope: the twin that stops at the first large square while the stage
// still has values to send leaks the stage (and the feeder), but how
// many the stage sends is how many it is given, which its summary (a
// stream) does not count against the receiver's counted loop: not
// reported.
func firstLarge(xs []int, limit int) int {
	in := make(chan int)
	out := make(chan int)
	go feed.Square(in, out)
	go func() {
		for _, x := range xs {
			in <- x
		}
		close(in)
	}()
	for range xs {
		if v := <-out; v > limit {
			return v
		}
	}
	return 0
}
