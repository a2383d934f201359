package basic

// A runner takes two semaphores per job: one per kind of job, and one
// shared by all kinds.
type runner struct {
	shared chan struct{}
	local  chan struct{}
}

func newRunner() *runner {
	return &runner{shared: make(chan struct{}, 4), local: make(chan struct{}, 2)}
}

// ok: each spawn is admitted by the kind's own semaphore, tried before
// the go statement and given back by the goroutine, so the goroutines
// parked on the shared one are at most as many as the first admits
// (fzf's background actions).
func (r *runner) runAdmitted(jobs []func()) {
	for _, job := range jobs {
		select {
		case r.local <- struct{}{}:
		default:
			return
		}
		go func() {
			r.shared <- struct{}{}
			job()
			<-r.local
			<-r.shared
		}()
	}
}

// The twin: the goroutine never gives the first permit back, so that send
// was not an admission for it, and each job parks a goroutine on shared.
func (r *runner) runCounted(jobs []func()) {
	for _, job := range jobs {
		select {
		case r.local <- struct{}{}:
		default:
		}
		go func() {
			r.shared <- struct{}{} // want `goroutine waits on r.shared`
			job()
			<-r.shared
		}()
	}
}

// An evaluator reloads state on every update, one evaluation at a time.
type evaluator struct {
	queue chan struct{} // one evaluation may wait its turn
	lock  chan struct{} // the evaluation running
}

func newEvaluator() *evaluator {
	return &evaluator{queue: make(chan struct{}, 1), lock: make(chan struct{}, 1)}
}

func (e *evaluator) evaluate() {
	e.lock <- struct{}{}
	defer func() { <-e.lock }()
	<-e.queue
	reload()
}

func reload() {}

// ok: each update's goroutine first tries the queue and returns at once
// when an evaluation is already waiting, so a burst of updates parks at
// most one goroutine on lock (dapr's reminders).
func (e *evaluator) onUpdates(updates <-chan int) {
	for range updates {
		go func() {
			select {
			case e.queue <- struct{}{}:
			default:
				return
			}
			e.evaluate()
		}()
	}
}

// The twin: a full queue does not stop the goroutine, so every update
// parks one on lock.
func (e *evaluator) onUpdatesAnyway(updates <-chan int) {
	for range updates {
		go func() {
			select {
			case e.queue <- struct{}{}:
			default:
			}
			e.evaluate() // want `goroutine waits on e.lock in e.evaluate before doing any work`
		}()
	}
}
