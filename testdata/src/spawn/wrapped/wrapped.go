// Package wrapped holds spawning wrappers, whose starts their callers
// make one call removed, and helpers that are not such wrappers.
package wrapped

func produce(out chan<- int, n int) { out <- n }

// A wrapper: one go statement of a named function, with its parameters.
func start(out chan<- int, n int) { go produce(out, n) }

type watcher struct{ n int }

func (w *watcher) watch(out chan<- int) { out <- w.n }

// A method wrapper: the receiver is handed over too.
func (w *watcher) start(out chan<- int) { go w.watch(out) }

// A constant argument is kept as it is.
func startOne(out chan<- int) { go produce(out, 1) }

// Not wrappers: a start per trip round a loop, a closure, a parameter
// also used by the helper, a computed argument, two starts.
func startEach(out chan<- int, ns []int) {
	for _, n := range ns {
		go produce(out, n)
	}
}

func startClosure(out chan<- int) { go func() { produce(out, 0) }() }

func startAndSend(out chan<- int) {
	go produce(out, 1)
	out <- 2
}

func startComputed(out chan<- int, n int) { go produce(out, n*2) }

func startTwice(out chan<- int) {
	go produce(out, 1)
	go produce(out, 2)
}

func callers(ch chan<- int, w *watcher, ns []int) {
	start(ch, 3) // want `wrapper starts produce with \[ch 3:int\]`
	w.start(ch)  // want `wrapper starts watch with \[w ch\]`
	startOne(ch) // want `wrapper starts produce with \[ch 1:int\]`
	startEach(ch, ns)
	startClosure(ch)
	startAndSend(ch)
	startComputed(ch, 4)
	startTwice(ch)
}
