package realcode

// A throttle paces a batch of jobs: the spawner calls wait after each
// spawn, and each job calls done when it ends.
type throttle struct {
	max, running int
	doneCh       chan error
}

func newThrottle(max, total int) *throttle {
	return &throttle{max: max, doneCh: make(chan error, total)}
}

// done tells the throttle that a job has ended.
func (t *throttle) done(err error) { t.doneCh <- err }

// wait makes the spawner wait for a job to end once max of them run.
func (t *throttle) wait() {
	t.running++
	if t.running == t.max {
		<-t.doneCh
		t.running--
	}
}

// nope: a job that fails its first check calls done and returns: done
// is its last act, a signal that it has ended, not a permit held for
// work (the spawner's wait is what paces the batch).
func checkAll(reqs []Request, t *throttle) {
	for _, r := range reqs {
		go func() {
			if r.ID < 0 {
				t.done(nil)
				return
			}
			process(r.ID)
			t.done(nil)
		}()
		t.wait()
	}
}

// The twin whose jobs call done first thing and work after it: done's
// send then waits for room in doneCh before the work, and a burst parks
// one goroutine per request there.
func checkAllEager(reqs []Request, t *throttle) {
	for _, r := range reqs {
		go func() {
			t.done(nil) // want `goroutine waits in t.done before doing any work; one goroutine parks per element of reqs`
			process(r.ID)
		}()
	}
}
