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
