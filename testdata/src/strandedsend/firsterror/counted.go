package firsterror

import (
	"sync"
	"time"
)

type part struct{ name string }

func build(part) (int, error) { return 0, nil }

type built struct {
	name string
	size int
}

// buildAll starts one goroutine per part; each reports its error, if
// any, and then always its result. The receiver counts results and
// returns on the first error: the failing goroutine's result send, and
// every result not yet taken, is stranded there.
func buildAll(parts []part) ([]built, error) {
	errs := make(chan error)
	results := make(chan built)
	for _, p := range parts {
		go func() {
			n, err := build(p)
			if err != nil {
				errs <- err
			}
			results <- built{p.name, n} // want `send on results blocks forever once the receiver leaves \(case <-errs at counted.go:36\)`
		}()
	}
	var out []built
	for done := 0; done < len(parts); {
		select {
		case err := <-errs:
			return nil, err
		case b := <-results:
			done++
			out = append(out, b)
		}
	}
	return out, nil
}

// ok: the same goroutines' error sends are not stranded by the loop's
// end. It comes once a result has been counted from every goroutine, and
// each sends its error before its result: every error was received by
// then. (buildAll's own return on an error strands the next failure's
// error send too; that leak is the one reported above, at the result.)
func buildAllCollect(parts []part) ([]built, []error) {
	errs := make(chan error)
	results := make(chan built)
	for _, p := range parts {
		go func() {
			n, err := build(p)
			if err != nil {
				errs <- err
			}
			results <- built{p.name, n}
		}()
	}
	var out []built
	var failed []error
	done := 0
	for done < len(parts) {
		select {
		case err := <-errs:
			failed = append(failed, err)
		case b := <-results:
			done++
			out = append(out, b)
		}
	}
	return out, failed
}

// ok: a receiver that counts one done signal from each of the workers
// of two sets, whatever else they report on the way: it leaves only
// when the count reaches both sets' sizes, after every signal.
func indexAll(local, remote []part) []error {
	done := make(chan struct{})
	errs := make(chan error)
	index := func(p part) {
		if _, err := build(p); err != nil {
			errs <- err
		}
		done <- struct{}{}
	}
	for _, p := range local {
		go index(p)
	}
	for _, p := range remote {
		go index(p)
	}
	var failed []error
	completed, total := 0, len(local)+len(remote)
	for completed < total {
		select {
		case <-done:
			completed++
		case err := <-errs:
			failed = append(failed, err)
		}
	}
	return failed
}

// The twin whose loop counts ticks, not values: it gives up after three
// of them and leaves every worker that has not answered yet stranded.
func firstBuilt(parts []part, tick *time.Ticker) (built, bool) {
	results := make(chan built)
	for _, p := range parts {
		go func() {
			n, _ := build(p)
			results <- built{p.name, n} // want `send on results blocks forever once the receiver leaves`
		}()
	}
	for tries := 0; tries < 3; {
		select {
		case b := <-results:
			return b, true
		case <-tick.C:
			tries++
		}
	}
	return built{}, false
}

// ok: workers that each start a goroutine per file, which reports its
// error if any, and wait for them (under a flag set beside every
// start: there is nothing to wait for when it is false) before their one
// done signal. The receiver counts a done signal per worker, so every
// report was taken before it leaves.
func indexWaited(sets [][]part) []error {
	done := make(chan struct{})
	errs := make(chan error)
	worker := func(files []part) {
		var wg sync.WaitGroup
		started := false
		for _, f := range files {
			wg.Add(1)
			started = true
			go func() {
				defer wg.Done()
				if _, err := build(f); err != nil {
					errs <- err
				}
			}()
		}
		if started {
			wg.Wait()
		}
		done <- struct{}{}
	}
	for _, files := range sets {
		go worker(files)
	}
	var failed []error
	for completed := 0; completed < len(sets); {
		select {
		case <-done:
			completed++
		case err := <-errs:
			failed = append(failed, err)
		}
	}
	return failed
}

// The twin whose workers wait only when their caller asks: a worker
// told not to signals done with its goroutines still running, and their
// reports are stranded once the receiver has counted every done signal.
func indexMaybeWaited(sets [][]part, wait bool) []error {
	done := make(chan struct{})
	errs := make(chan error)
	worker := func(files []part) {
		var wg sync.WaitGroup
		for _, f := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := build(f); err != nil {
					errs <- err // want `send on errs blocks forever once the receiver stops receiving \(return at counted.go:\d+\)`
				}
			}()
		}
		if wait {
			wg.Wait()
		}
		done <- struct{}{}
	}
	for _, files := range sets {
		go worker(files)
	}
	var failed []error
	for completed := 0; completed < len(sets); {
		select {
		case <-done:
			completed++
		case err := <-errs:
			failed = append(failed, err)
		}
	}
	return failed
}
