// Package timeout holds shape 1: the receiver selects on the reply and on
// something else (ctx.Done(), a timer, another done channel) and leaves
// through the other case.
package timeout

import (
	"context"
	"errors"
	"time"
)

func compute() int { return 42 }

// Context: the canonical leak.
func withContext(ctx context.Context) (int, error) {
	reply := make(chan int)
	go func() {
		reply <- compute() // want `send on unbuffered reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at timeout.go:23\); the goroutine leaks — make reply buffered or select on ctx.Done\(\)`
	}()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ok: the twin with room for the one reply.
func withContextBuffered(ctx context.Context) (int, error) {
	reply := make(chan int, 1)
	go func() {
		reply <- compute()
	}()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// nope: the sender selects on ctx.Done() too.
func senderSelects(ctx context.Context) (int, error) {
	reply := make(chan int)
	go func() {
		select {
		case reply <- compute():
		case <-ctx.Done():
		}
	}()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Timer: time.After.
func withTimer(d time.Duration) (int, error) {
	result := make(chan int)
	go func() { result <- compute() }() // want `send on unbuffered result blocks forever once the receiver leaves \(case <-time.After\(d\) at timeout.go:66\); the goroutine leaks — make result buffered$`
	select {
	case v := <-result:
		return v, nil
	case <-time.After(d):
		return 0, errors.New("timeout")
	}
}

// Timer: a time.Timer's C, sent to a named function by argument.
func withTimerC(d time.Duration) (int, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	out := make(chan int)
	go produce(out)
	select {
	case v := <-out:
		return v, nil
	case <-t.C:
		return 0, errors.New("timeout")
	}
}

func produce(into chan<- int) {
	into <- compute() // want `send on unbuffered into blocks forever once the receiver leaves \(case <-t.C at timeout.go:80\); the goroutine leaks — make out buffered`
}

// Another done channel, and a non-blocking poll (default).
func withQuit(quit <-chan struct{}) int {
	c := make(chan int)
	go func() { c <- compute() }() // want `\(case <-quit at timeout.go:96\)`
	select {
	case v := <-c:
		return v
	case <-quit:
		return -1
	}
}

func poll() (int, bool) {
	c := make(chan int)
	go func() { c <- compute() }() // want `send on unbuffered c blocks forever once the receiver leaves \(default at timeout.go:107\)`
	select {
	case v := <-c:
		return v, true
	default:
		return 0, false
	}
}

// ok: the receiver waits for the reply on the timeout path too.
func waitsAnyway(ctx context.Context, cancel func()) int {
	c := make(chan int)
	go func() { c <- compute() }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		cancel()
		return <-c
	}
}

// ok: a ticker case that only logs goes back to waiting.
func ticking(tick <-chan time.Time) int {
	c := make(chan int)
	go func() { c <- compute() }()
	for {
		select {
		case v := <-c:
			return v
		case <-tick:
			println("still waiting")
		}
	}
}

// A retry loop whose timer case gives up after three tries: the give-up
// path leaves the reply behind.
func retries() (int, error) {
	c := make(chan int)
	go func() { c <- compute() }() // want `\(case <-time.After\(time.Second\) at timeout.go:148\)`
	for i := 0; i < 3; i++ {
		select {
		case v := <-c:
			return v, nil
		case <-time.After(time.Second):
		}
	}
	return 0, errors.New("gave up")
}

// nope: the receiver leaves, but the buffer holds the one value.
func timerBuffered() int {
	c := make(chan int, 1)
	go func() { c <- compute() }()
	select {
	case v := <-c:
		return v
	case <-time.After(time.Second):
		return 0
	}
}

// ok: the receiver receives on every path.
func plainReceive() int {
	c := make(chan int)
	go func() { c <- compute() }()
	return <-c
}
