package future

import (
	"context"
	"time"
)

// ok: a future made by a closure kept in a variable, awaited by another
// closure that captures it and always takes its value: every call is in
// view, and none stops waiting.
func removeAll(ctx context.Context, del func(context.Context, string) error, names []string) error {
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	remove := func(name string) <-chan error {
		ec := make(chan error)
		go func() {
			ec <- del(tctx, name)
		}()
		return ec
	}
	errs := make(chan error, len(names))
	await := func(name string) {
		errs <- <-remove(name)
	}
	for _, n := range names {
		go await(n)
	}
	for range names {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}

// The twin whose awaiting closure gives up when the deadline passes: the
// remover's goroutine is stranded at its send, and the report names the
// case that leaves (validation set 31, athens' parallel delete and
// upload).
func removeWithin(ctx context.Context, del func(context.Context, string) error, names []string) error {
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	remove := func(name string) <-chan error {
		ec := make(chan error)
		go func() {
			ec <- del(tctx, name) // want `send on unbuffered ec blocks forever once the receiver leaves \(case <-tctx.Done\(\) at closures.go:\d+\); the goroutine leaks — make ec buffered or select on ctx.Done\(\)`
		}()
		return ec
	}
	errs := make(chan error, len(names))
	await := func(name string) {
		select {
		case err := <-remove(name):
			errs <- err
		case <-tctx.Done():
			errs <- tctx.Err()
		}
	}
	for _, n := range names {
		go await(n)
	}
	for range names {
		if err := <-errs; err != nil {
			return err
		}
	}
	return nil
}
