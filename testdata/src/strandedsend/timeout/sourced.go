package timeout

import (
	"context"
	"time"
)

// A goroutine that hands on what a source opened with the receiver's
// context delivers, doing nothing between the receipt and the send, is
// not stranded when that context ends: the source closes, the loop over
// it ends, and the goroutine returns without sending. Only a value in
// flight at the instant of cancellation could be left. Another way out
// of the same select, a timer, does strand it (validation set 35, a pod
// watch whose first event is handed on, with a 30-second timeout).

type event struct{ obj any }

type pod struct{ name string }

// A watcher's results channel is closed when the context it was opened
// with is done, by the usual contract of a call that takes a context.
type watcher interface {
	Results() <-chan event
	Stop()
}

func watch(ctx context.Context, selector string) (watcher, error) { return nil, nil }

func subscribe(ctx context.Context, topic string) <-chan event { return nil }

// ok: the only other way out is the end of the context the watch was
// opened with.
func firstPod(ctx context.Context, selector string) (string, error) {
	w, err := watch(ctx, selector)
	if err != nil {
		return "", err
	}
	var name string
	done := make(chan bool)
	go func() {
		for ev := range w.Results() {
			if p, ok := ev.obj.(*pod); ok {
				name = p.name
				done <- true
				break
			}
		}
	}()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-done:
		return name, nil
	}
}

// The twin with a timer as well: leaving on the timeout strands the
// goroutine once the pod shows up, and the exit named is the timer's.
func firstPodTimed(ctx context.Context, selector string) (string, error) {
	w, err := watch(ctx, selector)
	if err != nil {
		return "", err
	}
	var name string
	done := make(chan bool)
	go func() {
		for ev := range w.Results() {
			if p, ok := ev.obj.(*pod); ok {
				name = p.name
				done <- true // want `send on unbuffered done blocks forever once the receiver leaves \(case <-time.After\(30 \* time.Second\) at sourced.go:78\)`
				break
			}
		}
	}()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(30 * time.Second):
		return "", context.DeadlineExceeded
	case <-done:
		return name, nil
	}
}

// ok: the source is a function's channel opened with a context derived
// from the receiver's, and handed to a named function.
func firstEvent(ctx context.Context, topic string) (event, error) {
	sub, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make(chan event)
	go forward(subscribe(sub, topic), got)
	select {
	case <-ctx.Done():
		return event{}, ctx.Err()
	case ev := <-got:
		return ev, nil
	}
}

func forward(src <-chan event, out chan<- event) {
	for ev := range src {
		out <- ev
	}
}

// Work between the receipt and the send: the context can end while the
// goroutine handles the event, and it then sends with nobody waiting.
func firstHandled(ctx context.Context, topic string, handle func(event) int) (int, error) {
	got := make(chan int)
	go func() {
		for ev := range subscribe(ctx, topic) {
			got <- handle(ev) // want `send on got blocks forever once the receiver stops receiving \(case <-ctx.Done\(\) at sourced.go:116\)`
		}
	}()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case n := <-got:
		return n, nil
	}
}

// A send after the loop: the source's end is what makes it, so the
// context's end strands it.
func untilClosed(ctx context.Context, topic string) error {
	closed := make(chan error)
	go func() {
		for range subscribe(ctx, topic) {
		}
		closed <- context.Canceled // want `send on unbuffered closed blocks forever once the receiver leaves \(case <-ctx.Done\(\) at sourced.go:133\)`
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-closed:
		return err
	}
}

// A source opened with another context: the receiver's end does not
// close it.
func firstOnBackground(ctx context.Context, topic string) (event, error) {
	got := make(chan event)
	go func() {
		for ev := range subscribe(context.Background(), topic) {
			got <- ev // want `send on unbuffered got blocks forever once the receiver leaves \(case <-ctx.Done\(\) at sourced.go:151\)`
			return
		}
	}()
	select {
	case <-ctx.Done():
		return event{}, ctx.Err()
	case ev := <-got:
		return ev, nil
	}
}
