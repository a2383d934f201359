// Package helpers is another module's spawning helper.
package helpers

// Go runs job on a goroutine of its own once a permit of sem is free.
func Go(sem chan struct{}, job func()) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		job()
	}()
}
