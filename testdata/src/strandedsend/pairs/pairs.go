// Package pairs has proxies that copy both ways between two connections,
// each direction in a goroutine of its own that reports on a done
// channel of its own, unbuffered, and a receiver that waits on both
// channels in one select. Whichever case fires takes one value of the
// two channels' sends: a loop that takes two values in all has taken
// both, whichever way round.
package pairs

import (
	"context"
	"io"
)

type conn interface {
	io.ReadWriter
	Close() error
}

func pipe(dst io.Writer, src io.Reader, done chan int64) {
	n, _ := io.Copy(dst, src)
	done <- n // want `send on unbuffered done blocks forever once the receiver leaves \(case <-doneRecv at pairs.go:\d+\); the goroutine leaks — make doneSend buffered`
}

// ok: two values taken, counting down, one from each goroutine
// (validation set 32, ziti's tunnel).
func tunnel(client, upstream conn) (sent, received int64) {
	doneSend := make(chan int64)
	doneRecv := make(chan int64)
	go pipe(upstream, client, doneSend)
	go pipe(client, upstream, doneRecv)
	defer client.Close()
	defer upstream.Close()
	for count := 2; count > 0; {
		select {
		case sent = <-doneSend:
		case received = <-doneRecv:
		}
		count = count - 1
	}
	return sent, received
}

type proxy struct{ client, upstream conn }

func (p *proxy) copy(dst io.Writer, src io.Reader, done chan<- error) {
	_, err := io.Copy(dst, src)
	done <- err // want `send on unbuffered done blocks forever once the receiver leaves \(case <-ctx.Done\(\) at pairs.go:\d+\); the goroutine leaks — make up buffered or select on ctx.Done\(\)`
}

// ok: the same as a method, counting up.
func (p *proxy) run() error {
	up := make(chan error)
	down := make(chan error)
	go p.copy(p.upstream, p.client, up)
	go p.copy(p.client, p.upstream, down)
	var first error
	for i := 0; i < 2; i++ {
		var err error
		select {
		case err = <-up:
		case err = <-down:
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// The twin that returns once the first direction is done: the other
// goroutine's send finds nobody.
func tunnelFirst(client, upstream conn) int64 {
	doneSend := make(chan int64)
	doneRecv := make(chan int64)
	go pipe(upstream, client, doneSend)
	go pipe(client, upstream, doneRecv)
	select {
	case n := <-doneSend:
		return n
	case n := <-doneRecv:
		return n
	}
}

// The twin whose loop can also give up on a cancelled context.
func (p *proxy) runCtx(ctx context.Context) error {
	up := make(chan error)
	down := make(chan error)
	go p.copy(p.upstream, p.client, up)
	go p.copy(p.client, p.upstream, down)
	for i := 0; i < 2; i++ {
		select {
		case <-up:
		case <-down:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
