package basic

import (
	"context"
	"time"

	"golang.org/x/sync/semaphore"
)

// Spawns paced by a clock come one per tick, however much work is
// waiting: the loop's count is time, not demand, and there is no burst
// for the goroutines to queue.

// nope: one probe per tick, waiting for the slot of the previous one.
func probeEveryTick(ctx context.Context, tick *time.Ticker, sem *semaphore.Weighted, probe func()) {
	for {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil { // nope: paced by the ticker
				return
			}
			defer sem.Release(1)
			probe()
		}()
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// nope: a range over a ticker's channel is paced the same way.
func flushEveryTick(tick *time.Ticker, sem chan struct{}, flush func()) {
	for range tick.C {
		go func() {
			sem <- struct{}{} // nope: one goroutine per tick
			defer func() { <-sem }()
			flush()
		}()
	}
}

// nope: a plain wait on a timer every trip round the loop.
func pollSlowly(sem chan struct{}, poll func()) {
	for {
		<-time.After(time.Second)
		go func() {
			sem <- struct{}{} // nope: one goroutine per second
			defer func() { <-sem }()
			poll()
		}()
	}
}

// The twin: each tick starts a goroutine per target, a burst as large as
// the list.
func probeAllEveryTick(ctx context.Context, tick *time.Ticker, sem *semaphore.Weighted, targets []string, probe func(string)) {
	for range tick.C {
		for _, t := range targets {
			go func() {
				if err := sem.Acquire(ctx, 1); err != nil { // want `one goroutine parks per element of targets`
					return
				}
				defer sem.Release(1)
				probe(t)
			}()
		}
	}
}

// A loop that can skip the wait is not paced: a continue before the tick
// spawns again at once.
func probeUntilQuiet(ctx context.Context, tick *time.Ticker, sem *semaphore.Weighted, busy func() bool, probe func()) {
	for {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil { // want `one goroutine parks per iteration of the loop`
				return
			}
			defer sem.Release(1)
			probe()
		}()
		if busy() {
			continue
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// A select whose other case loops back without the tick is not paced
// either: each job wakes the loop.
func probePerJob(ctx context.Context, tick *time.Ticker, jobs <-chan int, sem *semaphore.Weighted, probe func()) {
	for {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil { // want `one goroutine parks per iteration of the loop`
				return
			}
			defer sem.Release(1)
			probe()
		}()
		select {
		case <-tick.C:
		case <-jobs:
		case <-ctx.Done():
			return
		}
	}
}
