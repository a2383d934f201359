// Package jobs holds workers that send on a channel field of the job
// they are given, for a package that imports it: their summaries cross
// as facts, by parameter and field.
package jobs

import "context"

// A Job is answered on Out.
type Job struct {
	ID  int
	Out chan int
}

// Work answers the job on its Out field, plainly.
func Work(j *Job) { // want Work:`sendsum\(param 0.Out: 1 \(jobs.go:16\)\)`
	j.Out <- j.ID * 2
}

// Run is Work as a method.
func (j *Job) Run() { // want Run:`sendsum\(param 0.Out: 1 \(jobs.go:21\)\)`
	j.Out <- j.ID
}

// WorkCtx gives up when ctx is done: no plain send, but a fact that
// says so: the job is answered in view.
func WorkCtx(ctx context.Context, j *Job) { // want WorkCtx:`sendsum\(param 1.Out: no plain send \(jobs.go:28\)\)`
	select {
	case j.Out <- j.ID:
	case <-ctx.Done():
	}
}

var kept []*Job

// Keep hands the job to whoever reads kept: out of view, no fact.
func Keep(j *Job) {
	kept = append(kept, j)
}

// A Reply is a value carrying its channel.
type Reply struct {
	Ch chan<- string
}

// Answer answers on the reply it is given, a struct value.
func Answer(r Reply, s string) { // want Answer:`sendsum\(param 0.Ch: 1 \(jobs.go:47\)\)`
	r.Ch <- s
}
