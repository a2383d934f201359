package signals

import (
	"context"
	"log"
)

// A goroutine that may send twice tells its values apart by a field:
// every send but its last carries an error tested non-nil on the way to
// it, and its last send none. A received value whose error is nil was
// the last one: the receiver that leaves on that branch strands nothing
// (validation set 34, a NETCONF client reading a server's capabilities;
// the error send has no return after it).

type reply struct {
	b   []byte
	err error
}

// ok: the receiver takes values until one carries no error, which only
// the goroutine's last send does.
func readUntilClean(ctx context.Context, read func(context.Context) ([]byte, error)) []byte {
	cr := make(chan *reply)
	go func() {
		b, err := read(ctx)
		if err != nil {
			cr <- &reply{err: err}
		}
		cr <- &reply{b: b}
	}()
	r := <-cr
	for r.err != nil {
		log.Print(r.err)
		r = <-cr
	}
	return r.b
}

// ok: the receiver takes a second value only after an error; a value
// with no error was the last.
func readRetried(ctx context.Context, read func(context.Context) ([]byte, error)) []byte {
	cr := make(chan reply)
	go func() {
		b, err := read(ctx)
		if err != nil {
			cr <- reply{err: err}
		}
		cr <- reply{b: b}
	}()
	r := <-cr
	if r.err != nil {
		log.Print(r.err)
		r = <-cr
	}
	return r.b
}

// The twin: the receiver returns on the error, with the last send still
// to come. The exit named is that return, not the one on a clean value.
func readCapabilities(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error) {
	cr := make(chan *reply)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		b, err := read(ctx)
		if err != nil {
			cr <- &reply{b: b, err: err} // want `send on cr blocks forever once the receiver leaves \(return at lastvalue.go:76\) after 1 of 2 values, with room for 0`
		}
		if ctx.Err() != nil {
			return
		}
		cr <- &reply{b: b}
	}()
	r := <-cr
	if r.err != nil {
		return nil, r.err
	}
	return r.b, nil
}

// A field holding a named function, which no test can have tested, is
// not a mark; the error field still is.
type step struct {
	next func()
	err  error
}

func finish() {}

func runStep(ctx context.Context, do func(context.Context) error) error {
	c := make(chan step)
	go func() {
		if err := do(ctx); err != nil {
			c <- step{err: err} // want `send on c blocks forever once the receiver leaves \(return at lastvalue.go:100\) after 1 of 2 values, with room for 0`
		}
		c <- step{next: finish}
	}()
	s := <-c
	if s.err != nil {
		return s.err
	}
	s.next()
	return nil
}
