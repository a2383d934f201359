package firsterror

import "time"

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
			results <- built{p.name, n} // want `send on results blocks forever once the receiver leaves \(case <-errs at counted.go:33\)`
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
