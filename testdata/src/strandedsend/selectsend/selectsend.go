// Package selectsend holds shape 6: the sender's send sits in a select
// whose other cases cannot fire once the receiver has left.
package selectsend

import (
	"context"
	"time"
)

func work() (int, error) { return 0, nil }

// The result or the error, in one select: both channels are abandoned
// together when the receiver times out. The select is reported once, at
// its first stranded case.
func both(ctx context.Context) (int, error) {
	resc := make(chan int)
	errc := make(chan error)
	go func() {
		v, err := work()
		select {
		case resc <- v: // want `send on unbuffered resc blocks forever once the receiver leaves \(case <-ctx.Done\(\) at selectsend.go:30\)`
		case errc <- err:
		}
	}()
	select {
	case v := <-resc:
		return v, nil
	case err := <-errc:
		return 0, err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ok: the same select, with a receiver that waits for one of them.
func bothWaited() (int, error) {
	resc := make(chan int)
	errc := make(chan error)
	go func() {
		v, err := work()
		select {
		case resc <- v:
		case errc <- err:
		}
	}()
	select {
	case v := <-resc:
		return v, nil
	case err := <-errc:
		return 0, err
	}
}

// The other case sends on a channel nobody reads.
func unread(d time.Duration) int {
	c := make(chan int)
	audit := make(chan int)
	go func() {
		v, _ := work()
		select {
		case c <- v: // want `send on unbuffered c blocks forever once the receiver leaves \(case <-time.After\(d\) at selectsend.go:68\)`
		case audit <- v:
		}
	}()
	select {
	case v := <-c:
		return v
	case <-time.After(d):
		return -1
	}
}

// The other case receives from a nil channel: it never fires.
func nilCase(ctx context.Context) int {
	c := make(chan int)
	go func() {
		var never chan struct{}
		v, _ := work()
		select {
		case c <- v: // want `\(case <-ctx.Done\(\) at selectsend.go:87\)`
		case <-never:
		}
	}()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return -1
	}
}

// nope: the other case receives from a channel the receiver closes when
// it leaves.
func withDone(ctx context.Context) int {
	c := make(chan int)
	done := make(chan struct{})
	defer close(done)
	go func() {
		v, _ := work()
		select {
		case c <- v:
		case <-done:
		}
	}()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return -1
	}
}

// nope: a default makes the send non-blocking.
func nonBlocking(ctx context.Context) int {
	c := make(chan int)
	go func() {
		v, _ := work()
		select {
		case c <- v:
		default:
		}
	}()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return -1
	}
}

// nope: the other case sends on a channel the function was given; its
// reader is out of view and may well be there.
func elsewhere(ctx context.Context, out chan<- int) int {
	c := make(chan int)
	go func() {
		v, _ := work()
		select {
		case c <- v:
		case out <- v:
		}
	}()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return -1
	}
}

// An early error return, before the receiver selects at all.
func checked(check func() error) (int, error) {
	resc := make(chan int)
	errc := make(chan error)
	go func() {
		v, err := work()
		select {
		case resc <- v: // want `send on unbuffered resc blocks forever once the receiver leaves \(return at selectsend.go:162\)`
		case errc <- err:
		}
	}()
	if err := check(); err != nil {
		return 0, err
	}
	select {
	case v := <-resc:
		return v, nil
	case err := <-errc:
		return 0, err
	}
}

// A select in a loop whose other case only loops back (a heartbeat): it
// can only leave by sending, a plain send in disguise.
func heartbeat(ctx context.Context, beat *time.Ticker, log func(string)) (int, error) {
	resc := make(chan int)
	go func() {
		v, _ := work()
		for {
			select {
			case resc <- v: // want `send on unbuffered resc blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at selectsend\.go:190\); the goroutine leaks — make resc buffered or select on ctx\.Done\(\)`
				return
			case <-beat.C:
				log("still waiting to deliver")
			}
		}
	}()
	select {
	case v := <-resc:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ok: the twin whose heartbeat case gives up when the context is done.
func heartbeatCtx(ctx context.Context, beat *time.Ticker, log func(string)) (int, error) {
	resc := make(chan int)
	go func() {
		v, _ := work()
		for {
			select {
			case resc <- v:
				return
			case <-beat.C:
				if ctx.Err() != nil {
					return
				}
				log("still waiting to deliver")
			}
		}
	}()
	select {
	case v := <-resc:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// A flush loop: every other case loops back, and the send case keeps
// sending, so it is a stream, into a receiver that stops at the first.
func flushes(flush *time.Ticker, next func() int) int {
	out := make(chan int)
	go func() {
		for {
			select {
			case out <- next(): // want `send on out blocks forever once the receiver stops receiving \(return at selectsend\.go:234\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well`
			case <-flush.C:
			}
		}
	}()
	for v := range out {
		if v > 0 {
			return v
		}
	}
	return 0
}
