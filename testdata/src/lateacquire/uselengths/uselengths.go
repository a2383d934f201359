// Package uselengths counts spawn loops up to lengths another package
// computes: one goroutine per element, as for len(x).
package uselengths

import (
	"lateacquire/lengths"
)

var sem = make(chan struct{}, 4)

func work(string) {}

// A loop up to the length a method of another package returns.
func drain(q *lengths.Queue) {
	for i := 0; i < q.Len(); i++ {
		go func() {
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per element of q.items \(the length q.Len\(\) returns\)`
			defer func() { <-sem }()
			work(q.At(i))
		}()
	}
}

// The same through a variable set once to it, and a function.
func each(keys map[string]bool) {
	n := lengths.Count(keys)
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per element of keys \(the length lengths.Count\(keys\) returns\)`
			defer func() { <-sem }()
			work("")
		}()
	}
}

// ok: a configured number of workers, each taking a permit once.
func workers(p *lengths.Pool, q *lengths.Queue) {
	for i := 0; i < p.Workers(); i++ {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			work(q.At(i))
		}()
	}
}

// ok: a count that is a length only on some paths (capped by the
// workers): a fixed bound on how many run.
func capped(p *lengths.Pool, q *lengths.Queue) {
	for i := 0; i < p.Capped(); i++ {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			work(q.At(i))
		}()
	}
}

// ok: the length of an array is a fixed count.
func slots(r *lengths.Ring, q *lengths.Queue) {
	for i := 0; i < r.Size(); i++ {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			work(q.At(i))
		}()
	}
}

// ok: the twin of drain acquiring before the go statement.
func drainGood(q *lengths.Queue) {
	for i := 0; i < q.Len(); i++ {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			work(q.At(i))
		}()
	}
}
