// Package naming holds receivers whose report names an exit: the named
// exit must be one through which the receiver really stops receiving.
// A select case that only goes round the loop again is not one, and
// neither is a case on a channel nothing ever sends on or closes.
package naming

import (
	"context"
	"io"
	"net/http"
	"time"
)

// The reader reports its error and stops. The handler goes round again
// on every tick, and leaves at the head of its loop once nobody listens:
// that return strands the reader, not the tick.
func relay(r io.Reader, listening func() bool, tick time.Duration) error {
	errs := make(chan error)
	go func() {
		buf := make([]byte, 512)
		for {
			if _, err := r.Read(buf); err != nil {
				errs <- err // want `send on unbuffered errs blocks forever once the receiver leaves \(return at naming.go:30\)`
				return
			}
		}
	}()
	for {
		if !listening() {
			return nil
		}
		select {
		case <-time.After(tick):
			continue
		case err := <-errs:
			return err
		}
	}
}

// The twin whose tick itself leaves: the tick is the exit to name.
func relayOnTick(r io.Reader, listening func() bool, tick time.Duration) error {
	errs := make(chan error)
	go func() {
		buf := make([]byte, 512)
		for {
			if _, err := r.Read(buf); err != nil {
				errs <- err // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-time.After\(tick\) at naming.go:55\)`
				return
			}
		}
	}()
	for {
		select {
		case <-time.After(tick):
			if !listening() {
				return nil
			}
		case err := <-errs:
			return err
		}
	}
}

// A server whose exit field nothing sends on or closes: its case can
// never fire, and the receiver leaves only when ctx is done.
type server struct {
	http *http.Server
	exit chan error
	quit chan error
}

func newServer(h http.Handler) *server {
	exits := make(chan error, 1)
	return &server{http: &http.Server{Handler: h}, exit: exits, quit: make(chan error)}
}

func (s *server) serve(ctx context.Context) error {
	errs := make(chan error)
	go func() {
		errs <- s.http.ListenAndServe() // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at naming.go:88\)`
	}()
	select {
	case err := <-s.exit:
		return err
	case err := <-errs:
		return err
	case <-ctx.Done():
		return s.http.Close()
	}
}

// ok: with no other way out, the receiver takes the server's result.
func (s *server) serveUntilExit() error {
	errs := make(chan error)
	go func() {
		errs <- s.http.ListenAndServe()
	}()
	select {
	case err := <-s.exit:
		return err
	case err := <-errs:
		return err
	}
}

// The twin whose quit field is closed by stop: its case can fire, and
// leaving through it strands the server's send.
func (s *server) serveUntilQuit() error {
	errs := make(chan error)
	go func() {
		errs <- s.http.ListenAndServe() // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-s.quit at naming.go:115\)`
	}()
	select {
	case err := <-s.quit:
		return err
	case err := <-errs:
		return err
	}
}

func (s *server) stop() { close(s.quit) }

// A poller's readiness future, waited for beside the daemon's own exit
// and a timeout. Leaving on the daemon's exit strands the poller only if
// it saw the daemon ready just before: a race of two goroutines the
// report could not show. The timeout strands it whenever the daemon is
// slow: that is the exit named (validation set 27, a test daemon's
// mount).
func mount(run func() error, poll func() bool) error {
	exited := make(chan error)
	go func() {
		exited <- run() // want `send on unbuffered exited blocks forever once the receiver leaves \(case <-ready at naming.go:139\)`
	}()
	ready := pollReady(poll)
	select {
	case err := <-exited:
		return err
	case <-ready:
		return nil
	case <-time.After(10 * time.Second):
		return context.DeadlineExceeded
	}
}

// pollReady polls until ready, and then says so.
func pollReady(poll func() bool) <-chan struct{} {
	ready := make(chan struct{})
	go func() {
		for !poll() {
			time.Sleep(time.Second)
		}
		ready <- struct{}{} // want `send on unbuffered ready blocks forever once the receiver leaves \(case <-time.After\(10 \* time.Second\) at naming.go:\d+\)`
	}()
	return ready
}
