// Package basic is the specification of lateacquire: each wrong shape,
// marked with its expected diagnostic, sits next to its closest right
// twin, marked ok or nope.
package basic

import (
	"context"
	"runtime"
	"strconv"
	"sync"
)

type Job struct{ ID int }

func process(j Job) {}

// A channel semaphore acquired inside the goroutine, per value received.
func rangeChannel(jobs <-chan Job, sem chan struct{}) {
	for j := range jobs {
		go func() {
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per value received from jobs — acquire before the go statement`
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// ok: the same loop acquiring before the go statement: the loop waits.
func rangeChannelGood(jobs <-chan Job, sem chan struct{}) {
	for j := range jobs {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// Per element of a slice; the goroutine takes the job as a parameter.
func rangeSlice(items []Job) {
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func(j Job) {
			defer wg.Done()
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per element of items`
			defer func() { <-sem }()
			process(j)
		}(it)
	}
	wg.Wait()
}

// nope: a semaphore made per iteration is not shared by the spawns.
func rangeSliceOwnSem(items []Job) {
	for _, it := range items {
		sem := make(chan struct{}, 1)
		go func() {
			sem <- struct{}{} // nope: each goroutine has its own semaphore
			defer func() { <-sem }()
			process(it)
		}()
	}
}

// Per entry of a map.
func rangeMap(m map[string]Job, sem chan struct{}) {
	for _, j := range m {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per entry of m`
			process(j)
			<-sem
		}()
	}
}

// Per value of an iterator (range over func).
func rangeFunc(seq func(yield func(Job) bool), sem chan struct{}) {
	for j := range seq {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per value from seq`
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// Per element, counted with len.
func countedByLen(items []Job, sem chan struct{}) {
	for i := 0; i < len(items); i++ {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per element of items`
			defer func() { <-sem }()
			process(items[i])
		}()
	}
}

// nope: a constant number of spawns is bounded by the code, not the input.
func constantCount(sem chan struct{}, jobs <-chan Job) {
	for i := 0; i < 4; i++ {
		go func() {
			sem <- struct{}{} // nope: four goroutines, whatever the load
			defer func() { <-sem }()
			process(<-jobs)
		}()
	}
}

// nope: range over a constant: also a fixed count.
func constantRange(sem chan struct{}) {
	for i := range 3 {
		go func() {
			sem <- struct{}{} // nope: three goroutines
			defer func() { <-sem }()
			process(Job{i})
		}()
	}
}

// nope: a pool sized by the CPUs or a worker count is fixed too.
func cpuPool(sem chan struct{}, workers int) {
	for i := 0; i < runtime.NumCPU(); i++ {
		go func() {
			sem <- struct{}{} // nope: one per CPU
			<-sem
		}()
	}
	for i := 0; i < workers; i++ {
		go func() {
			sem <- struct{}{} // nope: a configured pool
			<-sem
		}()
	}
}

// nope: a list written out in the source is a fixed count.
func fixedList(sem chan struct{}) {
	for _, name := range []string{"a", "b"} {
		go func() {
			sem <- struct{}{} // nope: two goroutines
			defer func() { <-sem }()
			_ = name
		}()
	}
}

// An unbounded loop, such as an accept loop, spawning per iteration.
func acceptLoop(ctx context.Context, next func() Job, sem chan struct{}) {
	for {
		j := next()
		go func() {
			sem <- struct{}{} // want `one goroutine parks per iteration of the loop`
			defer func() { <-sem }()
			process(j)
		}()
	}
}

// nope: a fixed pool of long-lived workers, each acquiring per job inside
// its own loop, is pacing, not admission.
func workerPool(jobs <-chan Job, sem chan struct{}) {
	for i := 0; i < 8; i++ {
		go func() {
			for j := range jobs {
				sem <- struct{}{} // nope: inside the worker's loop
				process(j)
				<-sem
			}
		}()
	}
}

// nope: even spawned per unit, a goroutine whose first act is a loop does
// work before it acquires.
func loopFirst(items [][]Job, sem chan struct{}) {
	for _, batch := range items {
		go func() {
			n := 0
			for range batch {
				n++
			}
			sem <- struct{}{} // nope: the goroutine has looped over its batch first
			defer func() { <-sem }()
			_ = n
		}()
	}
}

// Per unit of a count parsed from the input.
func parsedCount(s string, sem chan struct{}) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return
	}
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per unit of n, parsed by strconv.Atoi`
			defer func() { <-sem }()
			process(Job{i})
		}()
	}
}

// Per element, counted by a parameter every caller sets to a length.
func spawnN(n int, items []Job, sem chan struct{}) {
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per element of items its callers pass the length of`
			defer func() { <-sem }()
			process(items[i])
		}()
	}
}

func processAll(items []Job, sem chan struct{}) {
	spawnN(len(items), items, sem)
}

// nope: a parameter its callers set to a constant: a fixed pool.
func spawnWorkers(n int, sem chan struct{}, jobs <-chan Job) {
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // nope: four workers, whatever the load
			defer func() { <-sem }()
			process(<-jobs)
		}()
	}
}

func startWorkers(sem chan struct{}, jobs <-chan Job) {
	spawnWorkers(4, sem, jobs)
}

// nope: an exported function's callers are out of view: the count may
// be a configured pool.
func SpawnPool(n int, sem chan struct{}, jobs <-chan Job) {
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // nope: its callers decide
			defer func() { <-sem }()
			process(<-jobs)
		}()
	}
}

// A Fanout sends each request to every configured backend: its backends
// are set once, from configuration, and its worker count too.
type Fanout struct {
	backends []string
	workers  int
	sem      chan struct{}
}

// A loop over a configured set is one spawn per unit of work: how many
// backends there are is the deployment's choice, not the code's, and
// nothing ties it to the permit count (a search server's hundreds of
// configured repositories on two indexers, validation set 31). A set
// that is usually smaller than the permits still parks one goroutine
// per backend beyond them, on every call.
func (f *Fanout) Send(req Job) {
	for _, b := range f.backends {
		go func() {
			f.sem <- struct{}{} // want `one goroutine parks per element of f.backends`
			defer func() { <-f.sem }()
			_ = b
			process(req)
		}()
	}
}

// nope: its twin counts to the configured worker count: a pool whose
// size is the permit's business, not the load's.
func (f *Fanout) Start(jobs <-chan Job) {
	for i := 0; i < f.workers; i++ {
		go func() {
			f.sem <- struct{}{} // nope: a configured pool
			defer func() { <-f.sem }()
			process(<-jobs)
		}()
	}
}
