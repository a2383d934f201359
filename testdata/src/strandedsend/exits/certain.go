package exits

import (
	"errors"
	"io"
	"time"
)

// Of the ways out that strand a sender, the report names one that
// strands it on every run that takes it: a return no path to which
// receives, while the sender still has a send it makes on every path.

type migration struct {
	out string
	err error
}

// A migration whose goroutine sends its first step's error, its second
// step's error and then its result, with no return after the error
// sends. The last return is reached only when the value taken was the
// result (its error is nil, and nothing was sent before it): nothing is
// left to send there. The return on a failed lookup, before the receive,
// leaves the result unsent on every run that takes it.
func migrateTree(lookup, first, second func() error) error {
	resCh := make(chan migration)
	go func() {
		var r migration
		if err := first(); err != nil {
			r.err = err
			resCh <- r // want `send on resCh blocks forever once the receiver leaves \(return at certain.go:40\) before any of 3 values`
		}
		if err := second(); err != nil {
			r.err = err
			resCh <- r
		}
		r.out = "migrated"
		resCh <- r
	}()
	if err := lookup(); err != nil {
		return err
	}
	r := <-resCh
	if r.err != nil {
		return r.err
	}
	return nil
}

// The twin whose lookup fails before the goroutine starts: no return
// strands the result for certain, and the report names the last one, as
// before (the value taken may have been an error, with more to come).
func migrateTreeChecked(lookup, first, second func() error) error {
	if err := lookup(); err != nil {
		return err
	}
	resCh := make(chan migration)
	go func() {
		var r migration
		if err := first(); err != nil {
			r.err = err
			resCh <- r // want `send on resCh blocks forever once the receiver leaves \(return at certain.go:70\) after 1 of 2 values`
		}
		r.out = "migrated"
		resCh <- r
	}()
	r := <-resCh
	if r.err != nil {
		return r.err
	}
	return nil
}

// A command whose output a goroutine logs until the pipe ends, then
// signals. Only the failure path waits for the signal, against a timer;
// the success return never receives it, and the goroutine blocks there
// on every successful run: that return is named, not the timer.
func runLogged(out io.Reader, run func() error) error {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, out)
		done <- struct{}{} // want `send on unbuffered done blocks forever once the receiver leaves \(return at certain.go:90\)`
	}()
	if err := run(); err != nil {
		select {
		case <-done:
		case <-time.After(time.Second):
		}
		return errors.New("command failed")
	}
	return nil
}

// The twin that waits on both paths: only the timer leaves the sender
// behind, and it is named.
func runLoggedWaiting(out io.Reader, run func() error) error {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, out)
		done <- struct{}{} // want `send on unbuffered done blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at certain.go:104\)`
	}()
	err := run()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	return err
}
