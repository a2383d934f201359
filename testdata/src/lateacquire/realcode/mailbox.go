package realcode

// A rebuilder runs one build per batch of changes; a new build stops the
// one before it through the stop channel that one left in running.
type rebuilder struct {
	running chan chan struct{} // capacity one: the current build's stop channel
}

func newRebuilder() *rebuilder {
	return &rebuilder{running: make(chan chan struct{}, 1)}
}

// nope: before each spawn the loop takes the last build's stop channel
// out of running (without waiting) and closes it, so the new goroutine's
// send always finds the slot empty: no build waits for an earlier one,
// and running is a mailbox for the current build, not a bound.
func (r *rebuilder) watch(changes <-chan string) {
	for range changes {
		select {
		case stop := <-r.running:
			close(stop)
		default:
		}
		go r.build()
	}
}

func (r *rebuilder) build() {
	stop := make(chan struct{})
	r.running <- stop
	defer func() { <-r.running }()
	select {
	case <-stop:
	default:
		process(0)
	}
}

// The same goroutine spawned by a loop that leaves the slot to the
// running build: each change parks a goroutine until the builds before
// it finish.
func (r *rebuilder) watchQueued(changes <-chan string) {
	for range changes {
		go r.buildQueued()
	}
}

func (r *rebuilder) buildQueued() {
	stop := make(chan struct{})
	r.running <- stop // want `goroutine waits on r.running before doing any work; one goroutine parks per value received from changes`
	defer func() { <-r.running }()
	process(0)
	close(stop)
}
