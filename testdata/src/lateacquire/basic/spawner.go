package basic

// Shape 11c: a helper that spawns once per call, given the semaphore as
// a parameter, called once per element by its caller's loop.
func startLimited(sem chan struct{}, job func()) {
	go func() {
		sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per call of startLimited — acquire before the go statement`
		defer func() { <-sem }()
		job()
	}()
}

func runLimited(jobs []func()) {
	sem := make(chan struct{}, 4)
	for _, job := range jobs {
		startLimited(sem, job)
	}
}

// ok: the twin that takes the permit in the caller's loop, before the
// helper spawns.
func startHolding(sem chan struct{}, job func()) {
	go func() {
		defer func() { <-sem }()
		job()
	}()
}

func runHolding(jobs []func()) {
	sem := make(chan struct{}, 4)
	for _, job := range jobs {
		sem <- struct{}{}
		startHolding(sem, job)
	}
}
