// Package lib is the app's own spawning helper: reported at its acquire,
// where the fix belongs, not again at each caller.
package lib

// Go runs job on a goroutine of its own once a permit of sem is free.
func Go(sem chan struct{}, job func()) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
}
