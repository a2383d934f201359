package structs

import "context"

type answerer struct{ out chan int }

func respond(a *answerer) {
	a.out <- 1 // want `send on unbuffered a\.out blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at literal\.go:20\); the goroutine leaks — make out buffered in Handler$`
}

// The make is in a function literal: the message names the function
// it is written in (Handler), not the literal's SSA name (Handler$1).
func Handler() func(context.Context) int {
	return func(ctx context.Context) int {
		a := &answerer{out: make(chan int)}
		go respond(a)
		select {
		case v := <-a.out:
			return v
		case <-ctx.Done():
			return -1
		}
	}
}
