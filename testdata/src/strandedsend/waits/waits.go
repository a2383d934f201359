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

// A WaitGroup marked Done after the send, in a plain call: Wait still
// returns only once the send has completed.
func total(xs []int) int {
	out := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		s := 0
		for _, x := range xs {
			s += run(x)
		}
		out <- s // want `send on unbuffered out blocks forever: total waits for its senders \(wg\.Wait\(\) at waits\.go:\d+\) before receiving what they send; they wait for each other — receive before waiting, or make out's capacity 1`
		wg.Done()
	}()
	wg.Wait()
	return <-out
}

// ok: the twin with room for the one value.
func totalBuffered(xs []int) int {
	out := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		s := 0
		for _, x := range xs {
			s += run(x)
		}
		out <- s
		wg.Done()
	}()
	wg.Wait()
	return <-out
}

// ok: Done in the loop that sends, each send after an earlier Done: Wait
// may return with sends still to come, which the receive then takes.
func streamDone(xs []int) []int {
	out := make(chan int)
	var wg sync.WaitGroup
	wg.Add(len(xs))
	go func() {
		for _, x := range xs {
			wg.Done()
			out <- run(x)
		}
	}()
	wg.Wait()
	got := make([]int, 0, len(xs))
	for range xs {
		got = append(got, <-out)
	}
	return got
}

// A pool whose WaitGroup is a field: each worker marks it Done after its
// send, and the method waits on it before receiving.
type pool struct {
	wg sync.WaitGroup
}

func (p *pool) each(jobs []int) []int {
	out := make(chan int, 1)
	for _, j := range jobs {
		p.wg.Add(1)
		go func() {
			out <- run(j) // want `send on out blocks forever: \(\*pool\)\.each waits for its senders \(p\.wg\.Wait\(\) at waits\.go:\d+\) before receiving what they send; they wait for each other — receive before waiting$`
			p.wg.Done()
		}()
	}
	p.wg.Wait()
	got := make([]int, 0, len(jobs))
	for range jobs {
		got = append(got, <-out)
	}
	return got
}

// ok: the twin that waits in a goroutine of its own and closes.
func (p *pool) eachClosing(jobs []int) []int {
	out := make(chan int, 1)
	for _, j := range jobs {
		p.wg.Add(1)
		go func() {
			out <- run(j)
			p.wg.Done()
		}()
	}
	go func() {
		p.wg.Wait()
		close(out)
	}()
	var got []int
	for v := range out {
		got = append(got, v)
	}
	return got
}
