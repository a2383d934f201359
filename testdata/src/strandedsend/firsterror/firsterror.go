// Package firsterror holds shape 3: N senders on one channel, a receiver
// that returns on the first error while the others still have to
// report, and a buffer smaller than N.
package firsterror

import (
	"context"
	"errors"
	"sync"
	"time"
)

type job struct{ id int }

func run(job) error { return errStub }

// Range over a slice: len(jobs) senders, first error wins.
func runAll(jobs []job) error {
	errc := make(chan error)
	for _, j := range jobs {
		go func() {
			errc <- run(j) // want `send on errc blocks forever once the receiver leaves \(return at firsterror.go:27\) after 1 of len\(jobs\) values, with room for 0; goroutines leak — make errc's capacity len\(jobs\)`
		}()
	}
	for range jobs {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// ok: the twin with room for every sender.
func runAllBuffered(jobs []job) error {
	errc := make(chan error, len(jobs))
	for _, j := range jobs {
		go func() {
			errc <- run(j)
		}()
	}
	for range jobs {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// ok: the twin that receives every value before it returns.
func runAllCollected(jobs []job) error {
	errc := make(chan error)
	for _, j := range jobs {
		go func() {
			errc <- run(j)
		}()
	}
	var first error
	for range jobs {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// A counted loop with a buffer of one: still too small.
func runN(n int) error {
	errc := make(chan error, 1)
	for i := 0; i < n; i++ {
		go func() { errc <- run(job{i}) }() // want `send on errc blocks forever once the receiver leaves \(return at firsterror.go:74\) after 1 of n values, with room for 1; goroutines leak — make errc's capacity n`
	}
	for i := 0; i < n; i++ {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// A constant number of senders, started one by one.
func three() error {
	errc := make(chan error)
	go func() { errc <- run(job{1}) }() // want `after 1 of 3 values, with room for 0; goroutines leak — make errc's capacity 3`
	go func() { errc <- run(job{2}) }() // related to the first send: one finding per channel
	go func() { errc <- run(job{3}) }() // related to the first send
	for i := 0; i < 3; i++ {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// nope: room for the two that can be left behind after the first.
func threeRoomy() error {
	errc := make(chan error, 2)
	go func() { errc <- run(job{1}) }()
	go func() { errc <- run(job{2}) }()
	go func() { errc <- run(job{3}) }()
	for i := 0; i < 3; i++ {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// The first answer wins: one receive, len(replicas) senders.
func first(replicas []string) string {
	c := make(chan string)
	for _, r := range replicas {
		go func() { c <- r }() // want `send on c blocks forever once the receiver leaves \(return at firsterror.go:114\) after 1 of len\(replicas\) values, with room for 0; goroutines leak — make c's capacity len\(replicas\)`
	}
	return <-c
}

// Results and errors on two channels: each goroutine sends on exactly one.
// A timeout inside the loop leaves them all.
func gather(ctx context.Context, jobs []job) ([]int, error) {
	resc := make(chan int)
	errc := make(chan error)
	for _, j := range jobs {
		go func() {
			if err := run(j); err != nil {
				errc <- err // want `send on errc \(or resc\) blocks forever once the receiver leaves \(case <-ctx.Done\(\) at firsterror.go:138\) before any of len\(jobs\) values, with room for 0; goroutines leak — make the capacity of errc and resc len\(jobs\)$`
				return
			}
			resc <- j.id
		}()
	}
	var out []int
	for range jobs {
		select {
		case r := <-resc:
			out = append(out, r)
		case err := <-errc:
			return nil, err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// ok: a WaitGroup closes the channel once every sender is done, and the
// receiver drains it until then.
func drained(jobs []job) error {
	errc := make(chan error)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- run(j)
		}()
	}
	go func() {
		wg.Wait()
		close(errc)
	}()
	var first error
	for err := range errc {
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// The same drain, abandoned on the first error: the other senders and
// the closer are stranded.
func drainedEarly(jobs []job) error {
	errc := make(chan error)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- run(j) // want `\(return at firsterror.go:188\) after 1 of len\(jobs\) values`
		}()
	}
	go func() {
		wg.Wait()
		close(errc)
	}()
	for err := range errc {
		if err != nil {
			return err
		}
	}
	return nil
}

// nope: a loop that counts the values itself; the analysis cannot tell
// whether the count reaches the number of senders, so it stays silent.
func counted(jobs []job) error {
	errc := make(chan error)
	for _, j := range jobs {
		go func() { errc <- run(j) }()
	}
	n := 0
	for {
		err := <-errc
		n++
		if n == len(jobs) {
			return err
		}
	}
}

// A timer inside the receive loop: the deadline leaves the rest behind.
func runAllBy(jobs []job, deadline <-chan time.Time) error {
	errc := make(chan error)
	for _, j := range jobs {
		go func() { errc <- run(j) }() // want `\(case <-deadline at firsterror.go:223\) before any of len\(jobs\) values`
	}
	for range jobs {
		select {
		case err := <-errc:
			if err != nil {
				return err
			}
		case <-deadline:
			return errors.New("deadline")
		}
	}
	return nil
}

// ok: the twin with room for every sender.
func runAllByBuffered(jobs []job, deadline <-chan time.Time) error {
	errc := make(chan error, len(jobs))
	for _, j := range jobs {
		go func() { errc <- run(j) }()
	}
	for range jobs {
		select {
		case err := <-errc:
			if err != nil {
				return err
			}
		case <-deadline:
			return errors.New("deadline")
		}
	}
	return nil
}

// errStub stands for the failures the stubs above may report: they can
// fail, as what they stand for can.
var errStub error
