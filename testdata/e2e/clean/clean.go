// Package clean has goroutines, channels and buffers, all used well.
package clean

import "context"

// Do runs f on its own goroutine and waits for it or for ctx. The result
// channel has room for the one result, so an abandoned worker still exits.
func Do(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
