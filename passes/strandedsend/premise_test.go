package strandedsend_test

import (
	"bytes"
	"context"
	"errors"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/admitlint/admitlint/testdata/src/strandedsend/premise"
)

// The premise tests run shapes the pass reports (package premise, whose
// findings TestShapes checks) and show what the findings claim: once the
// receiver has left, the sending goroutine is blocked on its send for
// good; with the suggested fix, it finishes.
//
// The test controls the order of events with channels: the work blocks
// until released, and is released only after the receiver has returned.
// Only the final observation, whether a goroutine is parked on a send or
// gone, needs the runtime's goroutine profile; it is polled with a
// generous bound, so a loaded machine makes the test slower, not flaky.

// settle bounds the wait for a goroutine to reach the state a test
// expects. Reaching it usually takes microseconds.
const settle = 30 * time.Second

var errFail = errors.New("job failed")

// sendersIn returns how many goroutines are parked on a channel send
// with fn (a function name, as in "premise.Timeout.func1") on their stack,
// and how many goroutines have fn on their stack at all.
func sendersIn(fn string) (blocked, alive int) {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 2); err != nil {
		panic(err)
	}
	for _, g := range strings.Split(buf.String(), "\n\n") {
		if !strings.Contains(g, fn+"(") {
			continue
		}
		alive++
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "[chan send") {
			blocked++
		}
	}
	return blocked, alive
}

// waitFor polls until cond holds or the bound passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", settle, what)
		}
		time.Sleep(time.Millisecond) // polling the profile: no event announces a park
	}
}

// stranded checks that n more goroutines running fn than before (those
// left by earlier runs of the test, as with -count) end up parked on a
// send.
func stranded(t *testing.T, fn string, before, n int) {
	t.Helper()
	waitFor(t, fn+" is not blocked on its send", func() bool {
		blocked, _ := sendersIn(fn)
		return blocked == before+n
	})
}

// parked returns how many goroutines running fn are parked on a send.
func parked(fn string) int {
	blocked, _ := sendersIn(fn)
	return blocked
}

// finished checks that no goroutine runs fn any more.
func finished(t *testing.T, fn string) {
	t.Helper()
	waitFor(t, fn+" did not exit", func() bool {
		_, alive := sendersIn(fn)
		return alive == 0
	})
}

// held returns work that signals on started when it begins, then blocks
// until release is closed.
func held(release <-chan struct{}, started chan<- struct{}) func() int {
	return func() int {
		started <- struct{}{}
		<-release
		return 1
	}
}

// heldErr is held for work returning an error.
func heldErr(release <-chan struct{}, started chan<- struct{}) func() error {
	work := held(release, started)
	return func() error { work(); return nil }
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestPremiseTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout func(context.Context, func() int) (int, error)
		fn      string
		fixed   bool
	}{
		{"reported", premise.Timeout, "premise.Timeout.func1", false},
		{"fixed", premise.TimeoutFixed, "premise.TimeoutFixed.func1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := parked(tc.fn)
			release, started := make(chan struct{}), make(chan struct{}, 1)
			if _, err := tc.timeout(canceled(), held(release, started)); !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want the receiver to leave through ctx.Done()", err)
			}
			<-started
			close(release) // the work finishes after its receiver left
			if tc.fixed {
				finished(t, tc.fn)
			} else {
				stranded(t, tc.fn, before, 1)
			}
		})
	}
}

func TestPremiseEarlyReturn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		run   func(check, work func() error) error
		fn    string
		fixed bool
	}{
		{"reported", premise.EarlyReturn, "premise.EarlyReturn.func1", false},
		{"fixed", premise.EarlyReturnFixed, "premise.EarlyReturnFixed.func1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := parked(tc.fn)
			release, started := make(chan struct{}), make(chan struct{}, 1)
			if err := tc.run(func() error { return errFail }, heldErr(release, started)); err != errFail {
				t.Fatalf("err = %v, want the early return", err)
			}
			<-started
			close(release)
			if tc.fixed {
				finished(t, tc.fn)
			} else {
				stranded(t, tc.fn, before, 1)
			}
		})
	}
}

func TestPremiseFirstError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		run   func([]func() error) error
		fn    string
		fixed bool
	}{
		{"reported", premise.FirstError, "premise.FirstError.func1", false},
		{"fixed", premise.FirstErrorFixed, "premise.FirstErrorFixed.func1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := parked(tc.fn)
			release, started := make(chan struct{}), make(chan struct{}, 2)
			slow := heldErr(release, started)
			jobs := []func() error{func() error { return errFail }, slow, slow}
			if err := tc.run(jobs); err != errFail {
				t.Fatalf("err = %v, want the first error", err)
			}
			<-started
			<-started
			close(release) // the two slow jobs finish after the receiver left
			if tc.fixed {
				finished(t, tc.fn)
			} else {
				stranded(t, tc.fn, before, 2)
			}
		})
	}
}

func TestPremiseFuture(t *testing.T) {
	for _, tc := range []struct {
		name  string
		async func(func() error) <-chan error
		fn    string
		fixed bool
	}{
		{"reported", premise.Async, "premise.Async.func1", false},
		{"fixed", premise.AsyncFixed, "premise.AsyncFixed.func1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := parked(tc.fn)
			release, started := make(chan struct{}), make(chan struct{}, 1)
			_ = tc.async(heldErr(release, started)) // a caller that never waits
			<-started
			close(release)
			if tc.fixed {
				finished(t, tc.fn)
			} else {
				stranded(t, tc.fn, before, 1)
			}
		})
	}
}

// TestPremiseRequestReply shows the worse half of the request/reply
// shape: the stranded send blocks the long-lived worker itself, so no
// later request is served; with the fix, the worker serves the next one.
func TestPremiseRequestReply(t *testing.T) {
	before := parked("premise.(*Server).serve")
	release, started := make(chan struct{}), make(chan struct{}, 1)
	s := premise.NewServer(held(release, started))
	if _, err := s.Get(withCancelAfter(started)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the caller to leave", err)
	}
	close(release)
	stranded(t, "premise.(*Server).serve", before, 1) // and with it every later request

	release2, started2 := make(chan struct{}), make(chan struct{}, 1)
	f := premise.NewFixedServer(held(release2, started2))
	if _, err := f.Get(withCancelAfter(started2)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the caller to leave", err)
	}
	close(release2)
	ctx, cancel := context.WithTimeout(context.Background(), settle)
	defer cancel()
	if v, err := f.Get(ctx); err != nil || v != 1 {
		t.Fatalf("fixed worker: next request = %v, %v; want it served", v, err)
	}
}

// withCancelAfter returns a context canceled once started receives: the
// caller leaves only when the worker is busy with its request.
func withCancelAfter(started <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	return ctx
}
