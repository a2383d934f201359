// Package signals holds receivers whose way out is decided by the
// sender's own progress or by a condition the path has already tested:
// a signal the sender gives as its last act, after which it sends no
// more, and a flag tested once to start the sender and again to skip
// the receive. Each stays silent; its twin, with a way out that does
// strand the sender, is reported at that way out.
package signals

import (
	"context"
	"errors"
	"io"
	"net"
	"time"
)

// ok: the accept loop reports its error on done and returns, so
// receiving from done means it will not send on conns again.
func acceptUntilError(ctx context.Context, ln net.Listener, handle func(net.Conn)) error {
	conns := make(chan net.Conn)
	done := make(chan error)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				select {
				case done <- err:
				case <-ctx.Done():
				}
				return
			}
			conns <- c
		}
	}()
	for {
		select {
		case c := <-conns:
			handle(c)
		case err := <-done:
			return err
		}
	}
}

// The twin that can also leave on ctx.Done() while the loop is about to
// hand over a connection.
func acceptUntilCancel(ctx context.Context, ln net.Listener, handle func(net.Conn)) error {
	conns := make(chan net.Conn)
	done := make(chan error)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				select {
				case done <- err:
				case <-ctx.Done():
				}
				return
			}
			conns <- c // want `send on conns blocks forever once the receiver stops receiving \(case <-ctx.Done\(\) at signals.go:\d+\)`
		}
	}()
	for {
		select {
		case c := <-conns:
			handle(c)
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ok: the reader starts only when !inline, and the receive is skipped
// only when inline: no path starts it and skips the receive.
func exchange(inline bool, read func() error) error {
	readc := make(chan error)
	if !inline {
		go func() { readc <- read() }()
	}
	if inline {
		if err := read(); err != nil {
			return err
		}
	} else {
		if err := <-readc; err != nil {
			return err
		}
	}
	return nil
}

// ok: the same flag, read by the reader it starts as well (a captured
// parameter, kept in a variable only read).
func exchangeCaptured(inline bool, read func(bool) error) error {
	readc := make(chan error)
	if !inline {
		go func() { readc <- read(inline) }()
	}
	if inline {
		if err := read(inline); err != nil {
			return err
		}
	} else {
		if err := <-readc; err != nil {
			return err
		}
	}
	return nil
}

// The twin that can fail between starting the reader and receiving.
func exchangeWrite(inline bool, read, write func() error) error {
	readc := make(chan error)
	if !inline {
		go func() { readc <- read() }() // want `send on unbuffered readc blocks forever once the receiver leaves \(return at signals.go:\d+\)`
	}
	if err := write(); err != nil {
		return err
	}
	if inline {
		if err := read(); err != nil {
			return err
		}
	} else {
		if err := <-readc; err != nil {
			return err
		}
	}
	return nil
}

// A reader that closes end after its last line is done when end is
// received from; the interrupt forwarder sending on the same channel is
// not. The report points at the forwarder's send, the one the leave
// strands.
func repl(read func() (string, bool), interrupts <-chan struct{}, eval func(string)) {
	lines := make(chan string)
	end := make(chan struct{})
	go func() {
		defer close(end)
		for {
			s, ok := read()
			if !ok {
				return
			}
			lines <- s
		}
	}()
	go func() {
		for {
			select {
			case <-interrupts:
				lines <- "" // want `send on lines blocks forever once the receiver stops receiving \(case <-end at signals.go:\d+\)`
			case <-end:
				return
			}
		}
	}()
	for {
		select {
		case s := <-lines:
			eval(s)
		case <-end:
			return
		}
	}
}

// Two rounds on one channel: the early return comes before the second
// reader starts, so it strands one value, not two (go-git's negotiation).
// The fix still makes room for both.
func twoRounds(read, write func() error) error {
	readc := make(chan error)
	go func() { readc <- read() }() // want `send on unbuffered readc blocks forever once the receiver leaves \(return at signals.go:\d+\); the goroutine leaks — make readc buffered$`
	if err := write(); err != nil {
		return err
	}
	if err := <-readc; err != nil {
		return err
	}
	go func() { readc <- read() }()
	return <-readc
}

// A node's outcome, then its failure, on two channels in that order. The
// timeout strands the goroutine at its first send (reported there); it
// reaches the second only once the outcome is taken, and the receiver
// then takes the failure at once (ginkgo's runNode).
func runNode(body func() error, grace time.Duration) (string, error) {
	outcomeC := make(chan string)
	failureC := make(chan error)
	go func() {
		err := body()
		outcomeC <- "done" // want `send on unbuffered outcomeC blocks forever once the receiver leaves \(case <-time.After\(grace\) at signals.go:\d+\)`
		failureC <- err
	}()
	select {
	case o := <-outcomeC:
		return o, <-failureC
	case <-time.After(grace):
		return "", errors.New("node timed out")
	}
}

// The twin that can also stop waiting between the two.
func runNodeTwice(body func() error, grace time.Duration) (string, error) {
	outcomeC := make(chan string)
	failureC := make(chan error)
	go func() {
		err := body()
		outcomeC <- "done" // want `send on unbuffered outcomeC blocks forever once the receiver leaves \(case <-time.After\(grace\) at signals.go:\d+\)`
		failureC <- err    // want `send on unbuffered failureC blocks forever once the receiver leaves \(case <-time.After\(grace\) at signals.go:\d+\)`
	}()
	select {
	case o := <-outcomeC:
		select {
		case err := <-failureC:
			return o, err
		case <-time.After(grace):
			return o, errors.New("no failure report in time")
		}
	case <-time.After(grace):
		return "", errors.New("node timed out")
	}
}

// ok: the copier starts only when one of the writers is set, and the
// receive the select skipped is made under the same test: the path that
// skips it started no copier (validation set 29, cri-dockerd's hijacked
// connection).
func attach(out, errOut io.Writer, copyOut func(io.Writer, io.Writer) error, stdinDone <-chan struct{}) error {
	copied := make(chan error)
	if out != nil || errOut != nil {
		go func() {
			copied <- copyOut(out, errOut)
		}()
	}
	select {
	case err := <-copied:
		return err
	case <-stdinDone:
		if out != nil || errOut != nil {
			return <-copied
		}
	}
	return nil
}

// The twin whose second test leaves one writer out: with only errOut
// set, the copier runs and nobody takes its value.
func attachOut(out, errOut io.Writer, copyOut func(io.Writer, io.Writer) error, stdinDone <-chan struct{}) error {
	copied := make(chan error)
	if out != nil || errOut != nil {
		go func() {
			copied <- copyOut(out, errOut) // want `send on unbuffered copied blocks forever once the receiver leaves \(case <-stdinDone at signals.go:\d+\)`
		}()
	}
	select {
	case err := <-copied:
		return err
	case <-stdinDone:
		if out != nil {
			return <-copied
		}
	}
	return nil
}

// ok: a local flag, computed once, decides both the check's start and
// its receive (validation set 29, driftctl's version check).
func runChecked(shouldCheck func() bool, latest func() string, run func() error) (string, error) {
	check := shouldCheck()
	newer := make(chan string)
	if check {
		go func() { newer <- latest() }()
	}
	run()
	var v string
	if check {
		v = <-newer
	}
	return v, nil
}

// The twin that asks again before the receive: the second answer may
// differ from the first.
func runAskedTwice(shouldCheck func() bool, latest func() string, run func() error) (string, error) {
	newer := make(chan string)
	if shouldCheck() {
		go func() { newer <- latest() }() // want `send on unbuffered newer blocks forever once the receiver leaves \(return at signals.go:\d+\)`
	}
	run()
	var v string
	if shouldCheck() {
		v = <-newer
	}
	return v, nil
}
