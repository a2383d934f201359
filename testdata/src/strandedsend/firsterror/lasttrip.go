package firsterror

import (
	"errors"
	"time"
)

var errSlow = errors.New("slow")

// ok: the loop checks every stage and starts the goroutine on its last
// trip only: one sender, whose one value the buffer holds when the
// receiver gives up.
func runLast(stages []part) (int, error) {
	out := make(chan int, 1)
	for i, s := range stages {
		if _, err := build(s); err != nil {
			return 0, err
		}
		if i+1 == len(stages) {
			go func() {
				n, _ := build(s)
				out <- n
			}()
		}
	}
	select {
	case n := <-out:
		return n, nil
	case <-time.After(time.Second):
		return 0, errSlow
	}
}

// The twin that starts a goroutine on every trip: len(stages) senders,
// room for one.
func runEvery(stages []part) (int, error) {
	out := make(chan int, 1)
	for _, s := range stages {
		go func() {
			n, _ := build(s)
			out <- n // want `send on out blocks forever once the receiver leaves \(case <-time.After`
		}()
	}
	select {
	case n := <-out:
		return n, nil
	case <-time.After(time.Second):
		return 0, errSlow
	}
}
