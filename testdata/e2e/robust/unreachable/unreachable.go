// Package unreachable has code after returns and panics.
package unreachable

import "context"

// Dead has a leaky shape only in code that never runs.
func Dead(ctx context.Context) int {
	return 0
	c := make(chan int)
	go func() { c <- 1 }()
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return 0
	}
}

// Panics never reaches its loop.
func Panics(jobs []int, sem chan struct{}) {
	panic("not implemented")
	for range jobs {
		go func() {
			sem <- struct{}{}
			<-sem
		}()
	}
}
