// Package twosites holds workers started by two go statements that run
// one function: each statement's goroutine makes every send of that
// function, and what the pass decides about them cannot depend on which
// statement it looks at first (the order of a map).
package twosites

import (
	"errors"
	"sync"
)

type source interface{ files() []string }

type lister interface {
	source
	list() []string
}

func index(string) (int, error) { return 0, nil }

// ok: each worker waits for the goroutines it starts (under a flag set
// beside every start) before its one done signal, or reports an error
// and then signals done; the receiver counts a done signal per worker
// of both sets, so every report was taken when it leaves.
func indexAll(local, remote map[string]source) []error {
	worker := func(fs source, done chan struct{}, errs chan error, indexes chan int) {
		var wg sync.WaitGroup
		indexFile := func(f string) {
			defer wg.Done()
			n, err := index(f)
			if err != nil {
				errs <- err
				return
			}
			indexes <- n
		}
		if l, ok := fs.(lister); ok {
			started := false
			for _, f := range l.list() {
				if f != "" {
					wg.Add(1)
					started = true
					go indexFile(f)
				}
			}
			if started {
				wg.Wait()
			}
			done <- struct{}{}
			return
		}
		errs <- errors.New("not a lister")
		done <- struct{}{}
	}
	done := make(chan struct{})
	errs := make(chan error)
	indexes := make(chan int)
	for _, v := range local {
		go worker(v, done, errs, indexes)
	}
	for _, v := range remote {
		go worker(v, done, errs, indexes)
	}
	var failed []error
	for completed, total := 0, len(local)+len(remote); completed < total; {
		select {
		case <-done:
			completed++
		case err := <-errs:
			failed = append(failed, err)
		case <-indexes:
		}
	}
	return failed
}

// The twin whose workers do not wait for their goroutines: a report made
// after its worker's done signal is stranded once the receiver has
// counted them all.
func indexAllEager(local, remote map[string]source) []error {
	worker := func(fs source, done chan struct{}, errs chan error) {
		if l, ok := fs.(lister); ok {
			for _, f := range l.list() {
				go func() {
					if _, err := index(f); err != nil {
						errs <- err // want `send on errs blocks forever once the receiver stops receiving \(return at twosites.go:\d+\)`
					}
				}()
			}
			done <- struct{}{}
			return
		}
		errs <- errors.New("not a lister")
		done <- struct{}{}
	}
	done := make(chan struct{})
	errs := make(chan error)
	for _, v := range local {
		go worker(v, done, errs)
	}
	for _, v := range remote {
		go worker(v, done, errs)
	}
	var failed []error
	for completed, total := 0, len(local)+len(remote); completed < total; {
		select {
		case <-done:
			completed++
		case err := <-errs:
			failed = append(failed, err)
		}
	}
	return failed
}
