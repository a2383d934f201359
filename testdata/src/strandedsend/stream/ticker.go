package stream

import (
	"errors"
	"os"
	"time"
)

type lister interface{ list() error }

// ok: the poller sends its first error and stops its ticker; its loop
// comes back round only on a tick, which a stopped ticker never gives
// again: it sends once, and the buffer holds it when the command leaves
// on an interrupt (validation set 32, doctl's activation logs).
func follow(src lister, interrupt <-chan os.Signal) error {
	errs := make(chan error, 1)
	go poll(errs, src)
	select {
	case <-interrupt:
		return nil
	case err := <-errs:
		return err
	}
}

func poll(errs chan error, src lister) {
	ticker := time.NewTicker(5 * time.Second)
	tc := ticker.C
	for {
		select {
		case <-tc:
			if err := src.list(); err != nil {
				errs <- err
				ticker.Stop()
				break
			}
		}
	}
}

// A poller that keeps its ticker running sends an error a tick, and
// the second blocks once the command has left.
func followRunning(src lister, interrupt <-chan os.Signal) error {
	errs := make(chan error, 1)
	go pollRunning(errs, src)
	select {
	case <-interrupt:
		return nil
	case err := <-errs:
		return err
	}
}

func pollRunning(errs chan error, src lister) {
	ticker := time.NewTicker(5 * time.Second)
	for {
		select {
		case <-ticker.C:
			if err := src.list(); err != nil {
				errs <- err // want `send on errs blocks forever once the receiver stops receiving \(return at ticker.go:\d+\)`
			}
		}
	}
}

// A ticker reset after it was stopped ticks again.
func followReset(src lister, interrupt <-chan os.Signal) error {
	errs := make(chan error, 1)
	go pollReset(errs, src)
	select {
	case <-interrupt:
		return nil
	case err := <-errs:
		return err
	}
}

var errRetry = errors.New("retry")

func pollReset(errs chan error, src lister) {
	ticker := time.NewTicker(5 * time.Second)
	for {
		select {
		case <-ticker.C:
			if err := src.list(); err != nil {
				errs <- err // want `send on errs blocks forever once the receiver stops receiving \(return at ticker.go:\d+\)`
				ticker.Stop()
				if errors.Is(err, errRetry) {
					ticker.Reset(time.Second)
				}
			}
		}
	}
}

// A loop that comes back round through another channel as well as the
// ticker's can reach the send again after the Stop.
func followKicked(src lister, kick <-chan struct{}, interrupt <-chan os.Signal) error {
	errs := make(chan error, 1)
	go pollKicked(errs, src, kick)
	select {
	case <-interrupt:
		return nil
	case err := <-errs:
		return err
	}
}

func pollKicked(errs chan error, src lister, kick <-chan struct{}) {
	ticker := time.NewTicker(5 * time.Second)
	for {
		select {
		case <-ticker.C:
		case <-kick:
		}
		if err := src.list(); err != nil {
			errs <- err // want `send on errs blocks forever once the receiver stops receiving \(return at ticker.go:\d+\)`
			ticker.Stop()
		}
	}
}
