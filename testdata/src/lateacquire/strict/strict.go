// Package strict holds the non-blocking tries lateacquire reports only
// with -lateacquire.strict, and their good twins.
package strict

import (
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type job struct{}

func do(job) {}

// A select with a default inside the goroutine.
func selectDefault(jobs []job, sem chan struct{}) {
	for _, j := range jobs {
		go func() {
			select {
			case sem <- struct{}{}: // want `goroutine tries sem only after it has started; one goroutine is created per element of jobs even when refused — try before the go statement`
			default:
				return
			}
			defer func() { <-sem }()
			do(j)
		}()
	}
}

// ok: the same try before the go statement refuses without a goroutine.
func selectDefaultGood(jobs []job, sem chan struct{}) {
	for _, j := range jobs {
		select {
		case sem <- struct{}{}:
		default:
			continue
		}
		go func() {
			defer func() { <-sem }()
			do(j)
		}()
	}
}

// TryAcquire and Allow inside the goroutine.
func tries(jobs <-chan job, sem *semaphore.Weighted, lim *rate.Limiter) {
	for j := range jobs {
		go func() {
			if !sem.TryAcquire(1) { // want `goroutine tries sem only after it has started; one goroutine is created per value received from jobs`
				return
			}
			defer sem.Release(1)
			do(j)
		}()
		go func() {
			if !lim.Allow() { // want `goroutine tries lim only after it has started`
				return
			}
			do(j)
		}()
	}
}

// nope: a try in a fixed pool is still not reported.
func fixedPool(sem *semaphore.Weighted) {
	for i := 0; i < 2; i++ {
		go func() {
			if sem.TryAcquire(1) { // nope: two goroutines
				sem.Release(1)
			}
		}()
	}
}
