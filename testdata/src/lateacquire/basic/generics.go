package basic

import "sync"

// Generic code: the goroutine's function, or the helper it calls, is an
// instance of a generic function. Its code is the generic function's,
// and so are the positions reported.

var slots = make(chan struct{}, 4)

func handle[T any](v T, out func(T)) {
	slots <- struct{}{} // want `goroutine waits on slots before doing any work; one goroutine parks per element of vs`
	defer func() { <-slots }()
	out(v)
}

// The generic helper run as the goroutine itself.
func handleAll(vs []int, out func(int)) {
	for _, v := range vs {
		go handle(v, out)
	}
}

// The generic helper called by a generic function's goroutine.
func handleEach[T any](vs []T, out func(T)) {
	var wg sync.WaitGroup
	for _, v := range vs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handle(v, out) // want `goroutine waits on slots in handle before doing any work; one goroutine parks per element of vs`
		}()
	}
	wg.Wait()
}

// ok: the twin that takes the slot before starting the goroutine.
func handleEachGood[T any](vs []T, out func(T)) {
	var wg sync.WaitGroup
	for _, v := range vs {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			out(v)
		}()
	}
	wg.Wait()
}
