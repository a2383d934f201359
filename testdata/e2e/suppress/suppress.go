package suppress

var sem = make(chan struct{}, 8)

func work(job string) {}

// Silenced: a directive on the line above, with a reason.
func Silenced(jobs <-chan string) {
	for job := range jobs {
		go func() {
			//admitlint:ignore lateacquire jobs is fed by a bounded producer
			sem <- struct{}{}
			defer func() { <-sem }()
			work(job)
		}()
	}
}

// NoReason: a directive without a reason is malformed and silences nothing.
func NoReason(jobs <-chan string) {
	for job := range jobs {
		go func() {
			sem <- struct{}{} //admitlint:ignore lateacquire
			defer func() { <-sem }()
			work(job)
		}()
	}
}

// Stale: the directive names lateacquire but nothing here is a finding.
func Stale(jobs <-chan string) {
	for job := range jobs {
		sem <- struct{}{}
		//admitlint:ignore lateacquire acquired before the go statement now
		go func() {
			defer func() { <-sem }()
			work(job)
		}()
	}
}
