// Command exitcall runs its work under a timeout. Its helpers' ways out
// return errors, and what main does with an error decides whether the
// goroutine a timeout leaves behind outlives anything.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"
)

func work() error { return nil }

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(time.Second); err != nil {
		log.Fatal(err)
	}
	if err := runTwoLevels(time.Second); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := runNamed(time.Second); err != nil {
		log.Fatalf("named: %v", err)
	}
	if err := runLogged(time.Second); err != nil {
		log.Print(err) // and go on
	}
	if err := runMaybe(time.Second, work); err != nil {
		log.Fatal(err)
	}
	if len(os.Args) > 2 {
		os.Exit(status(time.Second))
	}
	code := statusLogged(time.Second)
	log.Printf("status %d", code)
	if err := runCancelled(ctx); err != nil {
		log.Fatal(err)
	}
	if err := runTimedOut(ctx); err != nil {
		log.Fatal(err)
	}
	if err := forward(time.Second); err != nil {
		log.Fatal(err)
	}
	if err := forwardLogged(time.Second); err != nil {
		log.Print(err) // and go on
	}
	for {
		if err := serve(); err != nil {
			log.Fatal(err)
		}
	}
}

// ok: the timeout returns an error main turns into log.Fatal: the
// process ends with the goroutine.
func run(timeout time.Duration) error {
	errc := make(chan error)
	go func() { errc <- work() }()
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("timed out after %v", timeout)
	}
}

// ok: two levels up, main exits on the error runTwoLevels hands on.
func runTwoLevels(timeout time.Duration) error {
	if err := inner(timeout); err != nil {
		return err
	}
	return nil
}

func inner(timeout time.Duration) error {
	errc := make(chan error)
	go func() { errc <- work() }()
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return errors.New("timed out")
	}
}

// ok: a named result the deferred cleanup cannot change.
func runNamed(timeout time.Duration) (err error) {
	defer cleanup(err)
	errc := make(chan error)
	go func() { errc <- work() }()
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("timed out after %v", timeout)
	}
}

func cleanup(error) {}

// The twin whose caller only logs the error and goes on: the goroutine
// outlives the timeout.
func runLogged(timeout time.Duration) error {
	errc := make(chan error)
	go func() { errc <- work() }() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(timeout\) at main.go:\d+\)`
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("timed out after %v", timeout)
	}
}

// The twin whose timeout returns an error that may be nil: main goes on.
func runMaybe(timeout time.Duration, last func() error) error {
	errc := make(chan error)
	go func() { errc <- work() }() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(timeout\) at main.go:\d+\)`
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return last()
	}
}

// The twin called in a loop that exits only on the error: a timeout
// returns nil here, and the loop calls it again.
func serve() error {
	errc := make(chan error)
	go func() { errc <- work() }() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at main.go:\d+\)`
	select {
	case err := <-errc:
		return err
	case <-time.After(time.Second):
		return nil
	}
}

// ok: main hands status's result straight to os.Exit: whichever way
// status returns, the process ends with the goroutine (validation set
// 29, driftctl's run).
func status(timeout time.Duration) int {
	errc := make(chan error)
	go func() { errc <- work() }()
	select {
	case err := <-errc:
		if err != nil {
			return 1
		}
		return 0
	case <-time.After(timeout):
		return 2
	}
}

// The twin whose code main logs before going on.
func statusLogged(timeout time.Duration) int {
	errc := make(chan error)
	go func() { errc <- work() }() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(timeout\) at main.go:\d+\)`
	select {
	case err := <-errc:
		if err != nil {
			return 1
		}
		return 0
	case <-time.After(timeout):
		return 2
	}
}

// ok: forward returns what runForwarded returns, as its own error, and
// main exits on it: the timeout's error ends the process all the same
// (validation set 32, ziti's quickstart join).
func forward(timeout time.Duration) error {
	return runForwarded(timeout)
}

func runForwarded(timeout time.Duration) error {
	errc := make(chan error)
	go func() { errc <- work() }()
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("timed out after %v", timeout)
	}
}

// The twin whose error is handed up to a caller that only logs it.
func forwardLogged(timeout time.Duration) error {
	return runForwardedLogged(timeout)
}

func runForwardedLogged(timeout time.Duration) error {
	errc := make(chan error)
	go func() { errc <- work() }() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(timeout\) at main.go:\d+\)`
	select {
	case err := <-errc:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("timed out after %v", timeout)
	}
}

// ok: after ctx.Done() has fired, ctx.Err() is not nil, and main exits
// on it (validation set 32, ziti's traffic check: its server returns
// ctx.Err() when the client cancels, and the command exits on it).
func runCancelled(ctx context.Context) error {
	errc := make(chan error)
	go func() { errc <- work() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The twin returning ctx.Err() on a timer: the context may not be done,
// the error nil, and main goes on.
func runTimedOut(ctx context.Context) error {
	errc := make(chan error)
	go func() { errc <- work() }() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at main.go:\d+\)`
	select {
	case err := <-errc:
		return err
	case <-time.After(time.Second):
		return ctx.Err()
	}
}
