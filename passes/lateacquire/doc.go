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
// The model: a report needs a permit shared by every spawn, taken first
// thing inside the goroutine, by a spawn that runs once per unit of work.
//
// A permit is a (*semaphore.Weighted).Acquire, a (*rate.Limiter).Wait or
// WaitN, or a send on a channel known to have room that the goroutine
// gives back with a receive (and the token form: a receive from a
// pre-filled channel, sent back when done). A value sent back computed
// from the one received (off := <-next; next <- off + n) gives no token
// back: the channel holds a value each user changes, a lock around a
// counter or an offset, and its users wait for each other's update, not
// for each other's work (validation set 40, an allocator of offsets in a
// shared file). A channel is known to have
// room when the make that created it is in view (in the goroutine, its
// spawner or a function around them) or it is a variable or field the
// package makes, with a capacity that is not zero (a size computed at run
// time counts: it was made to hold permits), and never closes: closing
// lets every waiter through at once, so a channel of one token closed
// once the first call succeeds is a once gate, not a permit (validation
// set 10, oras-go). A channel made out of view
// counts only when its release is deferred or it carries tokens (chan
// struct{}, chan bool): a send of a value followed by a receive on the
// same channel may as well be a request and its acknowledgement. Any of
// these in a select that can also give up on ctx.Done() is a permit too
// (giving up ends the wait, but each spawn still parks a goroutine), and
// so is a call of a wrapper: a function or method, in any package, that
// takes such a permit on its receiver, a parameter or a global, returns
// holding it, and does nothing else that waits or works; the package
// must give that channel's permits back with a receive made once, outside
// a loop. A token-form wrapper (a receive) counts when its package fills
// the channel with tokens by a counting loop (for i := 0; i < n; i++,
// for range n) in the function that makes it with room, gives tokens back
// with a send made once, outside a loop, and never closes it; a channel
// filled by a loop over data is a queue of jobs, not of tokens.
//
// Shared by every spawn: the permit reaches the spawn through the
// spawner's receiver, parameters, captured variables or globals, the same
// object each time. One the goroutine makes itself bounds its sub-work;
// one the spawner makes, or obtains anew, on each trip round the spawning
// loop (a field of the element iterated, over a slice or a map) belongs
// to that spawn alone.
//
// First thing: the acquire is the goroutine's first blocking act (only
// bookkeeping such as logging, context derivation and defers comes
// before it, and no loop).
//
// Once per unit of work: the go statement, errgroup Go (on a group
// without SetLimit) or WaitGroup.Go runs in a loop over a channel, a
// slice, a map or an iterator (or counting, up to it or down from it,
// to a count the input decides: len(x), a variable set once to it, a
// parameter of an unexported function or method that every call in the
// package sets to len(x) and no interface of the package declares, a
// call of a function of any package whose body is return len(x) (q.Len(),
// known to importers as a fact; one returning a field, or a length on
// one path only, is a configured count), or a
// count parsed from text by strconv.Atoi, ParseInt or ParseUint, or
// scanned by fmt's Sscan family into a variable nothing else sets), in a loop
// with no fixed count, in a recursive function, in an HTTP handler, or
// in any function or callback that reaches the semaphore from outside.
// A parameter of an exported function counts nothing: its callers, out
// of view, may pass a worker count. A loop over a configured set (a slice
// or map held in a field, filled once from configuration: backends,
// repositories, wallets) is a loop over units of work: its size is the
// deployment's choice, and nothing in view ties it to the permit count.
// When the set is usually smaller than the permits, little parks; such a
// report is true but of low impact (validation set 36).
//
// Not reported: a spawn run a fixed number of times (a constant count,
// runtime.NumCPU(), a worker count, once in main, init or a test); a
// spawn loop paced by a clock, every trip waiting for a timer or ticker
// (for range tick.C, or a select on tick.C whose other cases return):
// its count is time, not demand, and it makes no burst; a
// long-lived goroutine that acquires per iteration of its own loop
// (pacing, not admission); a goroutine whose first blocking act is
// something else (a mutex, I/O, an unknown call); an acquire after which
// the goroutine only ends (no work, no release, nothing that waits
// before it returns): a permit held for nothing is the goroutine saying
// it is done, as a throttler's Done does on an early-exit path, and the
// pacing is the spawner's (validation set 13, release-sdk); a semaphore made inside
// the goroutine, or per iteration; an unbuffered channel (a hand-off, not
// a permit), or a wrapper sending on one (a pause or wake-up signal to a
// worker); a "release" that is a loop taking every value (a count of
// running handlers kept for shutdown); a spawner that waits for its
// goroutine before it can spawn again (one parked goroutine per waiting
// caller is no queue); a spawner that itself gives the permit back
// before each go statement, never taking one (it empties the slot the
// goroutine will fill, with or without waiting, and closes the stop
// channel it held): the goroutine's acquire finds room the spawner made,
// not an earlier goroutine's release, and the channel is a mailbox for
// the latest goroutine, not a bound (validation set 13, air); a spawn
// already admitted by another semaphore,
// whose permit is taken on every path to the wait and given back by the
// goroutine: by the spawner before the go statement (a send, a select
// case that sends, an Acquire or TryAcquire), or by the goroutine itself
// first (a select that sends, whose default returns): the goroutines
// parked inside are no more than that semaphore admits; and, unless
// -lateacquire.strict is set, a
// non-blocking try inside the goroutine (TryAcquire, Allow, a select with
// a default), which refuses promptly but still creates a goroutine per
// unit.
//
// One report per acquire: when several spawns reach the same acquire (one
// closure or function started by two loops), it is one cause with one
// fix, so it is reported once, naming each spawn's unit, with every go
// statement as a related position.
//
// When the goroutine is a function literal that begins with the acquire as
// a statement of its own (sem <- struct{}{}, sem.Acquire(ctx, 1) with its
// error unused), a suggested fix moves the acquire before the go
// statement and leaves the release in the goroutine. No fix is offered
// when the spawning function still holds a mutex at the spawn (c.mu.Lock();
// defer c.mu.Unlock(); for … { go … }): moved there, a blocking acquire
// would wait for a permit with the lock held, stalling every other taker
// of the lock, and deadlocking if the goroutines holding permits need it
// too. The report names the Lock as a related position instead: acquire
// once it is unlocked, or try without waiting (validation set 26, OLM's
// resolver cache). Nor is one offered when a task the spawning function
// runs starts more tasks through it (g.Go(func() error { … g.Go(…) …
// }) in the package): moved before the spawn, the acquire would wait in
// a task holding a permit, and tasks all waiting so never finish. The
// report names the nested call instead; a limit per level, or an
// acquire in the loop that starts the leaves, is the fix. For the same
// reason none is offered when the goroutine runs a task the spawner
// was given and the spawner is exported: whether other packages' tasks
// start more is out of view (validation set 34, a backup check's file
// tasks started, in another package, from its replica-set tasks).
//
// Across functions and packages: wrappers that take a permit and return
// holding it are found in any package (a fact on the function), and so
// are the goroutine's first calls in its own package, followed to their
// first blocking act, generic or not (an instance of a generic function,
// go handle(v, out) with handle[T any], runs its generic code, reported
// at its lines); a count passed as a parameter is followed to the
// calls in the package, and a length another package computes (a
// function whose body is return len(x)) is one as a fact. A spawning
// helper of another module is one too: an exported function that starts
// one goroutine per call, outside any loop and without waiting for it,
// whose first act waits on a semaphore its caller passes as a parameter
// (not the receiver's own), with nothing else admitting the goroutine, is
// the spawn in view; its calls are reported where the caller runs them
// once per unit of work with one semaphore for all (the model above, the
// call in place of the go statement), unless the caller takes another
// permit before the call, gives permits back itself, or waits for each
// goroutine (on a channel or WaitGroup the helper's goroutine signals,
// passed as a parameter) before the next call. A helper of the caller's
// own module is reported once, at its acquire, where the fix belongs.
// Not yet: a count another package parses behind a call, a count read
// from a decoded struct (as often a configured worker count as a number
// of records), and a helper that passes its semaphore parameter on to
// another package's spawning helper.
//
// Flags: -lateacquire.funcs=importpath.Type.Method,importpath.Func names
// more functions that wait for a permit and return holding it (a wrapper
// the pass cannot see through); -lateacquire.strict also reports
// non-blocking tries.
package lateacquire

import _ "embed"

//go:embed doc.go
var doc string
