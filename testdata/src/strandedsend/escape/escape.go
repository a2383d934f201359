// Package escape holds the negatives where the channel reaches code the
// analysis cannot see: unknown means silence.
package escape

import (
	"context"
	"errors"
)

func compute() int { return 1 }

// nope: handed to an unknown function, which may receive.
func unknownCallee(ctx context.Context, register func(chan int)) int {
	c := make(chan int)
	register(c)
	go func() { c <- compute() }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// nope: stored in a global.
var pending chan int

func global(ctx context.Context) int {
	c := make(chan int)
	pending = c
	go func() { c <- compute() }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// nope: handed to an interface method.
type sink interface{ Watch(chan int) }

func viaInterface(ctx context.Context, s sink) int {
	c := make(chan int)
	s.Watch(c)
	go func() { c <- compute() }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// nope: the goroutine passes it on to a function out of view.
func forward(c chan<- int)

func passedOn(ctx context.Context) int {
	c := make(chan int)
	go func() { forward(c) }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// nope: a deferred drain runs on every way out.
func deferredDrain(ctx context.Context) (int, error) {
	c := make(chan int)
	go func() { c <- compute() }()
	defer func() {
		go func() { <-c }()
	}()
	select {
	case v := <-c:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// nope: close is the signal, not a send.
func closeSignal(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		compute()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// nope: the buffer size is not a constant; it may well be enough.
func sized(ctx context.Context, n int) int {
	c := make(chan int, n)
	go func() { c <- compute() }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// nope: the variable is given another channel; which one a send uses is
// not followed.
func reassigned(ctx context.Context, other chan int) int {
	c := make(chan int)
	go func() { c <- compute() }()
	if other != nil {
		c = other
	}
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// nope: the goroutine receives on the channel too (a ping-pong).
func pingPong(ctx context.Context) error {
	c := make(chan int)
	go func() {
		v := <-c
		c <- v + 1
	}()
	c <- 1
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return errors.New("gave up")
	}
}
