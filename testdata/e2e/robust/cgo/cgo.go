// Package cgo calls C, and spawns goroutines around the call.
package cgo

/*
static int twice(int x) { return 2 * x; }
*/
import "C"

var sem = make(chan struct{}, 4)

// Twice doubles each value on its own goroutine, acquiring sem inside it.
func Twice(xs []int, out chan<- int) {
	for _, x := range xs {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out <- int(C.twice(C.int(x)))
		}()
	}
}
