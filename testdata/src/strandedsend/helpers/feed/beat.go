package feed

import (
	"context"
	"time"
)

// PublishBeat waits to deliver, logging on every beat: its select's only
// other case loops back, so it leaves only by sending, a plain send in
// disguise.
func PublishBeat(out chan<- Event, id int, beat <-chan time.Time, log func(string)) { // want PublishBeat:`sendsum\(param 0: 1 \(beat.go:14\); param 3: callback \(once=false\)\)`
	for {
		select {
		case out <- Event{ID: id}:
			return
		case <-beat:
			log("still waiting to deliver")
		}
	}
}

// PublishBeatCtx gives up on a beat once ctx is done: a way out, no fact.
func PublishBeatCtx(ctx context.Context, out chan<- Event, id int, beat <-chan time.Time) {
	for {
		select {
		case out <- Event{ID: id}:
			return
		case <-beat:
			if ctx.Err() != nil {
				return
			}
		}
	}
}

// Finish reports a failure, then falls through to report success as
// well: a missing return makes two sends on a failure.
func Finish(out chan<- error, err error) { // want Finish:`sendsum\(param 0: 2 \(beat.go:40\)\)`
	if err != nil {
		out <- err
	}
	out <- nil
}

// FinishOnce is its twin with the return: one send on every path.
func FinishOnce(out chan<- error, err error) { // want FinishOnce:`sendsum\(param 0: 1 \(beat.go:48\)\)`
	if err != nil {
		out <- err
		return
	}
	out <- nil
}

// Square sends the square of every value it receives from in: one send
// per value its caller gives it.
func Square(in <-chan int, out chan<- int) { // want Square:`sendsum\(param 1: a stream \(beat.go:58\)\)`
	for v := range in {
		out <- v * v
	}
}
