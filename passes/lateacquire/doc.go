// Package lateacquire defines an Analyzer that reports semaphore acquires
// placed inside the goroutines they were meant to bound.
//
// # Analyzer lateacquire
//
// lateacquire: report semaphores acquired inside the goroutine instead of before spawning it
//
// A producer that starts a goroutine per unit of work (per element, per
// received job, per request, per recursive call) and lets the goroutine
// acquire a shared semaphore first thing bounds the work, not the
// goroutines. A burst of N units creates N goroutines, each holding its
// stack and everything its closure captured (request bodies, contexts,
// reply channels), parked at the acquire: a queue nobody named or sized,
// and the producer never feels the pressure. Acquire before the go
// statement, so the producer itself waits (or is refused), or use an
// errgroup with SetLimit, whose Go blocks before it spawns.
//
// Wrong:
//
//	for _, r := range repos {
//		go func() {
//			sem <- struct{}{} // goroutine waits on sem before doing any work; one goroutine parks per element of repos — acquire before the go statement
//			defer func() { <-sem }()
//			sync(r)
//		}()
//	}
//
// Right:
//
//	for _, r := range repos {
//		sem <- struct{}{}
//		go func() {
//			defer func() { <-sem }()
//			sync(r)
//		}()
//	}
//
// The acquires recognised are a send on a buffered channel that the
// goroutine gives back with a receive (and the token form: a receive from
// a pre-filled channel, sent back when done), (*semaphore.Weighted).Acquire,
// (*rate.Limiter).Wait and WaitN, any of these in a select that can also
// give up on ctx.Done() (giving up ends the wait, but each spawn still
// parks a goroutine), and calls of wrappers: functions or methods, in any
// package, that acquire on their receiver, a parameter or a global and
// return holding the permit.
//
// An acquire is reported when it is the goroutine's first blocking act
// (only bookkeeping such as logging, context derivation and defers comes
// before it, and no loop), the semaphore outlives the goroutine (the
// goroutine did not make it), and the go statement, errgroup Go (on a
// group without SetLimit) or WaitGroup.Go runs once per unit of work
// sharing that semaphore: in a loop over a channel, a slice, a map or an
// iterator, in a loop with no fixed count, in a recursive function, in an
// HTTP handler, or in any function or callback that reaches the semaphore
// through its receiver, parameters, captured variables or globals.
//
// Not reported: a spawn run a fixed number of times (a constant count,
// runtime.NumCPU(), a worker count, once in main, init or a test); a
// long-lived goroutine that acquires per iteration of its own loop
// (pacing, not admission); a goroutine whose first blocking act is
// something else (a mutex, I/O, an unknown call); a semaphore made inside
// the goroutine, or per iteration; an unbuffered channel (a hand-off, not
// a permit); a spawner that waits for its goroutine before it can spawn
// again (one parked goroutine per waiting caller is no queue); and, unless
// -lateacquire.strict is set, a non-blocking try inside the goroutine
// (TryAcquire, Allow, a select with a default), which refuses promptly but
// still creates a goroutine per unit.
//
// When the goroutine is a function literal that begins with the acquire as
// a statement of its own (sem <- struct{}{}, sem.Acquire(ctx, 1) with its
// error unused), a suggested fix moves the acquire before the go
// statement and leaves the release in the goroutine.
//
// Flags: -lateacquire.funcs=importpath.Type.Method,importpath.Func names
// more functions that wait for a permit and return holding it (a wrapper
// the pass cannot see through); -lateacquire.strict also reports
// non-blocking tries.
package lateacquire

import _ "embed"

//go:embed doc.go
var doc string
