// Package optin holds the shapes the default run leaves to opt-in
// settings, each beside the twin the default run reports. With
// -strandedsend.tests, -strandedsend.many and -strandedsend.buffered
// set, each of the silent ones is reported too (TestOptIn counts them).
package optin

import (
	"context"
	"errors"
	"time"

	"strandedsend/helpers/feed"
)

func compute() int { return 42 }

// The production twin of TestAbandonsReply: reported by default.
func abandonsReply(ctx context.Context) int {
	reply := make(chan int)
	go func() {
		reply <- compute() // want `send on unbuffered reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at optin.go:\d+\)`
	}()
	select {
	case v := <-reply:
		return v
	case <-ctx.Done():
		return 0
	}
}

// silent by default (-strandedsend.many): a new attempt per tick, how
// many of them can be out at once decided by the ticker and the
// attempts' speed, which the analysis cannot see.
func hedge(ctx context.Context, tick <-chan time.Time, attempt func() int) int {
	responses := make(chan int, 1)
	for {
		go func() {
			responses <- attempt()
		}()
		select {
		case <-ctx.Done():
			return 0
		case r := <-responses:
			return r
		case <-tick:
		}
	}
}

// The counted twin of hedge: three attempts, a constant, into a buffer of
// one. Left to -strandedsend.buffered: counting what a buffer holds
// against what is still to come was right 4 times in 22 on first looks
// (validation sets 27 to 37). Its unbuffered twin, abandonsReply, is
// reported by default.
func hedgeThree(ctx context.Context, attempt func() int) int {
	responses := make(chan int, 1)
	for i := 0; i < 3; i++ {
		go func() {
			responses <- attempt() // nope: a buffered channel, by default
		}()
	}
	select {
	case <-ctx.Done():
		return 0
	case r := <-responses:
		return r
	}
}

// The production twin of support's guard, in a package that does not
// use package testing: reported by default.
func guard(step func() error, d time.Duration) error {
	errc := make(chan error)
	go func() {
		errc <- step() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(d\) at optin.go:\d+\)`
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		return errors.New("step timed out")
	}
}

// TestingT is what an assertion library asks of a test; it does not
// need package testing.
type TestingT interface {
	Errorf(format string, args ...any)
}

type tHelper interface{ Helper() }

// silent by default too: an assertion library's helper, which calls
// Helper through an interface on a t it does not know to be a
// testing.TB (testify's idiom).
func eventually(t TestingT, d time.Duration, cond func() bool) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	done := make(chan bool)
	go func() {
		done <- cond()
	}()
	select {
	case ok := <-done:
		return ok
	case <-time.After(d):
		t.Errorf("condition not met within %v", d)
		return false
	}
}

// The production twin of support.Stub: a server whose caller can time
// out after handing over a request with an unbuffered reply channel.
// Reported by default.
type call struct {
	method string
	reply  chan string
}

type Server struct{ calls chan *call }

func (s *Server) serve() {
	for c := range s.calls {
		c.reply <- "ok " + c.method // want `send on unbuffered c.reply blocks forever once the receiver leaves \(case <-time.After\(d\) at optin.go:\d+\); the goroutine leaks — make reply buffered in \(\*Server\).Call`
	}
}

func (s *Server) Call(method string, d time.Duration) (string, error) {
	c := &call{method: method, reply: make(chan string)}
	s.calls <- c
	select {
	case r := <-c.reply:
		return r, nil
	case <-time.After(d):
		return "", errors.New("call timed out")
	}
}

// silent by default (-strandedsend.many): a session's reader sends on
// started once per Started message the peer sends, into a buffer of
// one made for this session. The buffer takes the reply the caller gave
// up on; a second would take the peer sending Started twice, a protocol
// the analysis cannot see.
func startSession(next func() (any, error), d time.Duration) error {
	started := make(chan *feed.Started, 1)
	go feed.Dispatch(started, next)
	select {
	case <-started:
		return nil
	case <-time.After(d):
		return errors.New("session start timed out")
	}
}

// The same reader in place, by kind as well: silent by default.
func startSessionInline(next func() (any, error), d time.Duration) error {
	started := make(chan *feed.Started, 1)
	go func() {
		for {
			msg, err := next()
			if err != nil {
				return
			}
			switch m := msg.(type) {
			case *feed.Started:
				started <- m
			case *feed.Stopped:
				return
			}
		}
	}()
	select {
	case <-started:
		return nil
	case <-time.After(d):
		return errors.New("session start timed out")
	}
}

// The twin with an unbuffered channel: the first Started after the
// timeout strands the reader whatever the protocol. Reported by default.
func startSessionUnbuffered(next func() (any, error), d time.Duration) error {
	started := make(chan *feed.Started)
	go feed.Dispatch(started, next) // want `send on started in feed\.Dispatch at feed\.go:\d+ blocks forever once the receiver stops receiving \(case <-time.After\(d\) at optin.go:\d+\)`
	select {
	case <-started:
		return nil
	case <-time.After(d):
		return errors.New("session start timed out")
	}
}

// The twin that sends every message, whatever its kind, into the same
// buffer of one: a stream, reported by default.
func startForward(next func() (any, error), d time.Duration) error {
	msgs := make(chan any, 1)
	go feed.Forward(msgs, next) // want `send on msgs in feed\.Forward at feed\.go:\d+ blocks forever once the receiver stops receiving \(case <-time.After\(d\) at optin.go:\d+\)`
	select {
	case <-msgs:
		return nil
	case <-time.After(d):
		return errors.New("no message in time")
	}
}
