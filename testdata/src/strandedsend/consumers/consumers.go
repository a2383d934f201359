// Package consumers holds the other direction: the function streams
// values to the goroutines it starts, and every one of them can stop
// receiving before the channel is closed. The function's plain send then
// blocks forever, and the function with it.
package consumers

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/errgroup"
)

func upload(p string) error {
	if p == "" {
		return errors.New("empty")
	}
	return nil
}

// Receivers that return on their first error.
func uploadAll(paths []string, workers int) error {
	queue := make(chan string)
	g := new(errgroup.Group)
	for range workers {
		g.Go(func() error {
			for p := range queue {
				if err := upload(p); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for _, p := range paths {
		queue <- p // want `send on queue blocks forever once every goroutine receiving from it has stopped \(return at consumers\.go:30\); uploadAll leaks — select on ctx\.Done\(\) or a done channel as well`
	}
	close(queue)
	return g.Wait()
}

// ok: the twin whose sender gives up when the group's context is done.
func uploadAllCtx(ctx context.Context, paths []string, workers int) error {
	queue := make(chan string)
	g, ctx := errgroup.WithContext(ctx)
	for range workers {
		g.Go(func() error {
			for p := range queue {
				if err := upload(p); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for _, p := range paths {
		select {
		case queue <- p:
		case <-ctx.Done():
			return g.Wait()
		}
	}
	close(queue)
	return g.Wait()
}

// A receiver that leaves on cancellation, started by a go statement, and
// a buffer: a stream fills any buffer.
func index(ctx context.Context, docs []string, out func(string)) {
	in := make(chan string, 16)
	go func() {
		for {
			select {
			case d, ok := <-in:
				if !ok {
					return
				}
				out(d)
			case <-ctx.Done():
				return
			}
		}
	}()
	for _, d := range docs {
		in <- d // want `send on in blocks forever once every goroutine receiving from it has stopped \(return at consumers\.go:81\); index leaks — select on ctx\.Done\(\) or a done channel as well`
	}
	close(in)
}

// ok: the receiver takes every value until the close.
func indexAll(docs []string, out func(string)) {
	in := make(chan string)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for d := range in {
			out(d)
		}
	}()
	for _, d := range docs {
		in <- d
	}
	close(in)
	<-done
}

// nope: the receiver breaks out on an error and then drains the rest.
func firstError(paths []string) error {
	queue := make(chan string)
	errc := make(chan error, 1)
	go func() {
		var first error
		for p := range queue {
			if err := upload(p); err != nil {
				first = err
				break
			}
		}
		for range queue {
		}
		errc <- first
	}()
	for _, p := range paths {
		queue <- p
	}
	close(queue)
	return <-errc
}

// nope: one receiver stops early, the other takes every value.
func mixed(paths []string) {
	queue := make(chan string)
	go func() {
		for p := range queue {
			if upload(p) != nil {
				return
			}
		}
	}()
	go func() {
		for p := range queue {
			_ = upload(p)
		}
	}()
	for _, p := range paths {
		queue <- p
	}
	close(queue)
}

// nope: a single value to a receiver that takes one: no stream.
func single(p string) {
	c := make(chan string)
	go func() {
		v := <-c
		_ = upload(v)
	}()
	c <- p
}

// nope: the values are sent before any receiver runs, into a buffer that
// holds them all; the receiver's stop is the buffer's business (met in
// Go's tests: a fairness test fills its channels first).
func prefilled(ctx context.Context, n int) int {
	c := make(chan int, 100)
	for i := 0; i < 100; i++ {
		c <- i
	}
	got := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case v := <-c:
				got += v
			case <-ctx.Done():
				return
			}
		}
	}()
	<-done
	return got
}

// nope: each receiver takes one value by design and stops; the function
// sends one per receiver (a protocol count, met in Go's syscall tests).
func onePerWorker(workers int) {
	q := make(chan int)
	for range workers {
		go func() {
			for v := range q {
				_ = v
				break
			}
		}()
	}
	for i := range workers {
		q <- i
	}
}

// nope: the receiver leaves on a signal the function gives itself once
// it has sent everything (met in Go's timer tests).
func stopAfterSending(items []int) {
	in := make(chan int)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case v := <-in:
				_ = v
			case <-done:
				return
			}
		}
	}()
	for _, it := range items {
		in <- it
	}
	close(done)
}

// nope: a channel made per trip round the loop gets one value, which its
// buffer holds (met on validation set 5: a preview loop).
func perTrip(cmds []func() error) {
	for _, cmd := range cmds {
		finished := make(chan bool, 1)
		go func() {
			for {
				select {
				case <-finished:
					return
				case <-time.After(time.Second):
					if cmd() != nil {
						return
					}
				}
			}
		}()
		finished <- true
	}
}
