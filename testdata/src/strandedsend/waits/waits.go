// Package waits holds a receiver that waits for its senders before it
// receives: they finish only once their sends complete, so with more
// sends than the buffer holds, both sides wait for each other forever.
package waits

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

func run(j int) int { return j * 2 }

// A WaitGroup whose goroutines defer Done, waited for before the results
// are read.
func sum(jobs []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- run(j) // want `send on unbuffered results blocks forever: sum waits for its senders \(wg\.Wait\(\) at waits\.go:26\) before receiving what they send; they wait for each other — receive before waiting`
		}()
	}
	wg.Wait()
	close(results)
	total := 0
	for r := range results {
		total += r
	}
	return total
}

// ok: the twin with room for every result.
func sumBuffered(jobs []int) int {
	results := make(chan int, len(jobs))
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- run(j)
		}()
	}
	wg.Wait()
	close(results)
	total := 0
	for r := range results {
		total += r
	}
	return total
}

// ok: the twin that waits in a goroutine of its own and receives at once.
func sumClosing(jobs []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- run(j)
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	total := 0
	for r := range results {
		total += r
	}
	return total
}

// An errgroup's Wait before the receive, with two senders and room for
// one.
func pair(a, b int) (int, int, error) {
	out := make(chan int, 1)
	var g errgroup.Group
	g.Go(func() error { out <- run(a); return nil }) // want `send on out blocks forever: pair waits for its senders \(g\.Wait\(\) at waits\.go:84\) before receiving what they send; they wait for each other — receive before waiting, or make out's capacity 2`
	g.Go(func() error { out <- run(b); return nil })
	if err := g.Wait(); err != nil {
		return 0, 0, err
	}
	return <-out, <-out, nil
}

// ok: a WaitGroup marked Done before the send does not wait for it.
func doneFirst(j int) int {
	out := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		v := run(j)
		wg.Done()
		out <- v
	}()
	wg.Wait()
	return <-out
}

// nope: a deferred Wait waits at the return, after the loop has taken
// every result it dispatched (met on validation set 5: a crawler).
func crawl(peers []int) int {
	jobs := make(chan int, 1)
	results := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			for p := range jobs {
				results <- run(p)
			}
		}()
	}
	defer wg.Wait()
	defer close(jobs)
	total, outstanding := 0, 0
	for len(peers) > 0 || outstanding > 0 {
		var jobCh chan int
		var next int
		if len(peers) > 0 {
			jobCh, next = jobs, peers[0]
		}
		select {
		case r := <-results:
			total += r
			outstanding--
		case jobCh <- next:
			peers = peers[1:]
			outstanding++
		}
	}
	return total
}
